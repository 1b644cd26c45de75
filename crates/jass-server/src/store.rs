//! Durable history of every table: the table actor hands each change to a [`Store`]
//! and tells nobody about it until the store has acknowledged it, so a crash can
//! lose only changes no client ever saw (R12: options + seeds + actions replay the
//! game).
//!
//! [`MemoryStore`] is the implementation for now and for tests. A SQLite store
//! (one writer thread, group commit, acknowledged after fsync) fits the same trait:
//! `append` queues the entry and returns a future that resolves when the batch that
//! holds it is on disk.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use jass_engine::{Action, Options, Seat, Seed};
use serde::{Deserialize, Serialize};

/// One durable fact about a table, in the order the table accepted them. Replaying a
/// table's entries rebuilds its seats, options and games. Serializable, so a store
/// that keeps JSON text (the SQLite store) needs no schema of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// The table was created with these options.
    Created {
        /// The options.
        options: Options,
    },
    /// A player took a seat; only the SHA-256 of the token is kept.
    Seated {
        /// The seat.
        seat: Seat,
        /// The player's name.
        name: String,
        /// SHA-256 of the seat token.
        token_hash: [u8; 32],
    },
    /// The host freed a seat, revoking its token.
    Freed {
        /// The seat.
        seat: Seat,
    },
    /// The host exchanged two seats' occupants.
    Swapped {
        /// One seat.
        a: Seat,
        /// The other.
        b: Seat,
    },
    /// The host changed the options.
    OptionsSet {
        /// The new options.
        options: Options,
    },
    /// A game started (the first or a rematch) and its first round was dealt.
    GameStarted {
        /// 1-based game number at this table.
        game: u32,
        /// The first round's seed.
        seed: Seed,
    },
    /// A game action was accepted.
    Action {
        /// Who acted.
        seat: Seat,
        /// What they did.
        action: Action,
        /// The seed of the round this action caused to be dealt, if any.
        next_seed: Option<Seed>,
    },
}

/// Why the store could not keep an entry; the table then refuses the change.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "store failed: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// The future `append` returns: resolves once the entry is durable.
pub type StoreFuture = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>>;

/// Where tables' histories go. Object safe, so the server holds an
/// `Arc<dyn Store>` and the backend is chosen at startup.
pub trait Store: Send + Sync + 'static {
    /// Queues `entry` for `table`. Entries of one table must be kept in call order.
    /// The returned future resolves once the entry is durable; callers await it
    /// before telling anyone about the change.
    fn append(&self, table: &str, entry: Entry) -> StoreFuture;
}

/// Keeps entries in memory: durable for the life of the process only. The default,
/// and what tests inspect.
#[derive(Debug, Default)]
pub struct MemoryStore {
    /// Entries by table id. A std mutex: held only to push or copy, never across
    /// an await.
    tables: Mutex<HashMap<String, Vec<Entry>>>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy of one table's entries, oldest first.
    #[must_use]
    pub fn entries(&self, table: &str) -> Vec<Entry> {
        self.tables.lock().map(|t| t.get(table).cloned().unwrap_or_default()).unwrap_or_default()
    }
}

impl Store for MemoryStore {
    fn append(&self, table: &str, entry: Entry) -> StoreFuture {
        let result = match self.tables.lock() {
            Ok(mut tables) => {
                tables.entry(table.to_owned()).or_default().push(entry);
                Ok(())
            }
            Err(_) => Err(StoreError("memory store lock poisoned".to_owned())),
        };
        Box::pin(std::future::ready(result))
    }
}
