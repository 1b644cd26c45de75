//! The computers' pool over real sockets (the load bench found what it checks): a game
//! with computers thinking on the pool's own threads, the decisions counted in
//! `/api/stats`, and no computer asked again and again when it has nothing to do.

mod common;

use std::time::Duration;

use common::*;
use jass_engine::Seat;
use jass_protocol::ClientMsg;
use jass_server::Config;
use serde_json::{Value, json};

// Found by the load bench: a computer with nothing to do on a view (the bench saw
// thousands of such asks a second) was asked again the moment it answered, and filled
// the pool; now it waits for the next change. The game runs on the pool's own threads
// (a think pause of a millisecond), as in production. (This game does not reliably
// reach such a view: it guards the bound, the bench showed the loop.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_on_the_pools_threads_finish_a_game_without_asking_in_a_loop() {
    let config = Config { computer_think: Duration::from_millis(1), ..unlimited_config() };
    let server = Server::start(config).await;
    // Long enough for Stöck to come up in several rounds.
    let (table, token) =
        server.create(json!({"name": "Anna", "preset": "to_1000", "options": {"target": 1500}})).await;
    let mut human = server.connect(&table, Some(&token)).await;
    for seat in 1..4 {
        let id = Some(human.id());
        human.request(ClientMsg::AddComputer { seat: Seat::ALL[seat], level: None, id }).await.unwrap();
    }
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    tokio::time::timeout(Duration::from_secs(120), play_out(&mut human)).await.expect("the game ends");
    let (status, body) = server.http("GET", "/api/stats", None).await;
    assert_eq!(status, 200, "{body}");
    let stats: Value = serde_json::from_str(&body).unwrap();
    let c = &stats["computers"];
    let (decisions, idle) = (c["decisions"].as_u64().unwrap(), c["idle"].as_u64().unwrap());
    assert!(decisions > 50, "the computers' decisions are counted: {c}");
    assert_eq!(c["failed"].as_u64(), Some(0), "{c}");
    assert!(c["threads"].as_u64().unwrap() >= 1, "{c}");
    // At most one idle ask per change of the table and computer: never a loop.
    assert!(idle <= decisions, "asks with nothing to do: {idle} against {decisions} decisions");
    for key in ["wall_ms", "cpu_ms"] {
        let p = &c[key];
        assert!(p["p50"].as_f64().unwrap() <= p["p99"].as_f64().unwrap(), "{key}: {p}");
        assert!(p["max"].as_f64().unwrap() > 0.0, "{key}: {p}");
    }
}
