//! The store refuses files that are not its own, validates what it reads back, keeps
//! finished tables out of start-up and purges them after the retention, answers a
//! read of an unknown table without scanning the log, and sets damaged entries aside
//! instead of deleting them (README, "What the database keeps").

use jass_store::{Database, DatabaseError};
use rusqlite::Connection;

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-integrity-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("db.sqlite3")
}

fn cleanup(path: &std::path::Path) {
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// What a file looks like from outside: ids, journal mode, table names.
fn fingerprint(path: &std::path::Path) -> (i32, i32, String, Vec<String>) {
    let conn = Connection::open(path).unwrap();
    let app = conn.query_row("PRAGMA application_id", [], |r| r.get(0)).unwrap();
    let version = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    let journal = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    let mut stmt = conn.prepare("SELECT name FROM sqlite_master ORDER BY name").unwrap();
    let names = stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
    (app, version, journal, names)
}

fn refusal(path: &std::path::Path) -> String {
    match Database::open(path) {
        Err(DatabaseError::Refused(why)) => why,
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("a file that is not ours was opened"),
    }
}

#[test]
fn a_new_file_is_stamped_as_ours() {
    let path = temp_db("new");
    drop(Database::open(&path).unwrap());
    let (app, version, journal, _) = fingerprint(&path);
    assert_eq!((app, version), (jass_store::APPLICATION_ID, jass_store::SCHEMA_VERSION));
    assert_eq!(journal, "wal");
    // And it opens again as ours.
    drop(Database::open(&path).unwrap());
    cleanup(&path);
}

#[test]
fn another_applications_sqlite_file_is_refused_and_left_as_it_was() {
    let path = temp_db("foreign");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'x');",
        )
        .unwrap();
    }
    let before = fingerprint(&path);
    let why = refusal(&path);
    assert!(why.contains("not a jass-server database") && why.contains("users"), "{why}");
    assert_eq!(fingerprint(&path), before, "no schema, no WAL switch, no ids");
    assert_eq!(before.2, "delete");
    assert!(!path.with_extension("sqlite3-wal").exists(), "no WAL file was made");
    // A file that merely shares a table name with ours is not ours either.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE tables (id TEXT, colour TEXT); CREATE TABLE entries (id, table_id, entry);",
        )
        .unwrap();
    }
    refusal(&path);
    cleanup(&path);
}

#[test]
fn a_file_with_another_application_id_is_refused_even_when_empty() {
    let path = temp_db("other-id");
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "application_id", 0x1234_5678).unwrap();
    }
    let why = refusal(&path);
    assert!(why.contains("0x12345678"), "{why}");
    assert_eq!(fingerprint(&path).3, Vec::<String>::new(), "nothing was added");
    cleanup(&path);
}

