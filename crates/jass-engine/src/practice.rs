//! A finished round dealt again at a new table, to play it differently: from the deal,
//! from its first card or from any trick (R2's `first_dealer`, R12's seeds).
//!
//! Nothing new is dealt: the practice game's first round is the round's own seed,
//! dealt by the round's own dealer, so the practice table's record replays like any
//! other and the commitment it shows is the round's, revealed already.

use crate::action::Action;
use crate::deal::Seed;
use crate::game::Game;
use crate::options::Options;
use crate::record::{Record, ReplayError, SeatAction};

/// Where a practice game starts, and what is played there before anyone decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Practice {
    /// The table options: the record's, with the first dealer named for a round after
    /// the first (R2).
    pub options: Options,
    /// The round's seed, which deals the practice game's first round.
    pub seed: Seed,
    /// The round's actions played again before the practice starts: none from the
    /// deal; the contract (and any push) from the first card; and the tricks before
    /// a later trick, with the Weis and Stöck that went with them. A bedanke is left
    /// out: the practice game is a new game.
    pub actions: Vec<SeatAction>,
}

/// Why a round cannot be practised.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PracticeError {
    /// The record does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The round is not over (or not in the record).
    #[error("round {0} is not over")]
    NotOver(usize),
    /// The round has no such trick (it ended early, or there are nine).
    #[error("round {round} has no trick {trick} to start from")]
    NoTrick {
        /// 0-based round.
        round: usize,
        /// 0-based trick asked for.
        trick: u8,
    },
}

impl Record {
    /// The practice game of finished round `round` (0-based), started before the
    /// contract (`trick` `None`) or at the first card of trick `trick` (0-based, 0–8),
    /// with the round's choice and earlier tricks as they were played.
    ///
    /// # Errors
    /// The record does not replay to the end of that round, or the round has no such
    /// trick.
    pub fn practice(&self, round: usize, trick: Option<u8>) -> Result<Practice, PracticeError> {
        let game = self.replay_rounds(round.saturating_add(1), |_, _| {})?;
        let played = self.rounds.get(round).filter(|_| game.history().len() > round);
        let rr = played.ok_or(PracticeError::NotOver(round))?;
        let mut options = self.options;
        if round > 0 {
            options.first_dealer = Some(rr.dealer);
        }
        let mut actions = Vec::new();
        if let Some(k) = trick {
            let before = 4 * usize::from(k);
            let mut plays = 0;
            // Reached when the trick's first card is found: a round a bedanke cut short
            // has fewer tricks, and after the ninth there is none.
            let mut reached = false;
            for sa in &rr.actions {
                match sa.action {
                    Action::Play { .. } if plays == before => {
                        reached = true;
                        break;
                    }
                    Action::Play { .. } => plays += 1,
                    Action::Bedanke => continue,
                    _ => {}
                }
                actions.push(sa.clone());
            }
            if !reached {
                return Err(PracticeError::NoTrick { round, trick: k });
            }
        }
        let practice = Practice { options, seed: rr.seed, actions };
        practice.start()?;
        Ok(practice)
    }
}

impl Practice {
    /// The practice game where it starts: the round dealt again with the actions
    /// before the start played. A table starts its practice game this way and then
    /// goes on as usual.
    ///
    /// # Errors
    /// The options are out of range, or an action does not replay (a record that
    /// did replay always gives one that does).
    pub fn start(&self) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.options, self.seed)?;
        for (index, sa) in self.actions.iter().enumerate() {
            // No action here ends the round, so no next seed is ever asked for.
            game.apply(sa.seat, sa.action.clone(), || Seed([0; 32]))
                .map_err(|error| ReplayError::Illegal { round: 0, index, error })?;
        }
        Ok(game)
    }
}
