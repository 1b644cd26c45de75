//! Alpha-beta over the cards, driven by zero-window searches (MTD(f)).

use jass_engine::{Card, CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Team, Trick, legal_cards, tables};

use crate::Position;
use crate::order;
use crate::table::{Bound, Table};

/// What solving cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (one per card tried).
    pub nodes: u64,
    /// Zero-window searches run.
    pub searches: u64,
}

/// One solve: the fixed facts of the position and the table it fills.
pub(crate) struct Search<'a> {
    contract: Contract,
    points: &'static [u8; 36],
    /// The team whose points are maximised.
    max: Team,
    match_bonus: bool,
    hands: [CardSet; 4],
    root: Trick,
    taken: [bool; 2],
    table: &'a mut Table,
    stats: &'a mut Stats,
}

/// The point value of a set of cards.
fn sum(points: &[u8; 36], cards: CardSet) -> i32 {
    cards.iter().map(|c| i32::from(points[c.index()])).sum()
}

/// `pos` after `card` (of the seat to move), and the points `team` took with it if
/// it completed a trick.
pub(crate) fn play(pos: &Position, card: Card, team: Team) -> (Position, u32) {
    let seat = pos.to_move();
    let mut next = *pos;
    next.hands[seat.index()] = pos.hands[seat.index()].without(card);
    next.trick.push(card);
    if !next.trick.is_complete() {
        return (next, 0);
    }
    let points = &tables(pos.contract, pos.old_undenufe).points;
    let Some(winner) = next.trick.winner(pos.contract) else { return (next, 0) };
    let last = next.cards_left() == 0;
    let mut gained = sum(points, next.trick.set()) as u32;
    if last {
        gained += LAST_TRICK_BONUS;
        let other = pos.tricks_won[1 - winner.team().index()];
        if pos.match_bonus && other == 0 {
            gained += MATCH_BONUS;
        }
    }
    if let Some(t) = next.tricks_won.get_mut(winner.team().index()) {
        *t += 1;
    }
    next.trick = Trick::new(winner);
    (next, if winner.team() == team { gained } else { 0 })
}

impl<'a> Search<'a> {
    pub(crate) fn new(pos: &Position, max: Team, table: &'a mut Table, stats: &'a mut Stats) -> Self {
        Self {
            contract: pos.contract,
            points: &tables(pos.contract, pos.old_undenufe).points,
            max,
            match_bonus: pos.match_bonus,
            hands: pos.hands,
            root: pos.trick,
            taken: [pos.tricks_won[0] > 0, pos.tricks_won[1] > 0],
            table,
            stats,
        }
    }

    /// The most `max` can take from here: every card still out, the last trick, and
    /// the match bonus while the other team has taken nothing.
    fn ceiling(&self, trick: &Trick, taken: [bool; 2]) -> i32 {
        let out = self.hands.iter().fold(trick.set().bits(), |a, h| a | h.bits());
        let mut c = sum(self.points, CardSet::from_bits(out)) + LAST_TRICK_BONUS as i32;
        if self.match_possible(taken) {
            c += MATCH_BONUS as i32;
        }
        c
    }

    fn match_possible(&self, taken: [bool; 2]) -> bool {
        self.match_bonus && !taken[1 - self.max.index()]
    }

    /// The exact value, by zero-window searches converging on it.
    pub(crate) fn mtdf(&mut self) -> u32 {
        let root = self.root;
        let taken = self.taken;
        let (mut lower, mut upper) = (0, self.ceiling(&root, taken));
        // The first guess: the points of one line of play where every seat plays its
        // best-ordered card; MTD(f) needs fewer searches the closer it starts.
        let mut g = self.greedy(root, taken).clamp(lower, upper);
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            self.stats.searches += 1;
            g = self.alpha_beta(root, taken, beta - 1, beta);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        u32::try_from(g).unwrap_or(0)
    }

