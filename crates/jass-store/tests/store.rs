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
