//! The embedded store: every table, seat-token hash, game start and accepted action,
//! durable in one SQLite file (WAL) before anyone is told of it.
//!
//! # Layout
//! - [`Store`]: the handle async code holds; cheap to clone.
//! - The store thread (private): owns the `rusqlite::Connection`, takes every pending
//!   write from its queue, runs them in **one** transaction and commits once, so many
//!   tables' actions share one fsync (group commit). Only then are their callers told.
//! - [`StoredTable`]: what [`Store::open`] loads back for restart recovery: each
//!   table's append-only entries, which the server replays through the engine.
//!
//! The store knows nothing of Jass: entries are JSON text the server writes and reads.
//! That keeps one source of truth for their shape and the schema at two small tables.
//!
//! # Example
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let dir = std::env::temp_dir().join(format!("jass-store-doc-{}", std::process::id()));
//! let (store, tables) = jass_store::Store::open(&dir.join("db.sqlite3")).unwrap();
//! assert!(tables.is_empty());
//! store.append("t1", r#"{"created":{}}"#.into()).await.unwrap();
//! store.append("t1", r#"{"action":{}}"#.into()).await.unwrap();
//! drop(store);
//! let (_store, tables) = jass_store::Store::open(&dir.join("db.sqlite3")).unwrap();
//! assert_eq!(tables[0].entries.len(), 2);
//! # std::fs::remove_dir_all(&dir).ok();
//! # }
//! ```

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, params};
use tokio::sync::{mpsc, oneshot};

/// Writes waiting for the store thread. Bounded: a full queue makes callers wait
/// (backpressure) instead of growing memory.
const QUEUE: usize = 8192;
/// At most this many writes share one transaction, so one commit never grows unbounded.
const BATCH: usize = 4096;
/// A table's `last_active` is rewritten at most this often (seconds). It only serves
/// idle expiry after a restart, where a minute is nothing against a 24 h timeout, and
/// rewriting it on every action would add a page to nearly every commit.
const TOUCH_EVERY_S: i64 = 60;
/// How often the checkpointer thread copies the WAL back into the database file.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);
/// If the checkpointer falls behind anyway, the writer checkpoints itself beyond this
/// many WAL pages, so the WAL never grows without bound.
const WAL_BACKSTOP_PAGES: u32 = 16_384;
/// Pages of new databases. Entries are ~100–300 bytes and every commit rewrites the
/// few pages it touches in full, so small pages cut the bytes written per action
/// (measured by `append_latency`: ~5.4 KB → ~3 KB per append). Existing files keep
/// the size they were created with.
const PAGE_SIZE: u32 = 1024;
/// Pages each connection caches. SQLite trims its page cache to the database size at
/// the end of every commit, and with the default cache (2 MB) that walk cost the store
/// thread about a fifth of its CPU in the load bench (`pcache1TruncateUnsafe`: 4.2 %
/// of the server's samples, 0.6 % with this size). Appends touch few pages, and pages
/// not cached come from the OS page cache.
const CACHE_PAGES: i64 = 256;

/// A store failure. The caller must treat the write as not done.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (disk full, corrupt file, …).
    #[error("database: {0}")]
    Db(#[from] rusqlite::Error),
    /// Creating the folder or opening the file failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The store thread is gone (shutdown or a previous fatal error).
    #[error("the store is closed")]
    Closed,
}

/// A table as stored: its entries in the order they were appended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// Unix seconds of the last append.
    pub last_active: i64,
    /// Server-defined entries (JSON), oldest first.
    pub entries: Vec<String>,
}

/// Upper bounds (milliseconds) of the commit-time buckets in [`Metrics`].
pub const COMMIT_MS_BUCKETS: [u64; 6] = [1, 2, 5, 10, 25, 50];

