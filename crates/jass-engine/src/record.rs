//! Game records (R12): options, per round the dealer, seed and dealt hands, and the
//! ordered actions. Replaying a record reproduces every state (`replay.rs`).
//!
//! Only the data lives here, so that the game can build its record without the
//! record knowing the game.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::by::BySeat;
use crate::cardset::CardSet;
use crate::deal::Seed;
use crate::error::RuleError;
use crate::level::Level;
use crate::options::{Options, OptionsError};
use crate::seat::Seat;

/// The record format tag; bumped if the format changes.
pub const RECORD_FORMAT: &str = "jass-record/1";

/// A whole game as data. Documented in protocol.md, "Game record".
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The table options.
    pub options: Options,
    /// Every round dealt, in order.
    pub rounds: Vec<RoundRecord>,
    /// Who sat where when the game ended, as the table knew them (a server fills this
    /// in; a replay does not need it). Empty for a game played without a table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<Player>,
}

/// One seat's player in a [`Record`].
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// The seat.
    pub seat: Seat,
    /// The name shown at the table; `None` for a seat left free.
    pub name: Option<String>,
    /// A computer player held the seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// The computer's level, when it is not normal (omitted for normal and for
    /// people, so records written before levels read the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
}

/// One dealt round.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    /// The dealer (R2).
    pub dealer: Seat,
    /// The seed the cards were dealt from (R12).
    pub seed: Seed,
    /// The dealt hands by seat; a replay checks them against the seed.
    pub hands: BySeat<CardSet>,
    /// The actions in the order the game accepted them.
    pub actions: Vec<SeatAction>,
}

/// One accepted action with its seat.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatAction {
    /// Who acted.
    pub seat: Seat,
    /// What they did.
    pub action: Action,
}

/// Why a record does not replay.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The format tag is unknown.
    #[error("unknown record format {0:?} (expected \"{RECORD_FORMAT}\")")]
    Format(String),
    /// The options are out of range.
    #[error("bad options: {0}")]
    Options(#[from] OptionsError),
    /// The record has no round.
    #[error("the record has no round")]
    Empty,
    /// A round's dealer or hands differ from what its seed deals.
    #[error("round {round}: {what} does not match the seed")]
    DealMismatch {
        /// 0-based round.
        round: usize,
        /// "dealer" or "hands".
        what: &'static str,
    },
    /// An action was refused.
    #[error("round {round}, action {index}: {error}")]
    Illegal {
        /// 0-based round.
        round: usize,
        /// 0-based index of the action within the round.
        index: usize,
        /// Why.
        error: RuleError,
    },
    /// A round ended but the record has no seed for the next one.
    #[error("round {0} ended but the record has no next round")]
    MissingRound(usize),
    /// The record has rounds the game never reached.
    #[error("the record has {extra} round(s) after the game's last round")]
    ExtraRounds {
        /// How many.
        extra: usize,
    },
}
