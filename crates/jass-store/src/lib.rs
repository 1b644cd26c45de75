//! The embedded store: every table, seat-token hash, game start and accepted action,
//! durable in one SQLite file (WAL) before anyone is told of it.
//!
//! # Layout
//! - [`Database`]: the handle async code holds; cheap to clone.
//! - `writer` (the store thread): owns the `rusqlite::Connection`, takes every pending
//!   write from its queue, runs them in **one** transaction and commits once, so many
//!   tables' actions share one fsync (group commit). Only then are their callers told.
//! - `schema`: the file's tables and reading them back. Appends go to an append-only
//!   `log`; `compaction` moves them into the table-indexed `entries` in bulk, which
//!   keeps each commit's writes at the end of the file.
//! - [`TableRows`]: what [`Database::open`] loads back for restart recovery: each
//!   table's append-only entries, which the server replays through the engine.
//!
//! The store knows nothing of Jass: entries are JSON text the server writes and reads.
//! That keeps one source of truth for their shape and the schema small.
//!
//! # Example
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let dir = std::env::temp_dir().join(format!("jass-store-doc-{}", std::process::id()));
//! let (store, tables) = jass_store::Database::open(&dir.join("db.sqlite3")).unwrap();
//! assert!(tables.is_empty());
//! store.append("t1", r#"{"created":{}}"#.into()).await.unwrap();
//! store.append("t1", r#"{"action":{}}"#.into()).await.unwrap();
//! drop(store);
//! let (_store, tables) = jass_store::Database::open(&dir.join("db.sqlite3")).unwrap();
//! assert_eq!(tables[0].entries.len(), 2);
//! # std::fs::remove_dir_all(&dir).ok();
//! # }
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

mod compaction;
mod error;
mod export;
mod metrics;
mod schema;
mod writer;

use compaction::Compactor;
pub use compaction::Tuning;
pub use error::DatabaseError;
pub use export::{Damaged, Export, export};
use metrics::Counters;
pub use metrics::{COMMIT_MS_BUCKETS, Metrics};
pub use schema::{APPLICATION_ID, KeptGame, MAX_TABLE_ID, SCHEMA_VERSION, TableRows, valid_table_id};
use schema::{connect, load, read_game, read_one};
use writer::{Job, Op, Touched, Writer};

/// Writes waiting for the store thread. Bounded: a write that finds the queue full
/// fails at once with a "store queue full" error (`try_send`) instead of growing
/// memory or waiting; the caller treats it as not done (the server refuses the action
/// with an internal error and nothing changes), and queued writes keep call order.
const QUEUE: usize = 8192;
/// How often the checkpointer thread copies the WAL back into the database file.
/// Often and small: each checkpoint's fsync of the database file delays the WAL fsyncs
/// of the commits beside it, less so the fewer pages it flushes (load bench p99
/// 14.5 / 13.4 ms at 50 ms against 20.9 / 18.5 ms at 200 ms, alternating runs).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(50);
/// If the checkpointer falls behind anyway, the writer checkpoints itself beyond this
/// many WAL pages, so the WAL never grows without bound.
const WAL_BACKSTOP_PAGES: u32 = 16_384;
/// Read connections kept for [`Database::read_table`].
const READERS_KEPT: usize = 4;
/// Handle to the store thread. Every write resolves only once it is committed to disk.
#[derive(Clone, Debug)]
pub struct Database {
    /// The store thread's queue; the thread ends when every handle is dropped.
    tx: mpsc::Sender<Job>,
    /// Path of the database file, for reads that open their own connection.
    path: std::path::PathBuf,
    /// Read connections kept between record downloads (opening one parses the
    /// schema each time).
    readers: Arc<std::sync::Mutex<Vec<Connection>>>,
    /// Written by the store thread, read by [`Database::metrics`].
    counters: Arc<Counters>,
}

impl Database {
    /// Opens (or creates) the database and starts the store thread; returns every
    /// stored table with its entries, for recovery.
    ///
    /// # Errors
    /// The file cannot be created, opened or read.
    pub fn open(path: &Path) -> Result<(Self, Vec<TableRows>), DatabaseError> {
        Self::open_tuned(path, Tuning::default())
    }

