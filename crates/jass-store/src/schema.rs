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

use crate::error::DatabaseError;

/// A table as stored: its entries in the order they were appended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRows {
    /// The table id.
    pub id: String,
    /// Unix seconds of the last append (informational: idle time is counted only
    /// while the server runs).
    pub last_active: i64,
    /// When the server first set this table aside as not rebuildable, if it did.
    pub quarantined_at: Option<i64>,
    /// Why the stored row itself cannot be trusted (an id or time this store never
    /// writes), if so: such a table must not be served.
    pub problem: Option<String>,
    /// Server-defined entries (JSON), oldest first.
    pub entries: Vec<String>,
    /// The numbers of its games whose records are kept ([`Database::keep_game`](crate::Database::keep_game)).
    pub kept_games: Vec<u32>,
}

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

/// `tables.archived_at` is set when a finished table leaves memory: it is then not
/// loaded at start-up, its record is read on demand, and it is purged after the
/// retention. `quarantined_at` marks a table the server could not rebuild. Both are
/// set only after the table's log rows were moved into `entries`, so reading such a
/// table never scans `log`; an append clears them. `damaged` keeps entries taken out
/// of a table's history (a torn last write), never deleted.
///
/// `reviews` keeps the review of each round that was reviewed (derived data: the
/// record gives it again), with the version of the code that computed it; purged by
/// the games' retention counted from when it was computed.
///
/// `games` keeps each finished game's record on its own from the moment the game
/// ends: it outlives its table (an unfinished rematch that expires deletes the
/// table, never a finished game) and is purged by its own `finished_at`.
///
/// `log.id` is assigned by the store thread, above every id in `log` and in the
/// `compaction` row, so an id the `compaction` row counts as moved is never reused.
/// (Files created before that have `log.id` AUTOINCREMENT, which the explicit ids
/// satisfy; AUTOINCREMENT itself rewrote `sqlite_sequence` in every commit.)
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    last_active INTEGER NOT NULL,
    archived_at INTEGER,
    quarantined_at INTEGER
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
CREATE TABLE IF NOT EXISTS damaged (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    entry TEXT NOT NULL,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, game)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_finish ON games (finished_at);
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    round INTEGER NOT NULL,
    version INTEGER NOT NULL,
    computed_at INTEGER NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (table_id, game, round)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reviews_by_time ON reviews (computed_at);
";

/// `PRAGMA application_id` of this project's files ("Jass"), so another program's
/// SQLite file is recognised and left alone (`file` and `sqlite3` show it too).
pub const APPLICATION_ID: i32 = 0x4A61_7373;
/// `PRAGMA user_version`: the layout this build writes. 4 added `reviews`; 3 added `games`; 2 added
/// `archived_at`, `quarantined_at` and `damaged`; files from before had no ids at
/// all (0).
pub const SCHEMA_VERSION: i32 = 4;

/// Tables of every layout this project ever wrote (an id-less file must hold only these).
const OUR_TABLES: [&str; 7] = ["tables", "entries", "log", "compaction", "damaged", "games", "reviews"];

/// What a file turned out to be, found out before anything is written to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Empty: ours to lay out.
    New,
    /// Written by this project at this `user_version` (at most [`SCHEMA_VERSION`]).
    Ours(i32),
    /// Written by this project before files carried ids: only our tables, no ids.
    Legacy,
}

/// Tells our files from foreign ones by reading only: the header's ids and the names
/// of the tables. Refuses a file of another application, of a newer layout, or one
/// that is not SQLite at all, so nothing (schema, WAL switch) is ever added to it.
pub(crate) fn identify(conn: &Connection, path: &Path) -> Result<Kind, DatabaseError> {
    let shown = path.display();
    let header = conn.query_row("PRAGMA application_id", [], |r| r.get::<_, i32>(0)).and_then(|app| {
        let version = conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i32>(0))?;
        Ok((app, version))
    });
    let (app, version) = match header {
        Ok(ids) => ids,
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::NotADatabase => {
            return Err(DatabaseError::Refused(format!("{shown} is not a SQLite database")));
        }
        Err(e) => return Err(e.into()),
    };
    if app == APPLICATION_ID {
        if version > SCHEMA_VERSION {
            return Err(DatabaseError::Refused(format!(
                "{shown} was written by a newer jass-server (schema version {version}; this build knows up to {SCHEMA_VERSION}); refusing to open it"
            )));
        }
        return Ok(Kind::Ours(version));
    }
    let objects: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    if app == 0 && version == 0 && objects == 0 {
        return Ok(Kind::New);
    }
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
    let ours = names.iter().all(|n| OUR_TABLES.contains(&n.as_str()))
        && ["tables", "entries"].iter().all(|t| names.iter().any(|n| n == t))
        && columns(conn, "tables")?.iter().all(|c| ["id", "last_active"].contains(&c.as_str()))
        && columns(conn, "entries")?.iter().all(|c| ["id", "table_id", "entry"].contains(&c.as_str()));
    if app == 0 && version == 0 && ours {
        return Ok(Kind::Legacy);
    }
    let shown_names: Vec<String> = names.iter().take(8).map(|n| format!("{n:?}")).collect();
    Err(DatabaseError::Refused(format!(
        "{shown} is not a jass-server database (application_id {app:#x}, user_version {version}, tables [{}]); refusing to change it",
        shown_names.join(", ")
    )))
}

