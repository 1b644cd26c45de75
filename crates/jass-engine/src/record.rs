//! Game records (R12): options, per round the dealer, seed and dealt hands, and the
//! ordered actions. Replaying a record reproduces every state.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::cardset::CardSet;
use crate::deal::Seed;
use crate::error::RuleError;
use crate::game::Game;
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
    pub hands: [CardSet; 4],
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

impl Record {
    /// Replays the record from its options and seeds (R12).
    ///
    /// # Errors
    /// The first inconsistency: a bad format or options, a deal that does not match its
    /// seed, or an action the rules refuse (with its round and index).
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with(|_, _| {})
    }

    /// Replays like [`replay`](Self::replay), calling `each` after every accepted
    /// action with the game and the number of rounds the record says were dealt.
    ///
    /// # Errors
    /// As [`replay`](Self::replay).
    pub fn replay_with(&self, mut each: impl FnMut(&Game, &[crate::Event])) -> Result<Game, ReplayError> {
        if self.format != RECORD_FORMAT {
            return Err(ReplayError::Format(self.format.chars().take(40).collect()));
        }
        let first = self.rounds.first().ok_or(ReplayError::Empty)?;
        let mut game = Game::new(self.options, first.seed)?;
        for (ri, rr) in self.rounds.iter().enumerate() {
            let (dealer, hands) = game
                .dealt(ri)
                .ok_or(ReplayError::ExtraRounds { extra: self.rounds.len() - game.rounds_dealt() })?;
            if dealer != rr.dealer {
                return Err(ReplayError::DealMismatch { round: ri, what: "dealer" });
            }
            if hands != rr.hands {
                return Err(ReplayError::DealMismatch { round: ri, what: "hands" });
            }
            let next = self.rounds.get(ri + 1).map(|r| r.seed);
            for (ai, sa) in rr.actions.iter().enumerate() {
                let mut wanted_missing = false;
                let events = game
                    .apply(sa.seat, sa.action.clone(), || {
                        next.unwrap_or_else(|| {
                            wanted_missing = true;
                            Seed([0; 32])
                        })
                    })
                    .map_err(|error| ReplayError::Illegal { round: ri, index: ai, error })?;
                if wanted_missing {
                    return Err(ReplayError::MissingRound(ri));
                }
                each(&game, &events);
            }
        }
        if game.rounds_dealt() > self.rounds.len() {
            return Err(ReplayError::MissingRound(self.rounds.len() - 1));
        }
        Ok(game)
    }
}
