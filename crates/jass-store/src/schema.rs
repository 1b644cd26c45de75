//! The database file: its tables, connection settings, and reading tables back.
//!
//! Appends land in `log`, an append-only table without a secondary index, so a commit
//! writes a few pages at the end of one B-tree. The writer later moves each table's
//! log rows into `entries` (indexed by table) many at a time; see [`crate::compaction`].
//! Until moved, a table's newest entries are read from `log`; the `compaction` row
//! says which log rows are already in `entries` and must be skipped.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension};

use crate::{StoreError, StoredTable};

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

/// `log.id` is assigned by the store thread, above every id in `log` and in the
/// `compaction` row, so an id the `compaction` row counts as moved is never reused.
/// (Files created before that have `log.id` AUTOINCREMENT, which the explicit ids
/// satisfy; AUTOINCREMENT itself rewrote `sqlite_sequence` in every commit.)
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
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    entry TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS compaction (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    done_upto INTEGER NOT NULL,
    epoch_end INTEGER NOT NULL,
    cursor TEXT
);
INSERT OR IGNORE INTO compaction (id, done_upto, epoch_end, cursor) VALUES (0, 0, 0, NULL);
";

pub(crate) fn connect(path: &Path) -> Result<Connection, StoreError> {
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

/// How far the log has been moved into `entries` (the `compaction` row).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Progress {
    /// Every log row with an id up to this one is in `entries` (or its table was
    /// deleted); such rows only wait to be deleted.
    pub done_upto: i64,
    /// The last log id of the move in progress; equals `done_upto` when none runs.
    pub epoch_end: i64,
    /// Of the move in progress, every table up to this id (byte order) is moved.
    pub cursor: Option<String>,
}

impl Progress {
    /// Whether a log row is already in `entries`, so reading it again would duplicate it.
    pub(crate) fn moved(&self, id: i64, table: &str) -> bool {
        id <= self.done_upto || (id <= self.epoch_end && self.cursor.as_deref().is_some_and(|c| table <= c))
    }
}

/// The log rows of each table that are not in `entries` yet, oldest first.
pub(crate) type Pending = BTreeMap<String, Vec<i64>>;

/// Everything stored (or one table), as the store thread and record downloads need it.
pub(crate) struct Loaded {
    pub tables: Vec<StoredTable>,
    pub progress: Progress,
    pub pending: Pending,
}

/// Reads tables back in one read transaction, so a concurrent writer (a record
/// download while the server runs) is never seen half way through a move.
pub(crate) fn load(conn: &Connection, only: Option<&str>) -> Result<Loaded, StoreError> {
    let tx = conn.unchecked_transaction()?;
    let progress = tx
        .query_row("SELECT done_upto, epoch_end, cursor FROM compaction WHERE id = 0", [], |r| {
            Ok(Progress { done_upto: r.get(0)?, epoch_end: r.get(1)?, cursor: r.get(2)? })
        })
        .optional()?
        .unwrap_or_default();
    let mut tables: Vec<StoredTable> = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT t.id, t.last_active, e.entry FROM tables t LEFT JOIN entries e ON e.table_id = t.id
             WHERE ?1 IS NULL OR t.id = ?1 ORDER BY t.id, e.id",
        )?;
        let rows = stmt.query_map([only], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, Option<String>>(2)?))
        })?;
        for row in rows {
            let (id, last_active, entry) = row?;
            if tables.last().is_none_or(|t| t.id != id) {
                tables.push(StoredTable { id, last_active, entries: Vec::new() });
            }
            if let (Some(t), Some(e)) = (tables.last_mut(), entry) {
                t.entries.push(e);
            }
        }
    }
    let mut pending = Pending::new();
    {
        // No index on `log` by table: the log holds at most a minute or so of
        // appends, and this runs at startup and for the odd record download.
        let mut stmt = tx.prepare(
            "SELECT id, table_id, entry FROM log WHERE id > ?1 AND (?2 IS NULL OR table_id = ?2)
             ORDER BY table_id, id",
        )?;
        let rows = stmt.query_map(rusqlite::params![progress.done_upto, only], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
        })?;
        // Both lists are sorted by table id, so one pass matches them up.
        let mut at = 0;
        for row in rows {
            let (id, table, entry) = row?;
            if progress.moved(id, &table) {
                continue;
            }
            while tables.get(at).is_some_and(|t| t.id < table) {
                at += 1;
            }
            // A log row without its table row belongs to a deleted table.
            if let Some(t) = tables.get_mut(at).filter(|t| t.id == table) {
                t.entries.push(entry);
                pending.entry(table).or_default().push(id);
            }
        }
    }
    tx.finish()?;
    Ok(Loaded { tables, progress, pending })
}