/// The write-ahead log beside the database file at `path`.
pub(crate) fn wal_path(path: &Path) -> std::path::PathBuf {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    wal.into()
}

/// Refuses a database file that is missing or empty while its write-ahead log beside
/// it holds data: the file was lost or cut (a crash, a careless copy), and opening it
/// would start an empty store and overwrite the log with it. A file this store lays
/// out is never empty once its log has a byte: the switch to WAL writes its first page.
pub(crate) fn refuse_lost_file(path: &Path) -> Result<(), DatabaseError> {
    let wal = wal_path(path);
    let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
    let main_bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    if wal_bytes > 0 && main_bytes == 0 {
        return Err(DatabaseError::Refused(format!(
            "{} is empty or missing, but its write-ahead log {} holds {wal_bytes} bytes: the database file was lost or cut; refusing to open it, nothing was changed (restore the file from a backup; move the log aside only to give up what it holds)",
            path.display(),
            wal.display()
        )));
    }
    Ok(())
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    stmt.query_map([table], |r| r.get::<_, String>(0))?.collect()
}

/// Opens the store's file for writing: refuses what is not ours ([`identify`]) before
/// touching it, lays out a new file, brings an older one of ours up to
/// [`SCHEMA_VERSION`].
pub(crate) fn connect(path: &Path) -> Result<Connection, DatabaseError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    refuse_lost_file(path)?;
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let kind = identify(&conn, path)?;
    if kind == Kind::New {
        // Takes effect only on a new, empty file; must come before the switch to WAL.
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    }
    // WAL with synchronous=FULL: a commit is fsynced before it returns, so an
    // acknowledged action survives a crash or power loss.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "cache_size", CACHE_PAGES)?;
    if kind != Kind::Ours(SCHEMA_VERSION) {
        migrate(&conn)?;
    }
    Ok(conn)
}

