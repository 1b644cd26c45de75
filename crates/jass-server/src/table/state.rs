//! A table's durable state and the one function that changes it.
//!
//! The live actor and restart recovery both go through [`TableState::apply`]: the
//! actor after the store has acknowledged an entry, recovery for every stored entry
//! in order. One function means the table a restart rebuilds is, by construction,
//! the table the players last saw (a recovery with its own copy of every state change
//! could drift from the actor's).
//!
//! The state holds only what the entries say (R12: options, seeds and ordered actions
//! replay the game). Connections, views and spectators are the actor's, not durable.

use jass_engine::{BySeat, Game, Options, Seat, Seed};
use jass_protocol::{Level, Timing};

use jass_protocol::ErrorCode;

use super::Refusal;
use crate::store::Entry;

/// Who holds a seat, as far as the store knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Occupant {
    /// The player's name.
    pub(crate) name: String,
    /// SHA-256 of the seat token: the token itself is never kept. A computer seat
    /// has none, so no token opens it.
    pub(crate) token_hash: Option<[u8; 32]>,
    /// Took the seat during a round: the player sees no hand and the computer plays
    /// the seat until the next deal (a seat freed mid-round and joined again must not
    /// show the round's hand to whoever joined).
    pub(crate) waiting: bool,
    /// The host gave the seat to the computer: it plays the seat at `level`, the
    /// player keeps it (and the token) and watches without a hand until given it back.
    pub(crate) benched: bool,
    /// A computer seat's level, or the computer's for a benched player (a human's is
    /// `normal` and unused).
    pub(crate) level: Level,
}

impl Occupant {
    /// Whether a computer player holds the seat.
    pub(crate) const fn computer(&self) -> bool {
        self.token_hash.is_none()
    }

    /// Whether the computer plays the seat for good: a computer's seat, or one the
    /// host gave to the computer.
    pub(crate) const fn played_by_computer(&self) -> bool {
        self.computer() || self.benched
    }
}

/// The names computer players go by, one per seat: a player's name, as at a kitchen
/// table (the seat's badge says it is a computer; "Computer 3" beside a "Computer"
/// badge said it twice and told the computers apart only by number).
const COMPUTER_NAMES: [&str; 4] = ["Vreni", "Ueli", "Heidi", "Sepp"];

/// The name a computer seat shows.
pub(crate) fn computer_name(seat: Seat) -> String {
    COMPUTER_NAMES
        .get(seat.index())
        .map_or_else(|| format!("Computer {}", seat.index() + 1), |n| (*n).to_owned())
}

/// A stored name as the table shows it: checked like a name a client sends
/// (protocol.md 1, "Names"). A name the rules refuse (a damaged file, or rules tightened since
/// it was stored) is shown as its seat, never as stored; the entry itself is kept.
fn shown_name(seat: Seat, stored: &str) -> String {
    match jass_protocol::name::validate(stored) {
        Ok(name) => name,
        Err(e) => {
            tracing::warn!(%seat, error = %e, "a stored name is refused by the name rules; showing the seat");
            format!("Seat {seat}")
        }
    }
}

/// Why an entry cannot be applied to the state it follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ApplyError {
    /// Options the engine refuses (at creation, a change or a game start).
    #[error("options the engine refuses")]
    BadOptions,
    /// Timing out of range.
    #[error("timing out of range")]
    BadTiming,
    /// A game start whose number does not follow the last one.
    #[error("a game number that does not follow the last one")]
    GameNumber,
    /// A rematch vote while no game is over.
    #[error("a rematch vote while no game is over")]
    RematchOutOfPlace,
    /// A game action before any game started.
    #[error("an action before any game")]
    NoGame,
    /// A game action the rules refuse.
    #[error("an action the rules refuse")]
    Illegal,
    /// A round-ending card stored without the next round's seed.
    #[error("a round ended without a stored seed")]
    MissingSeed,
    /// A seat given to the computer or back that is not a player's, or not given.
    #[error("a seat given to the computer or back that does not fit")]
    SeatMismatch,
}

/// Everything the store's entries say about a table.
#[derive(Clone, Debug)]
pub(crate) struct TableState {
    /// Options of the next game (and the current one).
    pub(crate) options: Options,
    /// Step-in and move clock.
    pub(crate) timing: Timing,
    /// Each seat's move-clock reserve left in the current game, in milliseconds.
    pub(crate) reserve: BySeat<u32>,
    /// The seats' occupants.
    pub(crate) seats: BySeat<Option<Occupant>>,
    /// The host's seat; it follows the host through swaps.
    pub(crate) host: Seat,
    /// The latest game.
    pub(crate) game: Option<Game>,
    /// Games started here (rematches count).
    pub(crate) games: u32,
    /// Rematch votes cast since the last game ended.
    pub(crate) rematch: BySeat<bool>,
    /// Entries applied: the table's `version`. It only grows, also across restarts
    /// (the same entries give the same count), and presence never moves it.
    pub(crate) version: u64,
    /// `version` as of the last entry that changed the game (a start or an action):
    /// a game action decided on an earlier version is stale, one decided on this or
    /// a later one is not, whatever else (seats, votes) changed since.
    pub(crate) game_version: u64,
}

