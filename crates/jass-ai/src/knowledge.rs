//! The computer's memory and deal sampler for other players: the arena's reference
//! determinized MCTS (docs/bots.md, "The arena's players") samples its determinizations
//! with exactly the knowledge and the sampler the computer uses, so the two differ only
//! in search.

use jass_engine::{CardSet, Options, Seat, SeatView};
use rand::Rng;

use crate::memory::Memory;
use crate::sample::Constraints;

/// What one seat has learnt of the round from its views, and deals consistent with it.
#[derive(Clone, Debug)]
pub struct SeatKnowledge {
    seat: Seat,
    small_weis: bool,
    memory: Memory,
}

impl SeatKnowledge {
    /// The knowledge of `seat` at a table with `options` (only `small_weis` matters:
    /// it decides which declared Weis points a hand could have held, R6).
    #[must_use]
    pub fn new(seat: Seat, options: &Options) -> Self {
        Self { seat, small_weis: options.small_weis, memory: Memory::default() }
    }

    /// Takes in what a view of its seat shows; views of other seats are ignored, so a
    /// caller cannot leak another seat's cards into it by mistake.
    pub fn observe(&mut self, view: &SeatView) {
        if view.seat == Some(self.seat) {
            self.memory.observe(view);
        }
    }

    /// Up to `n` deals of the unseen cards consistent with the knowledge and `view`
    /// (the seat's own hand as it is; each exactly uniform over the deals meeting
    /// every constraint, hidden declared Weis included, as the computer draws them;
    /// fewer than `n` only if a hidden declaration is met by so few deals that a
    /// sample ran out of draws). As the computer does, it falls
    /// back to the card counts alone when the knowledge does not add up (a seat that
    /// missed part of the round); empty if even that fails or `view` is another seat's.
    pub fn sample_deals<R: Rng + ?Sized>(&self, view: &SeatView, n: usize, rng: &mut R) -> Vec<[CardSet; 4]> {
        if view.seat != Some(self.seat) {
            return Vec::new();
        }
        let make = |strict| {
            Constraints::new(self.seat, view.hand, view.hand_counts, &self.memory, strict, self.small_weis)
        };
        let Some(constraints) = make(true).or_else(|| make(false)) else { return Vec::new() };
        (0..n).filter_map(|_| constraints.sample(rng)).collect()
    }
}