/// Lays out (or completes) the current layout and stamps the file as ours, in one
/// transaction, so a crash half way leaves the file as it was.
fn migrate(conn: &Connection) -> Result<(), DatabaseError> {
    let tx = conn.unchecked_transaction()?;
    tx.execute_batch(SCHEMA)?;
    let have = columns(&tx, "tables")?;
    for col in ["archived_at", "quarantined_at"] {
        if !have.iter().any(|c| c == col) {
            tx.execute_batch(&format!("ALTER TABLE tables ADD COLUMN {col} INTEGER"))?;
        }
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// Longest table id read back; the server makes 26-character ids.
pub const MAX_TABLE_ID: usize = 64;

/// Whether a table id read from the file looks like one this project writes; others
/// are reported and never served.
#[must_use]
pub fn valid_table_id(id: &str) -> bool {
    (1..=MAX_TABLE_ID).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Unix seconds before any file of this project was written (2024-01-01): a stored
/// time earlier than this, or in the future, is damage, not a time.
pub(crate) const EARLIEST_TIME: i64 = 1_704_067_200;
/// Leeway for a clock that was ahead when a time was stored.
const CLOCK_SLACK_S: i64 = 24 * 60 * 60;

/// Whether a stored Unix time is plausible against `now`.
pub(crate) fn sane_time(t: i64, now: i64) -> bool {
    (EARLIEST_TIME..=now.saturating_add(CLOCK_SLACK_S)).contains(&t)
}

/// Ids above this would let `next_log_id` overflow; no file gets near it honestly.
const MAX_LOG_ID: i64 = 1 << 60;

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

/// Everything live, as the store thread needs it at start-up.
pub(crate) struct Loaded {
    pub tables: Vec<TableRows>,
    pub progress: Progress,
    pub pending: Pending,
}

/// The `compaction` row, checked: a cursor that points nowhere sane would make
/// reads skip or repeat log rows, so such a file is refused rather than guessed at.
fn read_progress(tx: &Connection) -> Result<Progress, DatabaseError> {
    let p = tx
        .query_row("SELECT done_upto, epoch_end, cursor FROM compaction WHERE id = 0", [], |r| {
            Ok(Progress { done_upto: r.get(0)?, epoch_end: r.get(1)?, cursor: r.get(2)? })
        })
        .optional()?
        .unwrap_or_default();
    let sane = (0..MAX_LOG_ID).contains(&p.done_upto)
        && (p.done_upto..MAX_LOG_ID).contains(&p.epoch_end)
        && p.cursor.as_deref().is_none_or(valid_table_id);
    if !sane {
        return Err(DatabaseError::Invalid(format!(
            "the compaction row is damaged (done_upto {}, epoch_end {}, cursor {:?}); refusing to guess which log rows are stored twice",
            p.done_upto,
            p.epoch_end,
            p.cursor.as_deref().map(|c| c.chars().take(80).collect::<String>())
        )));
    }
    Ok(p)
}

/// Why a table's stored row cannot be trusted, if it cannot. An implausible
/// `last_active` is only reported: nothing is decided by it any more.
fn check_table(id: &str, last_active: i64, now: i64) -> Option<String> {
    if !valid_table_id(id) {
        return Some("its id is not one this server makes".to_owned());
    }
    if !sane_time(last_active, now) {
        tracing::warn!(table = id, last_active, "a stored last_active is not a plausible time; ignored");
    }
    None
}

/// Reads every live (not archived) table back in one read transaction, for start-up.
pub(crate) fn load(conn: &Connection, now: i64) -> Result<Loaded, DatabaseError> {
    let tx = conn.unchecked_transaction()?;
    let progress = read_progress(&tx)?;
    let mut tables: Vec<TableRows> = Vec::new();
    {
        let mut stmt = tx.prepare(
            "SELECT t.id, t.last_active, t.quarantined_at, e.entry FROM tables t
             LEFT JOIN entries e ON e.table_id = t.id
             WHERE t.archived_at IS NULL ORDER BY t.id, e.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?;
        for row in rows {
            let (id, last_active, quarantined_at, entry) = row?;
            if tables.last().is_none_or(|t| t.id != id) {
                let problem = check_table(&id, last_active, now);
                tables.push(TableRows {
                    id,
                    last_active,
                    quarantined_at,
                    problem,
                    entries: Vec::new(),
                    kept_games: Vec::new(),
                });
            }
            if let (Some(t), Some(e)) = (tables.last_mut(), entry) {
                t.entries.push(e);
            }
        }
    }
    let mut pending = Pending::new();
    let mut orphans: BTreeMap<String, Vec<String>> = BTreeMap::new();
    {
        // No index on `log` by table: the log holds at most a minute or so of
        // appends, and this runs once at start-up.
        let mut stmt =
            tx.prepare("SELECT id, table_id, entry FROM log WHERE id > ?1 ORDER BY table_id, id")?;
        let rows = stmt.query_map([progress.done_upto], |r| {
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
            if let Some(t) = tables.get_mut(at).filter(|t| t.id == table) {
                t.entries.push(entry);
                pending.entry(table).or_default().push(id);
            } else if !indexed(&tx, &table)? {
                // Deleting a table deletes its unmoved log rows with it, so a row
                // without its table's index row is damage; left alone, the next move
                // of the log would delete it.
                orphans.entry(table.clone()).or_default().push(entry);
                pending.entry(table).or_default().push(id);
            }
        }
    }
    for t in &mut tables {
        t.kept_games = kept_games(&tx, &t.id)?;
    }
    let mut orphaned = unindexed_entries(&tx)?;
    for (id, logged) in orphans {
        orphaned.entry(id).or_default().extend(logged);
    }
    for (id, entries) in orphaned {
        tracing::warn!(table = %id.escape_debug(), entries = entries.len(), "entries without their table's index row");
        let problem = Some("its row in the index of tables is missing (its entries are there)".to_owned());
        let kept_games = kept_games(&tx, &id)?;
        tables.push(TableRows { id, last_active: now, quarantined_at: None, problem, entries, kept_games });
    }
    tx.finish()?;
    Ok(Loaded { tables, progress, pending })
}

/// Whether `id` has its row in `tables` (archived or not).
fn indexed(tx: &Connection, id: &str) -> rusqlite::Result<bool> {
    tx.prepare_cached("SELECT 1 FROM tables WHERE id = ?1")?
        .query_row([id], |_| Ok(()))
        .optional()
        .map(|r| r.is_some())
}

/// The entries (moved out of the log) of every table id that has no row in `tables`,
/// oldest first. Found by skipping along the `entries_by_table` index one table id at
/// a time, so it costs a probe per stored table, not a read of every entry.
fn unindexed_entries(tx: &Connection) -> rusqlite::Result<BTreeMap<String, Vec<String>>> {
    let ids: Vec<String> = tx
        .prepare(
            "WITH RECURSIVE ids(id) AS (
                 SELECT min(table_id) FROM entries
                 UNION ALL
                 SELECT (SELECT min(table_id) FROM entries WHERE table_id > ids.id) FROM ids
                 WHERE ids.id IS NOT NULL
             )
             SELECT id FROM ids WHERE id IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM tables WHERE tables.id = ids.id)",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut out = BTreeMap::new();
    for id in ids {
        let entries = tx
            .prepare_cached("SELECT entry FROM entries WHERE table_id = ?1 ORDER BY id")?
            .query_map([&id], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        out.insert(id, entries);
    }
    Ok(out)
}

/// One table, archived or not, for a record download: looked up by primary key
/// first, so an unknown id costs one index probe and never a scan of `log`. An
/// archived or quarantined table has no rows in `log` (see `SCHEMA`); only a live
/// one does, and the server serves live tables from memory.
pub(crate) fn read_one(conn: &Connection, id: &str, now: i64) -> Result<Option<TableRows>, DatabaseError> {
    let tx = conn.unchecked_transaction()?;
    let row = tx
        .prepare_cached(LOOKUP)?
        .query_row([id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?, r.get::<_, Option<i64>>(2)?))
        })
        .optional()?;
    let Some((last_active, archived_at, quarantined_at)) = row else {
        return Ok(None);
    };
    let mut entries: Vec<String> = tx
        .prepare_cached("SELECT entry FROM entries WHERE table_id = ?1 ORDER BY id")?
        .query_map([id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if archived_at.is_none() && quarantined_at.is_none() {
        let progress = read_progress(&tx)?;
        let mut stmt =
            tx.prepare_cached("SELECT id, entry FROM log WHERE id > ?1 AND table_id = ?2 ORDER BY id")?;
        let rows = stmt.query_map(rusqlite::params![progress.done_upto, id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (log_id, entry) = row?;
            if !progress.moved(log_id, id) {
                entries.push(entry);
            }
        }
    }
    let kept_games = kept_games(&tx, id)?;
    tx.finish()?;
    let problem = check_table(id, last_active, now);
    Ok(Some(TableRows { id: id.to_owned(), last_active, quarantined_at, problem, entries, kept_games }))
}

/// The numbers of `table`'s games whose records are kept, in order.
fn kept_games(tx: &Connection, table: &str) -> rusqlite::Result<Vec<u32>> {
    tx.prepare_cached("SELECT game FROM games WHERE table_id = ?1 ORDER BY game")?
        .query_map([table], |r| r.get(0))?
        .collect()
}

/// A finished game's record as kept.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KeptGame {
    /// The game's number at its table (1 for the first, then each rematch).
    pub game: u32,
    /// Unix seconds when it was kept (its end).
    pub finished_at: i64,
    /// The record, as the server wrote it (JSON text).
    pub record: String,
}

/// Game `game` of `table`, or its latest kept game for `None`.
pub(crate) fn read_game(
    conn: &Connection,
    table: &str,
    game: Option<u32>,
) -> Result<Option<KeptGame>, DatabaseError> {
    let row =
        |r: &rusqlite::Row<'_>| Ok(KeptGame { game: r.get(0)?, finished_at: r.get(1)?, record: r.get(2)? });
    let found = match game {
        Some(n) => conn
            .prepare_cached("SELECT game, finished_at, record FROM games WHERE table_id = ?1 AND game = ?2")?
            .query_row(rusqlite::params![table, n], row)
            .optional()?,
        None => conn
            .prepare_cached(
                "SELECT game, finished_at, record FROM games WHERE table_id = ?1 ORDER BY game DESC LIMIT 1",
            )?
            .query_row([table], row)
            .optional()?,
    };
    Ok(found)
}

/// The stored review of round `round` of game `game` of `table`: its version and JSON.
pub(crate) fn read_review(
    conn: &Connection,
    table: &str,
    game: u32,
    round: u32,
) -> Result<Option<(u32, String)>, DatabaseError> {
    Ok(conn
        .prepare_cached(
            "SELECT version, review FROM reviews WHERE table_id = ?1 AND game = ?2 AND round = ?3",
        )?
        .query_row(rusqlite::params![table, game, round], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// The lookup that decides whether a table exists (a primary-key probe).
pub(crate) const LOOKUP: &str = "SELECT last_active, archived_at, quarantined_at FROM tables WHERE id = ?1";