/// What the store thread has done since it started: for operators (`/api/stats`) and
/// the load bench, to tell a slow disk from a slow server.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Metrics {
    /// Transactions committed (each one fsync).
    pub commits: u64,
    /// Writes committed (entries appended, tables deleted or cut).
    pub writes: u64,
    /// The most writes one commit carried.
    pub largest_batch: u64,
    /// Total time spent committing, in microseconds (the mean is this over `commits`).
    pub commit_micros: u64,
    /// Commits by duration: `[≤1 ms, ≤2, ≤5, ≤10, ≤25, ≤50, more]`.
    pub commit_ms_histogram: [u64; COMMIT_MS_BUCKETS.len() + 1],
}

/// The live counters behind [`Metrics`]; only the store thread writes them.
#[derive(Debug, Default)]
struct Counters {
    commits: AtomicU64,
    writes: AtomicU64,
    largest_batch: AtomicU64,
    commit_micros: AtomicU64,
    histogram: [AtomicU64; COMMIT_MS_BUCKETS.len() + 1],
}

impl Counters {
    fn record(&self, writes: usize, took: std::time::Duration) {
        let writes = writes as u64;
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.writes.fetch_add(writes, Ordering::Relaxed);
        self.largest_batch.fetch_max(writes, Ordering::Relaxed);
        self.commit_micros.fetch_add(micros, Ordering::Relaxed);
        let slot =
            COMMIT_MS_BUCKETS.iter().position(|&ms| micros <= ms * 1000).unwrap_or(COMMIT_MS_BUCKETS.len());
        if let Some(b) = self.histogram.get(slot) {
            b.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn snapshot(&self) -> Metrics {
        Metrics {
            commits: self.commits.load(Ordering::Relaxed),
            writes: self.writes.load(Ordering::Relaxed),
            largest_batch: self.largest_batch.load(Ordering::Relaxed),
            commit_micros: self.commit_micros.load(Ordering::Relaxed),
            commit_ms_histogram: std::array::from_fn(|i| {
                self.histogram.get(i).map_or(0, |b| b.load(Ordering::Relaxed))
            }),
        }
    }
}

enum Op {
    Append { id: String, entry: String },
    DeleteTable { id: String },
    Truncate { id: String, keep: u64 },
}

struct Job {
    op: Op,
    done: oneshot::Sender<Result<(), String>>,
}

/// Handle to the store thread. Every write resolves only once it is committed to disk.
#[derive(Clone, Debug)]
pub struct Store {
    /// The store thread's queue; the thread ends when every handle is dropped.
    tx: mpsc::Sender<Job>,
    /// Path of the database file, for reads that open their own connection.
    path: std::path::PathBuf,
    /// Written by the store thread, read by [`Store::metrics`].
    counters: Arc<Counters>,
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    last_active INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_table ON entries (table_id, id);
";

fn connect(path: &Path) -> Result<Connection, StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let conn = Connection::open(path)?;
    // Takes effect only on a new, empty file; must come before the switch to WAL.
    conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    // WAL with synchronous=FULL: a commit is fsynced before it returns, so an
    // acknowledged action survives a crash or power loss.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "cache_size", CACHE_PAGES)?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

impl Store {
    /// Opens (or creates) the database and starts the store thread; returns every
    /// stored table with its entries, for recovery.
    ///
    /// # Errors
    /// The file cannot be created, opened or read.
    pub fn open(path: &Path) -> Result<(Self, Vec<StoredTable>), StoreError> {
        let conn = connect(path)?;
        let tables = load(&conn, None)?;
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
        let thread_counters = Arc::clone(&counters);
        std::thread::Builder::new()
            .name("jass-store".into())
            .spawn(move || run(conn, rx, touched, &thread_counters))?;
        Ok((Self { tx, path: path.to_path_buf(), counters }, tables))
    }

    /// Queues `op` now (so one caller's writes keep their order) and returns a future
    /// that resolves once it is committed.
    fn submit(&self, op: Op) -> impl std::future::Future<Output = Result<(), StoreError>> + use<> {
        let (done, rx) = oneshot::channel();
        let queued = self.tx.try_send(Job { op, done });
        async move {
            match queued {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(_)) => {
                    return Err(StoreError::Io(std::io::Error::other("store queue full")));
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return Err(StoreError::Closed),
            }
            match rx.await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(msg)) => Err(StoreError::Io(std::io::Error::other(msg))),
                Err(_) => Err(StoreError::Closed),
            }
        }
    }

    /// Appends one entry to `table` (creating the table on its first entry). The entry
    /// is queued at once, in call order; the future resolves once it is on disk.
    pub fn append(
        &self,
        table: &str,
        entry: String,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + use<> {
        self.submit(Op::Append { id: table.to_owned(), entry })
    }

    /// Deletes a table and its entries (idle expiry).
    pub fn delete_table(
        &self,
        table: &str,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + use<> {
        self.submit(Op::DeleteTable { id: table.to_owned() })
    }

    /// Keeps only the first `keep` entries of `table`: a recovery that had to stop
    /// early (a torn or inconsistent tail) cuts the log there, so later entries never
    /// land behind a bad one.
    pub fn truncate(
        &self,
        table: &str,
        keep: u64,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + use<> {
        self.submit(Op::Truncate { id: table.to_owned(), keep })
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
    pub fn read_table(&self, table: &str) -> Result<Option<StoredTable>, StoreError> {
        let conn = Connection::open(&self.path)?;
        Ok(load(&conn, Some(table))?.pop())
    }
}

fn load(conn: &Connection, only: Option<&str>) -> Result<Vec<StoredTable>, StoreError> {
    let mut out: Vec<StoredTable> = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT t.id, t.last_active, e.entry FROM tables t LEFT JOIN entries e ON e.table_id = t.id
         WHERE ?1 IS NULL OR t.id = ?1 ORDER BY t.id, e.id",
    )?;
    let rows = stmt.query_map([only], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, Option<String>>(2)?))
    })?;
    for row in rows {
        let (id, last_active, entry) = row?;
        if out.last().is_none_or(|t| t.id != id) {
            out.push(StoredTable { id, last_active, entries: Vec::new() });
        }
        if let (Some(t), Some(e)) = (out.last_mut(), entry) {
            t.entries.push(e);
        }
    }
    Ok(out)
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

/// When each table's `last_active` was last written, so appends rewrite it only
/// every [`TOUCH_EVERY_S`]. Known only to the store thread. Changes are undone with
/// the transaction or savepoint that made them, so the map never claims a write that
/// was rolled back (a table row missing would lose the table's entries at load).
#[derive(Default)]
struct Touched {
    at: std::collections::HashMap<String, i64>,
    undo: Vec<(String, Option<i64>)>,
}

impl Touched {
    fn load(tables: &[StoredTable]) -> Self {
        Self { at: tables.iter().map(|t| (t.id.clone(), t.last_active)).collect(), undo: Vec::new() }
    }

    fn due(&self, id: &str, ts: i64) -> bool {
        self.at.get(id).is_none_or(|&t| ts - t >= TOUCH_EVERY_S)
    }

    fn set(&mut self, id: &str, ts: i64) {
        let prev = self.at.insert(id.to_owned(), ts);
        self.undo.push((id.to_owned(), prev));
    }

    fn remove(&mut self, id: &str) {
        if let Some(prev) = self.at.remove(id) {
            self.undo.push((id.to_owned(), Some(prev)));
        }
    }

    fn mark(&self) -> usize {
        self.undo.len()
    }

    fn rollback_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let Some((id, prev)) = self.undo.pop() else { break };
            match prev {
                Some(t) => self.at.insert(id, t),
                None => self.at.remove(&id),
            };
        }
    }

