//! The embedded store: every table, seat-token hash, game start and accepted action,
//! durable in one SQLite file (WAL) before anyone is told of it.
//!
//! # Layout
//! - [`Store`]: the handle async code holds; cheap to clone.
//! - The store thread (private): owns the `rusqlite::Connection`, takes every pending
//!   write from its queue, runs them in **one** transaction and commits once, so many
//!   tables' actions share one fsync (group commit). Only then are their callers told.
//! - [`StoredTable`], [`StoredGame`], [`StoredAction`]: what [`Store::open`] loads back
//!   for restart recovery; the server replays them through the engine.
//!
//! The store knows nothing of Jass: table metadata, options and actions are JSON text
//! the server writes and reads. That keeps one source of truth for their shape (the
//! protocol and engine types) and lets the schema stay four small tables.
//!
//! # Example
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let dir = std::env::temp_dir().join(format!("jass-store-doc-{}", std::process::id()));
//! let (store, tables) = jass_store::Store::open(&dir.join("db.sqlite3")).unwrap();
//! assert!(tables.is_empty());
//! store.put_table("t1", r#"{"seats":[]}"#.into()).await.unwrap();
//! store.start_game("t1", 0, r#"{}"#.into(), "00".repeat(32)).await.unwrap();
//! store.append_action("t1", 0, 0, 1, r#"{"type":"schiebe"}"#.into(), None).await.unwrap();
//! drop(store);
//! # std::fs::remove_dir_all(&dir).ok();
//! # }
//! ```

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

/// Writes waiting for the store thread. Bounded: a full queue makes callers wait
/// (backpressure) instead of growing memory.
const QUEUE: usize = 8192;
/// At most this many writes share one transaction, so one commit never grows unbounded.
const BATCH: usize = 4096;

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

/// One accepted action, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 0-based index within the game.
    pub seq: u64,
    /// The acting seat.
    pub seat: u8,
    /// The action as JSON (the engine's `Action`).
    pub action: String,
    /// The seed of the round this action dealt, if it ended a round (hex).
    pub next_seed: Option<String>,
}

/// A game as stored: enough to replay it through the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// 0-based game number at the table (rematches count up).
    pub game: u32,
    /// The options as JSON.
    pub options: String,
    /// The first round's seed (hex).
    pub first_seed: String,
    /// Every accepted action in order.
    pub actions: Vec<StoredAction>,
}

/// A table as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    /// The table id.
    pub id: String,
    /// Server-defined metadata (seats, token hashes, host, options …) as JSON.
    pub meta: String,
    /// Unix seconds of the last write.
    pub last_active: i64,
    /// The latest game, if one was started.
    pub game: Option<StoredGame>,
}

enum Op {
    PutTable { id: String, meta: String },
    StartGame { id: String, game: u32, options: String, first_seed: String },
    Append { id: String, game: u32, seq: u64, seat: u8, action: String, next_seed: Option<String> },
    DeleteTable { id: String },
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
}

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    meta TEXT NOT NULL,
    last_active INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    options TEXT NOT NULL,
    first_seed TEXT NOT NULL,
    PRIMARY KEY (table_id, game)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    next_seed TEXT,
    PRIMARY KEY (table_id, game, seq)
);
";

fn connect(path: &Path) -> Result<Connection, StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let conn = Connection::open(path)?;
    // WAL with synchronous=FULL: a commit is fsynced before it returns, so an
    // acknowledged action survives a crash or power loss.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

impl Store {
    /// Opens (or creates) the database and starts the store thread; returns every
    /// stored table with its latest game for recovery.
    ///
    /// # Errors
    /// The file cannot be created, opened or read.
    pub fn open(path: &Path) -> Result<(Self, Vec<StoredTable>), StoreError> {
        let conn = connect(path)?;
        let tables = load(&conn)?;
        let (tx, rx) = mpsc::channel(QUEUE);
        std::thread::Builder::new().name("jass-store".into()).spawn(move || run(conn, rx))?;
        Ok((Self { tx, path: path.to_path_buf() }, tables))
    }

    async fn submit(&self, op: Op) -> Result<(), StoreError> {
        let (done, rx) = oneshot::channel();
        self.tx.send(Job { op, done }).await.map_err(|_| StoreError::Closed)?;
        match rx.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(msg)) => Err(StoreError::Io(std::io::Error::other(msg))),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// Creates or replaces a table's metadata.
    ///
    /// # Errors
    /// The write failed; nothing may be assumed stored.
    pub async fn put_table(&self, id: &str, meta: String) -> Result<(), StoreError> {
        self.submit(Op::PutTable { id: id.to_owned(), meta }).await
    }

    /// Records a game start (its options and first seed).
    ///
    /// # Errors
    /// As [`put_table`](Self::put_table).
    pub async fn start_game(
        &self,
        id: &str,
        game: u32,
        options: String,
        first_seed: String,
    ) -> Result<(), StoreError> {
        self.submit(Op::StartGame { id: id.to_owned(), game, options, first_seed }).await
    }

