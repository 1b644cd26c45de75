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