    /// [`Database::open`] with the log's move set by `tuning` (tests move often).
    ///
    /// # Errors
    /// The file cannot be created, opened or read.
    pub fn open_tuned(path: &Path, tuning: Tuning) -> Result<(Self, Vec<TableRows>), DatabaseError> {
        let conn = connect(path)?;
        let loaded = load(&conn, writer::now())?;
        let (oldest, newest): (Option<i64>, Option<i64>) =
            conn.query_row("SELECT min(id), max(id) FROM log", [], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let next_log_id =
            newest.unwrap_or(0).max(loaded.progress.done_upto).max(loaded.progress.epoch_end) + 1;
        let compactor = Compactor::resume(tuning, &loaded.progress, loaded.pending, oldest);
        let tables = loaded.tables;
        let (tx, rx) = mpsc::channel(QUEUE);
        // Checkpoints run beside the writer: inline, a checkpoint's copy and fsync of
        // the database file would stall every commit queued behind it.
        conn.pragma_update(None, "wal_autocheckpoint", WAL_BACKSTOP_PAGES)?;
        let checkpointer = connect(path)?;
        let alive = tx.downgrade();
        std::thread::Builder::new()
            .name("jass-checkpoint".into())
            .spawn(move || checkpoint_loop(&checkpointer, &alive))?;
        let touched = Touched::load(&tables);
        let counters = Arc::new(Counters::default());
        counters.unmoved_rows.store(compactor.unmoved_rows() as u64, Ordering::Relaxed);
        let thread_counters = Arc::clone(&counters);
        let w = Writer { conn, touched, compactor, next_log_id };
        std::thread::Builder::new()
            .name("jass-store".into())
            .spawn(move || writer::run(w, rx, &thread_counters))?;
        let readers = Arc::default();
        Ok((Self { tx, path: path.to_path_buf(), readers, counters }, tables))
    }

    /// Queues `op` now (so one caller's writes keep their order) and returns a future
    /// that resolves once it is committed.
    fn submit(&self, op: Op) -> impl std::future::Future<Output = Result<u64, DatabaseError>> + use<> {
        let (done, rx) = oneshot::channel();
        let queued = self.tx.try_send(Job { op, done });
        async move {
            match queued {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(_)) => {
                    return Err(DatabaseError::Io(std::io::Error::other("store queue full")));
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return Err(DatabaseError::Closed),
            }
            match rx.await {
                Ok(Ok(n)) => Ok(n),
                Ok(Err(msg)) => Err(DatabaseError::Io(std::io::Error::other(msg))),
                Err(_) => Err(DatabaseError::Closed),
            }
        }
    }

    /// Appends one entry to `table` (creating the table on its first entry, and
    /// making an archived or quarantined one live again). The entry is queued at
    /// once, in call order; the future resolves once it is on disk.
    pub fn append(
        &self,
        table: &str,
        entry: String,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::Append { id: table.to_owned(), entry });
        async move { done.await.map(drop) }
    }

