//! What an operator gets out of the file for one table, exactly as stored, without
//! the store thread and without writing anything: for a quarantined table (the
//! server could not rebuild it) or any other, while the server runs or not.
//!
//! "Without writing anything" holds for every file beside the database too. SQLite's
//! last connection to a file checkpoints its write-ahead log into it and deletes the
//! log and its index (`-wal`, `-shm`), and even a read-only connection rebuilds the
//! index; so the file is opened in one of three ways:
//! - no log with data beside it: `immutable`, where SQLite takes no lock and writes
//!   no byte, not even an index;
//! - a log that a running server holds open (it holds a lock in the index): read-only
//!   beside the server, like any reader of its database;
//! - a log nobody holds (a server stopped by a crash): the file and its log are
//!   copied into a private folder and the copy is read, so the originals stay as the
//!   crash left them for the server's own recovery.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::Serialize;

use crate::error::DatabaseError;
use crate::schema::KeptGame;
use crate::schema::{Kind, identify, refuse_lost_file, wal_path};

/// One table as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Export {
    /// The table id.
    pub table: String,
    /// Unix seconds of the last append (rewritten at most once a minute); `None` when
    /// the table itself is gone (deleted unfinished) and only its kept games are left.
    pub last_active: Option<i64>,
    /// Unix seconds when the finished table left memory, if it did.
    pub archived_at: Option<i64>,
    /// Unix seconds when the server first could not rebuild it, if so.
    pub quarantined_at: Option<i64>,
    /// The history, oldest first, as stored text (a damaged entry shows as it is).
    pub entries: Vec<String>,
    /// Entries taken out of the history (a torn last write), oldest first.
    pub damaged: Vec<Damaged>,
    /// The records of its finished games, kept on their own, by game number.
    pub games: Vec<KeptGame>,
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
    refuse_lost_file(path)?;
    if !path.is_file() {
        return Err(DatabaseError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} is not a file", path.display()),
        )));
    }
    let wal = wal_path(path);
    let logged = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
    if !logged {
        return export_from(&open_read_only(path, "immutable=1")?, path, table);
    }
    if held_open(path) {
        return export_from(&open_read_only(path, "mode=ro")?, path, table);
    }
    let copy = tempfile::tempdir()?;
    let file = copy.path().join("copy.sqlite3");
    std::fs::copy(path, &file)?;
    std::fs::copy(&wal, wal_path(&file))?;
    export_from(&open_read_only(&file, "mode=ro")?, path, table)
}

/// Opens `path` read-only with the URI parameter `param`.
fn open_read_only(path: &Path, param: &str) -> Result<Connection, DatabaseError> {
    let uri = format!("file:{}?{param}", uri_path(path));
    let conn = Connection::open_with_flags(
        uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// `path` for a `file:` URI: absolute, with every byte but the unreserved ones
/// percent-encoded (a `?` or `#` in a folder name is not a parameter).
fn uri_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = String::new();
    for &b in absolute.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether a connection (a running server's) holds the database at `path` open: every
/// SQLite connection to a file in WAL mode keeps a shared lock on byte 128 of its
/// `-shm` index (the unix VFS's "DMS" byte) for as long as it is open. Asked with an
/// open-file-description lock query, which also sees this process's own locks and
/// takes none.
fn held_open(path: &Path) -> bool {
    let mut shm = path.as_os_str().to_owned();
    shm.push("-shm");
    let Ok(file) = std::fs::File::open(&shm) else { return false };
    let mut probe = nix::libc::flock {
        l_type: nix::libc::F_WRLCK as i16,
        l_whence: nix::libc::SEEK_SET as i16,
        l_start: 128,
        l_len: 1,
        l_pid: 0,
    };
    match nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_OFD_GETLK(&mut probe)) {
        Ok(_) => probe.l_type != nix::libc::F_UNLCK as i16,
        // Cannot tell: treat it as held, the choice that never copies a file being
        // written.
        Err(_) => true,
    }
}

/// [`export`] from an open connection; `path` names the file in messages.
fn export_from(conn: &Connection, path: &Path, table: &str) -> Result<Option<Export>, DatabaseError> {
    let kind = identify(conn, path)?;
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
    // Read on without the table's row: its kept games outlive it, and entries that
    // lost their row are damage to show, not to hide.
    let (last_active, archived_at, quarantined_at) = tx
        .query_row(lookup, [table], |r| Ok((Some(r.get(0)?), r.get(1)?, r.get(2)?)))
        .optional()?
        .unwrap_or((None, None, None));
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
    let has_games: bool =
        tx.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'games'", [], |r| r.get::<_, i64>(0))?
            > 0;
    let games = if has_games {
        tx.prepare("SELECT game, finished_at, record FROM games WHERE table_id = ?1 ORDER BY game")?
            .query_map([table], |r| {
                Ok(KeptGame { game: r.get(0)?, finished_at: r.get(1)?, record: r.get(2)? })
            })?
            .collect::<Result<_, _>>()?
    } else {
        Vec::new()
    };
    tx.finish()?;
    if last_active.is_none() && entries.is_empty() && damaged.is_empty() && games.is_empty() {
        return Ok(None);
    }
    Ok(Some(Export {
        table: table.to_owned(),
        last_active,
        archived_at,
        quarantined_at,
        entries,
        damaged,
        games,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The probe sees a store's connections, in this process too, and nothing once
    // they are closed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_running_store_is_seen_holding_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.sqlite3");
        let (store, _) = crate::Database::open(&path).unwrap();
        store.append("t", "a".into()).await.unwrap();
        assert!(held_open(&path));
        drop(store);
        let mut held = true;
        for _ in 0..100 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            held = held_open(&path);
            if !held {
                break;
            }
        }
        assert!(!held, "closed");
    }
}