    /// The points `max` takes if every seat plays the first card of its move order.
    fn greedy(&mut self, mut trick: Trick, mut taken: [bool; 2]) -> i32 {
        let saved = self.hands;
        let mut total = 0;
        loop {
            let seat = trick.next_seat();
            let hand = self.hands[seat.index()];
            if hand.is_empty() {
                break;
            }
            let legal = legal_cards(hand, &trick, self.contract);
            let live = self.hands.iter().fold(trick.set().bits(), |a, h| a | h.bits());
            let moves =
                order::moves(self.contract, self.points, hand, legal, CardSet::from_bits(live), &trick);
            let Some(&card) = moves.first() else { break };
            self.hands[seat.index()] = hand.without(card);
            trick.push(card);
            if trick.is_complete() {
                let Some(winner) = trick.winner(self.contract) else { break };
                let last = self.hands.iter().all(|h| h.is_empty());
                if winner.team() == self.max {
                    total += sum(self.points, trick.set()) + if last { LAST_TRICK_BONUS as i32 } else { 0 };
                    if last && self.match_possible(taken) {
                        total += MATCH_BONUS as i32;
                    }
                }
                taken[winner.team().index()] = true;
                trick = Trick::new(winner);
            }
        }
        self.hands = saved;
        total
    }

    /// Fail-soft alpha-beta: the points `max` takes from this trick on (its cards on
    /// the table included), or a bound on them outside `(alpha, beta)`.
    fn alpha_beta(&mut self, trick: Trick, taken: [bool; 2], mut alpha: i32, mut beta: i32) -> i32 {
        let seat = trick.next_seat();
        let hand = self.hands[seat.index()];
        if hand.is_empty() {
            return 0;
        }
        let key = trick.is_empty().then(|| self.key(&trick, taken));
        if let Some(k) = key {
            let ceiling = self.ceiling(&trick, taken);
            if ceiling <= alpha {
                return ceiling;
            }
            if let Some(Bound { lower, upper }) = self.table.get(k) {
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let legal = legal_cards(hand, &trick, self.contract);
        let live = self.hands.iter().fold(trick.set().bits(), |a, h| a | h.bits());
        let moves = order::moves(self.contract, self.points, hand, legal, CardSet::from_bits(live), &trick);
        let maximising = seat.team() == self.max;
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        for card in moves {
            self.stats.nodes += 1;
            self.hands[seat.index()] = hand.without(card);
            let mut next = trick;
            next.push(card);
            let v = if next.is_complete() {
                self.after_trick(next, taken, alpha, beta)
            } else {
                self.alpha_beta(next, taken, alpha, beta)
            };
            self.hands[seat.index()] = hand;
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if let Some(k) = key {
            let bound = if best <= alpha0 {
                Bound { lower: 0, upper: best }
            } else if best >= beta0 {
                Bound { lower: best, upper: i32::MAX }
            } else {
                Bound { lower: best, upper: best }
            };
            self.table.put(k, bound);
        }
        best
    }

    /// Scores a complete trick for `max` and searches on from its winner's lead.
    fn after_trick(&mut self, trick: Trick, taken: [bool; 2], alpha: i32, beta: i32) -> i32 {
        let Some(winner) = trick.winner(self.contract) else {
            debug_assert!(false, "a complete trick has a winner");
            return 0;
        };
        let team = winner.team();
        let mut taken_after = taken;
        taken_after[team.index()] = true;
        let last = self.hands.iter().all(|h| h.is_empty());
        let mut gained = sum(self.points, trick.set());
        if last {
            gained += LAST_TRICK_BONUS as i32;
            if self.match_bonus && !taken[1 - team.index()] {
                gained += MATCH_BONUS as i32;
            }
        }
        if team != self.max {
            gained = 0;
        }
        if last {
            return gained;
        }
        gained + self.alpha_beta(Trick::new(winner), taken_after, alpha - gained, beta - gained)
    }

    /// The table key of a trick boundary: the cards still out (the hands are fixed for
    /// the solve, so they say who holds what), the leader, and whether `max` can still
    /// make a match.
    fn key(&self, trick: &Trick, taken: [bool; 2]) -> u64 {
        let out = self.hands.iter().fold(0, |a, h| a | h.bits());
        out | (trick.leader().index() as u64) << 36 | u64::from(self.match_possible(taken)) << 38
    }
}
