//! The bot against the real server, in-process on 127.0.0.1:0: four bots fill a table
//! and play a whole short game over real sockets, using only the documented protocol
//! and staying inside the server's default rate limit.

use std::time::Duration;

use jass_bot::client::BotConfig;
use jass_bot::fill::{Filled, fill};
use jass_bot::http::Server;
use jass_bot::policy::Policy;
use jass_engine::{EndReason, Preset};
use jass_protocol::http::CreateTable;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Plays one game on a fresh in-process server with the default `Config` and stops it.
async fn play_one(options: serde_json::Value, policy: Policy) -> Filled {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(jass_server::run(
        listener,
        jass_server::Config::default(),
        jass_server::Storage::memory(),
        async move {
            let _ = stopped.await;
        },
    ));
    let base = Server::parse(&format!("http://{addr}")).expect("url");
    let create = CreateTable {
        name: "Bot".into(),
        preset: Some(Preset::To1000),
        options: options.as_object().cloned(),
        timing: None,
        computers: false,
        computer_level: None,
    };
    // 60 ms per action: each seat acts about every 240 ms, inside 5 messages/s.
    let config = BotConfig { think: Duration::from_millis(60), policy };
    let filled = tokio::time::timeout(Duration::from_secs(240), fill(&base, &create, &config, 42, |_| {}))
        .await
        .expect("the game ends in time")
        .expect("the bots play without error");
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(15), server).await;
    filled
}

fn check_common(filled: &Filled, target: u32) {
    let result = filled.result.expect("seat 0 saw the result");
    for seat in &filled.seats {
        assert_eq!(seat.result, Some(result), "every seat sees the same result");
        // Only `stale` may happen: two seats acting on the same view (a Stöck said out
        // of turn while a card is played) is a race the protocol resolves that way.
        assert_eq!(seat.refused - seat.stale, 0, "the bot never sends what the view does not allow");
        assert!(seat.sent > 5, "every seat played");
    }
    let winner = result.winner.expect("a winner");
    assert!(result.totals[winner] >= target, "{result:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bots_play_a_game_to_the_automatic_end() {
    let filled = play_one(serde_json::json!({"target": 300, "end": "automatic"}), Policy::default()).await;
    check_common(&filled, 300);
    assert_eq!(filled.result.map(|r| r.reason), Some(EndReason::Automatic));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_bots_play_a_game_ended_by_a_right_bedanke() {
    let policy = Policy { bedanke: true, ..Policy::default() };
    let filled = play_one(serde_json::json!({"target": 300}), policy).await;
    check_common(&filled, 300);
    assert!(
        matches!(filled.result.map(|r| r.reason), Some(EndReason::Bedanke { right: true, .. })),
        "{:?}",
        filled.result
    );
}
