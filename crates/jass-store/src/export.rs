//! What an operator gets out of the file for one table, exactly as stored, without
//! the store thread and without writing anything: for a quarantined table (the
//! server could not rebuild it) or any other, while the server runs or not.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use crate::DatabaseError;
use crate::schema::{Kind, identify};

/// One table as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Export {
    /// The table id.
    pub table: String,
    /// Unix seconds of the last append (rewritten at most once a minute).
    pub last_active: i64,
    /// Unix seconds when the finished table left memory, if it did.
    pub archived_at: Option<i64>,
    /// Unix seconds when the server first could not rebuild it, if so.
    pub quarantined_at: Option<i64>,
    /// The history, oldest first, as stored text (a damaged entry shows as it is).
    pub entries: Vec<String>,
    /// Entries taken out of the history (a torn last write), oldest first.
    pub damaged: Vec<Damaged>,
}

/// An entry moved out of a table's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Damaged {
    /// The stored text.
    pub entry: String,
    /// Why it was taken out.
    pub reason: String,
    /// Unix seconds when.
    pub at: i64,
}

/// Reads `table` from the database at `path` without changing the file: no schema,
/// no WAL switch, and a missing file is an error, not a new one. Foreign files are
/// refused as [`crate::Database::open`] refuses them.
///
/// # Errors
/// The file is missing, not ours, or cannot be read.
pub fn export(path: &Path, table: &str) -> Result<Option<Export>, DatabaseError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let kind = identify(&conn, path)?;
    if kind == Kind::New {
        return Ok(None);
    }
    // Files from before the ids have neither the flags nor `damaged`.
    let current = kind != Kind::Legacy;
    let tx = conn.unchecked_transaction()?;
    let lookup = if current {
        "SELECT last_active, archived_at, quarantined_at FROM tables WHERE id = ?1"
    } else {
        "SELECT last_active, NULL, NULL FROM tables WHERE id = ?1"
    };
    let Some((last_active, archived_at, quarantined_at)) =
        tx.query_row(lookup, [table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).optional()?
    else {
        return Ok(None);
    };
    let mut entries: Vec<String> = tx
        .prepare("SELECT entry FROM entries WHERE table_id = ?1 ORDER BY id")?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let has_log: bool = tx
        .query_row("SELECT count(*) FROM sqlite_master WHERE name = 'log'", [], |r| r.get::<_, i64>(0))?
        > 0;
    if has_log {
        let (done_upto, epoch_end, cursor): (i64, i64, Option<String>) = tx
            .query_row("SELECT done_upto, epoch_end, cursor FROM compaction WHERE id = 0", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?
            .unwrap_or((0, 0, None));
        let progress = crate::schema::Progress { done_upto, epoch_end, cursor };
        let mut stmt = tx.prepare("SELECT id, entry FROM log WHERE table_id = ?1 ORDER BY id")?;
        let rows = stmt.query_map([table], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (id, entry) = row?;
            if !progress.moved(id, table) {
                entries.push(entry);
            }
        }
    }
    let damaged = if current {
        tx.prepare("SELECT entry, reason, at FROM damaged WHERE table_id = ?1 ORDER BY id")?
            .query_map([table], |r| Ok(Damaged { entry: r.get(0)?, reason: r.get(1)?, at: r.get(2)? }))?
            .collect::<Result<_, _>>()?
    } else {
        Vec::new()
    };
    tx.finish()?;
    Ok(Some(Export { table: table.to_owned(), last_active, archived_at, quarantined_at, entries, damaged }))
}
