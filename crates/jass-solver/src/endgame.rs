//! The last two tricks, where most of the search's positions are: from their start
//! each is valued exactly, once, by four nested loops over the first trick's legal
//! cards (the last trick's cards are forced), and kept in the table under a cheaper
//! key.

#![expect(
    clippy::indexing_slicing,
    reason = "seats are masked to 0..4 and teams are 0..2; a card is the lowest set bit of a hand that still holds one (the last two tricks: every hand has a card), so below 36; this runs at every node two tricks from the end, where the solver's instructions are measured (docs/benchmarks.md)"
)]

use crate::search::{LAST, MATCH, Search};
use crate::trick::{Cur, advance, legal_mask};

impl Search<'_> {
    /// Fail-soft alpha-beta over the last two tricks, where every seat holds at most
    /// two cards: no table, no ordering, no bounds, which cost more there than the
    /// few lines they would save (most of the search's nodes are in these tricks).
    pub(crate) fn two_tricks(&mut self, cur: Cur, taken: [bool; 2], mut alpha: i32, mut beta: i32) -> i32 {
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
    pub(crate) fn two_trick_value(&self, leader: u8, taken: [bool; 2]) -> i32 {
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
    pub(crate) fn split_value(&self, l: usize, first: &Cur, last: [u64; 4], taken: [bool; 2]) -> i32 {
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
    pub(crate) fn final_trick(&self, leader: u8, taken: [bool; 2]) -> i32 {
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
    pub(crate) fn last_trick(&mut self, mut cur: Cur, taken: [bool; 2]) -> i32 {
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
}
