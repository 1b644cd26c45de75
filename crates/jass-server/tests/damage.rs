//! The damage suite over the real binary (README, "What the database keeps"): what a
//! bad disk, a crash mid-write, a long downtime or a wrong `--db` does to the database
//! never deletes what is stored. A table either plays on or is reported as quarantined
//! (log at ERROR, `/api/stats`), kept whole, exportable, and served again once
//! repaired.

mod binary;
mod common;

use std::path::Path;

use binary::{Proc, cleanup, export, free_port, rows, run_to_exit, temp_db, write_row};
use common::{Client, Server, act_once, connect_all, sync_all};
use serde_json::{Value, json};

/// One plain move by whoever must act, then everyone in sync.
async fn play_one(players: &mut [Client]) {
    act_once(players).await;
    sync_all(players).await;
}

/// The game as seat 0 sees it, without what is live rather than history.
fn game_of(players: &[Client]) -> Value {
    let mut v = serde_json::to_value(players[0].view().game.as_ref().unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("version");
    v
}

/// A started table with `moves` moves played; returns its id, tokens and game.
async fn table_with_moves(server: &Server, moves: usize) -> (String, Vec<String>, Value) {
    let (table, tokens) = server.full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
    let mut players = connect_all(server, &table, &tokens).await;
    common::start(&mut players).await;
    for _ in 0..moves {
        play_one(&mut players).await;
    }
    let game = game_of(&players);
    (table, tokens, game)
}

async fn status_of(server: &Server, table: &str) -> u16 {
    server.http("GET", &format!("/api/tables/{table}"), None).await.0
}

async fn stats(server: &Server) -> Value {
    let (_, body) = server.http("GET", "/api/stats", None).await;
    serde_json::from_str(&body).unwrap()
}

/// Flips one bit of the byte at `at` in a stored entry.
fn flip(db: &Path, row: &binary::Row, at: usize) {
    let mut bytes = row.2.clone().into_bytes();
    bytes[at] ^= 1;
    write_row(db, row, &String::from_utf8(bytes).unwrap());
}

/// One flipped byte in a middle entry, in two ways (the entry is no longer JSON; it is
/// JSON the replay refuses). Before the fix the history was cut at that entry; now the
/// table is quarantined with every entry kept, other tables play on, and once the byte
/// is repaired it plays on too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flipped_byte_in_a_middle_entry_quarantines_the_table_and_deletes_nothing() {
    let db = temp_db("flip");
    let port = free_port();
    let mut p = Proc::start(&db, port, &[]).await;
    let (damaged, tokens, mut game) = table_with_moves(&p.server(), 12).await;
    let (healthy, healthy_tokens, _) = table_with_moves(&p.server(), 3).await;
    p.stop();
    let mut stored = rows(&db, &damaged);
    assert!(stored.len() > 15, "{} entries", stored.len());
    // Two middle action entries: `"action":{"seat":N` → `;` for `:` (not JSON) and
    // another seat (the replay refuses a move out of turn).
    let actions: Vec<usize> =
        (0..stored.len()).filter(|&i| stored[i].2.starts_with(r#"{"action":{"seat":"#)).collect();
    let (not_json, out_of_turn) = (actions[3], actions[7]);
    let colon = stored[not_json].2.find(':').unwrap();
    let seat_digit = r#"{"action":{"seat":"#.len();
    for (index, at, kind) in
        [(not_json, colon, "not JSON"), (out_of_turn, seat_digit, "refused by the replay")]
    {
        // Read again each time: quarantine moves rows out of the append log.
        flip(&db, &rows(&db, &damaged)[index], at);
        let mut p = Proc::start(&db, port, &[]).await;
        let server = p.server();
        assert_eq!(status_of(&server, &damaged).await, 404, "{kind}: a quarantined table is not served");
        assert_eq!(stats(&server).await["quarantined"], json!([damaged.clone()]), "{kind}");
        let log = p.log();
        assert!(
            log.contains("ERROR") && log.contains("quarantined") && log.contains(&damaged),
            "{kind}: {log}"
        );
        // The other table plays on.
        let mut players = connect_all(&server, &healthy, &healthy_tokens).await;
        play_one(&mut players).await;
        drop(players);
        p.stop();
        // Nothing was cut: every entry is still stored, the damaged one as it is.
        let now = rows(&db, &damaged);
        assert_eq!(now.len(), stored.len(), "{kind}: every entry is kept");
        let out = export(&db, &damaged);
        let exported: Vec<&str> =
            out["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        let texts: Vec<&str> = now.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(exported, texts, "{kind}: the operator can export every stored entry");
        assert!(out["quarantined_at"].as_i64().is_some(), "{kind}: {out}");
        // The operator repairs the byte: the table is whole again.
        // (Quarantine moved its rows out of the append log: same order, new places.)
        let changed: Vec<usize> = (0..now.len()).filter(|&i| now[i].2 != stored[i].2).collect();
        assert_eq!(changed.len(), 1, "{kind}: only the flipped entry differs");
        write_row(&db, &now[changed[0]], &stored[changed[0]].2);
        let mut p = Proc::start(&db, port, &[]).await;
        let server = p.server();
        assert_eq!(stats(&server).await["quarantined"], json!([]));
        let mut players = connect_all(&server, &damaged, &tokens).await;
        assert_eq!(game_of(&players), game, "{kind}: back exactly where it was");
        play_one(&mut players).await;
        game = game_of(&players);
        drop(players);
        p.stop();
        stored = rows(&db, &damaged);
    }
    cleanup(&db);
}

/// A torn last write (SQLite commits are atomic, so it is made by hand: the last
/// entry's text cut in half) is the one entry that may be dropped from the replay; it
/// is set aside in `damaged`, not deleted, and what is played next follows the last
/// good entry across further restarts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_last_write_is_set_aside_and_the_table_plays_on() {
    let db = temp_db("torn-last");
    let port = free_port();
    let mut p = Proc::start(&db, port, &[]).await;
    let server = p.server();
    let (table, tokens) = server.full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    common::start(&mut players).await;
    for _ in 0..4 {
        play_one(&mut players).await;
    }
    let before_last = game_of(&players);
    play_one(&mut players).await;
    drop(players);
    p.stop();
    let stored = rows(&db, &table);
    let last = stored.last().unwrap();
    let torn = &last.2[..last.2.len() / 2];
    write_row(&db, last, torn);
    let mut p = Proc::start(&db, port, &[]).await;
    let server = p.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    assert_eq!(game_of(&players), before_last, "back as of the last whole entry");
    assert_eq!(stats(&server).await["quarantined"], json!([]));
    play_one(&mut players).await;
    let seen = game_of(&players);
    drop(players);
    p.stop();
    let out = export(&db, &table);
    assert_eq!(out["damaged"][0]["entry"], torn, "the torn entry is kept aside: {out}");
    assert!(out["damaged"][0]["reason"].as_str().unwrap().contains("torn"));
    assert_eq!(out["entries"].as_array().unwrap().len(), stored.len(), "one set aside, one new");
    let mut p = Proc::start(&db, port, &[]).await;
    let players = connect_all(&p.server(), &table, &tokens).await;
    assert_eq!(game_of(&players), seen, "what was played after it is kept");
    drop(players);
    p.stop();
    cleanup(&db);
}

/// A table whose row in the index of tables is gone while its entries are there (in
/// the indexed entries and in the append log) is quarantined and reported, not left
/// unserved without a word; its entries are kept (the next move of the log would
/// otherwise have deleted its newest ones), exported whole, and it plays on from the
/// next start, its row restored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_without_its_index_row_is_quarantined_and_reported_and_kept_whole() {
    let db = temp_db("no-index-row");
    let port = free_port();
    let mut p = Proc::start(&db, port, &[]).await;
    let (orphan, tokens, game) = table_with_moves(&p.server(), 9).await;
    let (healthy, healthy_tokens, _) = table_with_moves(&p.server(), 3).await;
    p.stop();
    let stored = rows(&db, &orphan);
    assert!(stored.len() > 12, "{} entries", stored.len());
    let deleted = rusqlite::Connection::open(&db)
        .unwrap()
        .execute("DELETE FROM tables WHERE id = ?1", [&orphan])
        .unwrap();
    assert_eq!(deleted, 1);
    let mut p = Proc::start(&db, port, &[]).await;
    let server = p.server();
    assert_eq!(stats(&server).await["quarantined"], json!([orphan]));
    assert_eq!(status_of(&server, &orphan).await, 404, "not served");
    assert!(p.log().contains("table quarantined"), "reported at ERROR: {}", p.log());
    // The log is a file here, not a terminal: plain text, no colour codes.
    assert!(!p.log().contains('\u{1b}'), "escape codes in a log file: {:?}", p.log());
    let players = connect_all(&server, &healthy, &healthy_tokens).await;
    drop(players);
    p.stop();
    let out = export(&db, &orphan);
    assert_eq!(out["entries"].as_array().unwrap().len(), stored.len(), "every entry kept: {out}");
    assert!(out["quarantined_at"].is_i64(), "{out}");
    let mut p = Proc::start(&db, port, &[]).await;
    let server = p.server();
    assert_eq!(stats(&server).await["quarantined"], json!([]));
    let players = connect_all(&server, &orphan, &tokens).await;
    assert_eq!(game_of(&players), game, "it plays on as it was");
    drop(players);
    p.stop();
    cleanup(&db);
}

/// Downtime is not idleness. A table whose `last_active` is far older than the idle
/// timeout (a server down for ten days, or a backup restored late) comes back at
/// start-up and plays on; before the fix it was deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restore_after_the_idle_timeout_brings_every_table_back() {
    let db = temp_db("late-restore");
    let port = free_port();
    let idle = ["--idle-timeout-secs", "5"];
    let mut p = Proc::start(&db, port, &idle).await;
    let (table, tokens, game) = table_with_moves(&p.server(), 3).await;
    let (lobby, _) = p.server().create(json!({"name": "Bea"})).await;
    p.kill9();
    let ten_days_ago = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
        as i64
        - 10 * 86_400;
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(conn.execute("UPDATE tables SET last_active = ?1", [ten_days_ago]).unwrap(), 2);
    drop(conn);
    let mut p = Proc::start(&db, port, &idle).await;
    let server = p.server();
    assert_eq!(status_of(&server, &lobby).await, 200, "an unstarted table is back too");
    let mut players = connect_all(&server, &table, &tokens).await;
    assert_eq!(game_of(&players), game);
    play_one(&mut players).await;
    drop(players);
    p.stop();
    assert!(!rows(&db, &table).is_empty() && !rows(&db, &lobby).is_empty(), "nothing was deleted");
    cleanup(&db);
}

