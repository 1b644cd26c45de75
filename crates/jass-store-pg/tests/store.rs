//! The PostgreSQL store against a real PostgreSQL (a throw-away cluster on loopback):
//! what is acknowledged is there after a reopen, in order; archived, quarantined, set
//! aside and kept games behave as in the embedded store; a foreign or newer database is
//! refused and left as it was.

use jass_store_pg::PgDatabase;
use jass_store_pg::throwaway::Throwaway;

fn cluster() -> Throwaway {
    Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_acknowledged_is_read_back_in_order_after_a_reopen() {
    let pg = cluster();
    let (db, tables) = PgDatabase::open(&pg.url).await.unwrap();
    assert!(tables.is_empty());
    // Many appends at once, several tables: group commit keeps each table's order.
    let mut waits = Vec::new();
    for i in 0..200 {
        let table = format!("t{}", i % 7);
        waits.push(db.append(&table, format!("{{\"n\":{i}}}")));
    }
    for w in waits {
        w.await.unwrap();
    }
    let m = db.metrics();
    assert_eq!(m.writes, 200);
    assert!(m.commits < 200, "appends share commits: {m:?}");
    drop(db);

    let (db, tables) = PgDatabase::open(&pg.url).await.unwrap();
    assert_eq!(tables.len(), 7);
    for t in &tables {
        let k: usize = t.id[1..].parse().unwrap();
        let want: Vec<String> = (0..200).filter(|i| i % 7 == k).map(|i| format!("{{\"n\":{i}}}")).collect();
        assert_eq!(t.entries, want, "{}", t.id);
        assert!(t.problem.is_none() && t.quarantined_at.is_none());
    }
    // Appends after a reopen follow the stored ones.
    db.append("t0", "{\"n\":1000}".into()).await.unwrap();
    let t0 = db.read_table("t0").await.unwrap().unwrap();
    assert_eq!(t0.entries.last().map(String::as_str), Some("{\"n\":1000}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archive_quarantine_set_aside_games_and_purges() {
    let pg = cluster();
    let (db, _) = PgDatabase::open(&pg.url).await.unwrap();
    for i in 0..5 {
        db.append("a", format!("{i}")).await.unwrap();
        db.append("b", format!("{i}")).await.unwrap();
        db.append("c", format!("{i}")).await.unwrap();
    }
    db.keep_game("a", 1, "{\"game\":1}".into()).await.unwrap();
    db.keep_game("a", 1, "{\"other\":true}".into()).await.unwrap();
    db.archive("a").await.unwrap();
    db.quarantine("b").await.unwrap();
    db.set_aside("c", 3, "torn").await.unwrap();
    db.append("c", "next".into()).await.unwrap();

    let (db, tables) = PgDatabase::open(&pg.url).await.unwrap();
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["b", "c"], "an archived table is not loaded at start");
    assert!(tables[0].quarantined_at.is_some());
    assert_eq!(tables[0].entries.len(), 5, "a quarantined table is kept whole");
    assert_eq!(
        tables[1].entries,
        ["0", "1", "2", "next"],
        "set aside, then the next append follows the good ones"
    );
    // The archived table and its kept game are still there on demand.
    assert_eq!(db.read_table("a").await.unwrap().unwrap().entries.len(), 5);
    let g = db.read_game("a", None).await.unwrap().unwrap();
    assert_eq!((g.game, g.record.as_str()), (1, "{\"game\":1}"), "kept once");
    // Purges by age: nothing is old enough, then everything is.
    assert_eq!(db.purge_archived(0, 100).await.unwrap(), 0);
    assert_eq!(db.purge_games(0, 100).await.unwrap(), 0);
    assert_eq!(db.purge_archived(i64::MAX, 100).await.unwrap(), 1);
    assert_eq!(db.purge_games(i64::MAX, 100).await.unwrap(), 1);
    assert!(db.read_table("a").await.unwrap().is_none());
    // Forgetting an unfinished table deletes it.
    db.delete_table("b").await.unwrap();
    assert!(db.read_table("b").await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_without_their_table_row_are_loaded_as_damage_and_kept() {
    let pg = cluster();
    let (db, _) = PgDatabase::open(&pg.url).await.unwrap();
    db.append("lost", "0".into()).await.unwrap();
    db.append("lost", "1".into()).await.unwrap();
    drop(db);
    let (client, conn) = tokio_postgres::connect(&pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client.execute("DELETE FROM tables WHERE id = 'lost'", &[]).await.unwrap();
    let (db, tables) = PgDatabase::open(&pg.url).await.unwrap();
    let t = tables.iter().find(|t| t.id == "lost").expect("loaded");
    assert!(t.problem.is_some());
    assert_eq!(t.entries, ["0", "1"]);
    // The row is written back, quarantined: nothing of it can be lost by a later purge.
    let again = db.read_table("lost").await.unwrap().unwrap();
    assert!(again.quarantined_at.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_or_newer_database_is_refused_and_left_alone() {
    let pg = cluster();
    let (client, conn) = tokio_postgres::connect(&pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client.batch_execute("CREATE DATABASE other").await.unwrap();
    client.batch_execute("CREATE DATABASE newer").await.unwrap();
    // Someone else's tables.
    let other = pg.url.replace("/postgres", "/other");
    let (c, conn) = tokio_postgres::connect(&other, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    c.batch_execute("CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1);").await.unwrap();
    let e = PgDatabase::open(&other).await.unwrap_err();
    assert!(e.to_string().contains("not this server's database"), "{e}");
    let n: i64 =
        c.query_one("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", &[]).await.unwrap().get(0);
    assert_eq!(n, 1, "nothing created beside them");
    // Ours, from a newer server.
    let newer = pg.url.replace("/postgres", "/newer");
    drop(PgDatabase::open(&newer).await.unwrap());
    let (c, conn) = tokio_postgres::connect(&newer, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    c.execute("UPDATE jass_meta SET schema_version = schema_version + 1", &[]).await.unwrap();
    let e = PgDatabase::open(&newer).await.unwrap_err();
    assert!(e.to_string().contains("newer than this server's"), "{e}");
}

/// An append the database refuses (here: its place was taken behind the store's back)
/// is never acknowledged, and nothing of its batch is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_append_is_not_acknowledged() {
    let pg = cluster();
    let (db, _) = PgDatabase::open(&pg.url).await.unwrap();
    db.append("t", "first".into()).await.unwrap();
    let (client, conn) = tokio_postgres::connect(&pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
        .execute("INSERT INTO entries (table_id, seq, entry) VALUES ('t', 2, 'theirs')", &[])
        .await
        .unwrap();
    let both = (db.append("t", "mine".into()), db.append("u", "other".into()));
    let (mine, other) = tokio::join!(both.0, both.1);
    assert!(mine.is_err(), "a refused write is no acknowledgement");
    if other.is_err() {
        // It shared the refused batch: not stored either.
        assert!(db.read_table("u").await.unwrap().is_none());
    }
    assert_eq!(db.read_table("t").await.unwrap().unwrap().entries, ["first", "theirs"]);
}
