//! The Schieber Jass rules engine: pure (no IO, no async, no clock), exact to
//! `docs/rules.md`, and fast enough for bots that search.
//!
//! # A whole round
//! ```
//! use jass_engine::{Action, Contract, Event, Game, Options, Phase, Seed, Team, Viewer};
//!
//! // The deal: a seeded shuffle dealt 3-3-3; the seed also draws the first dealer, and
//! // the seat to the dealer's right is the forehand (R2, R12).
//! let mut game = Game::new(Options::default(), Seed([7; 32])).unwrap();
//! let forehand = game.forehand();
//! assert_eq!(game.to_act(), Some(forehand));
//! assert_eq!(game.hand(forehand).len(), 9);
//!
//! // The contract: the forehand pushes, the partner must choose (R3).
//! game.apply(forehand, Action::Schiebe, || unreachable!()).unwrap();
//! game.apply(forehand.partner(), Action::Choose { contract: Contract::Obenabe }, || unreachable!())
//!     .unwrap();
//!
//! // Nine tricks: the forehand leads, each seat in turn plays a legal card (R5) and the
//! // trick's winner leads the next. The round's last card deals the next round, so it
//! // needs that round's seed.
//! let (mut tricks, mut summary) = (0, None);
//! for card_number in 0..36 {
//!     let seat = game.to_act().unwrap();
//!     let card = game.legal_cards(seat).first().unwrap();
//!     for event in game.apply(seat, Action::play(card), || Seed([8; 32])).unwrap() {
//!         match event {
//!             Event::TrickTaken { .. } => tricks += 1,
//!             Event::RoundScored(round) => summary = Some(round),
//!             _ => {}
//!         }
//!     }
//!     if card_number == 0 {
//!         // Each seat's view shows its own hand and the table, nothing else.
//!         let view = game.view(Viewer::Seat(forehand.next()));
//!         assert_eq!((view.trick.cards.len(), view.hand.len()), (1, 9));
//!     }
//! }
//!
//! // The score: 152 card points plus 5 for the last trick, then Weis, Stöck and the
//! // match bonus, all times the contract's multiplier (R4, R8).
//! let round = summary.unwrap();
//! assert_eq!(tricks, 9);
//! assert_eq!(round.card_points[Team::Zero] + round.card_points[Team::One], 157);
//! for team in Team::ALL {
//!     let points = round.card_points[team] + round.match_bonus[team] + round.weis[team] + round.stoeck[team];
//!     assert_eq!(round.total[team], points * round.multiplier);
//! }
//! assert_eq!(game.totals(), round.running_total);
//! // The game goes on: the next round is dealt and waits for its contract.
//! assert_eq!((game.phase(), game.round_number(), game.history().len()), (Phase::Choosing, 1, 1));
//! ```
//!
//! # Layout
//! - [`card`](crate::Card), [`cardset`](crate::CardSet): the 36 cards and sets of them as bits (R1).
//! - `seat`: [`Seat`] in playing order and [`Team`] (R1); `by`: [`BySeat`] and
//!   [`ByTeam`], a value per seat or team reached by the seat or team itself.
//! - `contract`: [`Contract`], rank orders and card points (R3, R4).
//! - `options`: [`Options`] and the [`Preset`]s (R11).
//! - `deal`: [`Seed`], [`Commitment`] and the specified shuffle and 3-3-3 deal (R2, R12).
//! - `trick`: [`Trick`], [`legal_cards`] and the trick winner (R5).
//! - `weis`: [`Weis`] detection, validation and the R6 comparison; Stöck detection (R7).
//! - `action`: [`Action`] (the one way in) and [`Event`].
//! - `score`: credits in counting order, [`RoundSummary`] and [`GameResult`] (R4, R8, R10).
//! - `round`: one deal: dealer and forehand, contract, trick flow, Weis and Stöck (R2–R8).
//! - `game`: [`Game`], the checks of every action and the rounds to the end of the
//!   game (R2–R10).
//! - `view`: [`SeatView`], the allow-list projection per viewer and every decision of
//!   who sees what; its short lists are inline ([`ShortList`]s and [`ArrayVec`]s), so
//!   a view allocates nothing.
//! - `record`: [`Record`], the data (R12); `replay`: replay and verification;
//!   `practice`: a finished round dealt again to play it differently ([`Practice`]).
//! - `compact`: the record and round summaries as a game keeps them (one byte an
//!   action), from which [`Game::record`] and [`Game::history`] are built.
//! - `fast`: the speed work apart from the rules: lookup tables, broadword selects
//!   and the allocation-free random rounds for bots and benchmarks (`fast::playout`).
//! - `error`: [`RuleError`], why an action was refused, in words (the wire codes are
//!   mapped from it by `jass-protocol`).
//!
//! # Glossary
//! - *Schiebe(n)*: push the choice of contract to the partner.
//! - *Obenabe* / *Undenufe*: no-trump contracts, aces high / sixes high.
//! - *Puur*: the trump jack; *Näll*: the trump nine.
//! - *Weis*: a declared run or four of a kind; *Stöck*: trump king and queen.
//! - *Stich*: a trick; *Match*: all nine tricks to one team.
//! - *Bedanke*: claim the win ("mir bedanke üs").
//! - *Round*: one deal; *Game*: rounds until the end (R10).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod action;
mod by;
mod card;
mod cardset;
mod compact;
mod contract;
mod deal;
mod error;
mod fast;
mod game;
mod level;
mod options;
mod practice;
mod record;
mod replay;
mod round;
mod score;
mod seat;
mod short_list;
mod trick;
mod view;
mod weis;

pub use action::{Action, Event, Events};
/// The fixed-capacity list behind the short lists of views, records and events.
pub use arrayvec::ArrayVec;
pub use by::{BySeat, ByTeam};
pub use card::{Card, ParseCardError, Rank, Suit};
pub use cardset::{CardSet, Iter as CardSetIter};
pub use contract::{Contract, Tables, card_points, set_points, tables, trumps_below};
pub use deal::{Commitment, Deal, Seed, deal};
pub use error::RuleError;
pub use fast::playout::{Playout, RoundInPlay, play_random, random_hands, random_round, random_rounds};
pub use game::Game;
pub use level::Level;
pub use options::{CountingOrder, Deck, End, FirstRound, Multipliers, Options, OptionsError, Preset};
pub use practice::{Practice, PracticeError};
pub use record::{Player, RECORD_FORMAT, Record, ReplayError, RoundRecord, SeatAction};
pub use round::{CompletedTrick, Phase};
pub use score::{CountPos, CreditKind, EndReason, GameResult, LAST_TRICK_BONUS, MATCH_BONUS, RoundSummary};
pub use seat::{NoSeat, NoTeam, Seat, Team};
pub use short_list::ShortList;
pub use trick::{PlayedCard, PlayedCards, Trick, legal_cards};
pub use view::{Allowed, SeatView, TrickView, Viewer, WeisOutcome};
pub use weis::{
    MAX_WEIS, Weis, WeisError, WeisKey, WeisKind, WeisList, WeisView, find_weis, has_stoeck, stoeck_cards,
    validate_declaration,
};
