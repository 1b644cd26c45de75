//! The store keeps what it acknowledged, across reopen, and isolates failed writes.

use jass_store::Store;

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("db.sqlite3")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_writes_survive_reopen() {
    let path = temp_db("reopen");
    {
        let (store, tables) = Store::open(&path).unwrap();
        assert!(tables.is_empty());
        store.put_table("a", "{\"v\":1}".into()).await.unwrap();
        store.put_table("a", "{\"v\":2}".into()).await.unwrap();
        store.put_table("b", "{}".into()).await.unwrap();
        store.start_game("a", 0, "{}".into(), "00".repeat(32)).await.unwrap();
        for seq in 0..40u64 {
            let seed = (seq == 36).then(|| "11".repeat(32));
            store
                .append_action("a", 0, seq, (seq % 4) as u8, format!("{{\"n\":{seq}}}"), seed)
                .await
                .unwrap();
        }
        store.start_game("a", 1, "{\"g\":1}".into(), "22".repeat(32)).await.unwrap();
        store.append_action("a", 1, 0, 2, "{}".into(), None).await.unwrap();
        store.delete_table("b").await.unwrap();
    }
    let (_store, tables) = Store::open(&path).unwrap();
    assert_eq!(tables.len(), 1);
    let a = &tables[0];
    assert_eq!(a.meta, "{\"v\":2}");
    let g = a.game.as_ref().unwrap();
    assert_eq!(g.game, 1, "the latest game is loaded");
    assert_eq!(g.options, "{\"g\":1}");
    assert_eq!(g.actions.len(), 1);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writers_share_commits_and_a_bad_write_fails_alone() {
    let path = temp_db("group");
    let (store, _) = Store::open(&path).unwrap();
    let mut tasks = Vec::new();
    for t in 0..50 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("t{t}");
            store.put_table(&id, "{}".into()).await.unwrap();
            store.start_game(&id, 0, "{}".into(), "00".repeat(32)).await.unwrap();
            for seq in 0..20 {
                store.append_action(&id, 0, seq, 0, "{}".into(), None).await.unwrap();
            }
            // A duplicate sequence number is refused without harming anyone else.
            assert!(store.append_action(&id, 0, 5, 0, "{}".into(), None).await.is_err());
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let t7 = store.read_table("t7").unwrap().unwrap();
    assert_eq!(t7.game.unwrap().actions.len(), 20);
    drop(store);
    let (_s, tables) = Store::open(&path).unwrap();
    assert_eq!(tables.len(), 50);
    assert!(tables.iter().all(|t| t.game.as_ref().unwrap().actions.len() == 20));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
