//! A table outlives its node: the real server binary on a PostgreSQL database (a
//! throw-away cluster on loopback) is killed (SIGKILL) mid-round, and a second server
//! process on another port, on the same database, brings the table back; the players
//! reconnect there with their tokens, see exactly what they saw, and finish the game
//! with every acknowledged action in the record, in order.

mod binary;
mod common;

use binary::{Proc, free_port};
use common::*;
use jass_engine::{Action, Record};
use jass_store_pg::throwaway::Throwaway;
use serde_json::json;

fn game_view(c: &Client) -> serde_json::Value {
    let mut v = serde_json::to_value(c.view().game.as_ref().unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("version");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_killed_with_its_node_is_served_by_another_node_with_nothing_lost() {
    let pg = Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"));
    let logs = std::env::temp_dir().join(format!("jass-pg-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&logs).unwrap();
    let url = std::ffi::OsString::from(&pg.url);
    let mut acked: Vec<(usize, Action)> = Vec::new();

    let mut a = Proc::start_logged(&url, logs.join("a.log"), free_port(), &[]).await;
    let server = a.server();
    let (table, tokens) =
        server.full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 2}})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    while acked.len() < 37 + 5 {
        acked.push(play_one(&mut players).await);
    }
    sync_all(&mut players).await;
    let before: Vec<_> = players.iter().map(game_view).collect();
    drop(players);
    a.kill9();

    // Another node, same database.
    let b = Proc::start_logged(&url, logs.join("b.log"), free_port(), &[]).await;
    let server = b.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    for (seat, c) in players.iter().enumerate() {
        assert_eq!(game_view(c), before[seat], "seat {seat} is back exactly where it was");
    }
    loop {
        sync_all(&mut players).await;
        if players[0].view().game.as_ref().unwrap().result.is_some() {
            break;
        }
        acked.push(play_one(&mut players).await);
    }
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: Record = serde_json::from_str(&body).unwrap();
    let recorded = recorded_actions(&record);
    assert_eq!(recorded, acked, "every acknowledged action is in the record, in order");
    record.replay().expect("the record replays");
    // The store's writer reports its work to operators.
    let (_, body) = server.http("GET", "/api/stats", None).await;
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(stats["store"]["commits"].as_u64().unwrap() > 0, "{stats}");
    drop(b);
    let _ = std::fs::remove_dir_all(&logs);
}

/// A node dies and nobody comes back to its table: another node finds the table once
/// it sat idle for the idle timeout and expires it as the dead node would have (an
/// unfinished table is deleted; README, "What the database keeps").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_left_by_a_dead_node_expires_on_another_node() {
    let pg = Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"));
    let logs = std::env::temp_dir().join(format!("jass-pg-orphan-{}", std::process::id()));
    std::fs::create_dir_all(&logs).unwrap();
    let url = std::ffi::OsString::from(&pg.url);
    let mut a = Proc::start_logged(&url, logs.join("a.log"), free_port(), &[]).await;
    let server = a.server();
    let (table, tokens) = server.full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    for _ in 0..5 {
        play_one(&mut players).await;
    }
    drop(players);
    a.kill9();
    let stored = binary::export(std::path::Path::new(&pg.url), &table);
    assert!(stored["entries"].as_array().unwrap().len() > 5, "{stored}");

    let b = Proc::start_logged(&url, logs.join("b.log"), free_port(), &["--idle-timeout-secs", "2"]).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, _, err) = binary::run_to_exit(&[
            "export".as_ref(),
            "--db".as_ref(),
            url.as_os_str(),
            "--table".as_ref(),
            table.as_ref(),
        ]);
        if !status.success() && err.contains("no table") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the left table was not expired: {}", b.log());
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    drop(b);
    let _ = std::fs::remove_dir_all(&logs);
}

/// Damage in the database: an entry changed behind the server's back. The node that
/// claims the table does not serve it (404) and does not cut it: it is quarantined,
/// listed in `/api/stats`, and `export` prints it exactly as stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_table_is_quarantined_whole_on_claim() {
    let pg = Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"));
    let logs = std::env::temp_dir().join(format!("jass-pg-damage-{}", std::process::id()));
    std::fs::create_dir_all(&logs).unwrap();
    let url = std::ffi::OsString::from(&pg.url);
    let mut a = Proc::start_logged(&url, logs.join("a.log"), free_port(), &[]).await;
    let (table, tokens) = a.server().full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
    let mut players = connect_all(&a.server(), &table, &tokens).await;
    start(&mut players).await;
    drop(players);
    a.stop();

    let (client, conn) = tokio_postgres::connect(&pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let changed = client
        .execute(
            "UPDATE entries SET entry = '{\"dealt_by_hand\": true}' WHERE table_id = $1 AND seq = 3",
            &[&table],
        )
        .await
        .unwrap();
    assert_eq!(changed, 1);
    let before: Vec<String> = binary::export(std::path::Path::new(&pg.url), &table)["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect();

    let b = Proc::start_logged(&url, logs.join("b.log"), free_port(), &[]).await;
    let (status, body) = b.server().http("GET", &format!("/api/tables/{table}"), None).await;
    assert_eq!(status, 404, "{body}");
    let (_, body) = b.server().http("GET", "/api/stats", None).await;
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(stats["quarantined"], json!([table]), "{stats}");
    let after = binary::export(std::path::Path::new(&pg.url), &table);
    assert!(after["quarantined_at"].is_i64(), "{after}");
    assert_eq!(after["entries"], json!(before), "kept whole, as stored");
    drop(b);
    let _ = std::fs::remove_dir_all(&logs);
}
