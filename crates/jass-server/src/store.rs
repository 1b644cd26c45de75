//! Durable history of every table: the table actor hands each change to a [`Store`]
//! and tells nobody about it until the store has acknowledged it, so a crash can
//! lose only changes no client ever saw (R12: options + seeds + actions replay the
//! game).
//!
//! Two implementations: [`SqliteStore`], the default, adapts the embedded `jass-store`
//! (one writer thread, group commit, acknowledged after fsync): `append` queues the
//! entry and returns a future that resolves when the batch that holds it is on disk.
//! [`MemoryStore`] keeps entries in RAM, for `--memory` and for tests.

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
    /// The host put a computer player in a free seat (protocol.md 3, "Host controls").
    ComputerSeated {
        /// The seat.
        seat: Seat,
        /// How strong it plays (protocol.md 3, "Computer levels"). Left out for
        /// `normal`, so an entry stored before levels existed reads back as the
        /// computer it was.
        #[serde(default, skip_serializing_if = "is_normal")]
        level: jass_protocol::Level,
    },
    /// The host gave a human's seat to the computer: it plays the seat, the player
    /// keeps the seat and token and watches until [`Entry::GivenBack`].
    GivenToComputer {
        /// The seat.
        seat: Seat,
        /// How strong the computer plays it (left out for `normal`).
        #[serde(default, skip_serializing_if = "is_normal")]
        level: jass_protocol::Level,
    },
    /// The host gave a seat the computer played since [`Entry::GivenToComputer`] back
    /// to its player.
    GivenBack {
        /// The seat.
        seat: Seat,
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
    /// A seat asked for a rematch after a game (the vote that completes the four is
    /// stored as the next `GameStarted` instead).
    RematchVote {
        /// The seat.
        seat: Seat,
    },
    /// A game action was accepted.
    Action {
        /// Who acted.
        seat: Seat,
        /// What they did.
        action: Action,
        /// The seed of the round this action caused to be dealt, if any.
        next_seed: Option<Seed>,
        /// With the move clock on: the acting seat's reserve left after this decision,
        /// in milliseconds (protocol.md 3, "Step-in and move clock"), so a restart
        /// keeps it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reserve: Option<u32>,
    },
    /// The host changed the step-in and move clock (protocol.md 3).
    TimingSet {
        /// The new timing.
        timing: jass_protocol::Timing,
    },
}

/// Whether a computer's level is the default one, which entries leave out.
#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_normal(level: &jass_protocol::Level) -> bool {
    *level == jass_protocol::Level::Normal
}

/// A kept game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptRecord {
    /// The game's number at its table.
    pub game: u32,
    /// The record.
    pub record: jass_engine::Record,
}

/// Why the store could not keep an entry; the table then refuses the change.
#[derive(Debug, thiserror::Error)]
#[error("store failed: {message}")]
pub struct StoreError {
    message: String,
    fenced: bool,
}

impl StoreError {
    /// A failure, with what went wrong.
    #[must_use]
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into(), fenced: false }
    }

    /// Another node took the table over (a shared store's fence): this node must let
    /// the table go, and nothing was written.
    #[must_use]
    pub fn fenced() -> Self {
        Self { message: "another node holds this table now".to_owned(), fenced: true }
    }

    /// Whether this is [`StoreError::fenced`].
    #[must_use]
    pub fn is_fenced(&self) -> bool {
        self.fenced
    }
}

/// Why a table could not be claimed from a shared store.
#[derive(Debug, thiserror::Error)]
pub enum ClaimRefused {
    /// The store has no such table (or the store is not shared: then only the tables
    /// in memory exist).
    #[error("no such table")]
    Unknown,
    /// A live node holds it.
    #[error("another node holds it")]
    Held,
    /// The store could not be asked now.
    #[error("{0}")]
    Unavailable(String),
}