impl TableState {
    /// A table before its `Created` entry.
    pub(crate) fn new(options: Options) -> Self {
        Self {
            options,
            timing: Timing::default(),
            reserve: BySeat([Timing::default().reserve.saturating_mul(1000); 4]),
            seats: BySeat::default(),
            host: Seat::ALL[0],
            game: None,
            games: 0,
            rematch: BySeat::default(),
            version: 0,
            game_version: 0,
        }
    }

    /// Replays `entries` from the beginning. On the first entry that cannot be
    /// applied, returns its index and why, with the state as of the entry before it.
    pub(crate) fn replay(entries: &[Entry]) -> (Self, Option<(usize, ApplyError)>) {
        let mut state = Self::new(Options::default());
        for (i, e) in entries.iter().enumerate() {
            if let Err(why) = state.apply(e) {
                return (state, Some((i, why)));
            }
        }
        (state, None)
    }

    /// Whether the latest game is over.
    pub(crate) fn finished(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.result().is_some())
    }

    /// Whether a game is being played (started and not over).
    pub(crate) fn playing(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.result().is_none())
    }

    /// Whether any seat is free.
    pub(crate) fn has_free_seat(&self) -> bool {
        self.seats.iter().any(|(_, s)| s.is_none())
    }

    /// Applies one entry. On an error nothing changed, so a caller may keep the
    /// state as it was (and the entry is reported, never silently dropped).
    ///
    /// # Errors
    /// The entry does not follow from this state (damaged or foreign history).
    pub(crate) fn apply(&mut self, e: &Entry) -> Result<(), ApplyError> {
        match e {
            Entry::Created { options } | Entry::OptionsSet { options } => {
                // Read back from a file: checked like a client's options (point 5).
                options.validate().map_err(|_| ApplyError::BadOptions)?;
                self.options = *options;
            }
            Entry::Seated { seat, name, token_hash } => {
                let name = shown_name(*seat, name);
                let waiting = self.playing();
                self.seats[*seat] = Some(Occupant {
                    name,
                    token_hash: Some(*token_hash),
                    waiting,
                    benched: false,
                    level: Level::Normal,
                });
            }
            Entry::ComputerSeated { seat, level } => {
                let occupant = Occupant {
                    name: computer_name(*seat),
                    token_hash: None,
                    waiting: false,
                    benched: false,
                    level: *level,
                };
                self.seats[*seat] = Some(occupant);
            }
            Entry::GivenToComputer { seat, level } => {
                let o = self.seats[*seat]
                    .as_mut()
                    .filter(|o| !o.computer() && !o.benched)
                    .ok_or(ApplyError::SeatMismatch)?;
                o.benched = true;
                o.level = *level;
            }
            Entry::GivenBack { seat } => {
                let o = self.seats[*seat].as_mut().filter(|o| o.benched).ok_or(ApplyError::SeatMismatch)?;
                o.benched = false;
                o.level = Level::Normal;
            }
            Entry::Freed { seat } => {
                self.seats[*seat] = None;
                self.rematch[*seat] = false;
            }
            Entry::Swapped { a, b } => {
                self.seats.swap(*a, *b);
                self.rematch.swap(*a, *b);
                if self.host == *a {
                    self.host = *b;
                } else if self.host == *b {
                    self.host = *a;
                }
            }
            Entry::GameStarted { game, seed } => {
                if Some(*game) != self.games.checked_add(1) {
                    return Err(ApplyError::GameNumber);
                }
                let new = Game::new(self.options, *seed).map_err(|_| ApplyError::BadOptions)?;
                self.game = Some(new);
                self.games = *game;
                self.rematch = BySeat::default();
                self.reserve = BySeat([self.timing.reserve.saturating_mul(1000); 4]);
                self.end_waiting();
                self.game_version = self.version + 1;
            }
            Entry::RematchVote { seat } => {
                if !self.finished() {
                    return Err(ApplyError::RematchOutOfPlace);
                }
                self.rematch[*seat] = true;
            }
            Entry::TimingSet { timing } => {
                timing.validate().map_err(|_| ApplyError::BadTiming)?;
                self.timing = *timing;
                if self.game.is_none() {
                    self.reserve = BySeat([timing.reserve.saturating_mul(1000); 4]);
                }
            }
            Entry::Action { seat, action, next_seed, reserve } => {
                // `Game::apply` checks the action itself and changes nothing when it
                // refuses it, so no separate `validate` is needed here.
                let game = self.game.as_mut().ok_or(ApplyError::NoGame)?;
                if let Some(seed) = next_seed {
                    game.apply(*seat, action.clone(), || *seed).map_err(|_| ApplyError::Illegal)?;
                } else if game.next_card_ends_round() {
                    // Only a card that ends the game needs no seed: try it on a copy, so
                    // a refusal leaves the game as it was.
                    let mut next = game.clone();
                    let mut wanted = false;
                    next.apply(*seat, action.clone(), || {
                        wanted = true;
                        Seed([0; 32])
                    })
                    .map_err(|_| ApplyError::Illegal)?;
                    if wanted {
                        return Err(ApplyError::MissingSeed);
                    }
                    *game = next;
                } else {
                    game.apply(*seat, action.clone(), || Seed([0; 32])).map_err(|_| ApplyError::Illegal)?;
                }
                if next_seed.is_some() {
                    // A new round was dealt: who joined during the last one plays now.
                    self.end_waiting();
                }
                if let Some(left) = reserve {
                    self.reserve[*seat] = *left;
                }
                self.game_version = self.version + 1;
            }
        }
        self.version += 1;
        Ok(())
    }

    /// Players who joined during a round take their seats.
    fn end_waiting(&mut self) {
        for o in self.seats.0.iter_mut().flatten() {
            o.waiting = false;
        }
    }

    /// The level the computer plays this seat at: the level of a computer seat or of
    /// a seat given to the computer, and `normal` for a stand-in.
    pub(crate) fn computer_level(&self, seat: Seat) -> Level {
        self.seats[seat].as_ref().filter(|o| o.played_by_computer()).map_or(Level::Normal, |o| o.level)
    }

    /// Whether the seat's player takes over only at the next deal.
    pub(crate) fn waiting(&self, seat: Seat) -> bool {
        self.seats[seat].as_ref().is_some_and(|o| o.waiting)
    }

    /// Whether the host gave the seat to the computer (its player watches).
    pub(crate) fn benched(&self, seat: Seat) -> bool {
        self.seats[seat].as_ref().is_some_and(|o| o.benched)
    }

    /// Whether a game action decided on `version` was decided on the game as it is.
    /// Presence, seats and votes since then do not make it stale; a version from
    /// the future does.
    pub(crate) fn is_current_for_game(&self, version: u64) -> bool {
        (self.game_version..=self.version).contains(&version)
    }
}

