//! Liveness (protocol.md 2): a seated peer that falls silent is shown as away after
//! `away_after`, not after `pong_timeout`, and present again as soon as it is heard
//! from; a quiet client that still answers WebSocket pings is never away. Presence
//! never moves `version`. All on a paused clock: the minutes below take no real time.

mod common;

use std::time::Duration;

use common::{Server, fast_config};
use jass_server::Config;
use serde_json::json;
use tokio::time::{Instant, timeout};

fn config() -> Config {
    Config {
        ping_interval: Duration::from_secs(15),
        pong_timeout: Duration::from_secs(45),
        away_after: Duration::from_secs(10),
        ..fast_config()
    }
}

// Before, a silent peer showed `connected: true` until it was dropped after 45 s.
#[tokio::test(start_paused = true)]
async fn a_silent_seat_is_away_within_the_away_time_and_back_when_heard_from() {
    let server = Server::start(config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    // Anna says hello and then neither reads nor writes: like a phone in a tunnel,
    // her socket stays open but nothing comes back (not even pongs).
    let mut anna = server.connect(&table, Some(&tokens[0])).await;
    let silent_since = Instant::now();
    let mut ben = server.connect(&table, Some(&tokens[1])).await;
    ben.wait_view(|v| v.seats[0].connected && v.seats[1].connected).await;
    let version = ben.version();

    timeout(Duration::from_secs(20), ben.wait_view(|v| !v.seats[0].connected))
        .await
        .expect("Anna is shown away well before the 45 s pong timeout");
    let after = silent_since.elapsed();
    assert!(after >= Duration::from_secs(10), "away only after the away time, was {after:?}");
    // Before, silence was checked only at the server's pings (every half the away
    // time, at a random phase), so she showed away 10 to 15 s after falling silent.
    assert!(after <= Duration::from_millis(10_500), "away at the away time, was {after:?}");
    assert_eq!(ben.version(), version, "presence keeps the version");
    assert!(ben.view().seats[1].connected, "Ben, who only reads, answers pings and stays present");

    // Her heartbeat brings her back at once, at the same version.
    anna.roundtrip(7).await;
    timeout(Duration::from_secs(1), ben.wait_view(|v| v.seats[0].connected))
        .await
        .expect("Anna is present again as soon as she is heard from");
    assert_eq!(ben.version(), version, "presence keeps the version");
}

// A client that sends no heartbeat of its own (a bot) but whose WebSocket answers the
// server's pings is never shown away.
#[tokio::test(start_paused = true)]
async fn a_quiet_client_that_answers_pings_is_never_away() {
    let server = Server::start(config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut anna = server.connect(&table, Some(&tokens[0])).await;
    let mut ben = server.connect(&table, Some(&tokens[1])).await;
    anna.wait_view(|v| v.seats[1].connected).await;
    ben.wait_view(|v| v.seats[0].connected && v.seats[1].connected).await;
    // Both only read (their WebSocket layer answers pings) for two minutes.
    let quiet = async {
        tokio::join!(
            anna.wait_view(|v| !v.seats[0].connected || !v.seats[1].connected),
            ben.wait_view(|v| !v.seats[0].connected || !v.seats[1].connected),
        )
    };
    assert!(timeout(Duration::from_secs(120), quiet).await.is_err(), "nobody was shown away");
}

// A heartbeat every few seconds keeps a seat present without any server ping.
#[tokio::test(start_paused = true)]
async fn a_heartbeat_every_three_seconds_keeps_the_seat_present() {
    let server = Server::start(config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut anna = server.connect(&table, Some(&tokens[0])).await;
    let mut ben = server.connect(&table, Some(&tokens[1])).await;
    ben.wait_view(|v| v.seats[0].connected).await;
    let start = Instant::now();
    let mut t = 0;
    while start.elapsed() < Duration::from_secs(60) {
        t += 1;
        anna.roundtrip(t).await;
        let watch = ben.wait_view(|v| !v.seats[0].connected);
        assert!(timeout(Duration::from_secs(3), watch).await.is_err(), "Anna stays present");
    }
}

// A client whose connection died before a move's answer sends the same move again, with
// its original `version`, on a new connection. If the first copy was taken, the copy is
// refused `stale` and the game changes once.
#[tokio::test]
async fn a_move_sent_again_after_its_answer_was_lost_is_taken_at_most_once() {
    use jass_protocol::{ClientMsg, ErrorCode};
    let server = Server::start(common::unlimited_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = common::connect_all(&server, &table, &tokens).await;
    common::start(&mut players).await;
    let version = common::sync_all(&mut players).await;
    let g = players[0].view().game.clone().expect("started");
    let seat = g.to_act.expect("someone chooses").index();
    let choose = |id| ClientMsg::Choose {
        contract: jass_engine::Contract::Obenabe,
        version: Some(version),
        id: Some(id),
    };
    // The first copy arrives and is taken, but its answer is lost with the socket.
    players[seat].send(&choose(100)).await;
    players[(seat + 1) % 4].sync(version + 1).await;
    drop(players.remove(seat));
    let mut again = server.connect(&table, Some(&tokens[seat])).await;
    let taken = again.version();
    assert_eq!(taken, version + 1, "the first copy was taken");
    assert_eq!(again.request(choose(101)).await, Err(ErrorCode::Stale), "the copy is refused stale");
    again.roundtrip(1).await;
    assert_eq!(again.version(), taken, "nothing changed twice");
}