    /// Appends one accepted action; resolves once it is on disk.
    ///
    /// # Errors
    /// As [`put_table`](Self::put_table).
    pub async fn append_action(
        &self,
        id: &str,
        game: u32,
        seq: u64,
        seat: u8,
        action: String,
        next_seed: Option<String>,
    ) -> Result<(), StoreError> {
        self.submit(Op::Append { id: id.to_owned(), game, seq, seat, action, next_seed }).await
    }

    /// Deletes a table and everything it holds (idle expiry).
    ///
    /// # Errors
    /// As [`put_table`](Self::put_table).
    pub async fn delete_table(&self, id: &str) -> Result<(), StoreError> {
        self.submit(Op::DeleteTable { id: id.to_owned() }).await
    }

    /// Reads one table back (a fresh read connection; for records and tests).
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn read_table(&self, id: &str) -> Result<Option<StoredTable>, StoreError> {
        let conn = Connection::open(&self.path)?;
        let meta: Option<(String, i64)> = conn
            .query_row("SELECT meta, last_active FROM tables WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        let Some((meta, last_active)) = meta else { return Ok(None) };
        let game = load_game(&conn, id)?;
        Ok(Some(StoredTable { id: id.to_owned(), meta, last_active, game }))
    }
}

fn load(conn: &Connection) -> Result<Vec<StoredTable>, StoreError> {
    let mut stmt = conn.prepare("SELECT id, meta, last_active FROM tables ORDER BY id")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (id, meta, last_active) = row?;
        let game = load_game(conn, &id)?;
        out.push(StoredTable { id, meta, last_active, game });
    }
    Ok(out)
}

fn load_game(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let g: Option<(u32, String, String)> = conn
        .query_row(
            "SELECT game, options, first_seed FROM games WHERE table_id = ?1 ORDER BY game DESC LIMIT 1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((game, options, first_seed)) = g else { return Ok(None) };
    let mut stmt = conn.prepare(
        "SELECT seq, seat, action, next_seed FROM actions WHERE table_id = ?1 AND game = ?2 ORDER BY seq",
    )?;
    let actions = stmt
        .query_map(params![id, game], |r| {
            Ok(StoredAction {
                seq: r.get::<_, i64>(0)? as u64,
                seat: r.get(1)?,
                action: r.get(2)?,
                next_seed: r.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredGame { game, options, first_seed, actions }))
}

fn apply(tx: &Connection, op: &Op, ts: i64) -> rusqlite::Result<()> {
    match op {
        Op::PutTable { id, meta } => {
            tx.execute(
                "INSERT INTO tables (id, meta, last_active) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET meta = excluded.meta, last_active = excluded.last_active",
                params![id, meta, ts],
            )?;
        }
        Op::StartGame { id, game, options, first_seed } => {
            tx.execute(
                "INSERT OR REPLACE INTO games (table_id, game, options, first_seed) VALUES (?1, ?2, ?3, ?4)",
                params![id, game, options, first_seed],
            )?;
            tx.execute("UPDATE tables SET last_active = ?2 WHERE id = ?1", params![id, ts])?;
        }
        Op::Append { id, game, seq, seat, action, next_seed } => {
            tx.execute(
                "INSERT INTO actions (table_id, game, seq, seat, action, next_seed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, game, *seq as i64, seat, action, next_seed],
            )?;
            tx.execute("UPDATE tables SET last_active = ?2 WHERE id = ?1", params![id, ts])?;
        }
        Op::DeleteTable { id } => {
            tx.execute("DELETE FROM actions WHERE table_id = ?1", [id])?;
            tx.execute("DELETE FROM games WHERE table_id = ?1", [id])?;
            tx.execute("DELETE FROM tables WHERE id = ?1", [id])?;
        }
    }
    Ok(())
}

/// The store thread: drain the queue, one transaction per batch, one fsync per commit.
/// A write that fails is rolled back alone (a savepoint each), so one bad write never
/// costs the others in its batch.
fn run(mut conn: Connection, mut rx: mpsc::Receiver<Job>) {
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
        let mut results: Vec<Result<(), String>> = Vec::with_capacity(batch.len());
        let commit = (|| -> rusqlite::Result<()> {
            let mut tx = conn.transaction()?;
            for job in &batch {
                let mut sp = tx.savepoint()?;
                match apply(&sp, &job.op, ts) {
                    Ok(()) => {
                        sp.commit()?;
                        results.push(Ok(()));
                    }
                    Err(e) => {
                        sp.rollback()?;
                        results.push(Err(e.to_string()));
                    }
                }
            }
            tx.commit()
        })();
        match commit {
            Ok(()) => {
                for (job, res) in batch.drain(..).zip(results) {
                    let _ = job.done.send(res);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "store commit failed");
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(e.to_string()));
                }
            }
        }
    }
}
