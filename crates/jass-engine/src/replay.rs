//! Replaying a [`Record`] (R12): the game is rebuilt from the record's options and
//! seeds through [`Game::apply`], the one way in, so a record replays only if every
//! action in it was legal.

use crate::action::Event;
use crate::deal::Seed;
use crate::game::Game;
use crate::record::{RECORD_FORMAT, Record, ReplayError};

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
    pub fn replay_with(&self, each: impl FnMut(&Game, &[Event])) -> Result<Game, ReplayError> {
        self.replay_some(self.rounds.len(), true, each)
    }

    /// Replays the first `rounds` rounds only (R12), as [`replay_with`](Self::replay_with)
    /// does the whole record: the rounds after them are not read, and the last one
    /// replayed may end without the seed of the next (a game in play, whose next
    /// round's seed is still secret, reviewed up to a round that is over).
    ///
    /// # Errors
    /// As [`replay`](Self::replay), for the rounds replayed.
    pub fn replay_rounds(
        &self,
        rounds: usize,
        each: impl FnMut(&Game, &[Event]),
    ) -> Result<Game, ReplayError> {
        self.replay_some(rounds.min(self.rounds.len()), false, each)
    }

    /// The first `rounds` rounds; `whole`: they are the whole record, and a round
    /// that ends wants the next one's seed.
    fn replay_some(
        &self,
        rounds: usize,
        whole: bool,
        mut each: impl FnMut(&Game, &[Event]),
    ) -> Result<Game, ReplayError> {
        if self.format != RECORD_FORMAT {
            return Err(ReplayError::Format(self.format.chars().take(40).collect()));
        }
        let first = self.rounds.first().ok_or(ReplayError::Empty)?;
        let mut game = Game::new(self.options, first.seed)?;
        for (ri, rr) in self.rounds.iter().enumerate().take(rounds) {
            let (dealer, hands) = game
                .dealt(ri)
                .ok_or(ReplayError::ExtraRounds { extra: self.rounds.len() - game.rounds_dealt() })?;
            if dealer != rr.dealer {
                return Err(ReplayError::DealMismatch { round: ri, what: "dealer" });
            }
            if hands != rr.hands {
                return Err(ReplayError::DealMismatch { round: ri, what: "hands" });
            }
            let next = self.rounds.get(ri + 1).filter(|_| ri + 1 < rounds || whole).map(|r| r.seed);
            let last = ri + 1 == rounds && !whole;
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
                if wanted_missing && !last {
                    return Err(ReplayError::MissingRound(ri));
                }
                each(&game, &events);
            }
        }
        if whole && game.rounds_dealt() > self.rounds.len() {
            return Err(ReplayError::MissingRound(self.rounds.len() - 1));
        }
        Ok(game)
    }
}
