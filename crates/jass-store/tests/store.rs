//! The store keeps what it acknowledged, in order, across reopen, and isolates failed
//! writes.

use jass_store::Store;

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("db.sqlite3")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_entries_survive_reopen_in_order() {
    let path = temp_db("reopen");
    {
        let (store, tables) = Store::open(&path).unwrap();
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
        store.truncate("c", 1).await.unwrap();
    }
    let (_store, tables) = Store::open(&path).unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["a", "c"]);
    let expected: Vec<String> = (0..40).map(|n| format!("{{\"n\":{n}}}")).collect();
    assert_eq!(tables[0].entries, expected);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_all_land() {
    let path = temp_db("group");
    let (store, _) = Store::open(&path).unwrap();
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
    let (_s, tables) = Store::open(&path).unwrap();
    assert_eq!(tables.len(), 50);
    assert!(tables.iter().all(|t| t.entries.len() == 20));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_deleted_and_written_again_in_one_batch_is_kept() {
    let path = temp_db("recreate");
    let (store, _) = Store::open(&path).unwrap();
    store.append("x", "1".into()).await.unwrap();
    // Queued back to back, so they very likely share one commit; the table row must
    // come back although the store wrote it moments before.
    let (a, b, c) = (store.delete_table("x"), store.append("x", "2".into()), store.append("y", "3".into()));
    a.await.unwrap();
    b.await.unwrap();
    c.await.unwrap();
    drop(store);
    let (_s, tables) = Store::open(&path).unwrap();
    let x = tables.iter().find(|t| t.id == "x").expect("table x is stored");
    assert_eq!(x.entries, ["2"]);
    assert!(x.last_active > 0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_every_commit_and_write() {
    let path = temp_db("metrics");
    let (store, _) = Store::open(&path).unwrap();
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
    let (store, _) = Store::open(&path).unwrap();
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
