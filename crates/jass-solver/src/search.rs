//! Alpha-beta over the cards, driven by zero-window searches (MTD(f)).

#![expect(
    clippy::indexing_slicing,
    reason = "seats are 0..4 (from `Seat::index` or masked with `& 3`), teams 0..2 (`% 2`, `1 - team`), cards are below 36 (a set bit of a 36-card hand, or a move list's entry), and the move and done lists are filled to at most nine; this is the solver's node loop, whose instructions are measured (docs/benchmarks.md), and a checked form would add a compare and branch to every access"
)]

use jass_engine::{Card, LAST_TRICK_BONUS, MATCH_BONUS, Team, Trick, tables};

use crate::order::{self, NO_CARD};
use crate::position::Position;
use crate::rules::{Rules, SUIT_MASK, compress, rules};
use crate::table::{Bound, Table};
use crate::trick::{Cur, advance, legal_mask};

/// What solving cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (one per card tried) before the last two tricks, whose
    /// lines are valued without a search.
    pub nodes: u64,
    /// Zero-window searches run.
    pub searches: u64,
}

pub(crate) const LAST: i32 = LAST_TRICK_BONUS as i32;
/// Killer slots per cards left and seat: the lead's, and mid-trick's by suit led,
/// winning seat and whether the trick is held.
const KILLER_KINDS: usize = 1 + 4 * 4 * 2;
const KILLERS: usize = 37 * 4 * KILLER_KINDS;
pub(crate) const MATCH: i32 = MATCH_BONUS as i32;