    fn committed(&mut self) {
        self.undo.clear();
    }
}

fn apply(tx: &Connection, op: &Op, ts: i64, touched: &mut Touched) -> rusqlite::Result<()> {
    match op {
        Op::Append { id, entry } => {
            // Cached statements: appends are the hot path (every accepted action).
            if touched.due(id, ts) {
                tx.prepare_cached(
                    "INSERT INTO tables (id, last_active) VALUES (?1, ?2)
                     ON CONFLICT(id) DO UPDATE SET last_active = excluded.last_active",
                )?
                .execute(params![id, ts])?;
                touched.set(id, ts);
            }
            tx.prepare_cached("INSERT INTO entries (table_id, entry) VALUES (?1, ?2)")?
                .execute(params![id, entry])?;
        }
        Op::Truncate { id, keep } => {
            tx.execute(
                "DELETE FROM entries WHERE table_id = ?1 AND id NOT IN
                 (SELECT id FROM entries WHERE table_id = ?1 ORDER BY id LIMIT ?2)",
                params![id, i64::try_from(*keep).unwrap_or(i64::MAX)],
            )?;
        }
        Op::DeleteTable { id } => {
            tx.execute("DELETE FROM entries WHERE table_id = ?1", [id])?;
            tx.execute("DELETE FROM tables WHERE id = ?1", [id])?;
            touched.remove(id);
        }
    }
    Ok(())
}

