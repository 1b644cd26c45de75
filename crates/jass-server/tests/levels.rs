//! Computer levels chosen by the host (protocol.md 3, "Computer levels"):
//! `add_computer` and "play with computers" take a level, views show it, a bad one is
//! refused, strong and easy computers play whole games, and the level survives a
//! restart.

mod common;

use std::sync::Arc;

use common::*;
use jass_engine::Seat;
use jass_protocol::{ClientMsg, ErrorCode, Level, ServerMsg};
use jass_server::MemoryStore;
use jass_server::store::Entry;
use serde_json::json;

/// The host asks for a computer of `level` in `seat`.
async fn add(host: &mut Client, seat: usize, level: Option<Level>) -> Result<(), ErrorCode> {
    let id = Some(host.id());
    host.request(ClientMsg::AddComputer { seat: Seat::ALL[seat], level, id }).await
}

fn levels(client: &Client) -> Vec<Option<Level>> {
    client.view().seats.iter().map(|s| s.level).collect()
}

// The level of each computer seat is in every view (omitted for normal and for humans),
// and a strong and an easy computer play a whole game with a normal one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strong_and_easy_computers_play_a_whole_game_and_views_show_their_level() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) =
        server.create(json!({"name": "Anna", "preset": "to_1000", "options": {"target": 500}})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    add(&mut host, 1, Some(Level::Strong)).await.unwrap();
    add(&mut host, 2, Some(Level::Easy)).await.unwrap();
    add(&mut host, 3, None).await.unwrap();
    host.wait_view(|v| v.seats.iter().skip(1).all(|s| s.computer)).await;
    assert_eq!(levels(&host), [None, Some(Level::Strong), Some(Level::Easy), None]);
    // The wire shape: `level` appears only where it is not normal.
    let frame = host.frames.iter().rev().find(|f| f.contains("\"state\"")).unwrap();
    let raw: serde_json::Value = serde_json::from_str(frame).unwrap();
    let seats = &raw["view"]["seats"];
    assert_eq!(
        (&seats[0].get("level"), &seats[1]["level"], &seats[2]["level"], &seats[3].get("level")),
        (&None, &json!("strong"), &json!("easy"), &None),
        "{seats}"
    );
    // The public table info shows it too.
    let (status, body) = server.http("GET", &format!("/api/tables/{table}"), None).await;
    assert_eq!(status, 200, "{body}");
    let info: jass_protocol::http::TableInfo = serde_json::from_str(&body).unwrap();
    assert_eq!(info.seats.map(|s| s.level), [None, Some(Level::Strong), Some(Level::Easy), None]);
    let id = Some(host.id());
    host.request(ClientMsg::Start { id }).await.unwrap();
    play_out(&mut host).await;
    assert!(host.view().game.as_ref().unwrap().result.unwrap().winner.is_some());
    // The record says which computer played at which level.
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: jass_engine::Record = serde_json::from_str(&body).unwrap();
    record.replay().expect("the record replays");
    let players: Vec<_> = record.players.iter().map(|p| (p.computer, p.level)).collect();
    assert_eq!(
        players,
        [(false, None), (true, Some(Level::Strong)), (true, Some(Level::Easy)), (true, None)]
    );
    let raw: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((raw["players"][1]["level"].clone(), raw["players"][3].get("level")), (json!("strong"), None));
}

// "Play with computers" at a level seats three computers of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_with_strong_computers_in_one_step() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) = server
        .create(json!({
            "name": "Anna", "preset": "to_1000", "options": {"target": 300},
            "computers": true, "computer_level": "strong"
        }))
        .await;
    let mut human = server.connect(&table, Some(&token)).await;
    assert!(human.view().game.is_some(), "the game has started");
    assert_eq!(levels(&human), [None, Some(Level::Strong), Some(Level::Strong), Some(Level::Strong)]);
    play_out(&mut human).await;
}

// A level the server does not know is refused like any other bad field, with the levels
// it knows; so is a level without computers to give it to.
#[tokio::test]
async fn a_bad_level_is_refused_with_a_clear_error() {
    let server = Server::start(unlimited_config()).await;
    let (status, body) = server
        .post("/api/tables", json!({"name": "Anna", "computers": true, "computer_level": "hard"}))
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")), "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("hard") && message.contains("strong"), "{message}");
    let (status, body) = server.post("/api/tables", json!({"name": "Anna", "computer_level": "easy"})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("computers"), "{body}");

    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    host.send_text(r#"{"type":"add_computer","seat":1,"level":"hard","id":5}"#).await;
    let (id, code, message) = host
        .until(|m| match m {
            ServerMsg::Error { id, code, message } => Some((*id, *code, message.clone())),
            _ => None,
        })
        .await;
    assert_eq!((id, code), (Some(5), ErrorCode::BadMessage));
    assert!(message.contains("hard") && message.contains("easy"), "{message}");
    // Nothing was seated.
    add(&mut host, 1, Some(Level::Easy)).await.unwrap();
    host.wait_view(|v| v.seats[1].computer).await;
    assert_eq!(host.view().seats[1].level, Some(Level::Easy));
}

// Computer seats keep their level through a restart, mid-game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_survive_a_restart() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) =
        server.create(json!({"name": "Anna", "preset": "to_1000", "options": {"target": 500}})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    add(&mut host, 1, Some(Level::Easy)).await.unwrap();
    add(&mut host, 2, Some(Level::Strong)).await.unwrap();
    add(&mut host, 3, Some(Level::Normal)).await.unwrap();
    let id = Some(host.id());
    host.request(ClientMsg::Start { id }).await.unwrap();
    play_until(&mut host, |g| g.hand_counts.iter().map(|(_, &n)| u32::from(n)).sum::<u32>() <= 24).await;
    drop(host);
    let again =
        restoring(unlimited_config(), Arc::new(MemoryStore::new()), vec![stored(&server.store, &table)])
            .await;
    let mut host = again.connect(&table, Some(&token)).await;
    assert_eq!(levels(&host), [None, Some(Level::Easy), Some(Level::Strong), None]);
    play_out(&mut host).await;
}

// A table stored before levels existed (a `computer_seated` entry without one) restores
// with normal computers, and a normal computer's entry is stored as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_stored_before_levels_restores_with_normal_computers() {
    let old: Entry = serde_json::from_str(r#"{"computer_seated":{"seat":1}}"#).unwrap();
    assert_eq!(old, Entry::ComputerSeated { seat: Seat::ALL[1], level: Level::Normal });
    assert_eq!(serde_json::to_string(&old).unwrap(), r#"{"computer_seated":{"seat":1}}"#);
    let server = Server::start(unlimited_config()).await;
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    for seat in 1..4 {
        add(&mut host, seat, None).await.unwrap();
    }
    drop(host);
    let mut table_entries = stored(&server.store, &table);
    // Written the way an older server wrote them.
    let written: Vec<String> =
        table_entries.entries.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
    assert!(written.iter().filter(|e| e.starts_with(r#"{"computer_seated""#)).all(|e| !e.contains("level")));
    table_entries.entries = written.iter().map(|e| serde_json::from_str(e).unwrap()).collect();
    let again = restoring(unlimited_config(), Arc::new(MemoryStore::new()), vec![table_entries]).await;
    let mut host = again.connect(&table, Some(&token)).await;
    assert!(host.view().seats.iter().skip(1).all(|s| s.computer && s.level.is_none()));
    let id = Some(host.id());
    host.request(ClientMsg::Start { id }).await.unwrap();
}
