//! The sure tricks a side can cash at a trick's start (its unbroken top runs), which
//! give the leading side a floor on its points or cap the other side's.

#![expect(
    clippy::indexing_slicing,
    reason = "seats are masked to 0..4, suits 0..4, ranks 0..9 (a set bit of a 9-bit suit), a suit pattern masked to 9 bits and a count capped at 9 index the tables built for exactly those ranges; the bounds run at every node of the solver, whose instructions are measured (docs/benchmarks.md)"
)]

use crate::rules::SUIT_MASK;
use crate::search::Search;

impl Search<'_> {
    /// Tricks the leader `seat` takes whatever the others do, and points that surely
    /// fall in them: its unbroken run from the top of the trumps still held, and
    /// (when neither opponent holds more trumps than that run draws) its unbroken run
    /// from the top of each other suit. Each keeps it on lead, so it can cash them
    /// all. The points: its own cards in the runs, and the cards the others must
    /// follow with (R5.1, R5.2): in a run of `r` tricks a seat holding `n` cards of
    /// the suit plays at least its `min(n, r)` cheapest ones (a card it discards
    /// earlier falls to the leader's side just the same). The partner may ruff a side
    /// suit instead, so its side-suit cards count only without trumps.
    pub(crate) fn sure_tricks(&self, seat: usize) -> (u32, i32) {
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
    pub(crate) fn entry_tricks(&self, seat: usize) -> Option<(u32, i32)> {
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
    pub(crate) fn top_trumps(&self) -> Option<(usize, i32)> {
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
    pub(crate) fn relative(&self, card: u8) -> u8 {
        let c = usize::from(card);
        let s = c / 9;
        let all = self.hands.iter().fold(0, |a, h| a | h) >> (s * 9) & SUIT_MASK;
        let places = all as u16;
        let place = c % 9;
        let below = (places & ((1u16 << place) - 1)).count_ones() as u8;
        (s as u8) << 4 | below | 0x80
    }

    /// The card of `seat` that `relative` named, if it holds it.
    pub(crate) fn held_relative(&self, seat: usize, rel: u8) -> Option<u8> {
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