/// The store thread: drain the queue, one transaction per batch, one fsync per commit.
/// There is no waiting window: whatever queued up while the last commit was being
/// fsynced forms the next batch, so a quiet store commits at once and a busy one
/// batches more (group commit without adding latency).
/// The whole batch is tried at once; only if a write in it fails is the batch redone
/// with a savepoint per write, so one bad write never costs the others.
fn run(mut conn: Connection, mut rx: mpsc::Receiver<Job>, mut touched: Touched, counters: &Counters) {
    let mut batch: Vec<Job> = Vec::with_capacity(256);
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let ts = now();
        let started = std::time::Instant::now();
        let results = match commit_batch(&mut conn, &batch, ts, &mut touched) {
            Ok(()) => vec![Ok(()); batch.len()],
            Err(_) => {
                touched.rollback_to(0);
                commit_each(&mut conn, &batch, ts, &mut touched)
            }
        };
        touched.committed();
        counters.record(batch.len(), started.elapsed());
        for (job, res) in batch.drain(..).zip(results) {
            let _ = job.done.send(res);
        }
    }
}

/// All writes of a batch in one transaction (the common case).
fn commit_batch(
    conn: &mut Connection,
    batch: &[Job],
    ts: i64,
    touched: &mut Touched,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for job in batch {
        apply(&tx, &job.op, ts, touched)?;
    }
    tx.commit()
}

/// The slow path after a failed batch: a savepoint per write, one commit.
fn commit_each(
    conn: &mut Connection,
    batch: &[Job],
    ts: i64,
    touched: &mut Touched,
) -> Vec<Result<(), String>> {
    let mut results: Vec<Result<(), String>> = Vec::with_capacity(batch.len());
    let outcome = (|| -> rusqlite::Result<()> {
        let mut tx = conn.transaction()?;
        for job in batch {
            let mut sp = tx.savepoint()?;
            let mark = touched.mark();
            match apply(&sp, &job.op, ts, touched) {
                Ok(()) => {
                    sp.commit()?;
                    results.push(Ok(()));
                }
                Err(e) => {
                    sp.rollback()?;
                    touched.rollback_to(mark);
                    results.push(Err(e.to_string()));
                }
            }
        }
        tx.commit()
    })();
    match outcome {
        Ok(()) => results,
        Err(e) => {
            tracing::error!(error = %e, "store commit failed");
            touched.rollback_to(0);
            vec![Err(e.to_string()); batch.len()]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Touched;

    #[test]
    fn touches_are_undone_with_their_transaction() {
        let mut t = Touched::default();
        assert!(t.due("a", 100));
        t.set("a", 100);
        t.committed();
        assert!(!t.due("a", 159), "rewritten at most once a minute");
        assert!(t.due("a", 160));
        let mark = t.mark();
        t.set("b", 170);
        t.remove("a");
        t.rollback_to(mark);
        assert!(!t.due("a", 120), "the delete was rolled back");
        assert!(t.due("b", 171), "the new table's row was rolled back, so it is written again");
    }
}
