//! Alpha-beta over the cards, driven by zero-window searches (MTD(f)).

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

const LAST: i32 = LAST_TRICK_BONUS as i32;
/// Killer slots per cards left and seat: the lead's, and mid-trick's by suit led,
/// winning seat and whether the trick is held.
const KILLER_KINDS: usize = 1 + 4 * 4 * 2;
const KILLERS: usize = 37 * 4 * KILLER_KINDS;
const MATCH: i32 = MATCH_BONUS as i32;

/// One solve: the fixed facts of the position and the table it fills.
pub(crate) struct Search<'a> {
    rules: &'static Rules,
    /// The team whose points are maximised (0 or 1).
    max: usize,
    match_bonus: bool,
    hands: [u64; 4],
    /// The card points still in the hands.
    rem: i32,
    /// The cards still in the hands.
    left: u32,
    root: Cur,
    taken: [bool; 2],
    /// The fixed part of every table key: contract reading, team maximised.
    key_base: u128,
    table: &'a mut Table,
    stats: &'a mut Stats,
    /// The card that last cut off a search of a like position (`killer_slot`): the
    /// killer heuristic. The card that refuted a sibling line often refutes this one
    /// (it goes after the table's best lead; 20 cards: 29 % fewer nodes, 24 cards: 41 %).
    killers: [u8; KILLERS],
    /// `stats.nodes` at which the solve gives up ([`Search::with_limit`]).
    limit: u64,
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

    fn match_possible(&self, taken: [bool; 2]) -> bool {
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
    fn score_trick(&self, cur: &Cur, taken: [bool; 2]) -> (i32, u8) {
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

    /// Fail-soft alpha-beta over the last two tricks, where every seat holds at most
    /// two cards: no table, no ordering, no bounds, which cost more there than the
    /// few lines they would save (most of the search's nodes are in these tricks).
    fn two_tricks(&mut self, cur: Cur, taken: [bool; 2], mut alpha: i32, mut beta: i32) -> i32 {
        let seat = usize::from((cur.leader + cur.len) & 3);
        let hand = self.hands[seat];
        let mut legal = legal_mask(self.rules, hand, &cur);
        let maximising = seat % 2 == self.max;
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        while legal != 0 {
            let card = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            self.stats.nodes += 1;
            // `rem` and `left` are not read below this (the trick is not the last).
            self.hands[seat] = hand & !(1u64 << card);
            let mut next = cur;
            advance(self.rules, &mut next, card);
            let v = if next.len < 4 {
                self.two_tricks(next, taken, alpha, beta)
            } else {
                let team = usize::from(next.win) % 2;
                let mut after = taken;
                after[team] = true;
                (if team == self.max { next.points } else { 0 }) + self.final_trick(next.win, after)
            };
            self.hands[seat] = hand;
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
        best
    }

    /// The exact value for `max` of the last two tricks from their start, every seat
    /// holding two cards: minimax over the first trick's legal cards in play order
    /// (at most sixteen lines), each line scored at once (the second trick's cards are
    /// forced). No table, no ordering and no bounds: they cost more here than they
    /// save, and most of the nodes are here.
    fn two_trick_value(&self, leader: u8, taken: [bool; 2]) -> i32 {
        let r = self.rules;
        let l = usize::from(leader);
        let hand = |i: usize| self.hands[(l + i) & 3];
        let max_at = |i: usize| (l + i) % 2 == self.max;
        // Folds `v` into a seat's best and window; true when the rest is cut off.
        let fold = |i: usize, v: i32, best: &mut i32, alpha: &mut i32, beta: &mut i32| {
            if max_at(i) {
                *best = (*best).max(v);
                *alpha = (*alpha).max(v);
            } else {
                *best = (*best).min(v);
                *beta = (*beta).min(v);
            }
            alpha >= beta
        };
        let start = |i: usize| if max_at(i) { i32::MIN } else { i32::MAX };
        let (mut a0, mut b0, mut best0) = (i32::MIN, i32::MAX, start(0));
        let mut legal0 = hand(0);
        while legal0 != 0 {
            let c0 = legal0.trailing_zeros() as usize;
            legal0 &= legal0 - 1;
            let mut t0 = Cur::new(leader);
            advance(r, &mut t0, c0);
            let (mut a1, mut b1, mut best1) = (a0, b0, start(1));
            let mut legal1 = legal_mask(r, hand(1), &t0);
            while legal1 != 0 {
                let c1 = legal1.trailing_zeros() as usize;
                legal1 &= legal1 - 1;
                let mut t1 = t0;
                advance(r, &mut t1, c1);
                let (mut a2, mut b2, mut best2) = (a1, b1, start(2));
                let mut legal2 = legal_mask(r, hand(2), &t1);
                while legal2 != 0 {
                    let c2 = legal2.trailing_zeros() as usize;
                    legal2 &= legal2 - 1;
                    let mut t2 = t1;
                    advance(r, &mut t2, c2);
                    let (mut a3, mut b3, mut best3) = (a2, b2, start(3));
                    let mut legal3 = legal_mask(r, hand(3), &t2);
                    while legal3 != 0 {
                        let c3 = legal3.trailing_zeros() as usize;
                        legal3 &= legal3 - 1;
                        let mut t3 = t2;
                        advance(r, &mut t3, c3);
                        let last = [
                            hand(0) & !(1u64 << c0),
                            hand(1) & !(1u64 << c1),
                            hand(2) & !(1u64 << c2),
                            hand(3) & !(1u64 << c3),
                        ];
                        let v = self.split_value(l, &t3, last, taken);
                        if fold(3, v, &mut best3, &mut a3, &mut b3) {
                            break;
                        }
                    }
                    if fold(2, best3, &mut best2, &mut a2, &mut b2) {
                        break;
                    }
                }
                if fold(1, best2, &mut best1, &mut a1, &mut b1) {
                    break;
                }
            }
            fold(0, best1, &mut best0, &mut a0, &mut b0);
        }
        best0
    }

    /// One line of the last two tricks: the first trick `first` (complete) and the
    /// last cards (`last[i]` of the seat `i` after the first leader `l`), for `max`.
    #[inline]
    fn split_value(&self, l: usize, first: &Cur, last: [u64; 4], taken: [bool; 2]) -> i32 {
        let r = self.rules;
        let w1 = usize::from(first.win);
        let lead = (w1 + 4 - l) & 3;
        let led_card = last[lead].trailing_zeros() as usize;
        let led = led_card / 9;
        let (mut w2, mut power, mut points) = (lead, r.power(led_card, led), i32::from(r.points[led_card]));
        for k in 1..4 {
            let i = (lead + k) & 3;
            let card = last[i].trailing_zeros() as usize;
            points += i32::from(r.points[card]);
            let p = r.power(card, led);
            if p > power {
                (w2, power) = (i, p);
            }
        }
        let first_ours = w1 % 2 == self.max;
        let last_ours = (l + w2) % 2 == self.max;
        let mut v = if first_ours { first.points } else { 0 };
        if last_ours {
            v += points + LAST;
            if first_ours && self.match_possible(taken) {
                v += MATCH;
            }
        }
        v
    }

    /// The last trick from its start, every seat holding one card: what it gives
    /// `max` (its points, the last trick's 5, the match).
    #[inline]
    fn final_trick(&self, leader: u8, taken: [bool; 2]) -> i32 {
        let l = usize::from(leader);
        let first = self.hands[l].trailing_zeros() as usize;
        let led = first / 9;
        let (mut win, mut power, mut points) =
            (l, self.rules.power(first, led), i32::from(self.rules.points[first]));
        for i in 1..4 {
            let seat = (l + i) & 3;
            let card = self.hands[seat].trailing_zeros() as usize;
            points += i32::from(self.rules.points[card]);
            let p = self.rules.power(card, led);
            if p > power {
                (win, power) = (seat, p);
            }
        }
        if win % 2 != self.max {
            return 0;
        }
        points + LAST + if self.match_possible(taken) { MATCH } else { 0 }
    }

    /// The last trick, whose cards are all forced.
    fn last_trick(&mut self, mut cur: Cur, taken: [bool; 2]) -> i32 {
        let saved = (self.hands, self.rem, self.left);
        while cur.len < 4 {
            let seat = usize::from((cur.leader + cur.len) & 3);
            let card = self.hands[seat].trailing_zeros() as usize;
            self.hands[seat] = 0;
            self.rem -= i32::from(self.rules.points[card]);
            self.left -= 1;
            advance(self.rules, &mut cur, card);
        }
        let (gained, _) = self.score_trick(&cur, taken);
        (self.hands, self.rem, self.left) = saved;
        gained
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

    /// Tricks the leader `seat` takes whatever the others do, and points that surely
    /// fall in them: its unbroken run from the top of the trumps still held, and
    /// (when neither opponent holds more trumps than that run draws) its unbroken run
    /// from the top of each other suit. Each keeps it on lead, so it can cash them
    /// all. The points: its own cards in the runs, and the cards the others must
    /// follow with (R5.1, R5.2): in a run of `r` tricks a seat holding `n` cards of
    /// the suit plays at least its `min(n, r)` cheapest ones (a card it discards
    /// earlier falls to the leader's side just the same). The partner may ruff a side
    /// suit instead, so its side-suit cards count only without trumps.
    fn sure_tricks(&self, seat: usize) -> (u32, i32) {
        let r = self.rules;
        let hand = self.hands[seat];
        let others = [self.hands[(seat + 1) & 3], self.hands[(seat + 3) & 3], self.hands[(seat + 2) & 3]];
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        let (mut tricks, mut points) = (0, 0);
        let mut side_ok = true;
        let run = |s: usize| -> (u32, i32) {
            let mine = (hand >> (s * 9) & SUIT_MASK) as usize;
            let m = mine as u16;
            let mut a = (all >> (s * 9) & SUIT_MASK) as u16;
            let (mut n, mut p) = (0u32, 0i32);
            while a != 0 {
                let top = 15 - a.leading_zeros();
                if m >> top & 1 == 0 {
                    break;
                }
                n += 1;
                p += i32::from(r.points[s * 9 + top as usize]);
                a &= !(1u16 << top);
            }
            (n, p)
        };
        let follow = |s: usize, n: u32, who: usize| -> i32 {
            let cards = (others[who] >> (s * 9) & SUIT_MASK) as usize;
            i32::from(r.low_points[s][cards][n.min(9) as usize])
        };
        if let Some(t) = r.trump {
            let (n, p) = run(t);
            if n > 0 {
                tricks += n;
                points += p + follow(t, n, 0) + follow(t, n, 1) + follow(t, n, 2);
            }
            let trumps = |h: u64| (h >> (t * 9) & SUIT_MASK).count_ones();
            side_ok = trumps(others[0]) <= n && trumps(others[1]) <= n;
        }
        if !side_ok {
            return (tricks, points);
        }
        for s in 0..4 {
            if Some(s) == r.trump || hand >> (s * 9) & SUIT_MASK == 0 {
                continue;
            }
            let (n, p) = run(s);
            if n > 0 {
                tricks += n;
                points += p + follow(s, n, 0) + follow(s, n, 1);
                if r.trump.is_none() {
                    points += follow(s, n, 2);
                }
            }
        }
        (tricks, points)
    }

    /// The partner's sure tricks (`sure_tricks` as if it led) when the leader can
    /// reach it: the leader holds a card of a suit whose top card the partner holds,
    /// and no opponent can ruff that lead (no trumps, trumps led, or no opponent holds
    /// a trump). The leader leads low, the partner wins and cashes from there.
    fn entry_tricks(&self, seat: usize) -> Option<(u32, i32)> {
        let partner = (seat + 2) & 3;
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        let opp_trumps = self.rules.trump.is_some_and(|t| {
            (self.hands[(seat + 1) & 3] | self.hands[(seat + 3) & 3]) >> (t * 9) & SUIT_MASK != 0
        });
        let entry = (0..4).any(|s| {
            let suit = |h: u64| h >> (s * 9) & SUIT_MASK;
            let live = suit(all);
            live != 0
                && suit(self.hands[seat]) != 0
                && suit(self.hands[partner]) >> (63 - live.leading_zeros()) & 1 == 1
                && (!opp_trumps || self.rules.trump == Some(s))
        });
        entry.then(|| self.sure_tricks(partner))
    }

    /// The seat holding the highest trump still out, and the points of its unbroken
    /// run from the top: each card of it takes a trick, since a trump may always be
    /// played (R5.3) and must be when trump is led (R5.2), and nothing beats it.
    fn top_trumps(&self) -> Option<(usize, i32)> {
        let t = self.rules.trump?;
        let m = self.hands.map(|h| (h >> (t * 9) & SUIT_MASK) as u16);
        let mut all = m[0] | m[1] | m[2] | m[3];
        if all == 0 {
            return None;
        }
        let top = 15 - all.leading_zeros();
        let holder = m.iter().position(|h| h >> top & 1 == 1)?;
        let mut points = 0;
        while all != 0 {
            let top = 15 - all.leading_zeros();
            if m[holder] >> top & 1 == 0 {
                break;
            }
            points += i32::from(self.rules.points[t * 9 + top as usize]);
            all &= !(1u16 << top);
        }
        Some((holder, points))
    }

    /// A card as (suit, how many cards of its suit still held are below it) + 1, the
    /// form that holds for every position with the same key.
    fn relative(&self, card: u8) -> u8 {
        let c = usize::from(card);
        let s = c / 9;
        let all = self.hands.iter().fold(0, |a, h| a | h) >> (s * 9) & SUIT_MASK;
        let places = all as u16;
        let place = c % 9;
        let below = (places & ((1u16 << place) - 1)).count_ones() as u8;
        (s as u8) << 4 | below | 0x80
    }

    /// The card of `seat` that `relative` named, if it holds it.
    fn held_relative(&self, seat: usize, rel: u8) -> Option<u8> {
        if rel & 0x80 == 0 {
            return None;
        }
        let s = usize::from(rel >> 4 & 3);
        let mut n = rel & 0xF;
        let all = self.hands.iter().fold(0, |a, h| a | h) >> (s * 9) & SUIT_MASK;
        let mut places = all as u16;
        while places != 0 {
            let k = places.trailing_zeros() as usize;
            if n == 0 {
                let card = s * 9 + k;
                return (self.hands[seat] >> card & 1 == 1).then_some(card as u8);
            }
            n -= 1;
            places &= places - 1;
        }
        None
    }
}

/// The card points of a set.
fn points_of(rules: &Rules, cards: u64) -> i32 {
    (0..36).filter(|c| cards >> c & 1 == 1).map(|c| i32::from(rules.points[c])).sum()
}