#[test]
fn a_file_of_a_newer_layout_is_refused() {
    let path = temp_db("newer");
    drop(Database::open(&path).unwrap());
    {
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", jass_store::SCHEMA_VERSION + 1).unwrap();
    }
    let why = refusal(&path);
    assert!(why.contains("newer"), "{why}");
    cleanup(&path);
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_and_not_overwritten() {
    let path = temp_db("text");
    let text = "these are my notes, not a database\n".repeat(200);
    std::fs::write(&path, &text).unwrap();
    let why = refusal(&path);
    assert!(why.contains("not a SQLite database"), "{why}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    cleanup(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_compaction_row_or_table_id_is_reported_not_trusted() {
    let path = temp_db("values");
    {
        let (store, _) = Database::open(&path).unwrap();
        store.append("good", "1".into()).await.unwrap();
    }
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute("INSERT INTO tables (id, last_active) VALUES ('../../etc passwd\u{202e}', 5)", [])
            .unwrap();
        conn.execute("INSERT INTO entries (table_id, entry) VALUES ('../../etc passwd\u{202e}', '{}')", [])
            .unwrap();
    }
    let (store, tables) = Database::open(&path).unwrap();
    drop(store);
    let bad = tables.iter().find(|t| t.id.starts_with("../")).expect("still read, so it can be reported");
    assert!(bad.problem.as_deref().is_some_and(|p| p.contains("id")), "{bad:?}");
    let good = tables.iter().find(|t| t.id == "good").unwrap();
    assert_eq!((good.problem.as_deref(), good.entries.as_slice()), (None, ["1".to_owned()].as_slice()));
    // A cursor that would make reads skip or repeat log rows: refused, not guessed at.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE compaction SET done_upto = 10, epoch_end = 3", []).unwrap();
    }
    match Database::open(&path) {
        Err(DatabaseError::Invalid(why)) => assert!(why.contains("compaction"), "{why}"),
        other => panic!("expected a damaged-file error, got {:?}", other.map(|(_, t)| t)),
    }
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE compaction SET done_upto = 0, epoch_end = 0, cursor = char(0) || 'x'", [])
            .unwrap();
    }
    assert!(matches!(Database::open(&path), Err(DatabaseError::Invalid(_))));
    cleanup(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_tables_are_not_loaded_but_read_on_demand_and_purged_after_retention() {
    let path = temp_db("archive");
    {
        let (store, _) = Database::open(&path).unwrap();
        for t in ["done", "old", "live", "back"] {
            for n in 0..3 {
                store.append(t, format!("{t}{n}")).await.unwrap();
            }
        }
        store.archive("done").await.unwrap();
        store.archive("old").await.unwrap();
        store.archive("back").await.unwrap();
        // A table written to after its archive is live again.
        store.append("back", "back3".into()).await.unwrap();
    }
    let (store, tables) = Database::open(&path).unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["back", "live"], "archived tables are not loaded at start-up");
    assert_eq!(tables[0].entries, ["back0", "back1", "back2", "back3"]);
    let done = store.read_table("done").unwrap().expect("an archived table is read on demand");
    assert_eq!(done.entries, ["done0", "done1", "done2"]);
    // "old" was archived long ago; "done" just now.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE tables SET archived_at = ?1 WHERE id = 'old'", [now() - 40 * 86_400]).unwrap();
    }
    let purged = store.purge_archived(now() - 30 * 86_400, 100).await.unwrap();
    assert_eq!(purged, 1);
    assert!(store.read_table("old").unwrap().is_none(), "purged after the retention");
    assert!(store.read_table("done").unwrap().is_some(), "kept within the retention");
    assert!(store.read_table("live").unwrap().is_some(), "live tables are never purged");
    // An archived_at that is no plausible time is damage: never a reason to delete.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE tables SET archived_at = 5 WHERE id = 'done'", []).unwrap();
    }
    assert_eq!(store.purge_archived(now() + 1, 100).await.unwrap(), 0);
    assert!(store.read_table("done").unwrap().is_some());
    // Purges go in slices of `limit`.
    for n in 0..5 {
        let t = format!("f{n}");
        store.append(&t, "x".into()).await.unwrap();
        store.archive(&t).await.unwrap();
    }
    assert_eq!(store.purge_archived(now() + 1, 2).await.unwrap(), 2);
    assert_eq!(store.purge_archived(now() + 1, 2).await.unwrap(), 2);
    assert_eq!(store.purge_archived(now() + 1, 2).await.unwrap(), 1);
    drop(store);
    let conn = Connection::open(&path).unwrap();
    let left: i64 =
        conn.query_row("SELECT count(*) FROM entries WHERE table_id LIKE 'f%'", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 0, "a purged table's entries are gone with it");
    cleanup(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reading_an_unknown_or_archived_table_never_reads_the_log() {
    let path = temp_db("lookup");
    // Moves never start, so every row stays in the log.
    let lazy = jass_store::Tuning { move_every: std::time::Duration::from_secs(3600), move_rows: usize::MAX };
    let (store, _) = Database::open_tuned(&path, lazy).unwrap();
    for n in 0..200 {
        store.append(&format!("t{}", n % 20), n.to_string()).await.unwrap();
    }
    store.archive("t3").await.unwrap();
    store.quarantine("t4").await.unwrap();
    assert!(store.read_table("t5").unwrap().is_some(), "a live table is read (from the log)");
    // Structural proof: with the log gone, reads that must not touch it still work.
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch("ALTER TABLE log RENAME TO log_gone").unwrap();
    assert!(store.read_table("no-such-table").unwrap().is_none(), "unknown: one primary-key probe");
    assert_eq!(store.read_table("t3").unwrap().unwrap().entries.len(), 10, "archived: entries only");
    assert_eq!(store.read_table("t4").unwrap().unwrap().entries.len(), 10, "quarantined: entries only");
    assert!(store.read_table("t5").is_err(), "a live table does need the log: the check above is real");
    conn.execute_batch("ALTER TABLE log_gone RENAME TO log").unwrap();
    // And the probe is a primary-key search, not a scan of `tables`.
    let plan: Vec<String> = conn
        .prepare(
            "EXPLAIN QUERY PLAN SELECT last_active, archived_at, quarantined_at FROM tables WHERE id = ?1",
        )
        .unwrap()
        .query_map(["x"], |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(plan.iter().all(|p| p.starts_with("SEARCH tables USING INDEX")), "{plan:?}");
    drop(store);
    cleanup(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_aside_entries_are_kept_in_damaged_and_exported() {
    let path = temp_db("aside");
    let (store, _) = Database::open(&path).unwrap();
    for e in ["a", "b", "{\"torn"] {
        store.append("t", e.into()).await.unwrap();
    }
    store.set_aside("t", 2, "unparsable last entry").await.unwrap();
    store.append("t", "c".into()).await.unwrap();
    assert_eq!(
        store.read_table("t").unwrap().unwrap().entries,
        ["a", "b", "c"],
        "appends follow the last good"
    );
    let out = jass_store::export(&path, "t").unwrap().unwrap();
    assert_eq!(out.entries, ["a", "b", "c"]);
    assert_eq!(out.damaged.len(), 1);
    assert_eq!(
        (out.damaged[0].entry.as_str(), out.damaged[0].reason.as_str()),
        ("{\"torn", "unparsable last entry")
    );
    assert!(jass_store::export(&path, "nope").unwrap().is_none());
    drop(store);
    // Export reads without creating or changing anything.
    let missing = path.with_file_name("missing.sqlite3");
    assert!(jass_store::export(&missing, "t").is_err());
    assert!(!missing.exists(), "export made no file");
    let foreign = path.with_file_name("foreign.sqlite3");
    Connection::open(&foreign).unwrap().execute_batch("CREATE TABLE users (id)").unwrap();
    assert!(matches!(jass_store::export(&foreign, "t"), Err(DatabaseError::Refused(_))));
    cleanup(&path);
}

/// Every file in the folder of `path` with its bytes.
fn folder_bytes(path: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// A database as a kill -9 leaves it: the file, its write-ahead log with the latest
/// commits and the log's index, copied while the store that wrote them was open.
async fn crashed_copy(name: &str, entries: &[&str]) -> std::path::PathBuf {
    let live = temp_db(&format!("{name}-live"));
    let (store, _) = Database::open(&live).unwrap();
    for e in entries {
        store.append("t", (*e).into()).await.unwrap();
    }
    // Let the checkpointer settle, so the copy is of files nobody writes just then.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let dead = temp_db(name);
    for suffix in ["", "-wal", "-shm"] {
        let from = format!("{}{suffix}", live.display());
        std::fs::copy(&from, format!("{}{suffix}", dead.display())).unwrap();
    }
    drop(store);
    cleanup(&live);
    assert!(std::fs::metadata(format!("{}-wal", dead.display())).unwrap().len() > 0, "a log with data");
    dead
}

// A database file cut to nothing (or lost) while its write-ahead log is still beside
// it is refused with a clear message, and neither file is touched: opening it would
// start an empty store and overwrite the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_database_file_with_its_log_beside_it_is_refused_untouched() {
    let path = crashed_copy("emptied", &["a", "b"]).await;
    std::fs::write(&path, b"").unwrap();
    let before = folder_bytes(&path);
    let why = refusal(&path);
    assert!(why.contains("write-ahead log") && why.contains("nothing was changed"), "{why}");
    assert!(matches!(jass_store::export(&path, "t"), Err(DatabaseError::Refused(_))));
    assert_eq!(folder_bytes(&path), before, "no file changed, none made or deleted");
    // Missing altogether: the same.
    std::fs::remove_file(&path).unwrap();
    let before = folder_bytes(&path);
    refusal(&path);
    assert_eq!(folder_bytes(&path), before);
    cleanup(&path);
}

// `export` changes no byte on disk: not of a crashed server's file, its log or the
// log's index (SQLite's last connection would checkpoint and delete them), not of a
// cleanly stopped one's (nothing is made beside it), and it reads beside a running
// store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_changes_no_byte_on_disk() {
    // A crash left the newest entries only in the log.
    let path = crashed_copy("export-crashed", &["a", "b", "c"]).await;
    let before = folder_bytes(&path);
    let out = jass_store::export(&path, "t").unwrap().unwrap();
    assert_eq!(out.entries, ["a", "b", "c"], "the log's entries are read");
    assert_eq!(folder_bytes(&path), before, "the crashed files are as the crash left them");
    // The server's own recovery still finds everything there.
    {
        let (_store, tables) = Database::open(&path).unwrap();
        assert_eq!(tables[0].entries, ["a", "b", "c"]);
    }
    // Stopped cleanly: just the file. (The store's two connections close on their
    // own threads, and when they close at once neither may take the log away; a
    // last connection of our own does.)
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let last = Connection::open(&path).unwrap();
    last.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).unwrap();
    drop(last);
    let before = folder_bytes(&path);
    assert_eq!(before.len(), 1, "{:?}", before.keys());
    assert_eq!(jass_store::export(&path, "t").unwrap().unwrap().entries, ["a", "b", "c"]);
    assert_eq!(folder_bytes(&path), before, "nothing made beside it");
    // Beside a running store.
    let (store, _) = Database::open(&path).unwrap();
    store.append("t", "d".into()).await.unwrap();
    assert_eq!(jass_store::export(&path, "t").unwrap().unwrap().entries, ["a", "b", "c", "d"]);
    store.append("t", "e".into()).await.unwrap();
    assert_eq!(store.read_table("t").unwrap().unwrap().entries, ["a", "b", "c", "d", "e"]);
    drop(store);
    cleanup(&path);
}

// Entries whose table lost its row in the index of tables, moved into `entries` or
// still in the append log, come back at start-up as a table with a problem (never
// served), and quarantining it gives it its row back with every entry, which later
// moves of the log keep.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_without_their_index_row_are_loaded_as_damage_and_kept() {
    let path = temp_db("orphans");
    let eager = jass_store::Tuning { move_every: std::time::Duration::ZERO, move_rows: 1 };
    {
        let (store, _) = Database::open_tuned(&path, eager).unwrap();
        for e in ["m1", "m2", "m3"] {
            store.append("moved", e.into()).await.unwrap();
        }
        // Enough commits for the move to finish.
        for i in 0..20 {
            store.append("other", format!("o{i}")).await.unwrap();
        }
        drop(store);
    }
    let lazy = jass_store::Tuning { move_every: std::time::Duration::from_secs(3600), move_rows: usize::MAX };
    {
        let (store, _) = Database::open_tuned(&path, lazy).unwrap();
        store.append("logged", "l1".into()).await.unwrap();
        store.append("logged", "l2".into()).await.unwrap();
        drop(store);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let conn = Connection::open(&path).unwrap();
    let in_entries: i64 =
        conn.query_row("SELECT count(*) FROM entries WHERE table_id = 'moved'", [], |r| r.get(0)).unwrap();
    assert_eq!(in_entries, 3, "moved into entries");
    conn.execute("DELETE FROM tables WHERE id IN ('moved', 'logged')", []).unwrap();
    drop(conn);
    let (store, tables) = Database::open_tuned(&path, eager).unwrap();
    let find = |id: &str| tables.iter().find(|t| t.id == id).cloned().unwrap();
    for (id, entries) in [("moved", vec!["m1", "m2", "m3"]), ("logged", vec!["l1", "l2"])] {
        let t = find(id);
        assert_eq!(t.entries, entries, "{id}");
        assert!(t.problem.as_deref().is_some_and(|p| p.contains("index")), "{t:?}");
        store.quarantine(id).await.unwrap();
    }
    assert_eq!(find("other").problem, None);
    // More commits: the log moves on past the quarantined rows.
    for i in 20..40 {
        store.append("other", format!("o{i}")).await.unwrap();
    }
    drop(store);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_store, tables) = Database::open(&path).unwrap();
    for (id, entries) in [("moved", vec!["m1", "m2", "m3"]), ("logged", vec!["l1", "l2"])] {
        let t = tables.iter().find(|t| t.id == id).unwrap();
        assert_eq!(
            (t.entries.clone(), t.problem.clone()),
            (entries.iter().map(|e| e.to_string()).collect(), None)
        );
        assert!(t.quarantined_at.is_some(), "{t:?}");
    }
    drop(_store);
    cleanup(&path);
}
