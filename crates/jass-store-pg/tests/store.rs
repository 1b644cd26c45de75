//! The PostgreSQL store against a real PostgreSQL (a throw-away cluster on loopback):
//! what is acknowledged is there after a reopen, in order; archived, quarantined, set
//! aside and kept games behave as in the embedded store; a foreign or newer database is
//! refused and left as it was; and between nodes, a claim fences the table's last
//! holder, whatever that holder still believes.

use std::time::Duration;

use jass_store_pg::throwaway::Throwaway;
use jass_store_pg::{ClaimError, NodeConfig, PgDatabase, PgError};

fn cluster() -> Throwaway {
    Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"))
}

async fn node(url: &str, name: &str) -> PgDatabase {
    let config = NodeConfig { name: name.to_owned(), lease: Duration::from_secs(60) };
    PgDatabase::open(url, config).await.unwrap()
}

async fn sql(url: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_acknowledged_is_read_back_in_order_after_a_reopen() {
    let pg = cluster();
    let db = node(&pg.url, "a").await;
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
    db.leave().await.unwrap();

    let db = node(&pg.url, "b").await;
    for k in 0..7 {
        let t = db.claim(&format!("t{k}")).await.unwrap();
        let want: Vec<String> = (0..200).filter(|i| i % 7 == k).map(|i| format!("{{\"n\":{i}}}")).collect();
        assert_eq!(t.entries, want, "{}", t.id);
        assert!(t.problem.is_none() && t.quarantined_at.is_none());
    }
    // Appends after a claim follow the stored ones (and the claim row).
    db.append("t0", "{\"n\":1000}".into()).await.unwrap();
    let t0 = db.read_table("t0").await.unwrap().unwrap();
    assert_eq!(t0.entries.last().map(String::as_str), Some("{\"n\":1000}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archive_quarantine_set_aside_games_and_purges() {
    let pg = cluster();
    let db = node(&pg.url, "a").await;
    for i in 0..5 {
        db.append("a", format!("{i}")).await.unwrap();
        db.append("b", format!("{i}")).await.unwrap();
        db.append("c", format!("{i}")).await.unwrap();
    }
    db.keep_game("a", 1, "{\"game\":1}".into()).await.unwrap();
    db.keep_game("a", 1, "{\"other\":true}".into()).await.unwrap();
    // A review is derived data: kept again, the newer one stands.
    db.keep_review("a", 1, 0, 1, "{\"v\":1}".into()).await.unwrap();
    db.keep_review("a", 1, 0, 2, "{\"v\":2}".into()).await.unwrap();
    assert_eq!(db.read_review("a", 1, 0).await.unwrap(), Some((2, "{\"v\":2}".to_owned())));
    assert_eq!(db.read_review("a", 1, 1).await.unwrap(), None);
    db.archive("a").await.unwrap();
    db.quarantine("b").await.unwrap();
    db.set_aside("c", 3, "torn").await.unwrap();
    db.append("c", "next".into()).await.unwrap();
    db.leave().await.unwrap();

    let db = node(&pg.url, "b").await;
    assert!(matches!(db.claim("a").await, Err(ClaimError::Unknown)), "an archived table is not served live");
    let b = db.claim("b").await.unwrap();
    assert!(b.quarantined_at.is_some());
    assert_eq!(b.entries.len(), 5, "a quarantined table is kept whole");
    assert_eq!(
        db.claim("c").await.unwrap().entries,
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
    assert_eq!(db.read_review("a", 1, 0).await.unwrap(), None, "reviews go with the games' retention");
    // Forgetting an unfinished table deletes it.
    db.delete_table("b").await.unwrap();
    assert!(db.read_table("b").await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_without_their_table_row_are_claimed_as_damage_and_kept() {
    let pg = cluster();
    let db = node(&pg.url, "a").await;
    db.append("lost", "0".into()).await.unwrap();
    db.append("lost", "1".into()).await.unwrap();
    db.leave().await.unwrap();
    sql(&pg.url).await.execute("DELETE FROM tables WHERE id = 'lost'", &[]).await.unwrap();
    let db = node(&pg.url, "b").await;
    let t = db.claim("lost").await.unwrap();
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
    let e = PgDatabase::open(&other, NodeConfig::default()).await.unwrap_err();
    assert!(e.to_string().contains("not this server's database"), "{e}");
    let n: i64 =
        c.query_one("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", &[]).await.unwrap().get(0);
    assert_eq!(n, 1, "nothing created beside them");
    // Ours, from a newer server.
    let newer = pg.url.replace("/postgres", "/newer");
    node(&newer, "a").await.leave().await.unwrap();
    let (c, conn) = tokio_postgres::connect(&newer, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    c.execute("UPDATE jass_meta SET schema_version = schema_version + 1", &[]).await.unwrap();
    let e = PgDatabase::open(&newer, NodeConfig::default()).await.unwrap_err();
    assert!(e.to_string().contains("newer than this server's"), "{e}");
}

/// An append whose place was taken behind the store's back is never acknowledged,
/// and neither is any later one of that table until it is claimed again; the other
/// appends of its batch are not held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_on_a_taken_place_is_not_acknowledged() {
    let pg = cluster();
    let db = node(&pg.url, "a").await;
    db.append("t", "first".into()).await.unwrap();
    sql(&pg.url)
        .await
        .execute("INSERT INTO entries (table_id, seq, entry) VALUES ('t', 2, 'theirs')", &[])
        .await
        .unwrap();
    let both = (db.append("t", "mine".into()), db.append("u", "other".into()));
    let (mine, other) = tokio::join!(both.0, both.1);
    assert!(matches!(mine, Err(PgError::Fenced)), "{mine:?}");
    other.unwrap();
    assert!(matches!(db.append("t", "again".into()).await, Err(PgError::Fenced)));
    assert_eq!(db.read_table("t").await.unwrap().unwrap().entries, ["first", "theirs"]);
    assert_eq!(db.metrics().fenced, 2);
    // Claimed again, the table goes on after what the log holds.
    assert_eq!(db.claim("t").await.unwrap().entries, ["first", "theirs"]);
    db.append("t", "mine".into()).await.unwrap();
    assert_eq!(db.read_table("t").await.unwrap().unwrap().entries, ["first", "theirs", "mine"]);
}

/// Two nodes: a table held by a live node cannot be claimed; once that node counts as
/// dead (its heartbeat is made stale here, while it still runs, as a frozen node's
/// would be) the other claims it, and from then on the old holder's appends and its
/// deletion are refused, however sure it is that it holds the table. Nothing of the
/// log forks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_fences_the_last_holder() {
    let pg = cluster();
    let a = node(&pg.url, "a").await;
    let b = node(&pg.url, "b").await;
    a.append("t", "1".into()).await.unwrap();
    a.append("t", "2".into()).await.unwrap();
    assert!(matches!(b.claim("t").await, Err(ClaimError::Held(n)) if n == a.node()));
    assert!(matches!(b.claim("nope").await, Err(ClaimError::Unknown)));
    let admin = sql(&pg.url).await;
    admin
        .execute("UPDATE nodes SET heartbeat = now() - interval '1 hour' WHERE id = $1", &[&a.node()])
        .await
        .unwrap();
    assert_eq!(b.claim("t").await.unwrap().entries, ["1", "2"]);
    assert!(matches!(a.append("t", "zombie".into()).await, Err(PgError::Fenced)));
    a.delete_table("t").await.unwrap();
    b.append("t", "3".into()).await.unwrap();
    assert_eq!(b.read_table("t").await.unwrap().unwrap().entries, ["1", "2", "3"]);
    let kinds: Vec<(i64, i16)> = admin
        .query("SELECT seq, kind FROM entries WHERE table_id = 't' ORDER BY seq", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(kinds, [(1, 0), (2, 0), (3, 1), (4, 0)], "one history: the claim row between the holders");
    // The holder can be asked to let a table go; a planned stop lets every table go.
    let mut asked = b.handoffs().unwrap();
    a.ask_handoff("t").await.unwrap();
    let heard = tokio::time::timeout(Duration::from_secs(30), asked.recv()).await.unwrap();
    assert_eq!(heard.as_deref(), Some("t"));
    b.leave().await.unwrap();
    assert!(!b.lease_fresh());
    assert_eq!(a.claim("t").await.unwrap().entries, ["1", "2", "3"], "a left table is free at once");
}