    /// Deletes a table and its entries (an unfinished table that expired idle).
    pub fn delete_table(
        &self,
        table: &str,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::DeleteTable { id: table.to_owned() });
        async move { done.await.map(drop) }
    }

    /// Marks a finished table that left memory as archived: it is no longer loaded
    /// at start-up, [`Database::read_table`] still reads it, and
    /// [`Database::purge_archived`] deletes it once it is older than the retention.
    pub fn archive(
        &self,
        table: &str,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::Archive { id: table.to_owned() });
        async move { done.await.map(drop) }
    }

    /// Keeps the record of a finished game on its own (once: keeping the same game
    /// again changes nothing), so it outlives its table; purged by
    /// [`Database::purge_games`] once it finished longer ago than the retention.
    pub fn keep_game(
        &self,
        table: &str,
        game: u32,
        record: String,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::KeepGame { id: table.to_owned(), game, record });
        async move { done.await.map(drop) }
    }

    /// Deletes up to `limit` kept games that finished before `before` (Unix seconds),
    /// and up to `limit` reviews computed before then; resolves to the larger count
    /// (call again while that equals `limit`). A game or review whose time is not
    /// plausible is kept.
    pub fn purge_games(
        &self,
        before: i64,
        limit: u32,
    ) -> impl std::future::Future<Output = Result<u64, DatabaseError>> + use<> {
        self.submit(Op::PurgeGames { before, limit })
    }

    /// Keeps the review of round `round` of game `game` of `table` (JSON, computed by
    /// code of `version`), replacing one kept before; purged with the games'
    /// retention ([`Database::purge_games`]), counted from now.
    pub fn keep_review(
        &self,
        table: &str,
        game: u32,
        round: u32,
        version: u32,
        review: String,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::KeepReview { id: table.to_owned(), game, round, version, review });
        async move { done.await.map(drop) }
    }

    /// The kept review of round `round` of game `game` of `table`: its version and JSON.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn read_review(
        &self,
        table: &str,
        game: u32,
        round: u32,
    ) -> Result<Option<(u32, String)>, DatabaseError> {
        self.with_reader(|conn| crate::schema::read_review(conn, table, game, round))
    }

    /// Game `game` of `table` as kept, or its latest kept game for `None`.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn read_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptGame>, DatabaseError> {
        self.with_reader(|conn| read_game(conn, table, game))
    }

    /// Marks a table the server could not rebuild: kept whole, still loaded (so a
    /// fixed server can try again), read on demand without scanning the log.
    pub fn quarantine(
        &self,
        table: &str,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::Quarantine { id: table.to_owned() });
        async move { done.await.map(drop) }
    }

    /// Takes every entry of `table` after its first `keep` out of its history into
    /// `damaged` (kept for the operator, never deleted), so later appends follow the
    /// last good entry. Recovery uses it for a torn last write only.
    pub fn set_aside(
        &self,
        table: &str,
        keep: u64,
        reason: &str,
    ) -> impl std::future::Future<Output = Result<(), DatabaseError>> + use<> {
        let done = self.submit(Op::SetAside { id: table.to_owned(), keep, reason: reason.to_owned() });
        async move { done.await.map(drop) }
    }

    /// Deletes up to `limit` tables archived before `before` (Unix seconds); resolves
    /// to how many it deleted (call again while that equals `limit`). Tables whose
    /// `archived_at` is not a plausible time are kept: damage is never a reason to
    /// delete.
    pub fn purge_archived(
        &self,
        before: i64,
        limit: u32,
    ) -> impl std::future::Future<Output = Result<u64, DatabaseError>> + use<> {
        self.submit(Op::Purge { before, limit })
    }

    /// The store thread's counters so far.
    #[must_use]
    pub fn metrics(&self) -> Metrics {
        self.counters.snapshot()
    }

    /// Reads one table back through a fresh read connection (records, tests).
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn read_table(&self, table: &str) -> Result<Option<TableRows>, DatabaseError> {
        self.with_reader(|conn| read_one(conn, table, writer::now()))
    }

    /// Runs `read` on a pooled read connection.
    fn with_reader<T>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, DatabaseError>,
    ) -> Result<T, DatabaseError> {
        let pooled = self.readers.lock().ok().and_then(|mut r| r.pop());
        let conn = match pooled {
            Some(c) => c,
            None => {
                let c = Connection::open(&self.path)?;
                c.busy_timeout(std::time::Duration::from_secs(5))?;
                c
            }
        };
        let read = read(&conn);
        if let Ok(mut r) = self.readers.lock()
            && r.len() < READERS_KEPT
        {
            r.push(conn);
        }
        read
    }
}

/// Copies the WAL back into the database file until the store is dropped.
fn checkpoint_loop(conn: &Connection, alive: &mpsc::WeakSender<Job>) {
    while alive.strong_count() > 0 {
        std::thread::sleep(CHECKPOINT_EVERY);
        // PASSIVE never waits for the writer; what it cannot copy now it copies next time.
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!(error = %e, "checkpoint failed");
        }
    }
}