/// The future [`Store::claim`] returns: the table's stored history, now held here.
pub type ClaimFuture = Pin<Box<dyn Future<Output = Result<StoredTable, ClaimRefused>> + Send>>;

/// The future `append` returns: resolves once the entry is durable.
pub type StoreFuture = Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>>;

/// Where tables' histories go. Object safe, so the server holds an
/// `Arc<dyn Store>` and the backend is chosen at startup.
pub trait Store: Send + Sync + 'static {
    /// Queues `entry` for `table`. Entries of one table must be kept in call order.
    /// The returned future resolves once the entry is durable; callers await it
    /// before telling anyone about the change. Borrowed: the SQLite store only
    /// serializes it, and the table applies the same entry once it is stored.
    fn append(&self, table: &str, entry: &Entry) -> StoreFuture;

    /// Deletes a table's history (an unfinished table that expired idle). Stores that
    /// keep nothing beyond the process need not do anything.
    fn forget(&self, table: &str) -> StoreFuture {
        let _ = table;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Keeps a finished table's history out of memory and out of start-up: it is
    /// read on demand ([`Store::load`]) and purged after the retention. Called when
    /// a table whose game is over goes idle.
    fn archive(&self, table: &str) -> StoreFuture {
        let _ = table;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Marks a table recovery could not rebuild (README, "What the database keeps"):
    /// its history is kept whole for the operator and never cut.
    fn quarantine(&self, table: &str) -> StoreFuture {
        let _ = table;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Moves a table's entries after its first `keep` out of its history into the
    /// store's `damaged` list (kept, not deleted), so what is appended next follows
    /// the last good entry. Recovery uses it only for a torn last write.
    fn set_aside(&self, table: &str, keep: usize, reason: &str) -> StoreFuture {
        let _ = (table, keep, reason);
        Box::pin(std::future::ready(Ok(())))
    }

    /// A table's history, for one no longer held in memory (its record download).
    /// Blocking: call it off the async threads.
    fn load(&self, table: &str) -> Option<Vec<Entry>> {
        let _ = table;
        None
    }

    /// Keeps a finished game's record on its own, from the moment it ends: it is
    /// served by its number, outlives its table (an unfinished rematch that expires
    /// takes nothing finished with it) and is purged by the retention counted from its
    /// own end. Keeping a game kept already changes nothing. Both stores of the server
    /// keep them; a store for a test may not.
    fn keep_game(&self, table: &str, game: u32, record: &jass_engine::Record) -> StoreFuture {
        let _ = (table, game, record);
        Box::pin(std::future::ready(Ok(())))
    }

    /// Game `game` of `table` as kept (its latest kept game for `None`). Blocking:
    /// call it off the async threads.
    ///
    /// # Errors
    /// The store cannot be read, or what it holds is no record (damage: reported,
    /// never served as something else).
    fn load_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptRecord>, StoreError> {
        let _ = (table, game);
        Ok(None)
    }

    /// Keeps the review of round `round` of game `game` of `table` (derived data: the
    /// JSON of a `jass_protocol::review::RoundReview` of code `version`), replacing
    /// one kept before; purged by the games' retention from now.
    fn keep_review(&self, table: &str, game: u32, round: u32, version: u32, review: String) -> StoreFuture {
        let _ = (table, game, round, version, review);
        Box::pin(std::future::ready(Ok(())))
    }

    /// The kept review of a round: its version and JSON. Blocking: call it off the
    /// async threads.
    ///
    /// # Errors
    /// The store cannot be read.
    fn load_review(&self, table: &str, game: u32, round: u32) -> Result<Option<(u32, String)>, StoreError> {
        let _ = (table, game, round);
        Ok(None)
    }

    /// The disk writer's counters, for `/api/stats`; `None` for stores without one.
    fn metrics(&self) -> Option<jass_store::Metrics> {
        None
    }

    /// Whether several nodes share this store, each holding some of its tables
    /// (README, "Many nodes"). Then a table not in memory is claimed from the store
    /// when asked for ([`Store::claim`]), and a node holds a table only while its lease
    /// is fresh ([`Store::serving`]).
    fn shared(&self) -> bool {
        false
    }

    /// Takes `table` for this node unless a live node holds it, and reads its history
    /// back; the store then refuses appends to it from its last holder.
    fn claim(&self, table: &str) -> ClaimFuture {
        let _ = table;
        Box::pin(std::future::ready(Err(ClaimRefused::Unknown)))
    }

    /// Lets `table` go, so another node claims it without waiting.
    fn release(&self, table: &str) -> StoreFuture {
        let _ = table;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Asks the node holding `table` to let it go.
    fn ask_handoff(&self, table: &str) -> StoreFuture {
        let _ = table;
        Box::pin(std::future::ready(Ok(())))
    }

    /// The tables other nodes asked this one to let go, for the first caller.
    fn handoffs(&self) -> Option<tokio::sync::mpsc::Receiver<String>> {
        None
    }

    /// Whether this node may serve its tables now: false once its lease may have run
    /// out (others may have taken its tables), and after it left.
    fn serving(&self) -> bool {
        true
    }

    /// Tables of a shared store that nobody alive holds and nobody wrote to for
    /// `idle`: their node died and nobody came back. A node claims them and lets them
    /// expire as it would its own (README, "What the database keeps").
    fn orphans(&self, idle: std::time::Duration) -> Pin<Box<dyn Future<Output = Vec<String>> + Send>> {
        let _ = idle;
        Box::pin(std::future::ready(Vec::new()))
    }

    /// How often the lease was renewed only after it may have run out (a frozen
    /// node): each time the node lets every table go, as others may hold them now.
    fn lapses(&self) -> u64 {
        0
    }

    /// A planned stop: lets every table go and ends this node's lease.
    fn leave(&self) -> StoreFuture {
        Box::pin(std::future::ready(Ok(())))
    }

    /// This node's id in a shared store.
    fn node(&self) -> Option<i64> {
        None
    }
}

/// A kept review's table, game and round.
type ReviewKey = (String, u32, u32);

/// Keeps entries in memory: durable for the life of the process only. The default,
/// and what tests inspect.
#[derive(Debug, Default)]
pub struct MemoryStore {
    /// Entries by table id. A std mutex: held only to push or copy, never across
    /// an await.
    tables: Mutex<HashMap<String, Vec<Entry>>>,
    /// Kept games by table id and game number.
    games: Mutex<HashMap<String, std::collections::BTreeMap<u32, jass_engine::Record>>>,
    /// Kept reviews by table, game and round: version and JSON.
    reviews: Mutex<HashMap<ReviewKey, (u32, String)>>,
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
    fn forget(&self, table: &str) -> StoreFuture {
        if let Ok(mut tables) = self.tables.lock() {
            tables.remove(table);
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn load(&self, table: &str) -> Option<Vec<Entry>> {
        self.tables.lock().ok()?.get(table).cloned()
    }

    fn keep_game(&self, table: &str, game: u32, record: &jass_engine::Record) -> StoreFuture {
        let result = match self.games.lock() {
            Ok(mut games) => {
                games.entry(table.to_owned()).or_default().entry(game).or_insert_with(|| record.clone());
                Ok(())
            }
            Err(_) => Err(StoreError::new("memory store lock poisoned".to_owned())),
        };
        Box::pin(std::future::ready(result))
    }

    fn keep_review(&self, table: &str, game: u32, round: u32, version: u32, review: String) -> StoreFuture {
        if let Ok(mut reviews) = self.reviews.lock() {
            reviews.insert((table.to_owned(), game, round), (version, review));
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn load_review(&self, table: &str, game: u32, round: u32) -> Result<Option<(u32, String)>, StoreError> {
        let reviews =
            self.reviews.lock().map_err(|_| StoreError::new("memory store lock poisoned".to_owned()))?;
        Ok(reviews.get(&(table.to_owned(), game, round)).cloned())
    }

    fn load_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptRecord>, StoreError> {
        let games =
            self.games.lock().map_err(|_| StoreError::new("memory store lock poisoned".to_owned()))?;
        let Some(kept) = games.get(table) else { return Ok(None) };
        let found = match game {
            Some(n) => kept.get_key_value(&n),
            None => kept.iter().next_back(),
        };
        Ok(found.map(|(game, record)| KeptRecord { game: *game, record: record.clone() }))
    }

    fn append(&self, table: &str, entry: &Entry) -> StoreFuture {
        let result = match self.tables.lock() {
            Ok(mut tables) => {
                tables.entry(table.to_owned()).or_default().push(entry.clone());
                Ok(())
            }
            Err(_) => Err(StoreError::new("memory store lock poisoned".to_owned())),
        };
        Box::pin(std::future::ready(result))
    }
}

/// The embedded SQLite store (`jass-store`): entries are kept as JSON text, written
/// by one store thread with group commit, and `append` resolves only once the entry
/// is fsynced.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// The store thread's handle.
    inner: jass_store::Database,
}

/// A table read back from the store at startup.
#[derive(Clone, Debug)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// Unix seconds of its last write (informational: idle time counts only while the
    /// server runs: README, "What the database keeps").
    pub last_active: i64,
    /// Its entries, oldest first, up to the first one that does not parse.
    pub entries: Vec<Entry>,
    /// How many entries the store holds (more than `entries` if one did not parse).
    pub stored: usize,
    /// The first entry that did not parse, if any.
    pub unreadable: Option<Unreadable>,
    /// The numbers of its games whose records are kept on their own.
    pub kept_games: Vec<u32>,
    /// Why the stored row itself is not to be trusted (its id), if so.
    pub problem: Option<String>,
}

/// A stored entry that is not an [`Entry`].
#[derive(Clone, Debug)]
pub struct Unreadable {
    /// Its position in the history (0-based).
    pub index: usize,
    /// Not even JSON: cut off mid-write. An entry that is JSON but no known entry
    /// (another version's, or changed on disk) is not torn.
    pub torn: bool,
    /// The parser's complaint.
    pub error: String,
}

/// Parses stored entries up to the first that fails, and says which one that was.
fn parse_entries(raw: &[String]) -> (Vec<Entry>, Option<Unreadable>) {
    let mut out = Vec::with_capacity(raw.len());
    for (index, text) in raw.iter().enumerate() {
        match serde_json::from_str(text) {
            Ok(e) => out.push(e),
            Err(e) => {
                let torn = serde_json::from_str::<serde::de::IgnoredAny>(text).is_err();
                return (out, Some(Unreadable { index, torn, error: e.to_string() }));
            }
        }
    }
    (out, None)
}

/// Tables purged per store write, so a large purge never holds up commits for long.
const PURGE_SLICE: u32 = 500;

impl SqliteStore {
    /// Opens (or creates) the database at `path` and reads every live table back.
    /// Refuses a file that is not this server's (README, "What the database keeps").
    ///
    /// # Errors
    /// The file cannot be created or read, or is not ours.
    pub fn open(path: &std::path::Path) -> Result<(Self, Vec<StoredTable>), StoreError> {
        let (inner, tables) = jass_store::Database::open(path).map_err(|e| StoreError::new(e.to_string()))?;
        let tables = tables.into_iter().map(stored_table).collect();
        Ok((Self { inner }, tables))
    }

    /// Deletes the kept games that finished longer ago than `retention`, a slice at a
    /// time; returns how many.
    ///
    /// # Errors
    /// The store failed (what was purged before stays purged).
    pub async fn purge_games(&self, retention: std::time::Duration) -> Result<u64, StoreError> {
        in_slices(retention, |before| self.inner.purge_games(before, PURGE_SLICE)).await
    }

    /// Deletes the tables archived longer ago than `retention`, a slice at a time;
    /// returns how many.
    ///
    /// # Errors
    /// The store failed (what was purged before stays purged).
    pub async fn purge_archived(&self, retention: std::time::Duration) -> Result<u64, StoreError> {
        in_slices(retention, |before| self.inner.purge_archived(before, PURGE_SLICE)).await
    }
}

/// Runs `purge` (deleting up to [`PURGE_SLICE`] rows older than its argument, Unix
/// seconds) until a slice comes back short; returns how many it deleted in all.
async fn in_slices<F, E>(retention: std::time::Duration, purge: impl Fn(i64) -> F) -> Result<u64, StoreError>
where
    F: std::future::Future<Output = Result<u64, E>>,
    E: std::fmt::Display,
{
    let before = unix_now().saturating_sub(i64::try_from(retention.as_secs()).unwrap_or(i64::MAX));
    let mut total = 0;
    loop {
        let n = purge(before).await.map_err(|e| StoreError::new(e.to_string()))?;
        total += n;
        if n < u64::from(PURGE_SLICE) {
            return Ok(total);
        }
    }
}

/// The stores that delete what is past the retention (README, "What the database
/// keeps"); the server runs their purges every [`crate::PURGE_EVERY`].
pub(crate) trait Purges: Clone + Send + Sync + 'static {
    /// Deletes the kept games that finished longer ago than `retention`.
    fn purge_games(
        &self,
        retention: std::time::Duration,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;
    /// Deletes the tables archived longer ago than `retention`.
    fn purge_archived(
        &self,
        retention: std::time::Duration,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;
}

impl Purges for SqliteStore {
    fn purge_games(
        &self,
        retention: std::time::Duration,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        Self::purge_games(self, retention)
    }

    fn purge_archived(
        &self,
        retention: std::time::Duration,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send {
        Self::purge_archived(self, retention)
    }
}

/// The PostgreSQL store (`jass-store-pg`): the same log in a database several nodes
/// reach; `append` resolves once the batch holding the entry has committed.
#[derive(Clone, Debug)]
pub struct PgStore {
    /// The store's handle.
    inner: jass_store_pg::PgDatabase,
    /// For the blocking reads ([`Store::load`], [`Store::load_game`]), which run off
    /// the async threads.
    rt: tokio::runtime::Handle,
}

impl PgStore {
    /// Connects, checks the database is ours (or lays it out in an empty one) and
    /// registers this process as a node; tables are claimed when asked for.
    ///
    /// # Errors
    /// The database cannot be reached, or is another application's or newer.
    pub async fn open(url: &str, node: jass_store_pg::NodeConfig) -> Result<Self, StoreError> {
        let inner =
            jass_store_pg::PgDatabase::open(url, node).await.map_err(|e| StoreError::new(e.to_string()))?;
        Ok(Self { inner, rt: tokio::runtime::Handle::current() })
    }
}

impl Purges for PgStore {
    async fn purge_games(&self, retention: std::time::Duration) -> Result<u64, StoreError> {
        in_slices(retention, |before| self.inner.purge_games(before, PURGE_SLICE)).await
    }

    async fn purge_archived(&self, retention: std::time::Duration) -> Result<u64, StoreError> {
        in_slices(retention, |before| self.inner.purge_archived(before, PURGE_SLICE)).await
    }
}

/// A stored table as the server reads it: its entries parsed up to the first that
/// does not parse.
fn stored_table(t: jass_store::TableRows) -> StoredTable {
    let (entries, unreadable) = parse_entries(&t.entries);
    StoredTable {
        id: t.id,
        last_active: t.last_active,
        stored: t.entries.len(),
        entries,
        unreadable,
        problem: t.problem,
        kept_games: t.kept_games,
    }
}

/// Turns a stored record into a kept game, or reports it as damage.
fn kept_record(table: &str, kept: &jass_store::KeptGame) -> Result<Option<KeptRecord>, StoreError> {
    match serde_json::from_str(&kept.record) {
        Ok(record) => Ok(Some(KeptRecord { game: kept.game, record })),
        Err(e) => {
            tracing::error!(table, game = kept.game, error = %e, "a kept game's record does not read back; kept as it is, not served");
            Err(StoreError::new(format!("the record of game {} does not read back", kept.game)))
        }
    }
}

/// A backend's write as the server's [`StoreFuture`].
fn stored<E: std::fmt::Display>(write: impl Future<Output = Result<(), E>> + Send + 'static) -> StoreFuture {
    Box::pin(async move { write.await.map_err(|e| StoreError::new(e.to_string())) })
}

/// A PostgreSQL write as the server's [`StoreFuture`], its fence kept apart.
fn stored_pg(
    write: impl Future<Output = Result<(), jass_store_pg::PgError>> + Send + 'static,
) -> StoreFuture {
    Box::pin(async move {
        write.await.map_err(|e| match e {
            jass_store_pg::PgError::Fenced => StoreError::fenced(),
            e => StoreError::new(e.to_string()),
        })
    })
}

/// `value` as JSON text handed to `write`; an encoding error fails the write.
fn stored_json<T: Serialize, F, E>(value: &T, write: impl FnOnce(String) -> F) -> StoreFuture
where
    F: Future<Output = Result<(), E>> + Send + 'static,
    E: std::fmt::Display,
{
    match serde_json::to_string(value) {
        Ok(json) => stored(write(json)),
        Err(e) => Box::pin(std::future::ready(Err(StoreError::new(e.to_string())))),
    }
}

impl Store for PgStore {
    fn append(&self, table: &str, entry: &Entry) -> StoreFuture {
        match serde_json::to_string(entry) {
            Ok(json) => stored_pg(self.inner.append(table, json)),
            Err(e) => Box::pin(std::future::ready(Err(StoreError::new(e.to_string())))),
        }
    }

    fn forget(&self, table: &str) -> StoreFuture {
        stored(self.inner.delete_table(table))
    }

    fn archive(&self, table: &str) -> StoreFuture {
        stored(self.inner.archive(table))
    }

    fn quarantine(&self, table: &str) -> StoreFuture {
        stored(self.inner.quarantine(table))
    }

    fn set_aside(&self, table: &str, keep: usize, reason: &str) -> StoreFuture {
        stored(self.inner.set_aside(table, u64::try_from(keep).unwrap_or(u64::MAX), reason))
    }

    fn load(&self, table: &str) -> Option<Vec<Entry>> {
        let t = self.rt.block_on(self.inner.read_table(table)).ok().flatten()?;
        Some(parse_entries(&t.entries).0)
    }

    fn keep_game(&self, table: &str, game: u32, record: &jass_engine::Record) -> StoreFuture {
        stored_json(record, |json| self.inner.keep_game(table, game, json))
    }

    fn load_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptRecord>, StoreError> {
        let kept = self
            .rt
            .block_on(self.inner.read_game(table, game))
            .map_err(|e| StoreError::new(e.to_string()))?;
        kept.map_or(Ok(None), |k| kept_record(table, &k))
    }

    fn keep_review(&self, table: &str, game: u32, round: u32, version: u32, review: String) -> StoreFuture {
        stored_pg(self.inner.keep_review(table, game, round, version, review))
    }

    fn load_review(&self, table: &str, game: u32, round: u32) -> Result<Option<(u32, String)>, StoreError> {
        self.rt
            .block_on(self.inner.read_review(table, game, round))
            .map_err(|e| StoreError::new(e.to_string()))
    }

    fn metrics(&self) -> Option<jass_store::Metrics> {
        Some(self.inner.metrics())
    }

    fn shared(&self) -> bool {
        true
    }

    fn claim(&self, table: &str) -> ClaimFuture {
        let inner = self.inner.clone();
        let table = table.to_owned();
        Box::pin(async move {
            match inner.claim(&table).await {
                Ok(rows) => Ok(stored_table(rows)),
                Err(jass_store_pg::ClaimError::Unknown) => Err(ClaimRefused::Unknown),
                Err(jass_store_pg::ClaimError::Held(_)) => Err(ClaimRefused::Held),
                Err(jass_store_pg::ClaimError::Db(e)) => Err(ClaimRefused::Unavailable(e.to_string())),
            }
        })
    }

    fn release(&self, table: &str) -> StoreFuture {
        stored_pg(self.inner.release(table))
    }

    fn ask_handoff(&self, table: &str) -> StoreFuture {
        let inner = self.inner.clone();
        let table = table.to_owned();
        stored_pg(async move { inner.ask_handoff(&table).await })
    }

    fn handoffs(&self) -> Option<tokio::sync::mpsc::Receiver<String>> {
        self.inner.handoffs()
    }

    fn serving(&self) -> bool {
        self.inner.lease_fresh()
    }

    fn lapses(&self) -> u64 {
        self.inner.lease_lapses()
    }

    fn orphans(&self, idle: std::time::Duration) -> Pin<Box<dyn Future<Output = Vec<String>> + Send>> {
        let inner = self.inner.clone();
        let before = unix_now().saturating_sub(i64::try_from(idle.as_secs()).unwrap_or(i64::MAX));
        Box::pin(async move {
            inner.orphans(before, 100).await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "could not look for tables nobody holds");
                Vec::new()
            })
        })
    }

    fn leave(&self) -> StoreFuture {
        let inner = self.inner.clone();
        stored_pg(async move { inner.leave().await })
    }

    fn node(&self) -> Option<i64> {
        Some(self.inner.node())
    }
}

impl Store for SqliteStore {
    fn append(&self, table: &str, entry: &Entry) -> StoreFuture {
        stored_json(entry, |json| self.inner.append(table, json))
    }

    fn forget(&self, table: &str) -> StoreFuture {
        stored(self.inner.delete_table(table))
    }

    fn archive(&self, table: &str) -> StoreFuture {
        stored(self.inner.archive(table))
    }

    fn quarantine(&self, table: &str) -> StoreFuture {
        stored(self.inner.quarantine(table))
    }

    fn set_aside(&self, table: &str, keep: usize, reason: &str) -> StoreFuture {
        stored(self.inner.set_aside(table, u64::try_from(keep).unwrap_or(u64::MAX), reason))
    }

    fn load(&self, table: &str) -> Option<Vec<Entry>> {
        let t = self.inner.read_table(table).ok().flatten()?;
        if t.problem.is_some() {
            return None;
        }
        Some(parse_entries(&t.entries).0)
    }

    fn keep_game(&self, table: &str, game: u32, record: &jass_engine::Record) -> StoreFuture {
        stored_json(record, |json| self.inner.keep_game(table, game, json))
    }

    fn load_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptRecord>, StoreError> {
        let kept = self.inner.read_game(table, game).map_err(|e| StoreError::new(e.to_string()))?;
        kept.map_or(Ok(None), |k| kept_record(table, &k))
    }

    fn keep_review(&self, table: &str, game: u32, round: u32, version: u32, review: String) -> StoreFuture {
        stored(self.inner.keep_review(table, game, round, version, review))
    }

    fn load_review(&self, table: &str, game: u32, round: u32) -> Result<Option<(u32, String)>, StoreError> {
        self.inner.read_review(table, game, round).map_err(|e| StoreError::new(e.to_string()))
    }

    fn metrics(&self) -> Option<jass_store::Metrics> {
        Some(self.inner.metrics())
    }
}

/// Seconds since the Unix epoch.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}
