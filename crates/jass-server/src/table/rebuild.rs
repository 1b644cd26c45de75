//! Rebuilding a table from its stored entries (restart recovery and records of
//! tables no longer in memory). The entries are the table's whole history (R12:
//! options, seeds and ordered actions replay the game), so replaying them through
//! the engine gives back exactly the state the players last saw acknowledged.

use jass_engine::{Game, Options, Seat, Seed};
use tracing::warn;

use crate::store::Entry;

/// A table's durable state, as its entries say.
#[derive(Clone, Debug)]
pub(crate) struct Rebuilt {
    /// Options of the next game (and the current one).
    pub(crate) options: Options,
    /// Name and token hash per seat.
    pub(crate) seats: [Option<(String, [u8; 32])>; 4],
    /// The host's seat.
    pub(crate) host: Seat,
    /// The latest game.
    pub(crate) game: Option<Game>,
    /// Games started.
    pub(crate) games: u32,
    /// Rematch votes cast since the last game ended.
    pub(crate) rematch: [bool; 4],
    /// Entries replayed; a shorter count than given means the rest was skipped.
    pub(crate) used: usize,
}

impl Rebuilt {
    /// Replays `entries` in order. An entry that cannot be applied (a torn or
    /// inconsistent tail) ends the replay there, with a warning, so the table comes
    /// back as of its last good entry rather than not at all.
    pub(crate) fn from_entries(table: &str, entries: &[Entry]) -> Self {
        let mut r = Self {
            options: Options::default(),
            seats: Default::default(),
            host: Seat::ALL[0],
            game: None,
            games: 0,
            rematch: [false; 4],
            used: 0,
        };
        for (i, e) in entries.iter().enumerate() {
            if let Err(why) = r.apply(e) {
                warn!(table, entry = i, why, "skipping the rest of a table's history");
                break;
            }
            r.used = i + 1;
        }
        r
    }

    fn apply(&mut self, e: &Entry) -> Result<(), &'static str> {
        match e {
            Entry::Created { options } | Entry::OptionsSet { options } => self.options = *options,
            Entry::Seated { seat, name, token_hash } => {
                *self.slot(*seat) = Some((name.clone(), *token_hash));
            }
            Entry::Freed { seat } => {
                *self.slot(*seat) = None;
                if let Some(v) = self.rematch.get_mut(seat.index()) {
                    *v = false;
                }
            }
            Entry::Swapped { a, b } => {
                self.seats.swap(a.index(), b.index());
                if self.host == *a {
                    self.host = *b;
                } else if self.host == *b {
                    self.host = *a;
                }
            }
            Entry::GameStarted { game, seed } => {
                self.game = Some(Game::new(self.options, *seed).map_err(|_| "bad options")?);
                self.games = *game;
                self.rematch = [false; 4];
            }
            Entry::RematchVote { seat } => {
                if self.game.as_ref().is_none_or(|g| g.result().is_none()) {
                    return Err("a rematch vote while no game is over");
                }
                if let Some(v) = self.rematch.get_mut(seat.index()) {
                    *v = true;
                }
            }
            Entry::Action { seat, action, next_seed } => {
                let game = self.game.as_mut().ok_or("an action before any game")?;
                game.validate(*seat, action).map_err(|_| "an action the rules refuse")?;
                if game.next_card_ends_round() && next_seed.is_none() {
                    // Only a game that ends with this card needs no seed: try on a copy.
                    let mut next = game.clone();
                    let mut wanted = false;
                    let _ = next.apply(*seat, action.clone(), || {
                        wanted = true;
                        Seed([0; 32])
                    });
                    if wanted {
                        return Err("a round ended without a stored seed");
                    }
                    *game = next;
                } else {
                    let seed = next_seed.unwrap_or(Seed([0; 32]));
                    game.apply(*seat, action.clone(), || seed).map_err(|_| "an action the rules refuse")?;
                }
            }
        }
        Ok(())
    }

    fn slot(&mut self, seat: Seat) -> &mut Option<(String, [u8; 32])> {
        let [a, b, c, d] = &mut self.seats;
        match seat.index() {
            0 => a,
            1 => b,
            2 => c,
            _ => d,
        }
    }
}