/// One solve: the fixed facts of the position and the table it fills.
pub(crate) struct Search<'a> {
    pub(crate) rules: &'static Rules,
    /// The team whose points are maximised (0 or 1).
    pub(crate) max: usize,
    pub(crate) match_bonus: bool,
    pub(crate) hands: [u64; 4],
    /// The card points still in the hands.
    pub(crate) rem: i32,
    /// The cards still in the hands.
    pub(crate) left: u32,
    pub(crate) root: Cur,
    pub(crate) taken: [bool; 2],
    /// The fixed part of every table key: contract reading, team maximised.
    pub(crate) key_base: u128,
    pub(crate) table: &'a mut Table,
    pub(crate) stats: &'a mut Stats,
    /// The card that last cut off a search of a like position (`killer_slot`): the
    /// killer heuristic. The card that refuted a sibling line often refutes this one
    /// (it goes after the table's best lead; 20 cards: 29 % fewer nodes, 24 cards: 41 %).
    pub(crate) killers: [u8; KILLERS],
    /// `stats.nodes` at which the solve gives up ([`Search::with_limit`]).
    pub(crate) limit: u64,
    /// Whether it gave up: every value since is meaningless and none is stored.
    pub(crate) aborted: bool,
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
    let mut gained: u32 = next.trick.cards().map(|c| u32::from(points[c.index()])).sum();
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
        let rules = rules(pos.contract, pos.old_undenufe);
        let hands = pos.hands.map(|h| rules.to_int_mask(h.bits()));
        let rem = hands.iter().map(|&h| points_of(rules, h)).sum();
        let mut root = Cur::new(pos.trick.leader().index() as u8);
        for card in pos.trick.cards() {
            advance(rules, &mut root, rules.to_int(card.index()));
        }
        table.next_solve(hands.iter().map(|h| h.count_ones()).sum());
        Self {
            rules,
            max: max.index(),
            match_bonus: pos.match_bonus,
            hands,
            rem,
            left: hands.iter().map(|h| h.count_ones()).sum(),
            root,
            taken: [pos.tricks_won[0] > 0, pos.tricks_won[1] > 0],
            key_base: u128::from(rules.variant) << 120 | (max.index() as u128) << 123,
            table,
            stats,
            killers: [NO_CARD; KILLERS],
            limit: u64::MAX,
            aborted: false,
        }
    }

    /// Gives up once `stats.nodes` passes `limit`: a caller with a budget of work
    /// (a computer player's per decision) bounds a solve it cannot predict. What the
    /// table holds stays exact: only whole subtrees are stored, and nothing after.
    pub(crate) const fn with_limit(mut self, limit: u64) -> Self {
        self.limit = limit;
        self
    }

    /// Where the killer of a position is kept: per cards left and seat to move, and
    /// mid-trick also per suit led, which earlier seat's card holds the trick and
    /// whether a seat still to play can beat it (`held`).
    #[inline]
    fn killer_slot(&self, cur: &Cur, seat: usize, held: bool) -> usize {
        let at = self.left as usize * 4 + seat;
        if cur.len == 0 {
            return at * KILLER_KINDS;
        }
        let winner = usize::from(cur.win + 4 - seat as u8) & 3;
        at * KILLER_KINDS + (usize::from(cur.led) * 4 + winner) * 2 + usize::from(held) + 1
    }

    pub(crate) fn match_possible(&self, taken: [bool; 2]) -> bool {
        self.match_bonus && !taken[1 - self.max]
    }

    /// The most `max` can take from here: every card still out, the last trick, and
    /// the match bonus while the other team has taken nothing.
    #[inline]
    fn ceiling(&self, cur: &Cur, taken: [bool; 2]) -> i32 {
        cur.points + self.rem + LAST + if self.match_possible(taken) { MATCH } else { 0 }
    }

    /// Whether `max` takes at least `beta` from the root: one zero-window search, far
    /// cheaper than the exact value when the answer is no.
    pub(crate) fn at_least(&mut self, beta: u32) -> bool {
        let beta = i32::try_from(beta).unwrap_or(i32::MAX);
        let (root, taken) = (self.root, self.taken);
        if beta > self.ceiling(&root, taken) {
            return false;
        }
        self.stats.searches += 1;
        self.alpha_beta(root, taken, beta - 1, beta) >= beta
    }

    /// The legal cards of the seat to move at the root, in search order, equivalent
    /// cards once.
    pub(crate) fn root_moves(&self) -> Vec<u8> {
        let cur = self.root;
        let seat = usize::from((cur.leader + cur.len) & 3);
        let legal = self.legal(self.hands[seat], &cur);
        let moves = order::moves(self.rules, &self.hands, legal, &cur, seat, false);
        (0..9).map_while(|i| moves.get(i)).map(|c| self.rules.to_ext[usize::from(c)]).collect()
    }

    /// The exact value, by zero-window searches converging on it.
    pub(crate) fn mtdf(&mut self, guess: Option<u32>) -> u32 {
        self.narrow(guess, None).0
    }

    /// Bounds `(lower, upper)` on the value, by zero-window searches: equal once it is
    /// known, or, with a `floor`, as soon as the value is shown to be below it (the
    /// first search tests the floor, so a value far below costs one). When the
    /// search is cut short by its limit, what the searches before had shown.
    pub(crate) fn narrow(&mut self, guess: Option<u32>, floor: Option<u32>) -> (u32, u32) {
        let root = self.root;
        let taken = self.taken;
        let (mut lower, mut upper) = (0, self.ceiling(&root, taken));
        let floor = floor.map(|f| i32::try_from(f).unwrap_or(i32::MAX));
        // The first test, if the caller gives neither floor nor guess: the points of
        // one line of play where every seat plays its best-ordered card; fewer
        // searches the closer it is.
        let first_test = match (floor, guess) {
            (Some(f), _) => f,
            (None, Some(g)) => i32::try_from(g).unwrap_or(0),
            (None, None) => self.greedy(root, taken),
        };
        let mut g = first_test.clamp(lower, upper);
        let mut first = true;
        while lower < upper && floor.is_none_or(|f| upper >= f) {
            // The first test is at the guess; then bisection: with point values the
            // fail-soft bounds close in by a few points a search, halving is faster
            // (24 cards: 6 searches instead of 19, a fifth fewer nodes).
            let beta = if first { g.max(lower + 1) } else { (lower + upper + 1) / 2 };
            first = false;
            self.stats.searches += 1;
            g = self.alpha_beta(root, taken, beta - 1, beta);
            if self.aborted {
                break;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        (u32::try_from(lower).unwrap_or(0), u32::try_from(upper).unwrap_or(0))
    }

    /// The points `max` takes if every seat plays the first card of its move order.
    fn greedy(&mut self, mut cur: Cur, mut taken: [bool; 2]) -> i32 {
        let saved = (self.hands, self.rem, self.left);
        let mut total = 0;
        loop {
            let seat = usize::from((cur.leader + cur.len) & 3);
            let hand = self.hands[seat];
            if hand == 0 {
                break;
            }
            let legal = self.legal(hand, &cur);
            let moves = order::moves(self.rules, &self.hands, legal, &cur, seat, false);
            let Some(card) = moves.get(0) else { break };
            self.hands[seat] &= !(1u64 << card);
            self.rem -= i32::from(self.rules.points[usize::from(card)]);
            self.left -= 1;
            advance(self.rules, &mut cur, usize::from(card));
            if cur.len == 4 {
                let (gained, winner) = self.score_trick(&cur, taken);
                total += gained;
                taken[usize::from(winner) % 2] = true;
                cur = Cur::new(winner);
            }
        }
        (self.hands, self.rem, self.left) = saved;
        total
    }

    /// The legal cards of `hand` (R5), as `jass_engine::legal_cards` finds them (the
    /// tests compare both).
    #[inline]
    fn legal(&self, hand: u64, cur: &Cur) -> u64 {
        legal_mask(self.rules, hand, cur)
    }

    /// What a complete trick gives `max` (card points, the last trick, the match), and
    /// its winner.
    #[inline]
    pub(crate) fn score_trick(&self, cur: &Cur, taken: [bool; 2]) -> (i32, u8) {
        let team = usize::from(cur.win) % 2;
        if team != self.max {
            return (0, cur.win);
        }
        let mut gained = cur.points;
        if self.left == 0 {
            gained += LAST;
            if self.match_possible(taken) {
                gained += MATCH;
            }
        }
        (gained, cur.win)
    }

    /// Fail-soft alpha-beta: the points `max` takes from this trick on (its cards on
    /// the table included), or a bound on them outside `(alpha, beta)`.
    fn alpha_beta(&mut self, cur: Cur, taken: [bool; 2], mut alpha: i32, mut beta: i32) -> i32 {
        let seat = usize::from((cur.leader + cur.len) & 3);
        let hand = self.hands[seat];
        if hand == 0 {
            return 0;
        }
        if beta <= 0 {
            return 0;
        }
        let ceiling = self.ceiling(&cur, taken);
        if ceiling <= alpha {
            return ceiling;
        }
        if self.left + u32::from(cur.len) == 4 {
            return self.last_trick(cur, taken);
        }
        if self.left + u32::from(cur.len) <= 8 {
            if cur.len > 0 {
                return self.two_tricks(cur, taken, alpha, beta);
            }
            // Two tricks left: the exact value, once, kept in the table; every later
            // search of this position (other windows, other solves) reads it.
            let key = self.raw_key(cur.leader, self.match_possible(taken));
            if let Some(v) = self.table.get_end(key) {
                return v;
            }
            let v = self.two_trick_value(cur.leader, taken);
            self.table.put_end(key, v);
            return v;
        }
        let held = cur.len > 0 && !self.can_beat(&cur);
        if held {
            // The trick's winner is certain: its points go to that side, and if that
            // is the other side, so does any hope of the match.
            if usize::from(cur.win) % 2 == self.max {
                if cur.points >= beta {
                    return cur.points;
                }
            } else {
                let c = self.rem + LAST;
                if c <= alpha {
                    return c;
                }
            }
        }
        let mut key = 0;
        let mut first = NO_CARD;
        if cur.len == 0 {
            // The table first: most trick starts are answered there.
            key = self.key(cur.leader, self.match_possible(taken));
            let mut window = (alpha, beta);
            if let Some(Bound { lower, upper, best }) = self.table.get(key) {
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                window = (alpha.max(lower), beta.min(upper));
                first = self.held_relative(seat, best).unwrap_or(NO_CARD);
            }
            let (mut tricks, mut points) = self.sure_tricks(seat);
            if let Some((t2, p2)) = self.entry_tricks(seat)
                && (t2 > tricks || (t2 == tricks && p2 > points))
            {
                (tricks, points) = (t2, p2);
            }
            if tricks > 0 {
                let tricks_left = self.left / 4;
                if seat % 2 == self.max {
                    if tricks == tricks_left {
                        return self.rem + LAST + if self.match_possible(taken) { MATCH } else { 0 };
                    }
                    if points >= beta {
                        return points;
                    }
                } else {
                    if tricks == tricks_left {
                        return 0;
                    }
                    // The other side takes a trick: no match, and not these points.
                    let c = self.rem + LAST - points;
                    if c <= alpha {
                        return c;
                    }
                }
            }
            if let Some((holder, points)) = self.top_trumps()
                && holder != seat
            {
                if holder % 2 == self.max {
                    if points >= beta {
                        return points;
                    }
                } else {
                    let c = self.rem + LAST - points;
                    if c <= alpha {
                        return c;
                    }
                }
            }
            (alpha, beta) = window;
        }
        let (alpha0, beta0) = (alpha, beta);
        let legal = self.legal(hand, &cur);
        let slot = self.killer_slot(&cur, seat, held);
        let killer = self.killers.get(slot).copied().unwrap_or(NO_CARD);
        // The table's lead and the killer first; the other cards are ordered only if
        // neither cuts off (most cut-offs come from the first card searched).
        let mut pre = [first, killer];
        for k in 0..2 {
            if pre[k] == NO_CARD
                || (k == 1 && pre[1] == pre[0])
                || !order::listed(self.rules, &self.hands, legal, &cur, seat, held, pre[k])
            {
                pre[k] = NO_CARD;
            }
        }
        let mut moves = None;
        let maximising = seat % 2 == self.max;
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        let mut best_card = 0u8;
        let mut i = 0;
        // The cards searched here and their values, for `run_bound`.
        let mut done = [(NO_CARD, 0i32); 9];
        let mut n_done = 0;
        let others = cur.cards | self.hands.iter().fold(0, |a, h| a | h) & !hand;
        loop {
            let card = if i < 2 {
                i += 1;
                match pre[i - 1] {
                    NO_CARD => continue,
                    c => c,
                }
            } else {
                let m = moves
                    .get_or_insert_with(|| order::moves(self.rules, &self.hands, legal, &cur, seat, held));
                let Some(c) = m.get(i - 2) else { break };
                i += 1;
                if c == pre[0] || c == pre[1] {
                    continue;
                }
                c
            };
            if let Some(bound) = self.run_bound(&done[..n_done], card, others, maximising, alpha, beta) {
                best = if maximising { best.max(bound) } else { best.min(bound) };
                continue;
            }
            self.stats.nodes += 1;
            if self.stats.nodes > self.limit {
                self.aborted = true;
                return best;
            }
            let p = i32::from(self.rules.points[usize::from(card)]);
            self.hands[seat] = hand & !(1u64 << card);
            self.rem -= p;
            self.left -= 1;
            let mut next = cur;
            advance(self.rules, &mut next, usize::from(card));
            let v = if next.len == 4 {
                self.after_trick(&next, taken, alpha, beta)
            } else {
                self.alpha_beta(next, taken, alpha, beta)
            };
            self.hands[seat] = hand;
            self.rem += p;
            self.left += 1;
            if self.aborted {
                return best;
            }
            if let Some(d) = done.get_mut(n_done) {
                *d = (card, v);
                n_done += 1;
            }
            let better = if maximising { v > best } else { v < best };
            if better {
                best = v;
                best_card = card;
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if let Some(k) = self.killers.get_mut(slot) {
                    *k = card;
                }
                break;
            }
        }
        if cur.len == 0 {
            let lower_only = best >= beta0;
            let bound = if best <= alpha0 {
                Bound { lower: 0, upper: best, best: 0 }
            } else if lower_only {
                Bound { lower: best, upper: i32::MAX, best: self.relative(best_card) }
            } else {
                Bound { lower: best, upper: best, best: self.relative(best_card) }
            };
            self.table.put(key, self.left as u8, bound);
        }
        best
    }

    /// A bound on `card` that makes its search needless, from a card of the same run
    /// searched before: two cards of one hand and suit with no other seat's card in
    /// play between them (`others`) take and lose the same tricks in every
    /// continuation, so their values differ by at most the difference of their
    /// points. If the other's value plus that difference cannot raise `alpha`
    /// (maximising), or minus it cannot lower `beta`, that is the card's bound.
    #[inline]
    fn run_bound(
        &self,
        done: &[(u8, i32)],
        card: u8,
        others: u64,
        maximising: bool,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let c = usize::from(card);
        let pc = i32::from(self.rules.points[c]);
        for &(s, v) in done {
            let s = usize::from(s);
            if s / 9 != c / 9 || (self.rules.puur >> s | self.rules.puur >> c) & 1 == 1 {
                continue;
            }
            let (lo, hi) = (s.min(c), s.max(c));
            let between = ((1u64 << hi) - 1) & !((2u64 << lo) - 1);
            if others & between != 0 {
                continue;
            }
            let delta = (pc - i32::from(self.rules.points[s])).abs();
            if maximising && v + delta <= alpha {
                return Some(v + delta);
            }
            if !maximising && v - delta >= beta {
                return Some(v - delta);
            }
        }
        None
    }

    /// Whether a seat still to play to `cur` holds a card that beats its winner: a
    /// higher card of the suit led or a higher trump (either is always legal, R5).
    #[inline]
    fn can_beat(&self, cur: &Cur) -> bool {
        let led = usize::from(cur.led);
        let mut seat = usize::from((cur.leader + cur.len) & 3);
        for _ in cur.len..4 {
            let h = self.hands[seat];
            let best = match self.rules.trump {
                Some(t) if h >> (t * 9) & SUIT_MASK != 0 => {
                    32 + 63 - (h >> (t * 9) & SUIT_MASK).leading_zeros()
                }
                _ if h >> (led * 9) & SUIT_MASK != 0 => {
                    16 + 63 - (h >> (led * 9) & SUIT_MASK).leading_zeros()
                }
                _ => 0,
            };
            if best > u32::from(cur.power) {
                return true;
            }
            seat = (seat + 1) & 3;
        }
        false
    }

    /// Scores a complete trick for `max` and searches on from its winner's lead.
    fn after_trick(&mut self, cur: &Cur, taken: [bool; 2], alpha: i32, beta: i32) -> i32 {
        let (gained, winner) = self.score_trick(cur, taken);
        if self.left == 0 {
            return gained;
        }
        let mut taken_after = taken;
        taken_after[usize::from(winner) % 2] = true;
        gained + self.alpha_beta(Cur::new(winner), taken_after, alpha - gained, beta - gained)
    }

    /// The table key of a trick boundary, in relative-rank form: per suit, which
    /// places in the contract's order are still held, reduced to the smallest set with
    /// the same points in the same order, and who holds each (which of the held
    /// places, counted from the lowest, seats 1 or 3 hold, and which seats 2 or 3
    /// hold); then the leader and whether `max` can still make a match. Positions
    /// with equal keys differ only by which of equal-point cards are gone, so they
    /// play alike and have one value.
    fn key(&self, leader: u8, match_possible: bool) -> u128 {
        let mut key = self.key_base | u128::from(leader) << 108 | u128::from(match_possible) << 110;
        for s in 0..4 {
            let m = self.hands.map(|h| (h >> (s * 9) & SUIT_MASK) as u16);
            let all = m[0] | m[1] | m[2] | m[3];
            let a = u32::from(compress(m[1] | m[3], all));
            let b = u32::from(compress(m[2] | m[3], all));
            let seq = a | b << 9;
            let canon = u32::from(self.rules.canon[s][usize::from(all)]);
            key |= u128::from(canon << 18 | seq) << (27 * s);
        }
        key
    }

    /// A cheaper exact key for the last two tricks: the cards held, and which of them
    /// seats 1 or 3 and seats 2 or 3 hold (so each card's holder); then the leader,
    /// the match, the contract reading, the team maximised and a tag that keeps it
    /// apart from `key`'s.
    #[inline]
    fn raw_key(&self, leader: u8, match_possible: bool) -> u128 {
        let [h0, h1, h2, h3] = self.hands;
        let all = u128::from(h0 | h1 | h2 | h3);
        let a = u128::from(h1 | h3);
        let b = u128::from(h2 | h3);
        let tag = u128::from(self.rules.variant) << 115
            | (self.max as u128) << 118
            | u128::from(leader) << 119
            | u128::from(match_possible) << 121
            | 1u128 << 127;
        all | a << 36 | b << 72 | tag
    }
}

/// The card points of a set.
fn points_of(rules: &Rules, cards: u64) -> i32 {
    (0..36).filter(|c| cards >> c & 1 == 1).map(|c| i32::from(rules.points[c])).sum()
}