/// `--db` pointing at another application's SQLite file, at a file of a newer layout,
/// or at something that is not SQLite: the server says so and exits, and the file is
/// exactly as it was (no schema, no WAL switch).
#[test]
fn a_foreign_database_is_refused_with_a_clear_message_and_left_untouched() {
    let db = temp_db("foreign");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);")
            .unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    let port = free_port().to_string();
    let args = |db: &Path| -> Vec<std::ffi::OsString> {
        vec!["--addr".into(), format!("127.0.0.1:{port}").into(), "--db".into(), db.into()]
    };
    let run = |db: &Path| {
        let a = args(db);
        let refs: Vec<&std::ffi::OsStr> = a.iter().map(|s| s.as_os_str()).collect();
        run_to_exit(&refs)
    };
    let (status, _, err) = run(&db);
    assert!(!status.success());
    assert!(err.contains("not a jass-server database") && err.contains("invoices"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file is byte for byte as it was");
    assert!(!db.with_extension("sqlite3-wal").exists(), "no WAL was started");
    // Export refuses it too, without touching it.
    let (status, _, err) =
        run_to_exit(&["export".as_ref(), "--db".as_ref(), db.as_os_str(), "--table".as_ref(), "x".as_ref()]);
    assert!(!status.success() && err.contains("not a jass-server database"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // A file of ours written by a newer version.
    let newer = db.with_file_name("newer.sqlite3");
    drop(jass_store::Database::open(&newer).unwrap());
    rusqlite::Connection::open(&newer).unwrap().pragma_update(None, "user_version", 99).unwrap();
    let (status, _, err) = run(&newer);
    assert!(!status.success() && err.contains("newer"), "{err}");
    // Not SQLite at all.
    let text = db.with_file_name("notes.txt");
    std::fs::write(&text, "not a database at all, just notes\n".repeat(100)).unwrap();
    let (status, _, err) = run(&text);
    assert!(!status.success() && err.contains("not a SQLite database"), "{err}");
    cleanup(&db);
}
