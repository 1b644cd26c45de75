//! The store keeps what it acknowledged, in order, across reopen, and isolates failed
//! writes.

use jass_store::Database;

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("db.sqlite3")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_entries_survive_reopen_in_order() {
    let path = temp_db("reopen");
    {
        let (store, tables) = Database::open(&path).unwrap();
        assert!(tables.is_empty());
        // Queued in call order even when awaited later.
        let futs: Vec<_> = (0..40).map(|n| store.append("a", format!("{{\"n\":{n}}}"))).collect();
        for f in futs {
            f.await.unwrap();
        }
        store.append("b", "{}".into()).await.unwrap();
        store.append("c", "{}".into()).await.unwrap();
        store.delete_table("b").await.unwrap();
        store.append("c", "{\"torn".into()).await.unwrap();
        store.set_aside("c", 1, "torn").await.unwrap();
    }
    let (_store, tables) = Database::open(&path).unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["a", "c"]);
    let expected: Vec<String> = (0..40).map(|n| format!("{{\"n\":{n}}}")).collect();
    assert_eq!(tables[0].entries, expected);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_all_land() {
    let path = temp_db("group");
    let (store, _) = Database::open(&path).unwrap();
    let mut tasks = Vec::new();
    for t in 0..50 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("t{t:02}");
            for seq in 0..20 {
                store.append(&id, format!("{seq}")).await.unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let t7 = store.read_table("t07").unwrap().unwrap();
    assert_eq!(t7.entries.len(), 20);
    assert!(store.read_table("nope").unwrap().is_none());
    drop(store);
    let (_s, tables) = Database::open(&path).unwrap();
    assert_eq!(tables.len(), 50);
    assert!(tables.iter().all(|t| t.entries.len() == 20));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_deleted_and_written_again_in_one_batch_is_kept() {
    let path = temp_db("recreate");
    let (store, _) = Database::open(&path).unwrap();
    store.append("x", "1".into()).await.unwrap();
    // Queued back to back, so they very likely share one commit; the table row must
    // come back although the store wrote it moments before.
    let (a, b, c) = (store.delete_table("x"), store.append("x", "2".into()), store.append("y", "3".into()));
    a.await.unwrap();
    b.await.unwrap();
    c.await.unwrap();
    drop(store);
    let (_s, tables) = Database::open(&path).unwrap();
    let x = tables.iter().find(|t| t.id == "x").expect("table x is stored");
    assert_eq!(x.entries, ["2"]);
    assert!(x.last_active > 0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_every_commit_and_write() {
    let path = temp_db("metrics");
    let (store, _) = Database::open(&path).unwrap();
    let futs: Vec<_> = (0..100).map(|n| store.append(&format!("t{}", n % 7), n.to_string())).collect();
    for f in futs {
        f.await.unwrap();
    }
    store.delete_table("t3").await.unwrap();
    let m = store.metrics();
    assert_eq!(m.writes, 101);
    assert!(m.commits >= 1 && m.commits <= 101, "{m:?}");
    assert!(m.largest_batch >= 1 && m.largest_batch <= 100, "{m:?}");
    assert_eq!(m.commit_ms_histogram.iter().sum::<u64>(), m.commits);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checkpointer_copies_the_wal_into_the_database_while_the_store_runs() {
    let path = temp_db("checkpoint");
    let (store, _) = Database::open(&path).unwrap();
    let size = || std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let empty = size();
    let futs: Vec<_> = (0..500).map(|n| store.append(&format!("t{}", n % 50), "x".repeat(200))).collect();
    for f in futs {
        f.await.unwrap();
    }
    // The writer never checkpoints below its backstop; the database file grows only
    // because the checkpointer thread copied the WAL into it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while size() <= empty && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(size() > empty + 100_000, "database file {} bytes, was {empty}", size());
    // New databases use small pages (fewer bytes written per commit).
    let conn = rusqlite::Connection::open(&path).unwrap();
    let page: u32 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
    assert_eq!(page, 1024);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Rows in `log` and in `entries` (the move's progress, seen from outside).
fn rows(path: &std::path::Path) -> (i64, i64) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let count = |t: &str| conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0)).unwrap();
    (count("log"), count("entries"))
}

/// A move on every commit, in steps of at most 64 rows.
const EAGER: jass_store::Tuning = jass_store::Tuning { move_every: std::time::Duration::ZERO, move_rows: 1 };

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_are_moved_from_the_log_into_entries_and_read_back_once() {
    let path = temp_db("move");
    let (store, _) = Database::open_tuned(&path, EAGER).unwrap();
    // 300 tables: one move takes several steps (commits).
    let futs: Vec<_> = (0..300).map(|t| store.append(&format!("t{t:03}"), format!("a{t}"))).collect();
    for f in futs {
        f.await.unwrap();
    }
    for n in 0..40 {
        store.append("t007", format!("b{n}")).await.unwrap();
    }
    let t7 = store.read_table("t007").unwrap().unwrap();
    assert_eq!(t7.entries.len(), 41);
    assert_eq!(t7.entries[0], "a7");
    assert_eq!(t7.entries[40], "b39");
    drop(store);
    let (log, entries) = rows(&path);
    assert!(entries >= 300, "the first 300 rows were moved: log {log}, entries {entries}");
    assert!(log < 100, "moved rows are deleted from the log: log {log}, entries {entries}");
    let (_s, tables) = Database::open_tuned(&path, EAGER).unwrap();
    assert_eq!(tables.len(), 300);
    assert_eq!(tables.iter().map(|t| t.entries.len()).sum::<usize>(), 340);
    assert_eq!(tables[7].entries, t7.entries);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Log rows that the `compaction` row does not count as moved (`Progress::moved`).
fn unmoved_in_file(path: &std::path::Path) -> u64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row(
        "SELECT count(*) FROM log, compaction WHERE log.id > compaction.done_upto AND NOT
         (log.id <= compaction.epoch_end AND log.table_id <= coalesce(compaction.cursor, ''))",
        [],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as u64)
    .unwrap()
}

/// `unmoved_rows` counts the entries a restart would read from the log: all of them
/// before a move, fewer as a move goes, none after it; a table deleted before its
/// turn in a move leaves the count too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_rows_waiting_in_the_log() {
    let path = temp_db("unmoved");
    let lazy = jass_store::Tuning { move_every: std::time::Duration::from_secs(3600), move_rows: usize::MAX };
    let (store, _) = Database::open_tuned(&path, lazy).unwrap();
    let futs: Vec<_> = (0..300).map(|t| store.append(&format!("t{t:03}"), "x".into())).collect();
    for f in futs {
        f.await.unwrap();
    }
    store.append("t000", "y".into()).await.unwrap();
    assert_eq!(store.metrics().unmoved_rows, 301);
    store.delete_table("t001").await.unwrap();
    assert_eq!(store.metrics().unmoved_rows, 300);
    drop(store);
    let (store, _) = Database::open_tuned(&path, EAGER).unwrap();
    assert_eq!(store.metrics().unmoved_rows, 300, "counted at open");
    // This commit starts a move and carries its first step, which moves some tables;
    // the deleted table is further on.
    store.delete_table("t299").await.unwrap();
    let mid = store.metrics().unmoved_rows;
    assert!(mid > 0 && mid < 299, "{mid}");
    assert_eq!(mid, unmoved_in_file(&path), "what a restart would read from the log");
    for _ in 0..10 {
        store.delete_table("no-such-table").await.unwrap();
    }
    assert_eq!(store.metrics().unmoved_rows, 0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Log ids are never reused: once every row is moved and deleted the log is empty,
/// and a row logged after a reopen must still count as not yet moved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_logged_after_the_log_emptied_are_read_back() {
    let path = temp_db("empty-log");
    let (store, _) = Database::open_tuned(&path, EAGER).unwrap();
    for n in 0..5 {
        store.append("t", format!("a{n}")).await.unwrap();
    }
    // Commits without appends carry the last steps: move, then delete.
    for _ in 0..3 {
        store.delete_table("no-such-table").await.unwrap();
    }
    drop(store);
    assert_eq!(rows(&path), (0, 5), "every row moved and deleted from the log");
    let (store, _) = Database::open_tuned(&path, EAGER).unwrap();
    store.append("t", "b".into()).await.unwrap();
    drop(store);
    let (_s, tables) = Database::open_tuned(&path, EAGER).unwrap();
    assert_eq!(tables[0].entries, ["a0", "a1", "a2", "a3", "a4", "b"]);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Random appends, deletes, cuts and reopens always read back exactly what a plain
/// model holds: with moves on every commit, moves that never start, and the two
/// alternating, so that some reopens find a move half done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mix_of_writes_moves_and_reopens_reads_back_like_a_model() {
    let lazy = jass_store::Tuning { move_every: std::time::Duration::from_secs(3600), move_rows: usize::MAX };
    for (name, tunings) in
        [("model-eager", [EAGER, EAGER]), ("model-lazy", [lazy, lazy]), ("model-mixed", [lazy, EAGER])]
    {
        let path = temp_db(name);
        let mut model: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        // Tables archived since their last append: not loaded at open, still readable.
        let mut archived: std::collections::BTreeSet<String> = Default::default();
        let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (rng >> 33) % n
        };
        let mut serial = 0;
        let mut reopened_mid_move = 0;
        for round in 0..18 {
            let (store, tables) = Database::open_tuned(&path, tunings[round % 2]).unwrap();
            let got: std::collections::BTreeMap<String, Vec<String>> =
                tables.into_iter().map(|t| (t.id, t.entries)).collect();
            let live: std::collections::BTreeMap<String, Vec<String>> = model
                .iter()
                .filter(|(t, _)| !archived.contains(*t))
                .map(|(t, e)| (t.clone(), e.clone()))
                .collect();
            assert_eq!(got, live, "{name}: read back after reopen {round}");
            // Every third round is short: a move the last round queued is cut off.
            let ops = if round % 3 == 2 { 2 } else { 400 };
            let mut futs: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = _> + Send>>> = Vec::new();
            for _ in 0..ops {
                let table = format!("t{:02}", next(90));
                match next(100) {
                    0 => {
                        model.remove(&table);
                        archived.remove(&table);
                        futs.push(Box::pin(store.delete_table(&table)));
                    }
                    2 => {
                        if model.contains_key(&table) {
                            archived.insert(table.clone());
                        }
                        futs.push(Box::pin(store.archive(&table)));
                    }
                    3 => futs.push(Box::pin(store.quarantine(&table))),
                    1 => {
                        let keep = next(5) as usize;
                        if let Some(e) = model.get_mut(&table) {
                            e.truncate(keep);
                        }
                        futs.push(Box::pin(store.set_aside(&table, keep as u64, "test")));
                    }
                    _ => {
                        serial += 1;
                        archived.remove(&table);
                        model.entry(table.clone()).or_default().push(serial.to_string());
                        futs.push(Box::pin(store.append(&table, serial.to_string())));
                    }
                }
                // Await now and then, so writes spread over many commits.
                if next(8) == 0 {
                    for f in futs.drain(..) {
                        f.await.unwrap();
                    }
                }
            }
            for f in futs {
                f.await.unwrap();
            }
            for _ in 0..5 {
                let probe = format!("t{:02}", next(90));
                let read = store.read_table(&probe).unwrap().map(|t| t.entries);
                assert_eq!(read.as_ref(), model.get(&probe), "{name}: read_table while running");
            }
            drop(store);
            let conn = rusqlite::Connection::open(&path).unwrap();
            let mid: bool =
                conn.query_row("SELECT epoch_end > done_upto FROM compaction", [], |r| r.get(0)).unwrap();
            reopened_mid_move += usize::from(mid);
        }
        if name == "model-mixed" {
            assert!(reopened_mid_move > 0, "no reopen found a move half done");
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_the_log_opens_with_its_entries() {
    let path = temp_db("old-layout");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, last_active INTEGER NOT NULL);
             CREATE TABLE entries (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, entry TEXT NOT NULL);
             CREATE INDEX entries_by_table ON entries (table_id, id);
             INSERT INTO tables VALUES ('a', 5);
             INSERT INTO entries (table_id, entry) VALUES ('a', '1'), ('a', '2');",
        )
        .unwrap();
    }
    let (store, tables) = Database::open_tuned(&path, EAGER).unwrap();
    assert_eq!(tables[0].entries, ["1", "2"]);
    store.append("a", "3".into()).await.unwrap();
    store.append("a", "4".into()).await.unwrap();
    drop(store);
    let (_s, tables) = Database::open(&path).unwrap();
    assert_eq!(tables[0].entries, ["1", "2", "3", "4"]);
    // A file of ours from before the ids is stamped as ours (README, "What the database
    // keeps").
    let conn = rusqlite::Connection::open(&path).unwrap();
    let ids: (i32, i32) = conn
        .query_row("SELECT * FROM pragma_application_id, pragma_user_version", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(ids, (jass_store::APPLICATION_ID, jass_store::SCHEMA_VERSION));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// A round's review is derived data: kept with its version, replaced by a newer one,
/// read back after a reopen, and purged by the games' retention.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_kept_replaced_and_purged_with_the_games() {
    let path = temp_db("reviews");
    {
        let (store, _) = Database::open(&path).unwrap();
        store.keep_review("t", 1, 0, 1, "{\"v\":1}".into()).await.unwrap();
        store.keep_review("t", 1, 0, 2, "{\"v\":2}".into()).await.unwrap();
        store.keep_review("t", 1, 1, 2, "{\"r\":1}".into()).await.unwrap();
    }
    let (store, _) = Database::open(&path).unwrap();
    assert_eq!(store.read_review("t", 1, 0).unwrap(), Some((2, "{\"v\":2}".to_owned())));
    assert_eq!(store.read_review("t", 2, 0).unwrap(), None);
    assert_eq!(store.purge_games(0, 100).await.unwrap(), 0, "nothing is old enough");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    assert_eq!(store.purge_games(now + 10, 100).await.unwrap(), 2);
    assert_eq!(store.read_review("t", 1, 1).unwrap(), None);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