/// The record of a finished game (seeds revealed, R12), or why there is none yet.
/// Its player list marks the computer seats (protocol.md 6.3).
pub(crate) fn finished_record(state: &TableState) -> Result<jass_engine::Record, Refusal> {
    match &state.game {
        None => Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
        Some(g) if g.result().is_none() => {
            Err(Refusal::new(ErrorCode::GameNotOver, "the record is published when the game is over"))
        }
        Some(g) => {
            let mut record = g.to_record();
            record.players = state
                .seats
                .iter()
                .map(|(seat, o)| jass_engine::Player {
                    seat,
                    name: o.as_ref().map(|o| o.name.clone()),
                    computer: o.as_ref().is_some_and(Occupant::computer),
                    level: o.as_ref().filter(|o| o.computer()).and_then(|o| o.level.shown()),
                })
                .collect();
            Ok(record)
        }
    }
}

/// The records of every finished game in `entries`, by game number: each game's as it
/// stood when the next game started (or at the end). For keeping the games of a table
/// stored before each finished game was kept on its own.
pub(crate) fn finished_games(entries: &[Entry]) -> Vec<(u32, jass_engine::Record)> {
    let mut state = TableState::new(Options::default());
    let mut out = Vec::new();
    for e in entries {
        if matches!(e, Entry::GameStarted { .. })
            && let Ok(record) = finished_record(&state)
        {
            out.push((state.games, record));
        }
        if state.apply(e).is_err() {
            return out;
        }
    }
    if let Ok(record) = finished_record(&state) {
        out.push((state.games, record));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created() -> Entry {
        Entry::Created { options: Options::default() }
    }

    /// Counters and options read back from a file are checked, so a
    /// damaged one quarantines the table instead of being believed.
    #[test]
    fn point5_a_game_number_out_of_sequence_is_refused() {
        let seed = Seed([7; 32]);
        let (state, failed) = TableState::replay(&[created(), Entry::GameStarted { game: 1, seed }]);
        assert_eq!((state.games, failed), (1, None));
        let (_, failed) = TableState::replay(&[created(), Entry::GameStarted { game: 5, seed }]);
        assert_eq!(failed, Some((1, ApplyError::GameNumber)));
    }

    #[test]
    fn point5_options_out_of_range_are_refused() {
        let options = Options { target: 0, ..Options::default() };
        let (state, failed) = TableState::replay(&[created(), Entry::OptionsSet { options }]);
        assert_eq!(failed, Some((1, ApplyError::BadOptions)));
        assert_eq!(state.options, Options::default(), "a refused entry changes nothing");
        assert_eq!(state.version, 1);
    }
}
