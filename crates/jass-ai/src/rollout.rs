//! Random play to the end of a round from any point in it, on the engine's public
//! rules ([`legal_cards`], [`Trick::winner`], the contract tables), so it cannot drift
//! from them. From a round's start the engine's own [`play_random`](jass_engine::play_random)
//! is faster and is used instead.

use jass_engine::{CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Trick, legal_cards, tables};
use rand::Rng;

/// A round in the middle: the hands left, the trick on the table and the score so far.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Position {
    pub(crate) hands: [CardSet; 4],
    pub(crate) trick: Trick,
    /// 0-based number of the trick on the table.
    pub(crate) trick_no: u8,
    pub(crate) contract: Contract,
    pub(crate) old_undenufe: bool,
    /// Card points so far per team.
    pub(crate) points: [u32; 2],
    /// Per team: it has lost a trick (no match bonus possible).
    pub(crate) lost_a_trick: [bool; 2],
}

/// A uniformly random card of a non-empty set.
fn pick<R: Rng + ?Sized>(set: CardSet, rng: &mut R) -> Option<jass_engine::Card> {
    let n = set.len();
    if n == 0 {
        return None;
    }
    let i = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
    set.nth(i)
}

impl Position {
    /// Plays `card` for the seat to move, then random legal cards to the end.
    /// Returns the final card points per team (last-trick 5 and match bonus included).
    pub(crate) fn play_out<R: Rng + ?Sized>(mut self, card: jass_engine::Card, rng: &mut R) -> [u32; 2] {
        let pts = &tables(self.contract, self.old_undenufe).points;
        let mut next = Some(card);
        loop {
            let seat = self.trick.next_seat();
            let hand = self.hands[seat.index()];
            let c = match next.take() {
                Some(c) => c,
                None => match pick(legal_cards(hand, &self.trick, self.contract), rng) {
                    Some(c) => c,
                    None => break,
                },
            };
            self.hands[seat.index()] = hand.without(c);
            self.trick.push(c);
            if self.trick.is_complete() {
                let winner = self.trick.winner(self.contract).unwrap_or(seat);
                let mut p: u32 = self.trick.cards().map(|c| u32::from(pts[c.index()])).sum();
                if self.trick_no == 8 {
                    p += LAST_TRICK_BONUS;
                }
                let team = winner.team().index();
                self.points[team] += p;
                self.lost_a_trick[1 - team] = true;
                if self.trick_no == 8 {
                    break;
                }
                self.trick_no += 1;
                self.trick = Trick::new(winner);
            }
        }
        let mut points = self.points;
        for (p, lost) in points.iter_mut().zip(self.lost_a_trick) {
            if !lost && self.trick_no == 8 {
                *p += MATCH_BONUS;
            }
        }
        points
    }
}
