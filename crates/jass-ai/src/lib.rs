//! The computer player: decides for one seat from that seat's view only.
//!
//! The public API takes a [`SeatView`](jass_engine::SeatView) and never a [`Game`](jass_engine::Game), so the
//! player cannot see a card its seat could not see (protocol.md 3, "Host controls");
//! anyone can check a game afterwards with its record. Because one view shows only the
//! trick on the table and the one before, a [`Computer`] keeps a memory of the round
//! that it builds from every view it is given ([`Computer::observe`], and
//! [`Computer::decide`] itself): cards played, suits a player could not follow (with
//! the Puur exception when trump is led, R5; an undertrump proves a hand of trumps
//! only), revealed Weis and the points of Weis whose cards stay hidden (ranking below
//! the winning Weis when their side lost, R6), and who announced Stöck (R7).
//!
//! # How it decides
//! - **Bedanke** as soon as its team's total has reached the target (R10): the team
//!   that says it wins, unless the other team reached the target in the same trick
//!   earlier in the counting order.
//! - **Contract** (R3): for sampled deals of the 27 unseen cards, every contract is
//!   played out at random from the forehand ([`play_random`](jass_engine::play_random)); each is worth the mean
//!   point difference for its team, times the contract's multiplier, plus Stöck. It
//!   pushes when it may and the best contract is worth less than
//!   [`Config::push_below`]. With [`Config::choose_by_value`] (the strong level) it
//!   takes instead the choice a round's review values highest from its view
//!   ([`Computer::contract_samples`]: its team's points and Stöck times the
//!   multiplier, a push worth what the partner would choose in each deal).
//! - **Weis** (R6): declares every Weis it is allowed (with `small_weis`, the best set
//!   that shares no card), with its first card.
//! - **Stöck** (R7): with the second of the two cards, or at once when the 20 points
//!   reach the target (then bedanke).
//! - **Cards** (R5): a forced card at once; otherwise determinized sampling: deals of
//!   the unseen cards consistent with the memory (declared Weis whose cards stay
//!   hidden included), drawn exactly uniformly over such deals, and for each
//!   deal every legal card is played out at random to the end of the round (the
//!   engine's allocation-free [`RoundInPlay`](jass_engine::RoundInPlay)); the card with the best mean point
//!   difference for its team is played. With [`Config::infer_choice`] the deals are
//!   weighed by what the contract choice and a push say of the hands ([`choice`]);
//!   with [`Config::informed_playouts`] every seat plays the deals out by a sensible
//!   policy instead of at random (module `playout`); with [`Config::infer_play`]
//!   they are weighed also by how well they explain the opponents' cards under a
//!   model of a player who remembers the cards still out (module `plays`). One
//!   variant measured and not taken by any level stays selectable for the arena:
//!   [`Config::open_playouts`] (the policy sees the later hands of the deal).
//!
//! A decision costs a bounded number of playouts ([`Config::playouts`]) and at most
//! [`Config::time_budget`] of wall time. Given the seed and the views it was shown,
//! a decision is deterministic unless the time budget cuts it short.
//!
//! ```
//! use jass_ai::{Computer, Config};
//! use jass_engine::{Game, Options, Seed, Viewer};
//! let options = Options::default();
//! let mut game = Game::new(options, Seed([3; 32])).unwrap();
//! let seat = game.to_act().unwrap();
//! let mut computer = Computer::new(seat, options, Config { playouts: 200, ..Config::default() });
//! let action = computer.decide(&game.view(Viewer::Seat(seat))).unwrap();
//! game.apply(seat, action, || Seed([4; 32])).unwrap();
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod choice;
mod computer;
mod config;
mod estimate;
mod knowledge;
mod memory;
mod playout;
mod plays;
mod sample;

pub use computer::Computer;
pub use config::{Config, Level};
pub use estimate::{Estimate, Samples};
pub use knowledge::SeatKnowledge;
