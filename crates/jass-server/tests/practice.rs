//! "Replay this deal" over HTTP (protocol.md, "Replay a deal"): a finished round of a
//! table or of a record dealt again at a new table with computers, from the deal or
//! from a trick, in the seat asked for; it survives a restart like any table, and a
//! round in play is never dealt again.

mod common;

use common::*;
use jass_engine::{CardSet, Phase, deal};
use jass_protocol::http::Rounds;
use serde_json::{Value, json};

/// A table whose first two rounds are over, with what those rounds dealt.
async fn two_rounds_played(server: &Server) -> (String, Rounds) {
    let (table, token) = server.create(json!({"name": "Anna", "preset": "to_1000", "computers": true})).await;
    let mut human = server.connect(&table, Some(&token)).await;
    human.wait_view(|v| v.game.is_some()).await;
    play_until(&mut human, |g| g.rounds_played >= 2).await;
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/rounds"), None).await;
    assert_eq!(status, 200, "{body}");
    (table, serde_json::from_str(&body).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tables_round_is_dealt_again_from_a_trick_in_the_seat_asked_for() {
    let server = Server::start(unlimited_config()).await;
    let (table, rounds) = two_rounds_played(&server).await;
    let round = &rounds.rounds[1];
    let dealt = deal(round.seed, Some(round.dealer)).hands;
    let (status, joined) = server
        .post(
            &format!("/api/tables/{table}/practice"),
            json!({"name": "Ben", "round": 1, "trick": 3, "seat": 2, "computer_level": "easy"}),
        )
        .await;
    assert_eq!(status, 201, "{joined}");
    assert_eq!(joined["seat"], 2);
    let practice = joined["table"].as_str().unwrap().to_owned();
    let token = joined["token"].as_str().unwrap().to_owned();
    assert_ne!(practice, table);
    let mut ben = server.connect(&practice, Some(&token)).await;
    ben.wait_view(|v| v.game.is_some()).await;
    let g = ben.view().game.clone().unwrap();
    assert_eq!(g.seat.map(|s| s.index()), Some(2));
    assert_eq!((g.round, g.contract), (0, round.contract), "the round's contract stands");
    assert!(g.trick.number >= 3, "three tricks are played already");
    // The seat's cards are what it was dealt in that round, less what it played.
    assert_eq!(g.hand & dealt[2], g.hand);
    assert_eq!(g.commitment, round.seed.commitment(), "the round's own seed, revealed already");
    let hand_before = g.hand;
    // Ben hosts the practice table: the host followed him to seat 2.
    assert_eq!(ben.view().host.index(), 2);
    // It is a table like any other: a restart restores it as it was.
    let restored =
        restoring(unlimited_config(), server.store.clone(), vec![stored(&server.store, &practice)]).await;
    let mut again = restored.connect(&practice, Some(&token)).await;
    again.wait_view(|v| v.game.is_some()).await;
    let g2 = again.view().game.clone().unwrap();
    assert!(g2.hand & hand_before == g2.hand && g2.trick.number >= 3);
    assert_eq!(g2.commitment, round.seed.commitment());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_records_round_is_dealt_again_from_the_deal() {
    let server = Server::start(unlimited_config()).await;
    let text = include_str!("../../jass-review/tests/data/game.json");
    let record: jass_engine::Record = serde_json::from_str(text).unwrap();
    let body = json!({"name": "Cleo", "record": record, "round": 1});
    let (status, joined) = server.post("/api/practice", body).await;
    assert_eq!(status, 201, "{joined}");
    assert_eq!(joined["seat"], 0);
    let mut cleo =
        server.connect(joined["table"].as_str().unwrap(), Some(joined["token"].as_str().unwrap())).await;
    cleo.wait_view(|v| v.game.is_some()).await;
    let g = cleo.view().game.clone().unwrap();
    // From the deal: the round's dealer deals its seed again, and the contract is
    // chosen anew (a computer forehand may have chosen already).
    let rr = &record.rounds[1];
    assert_eq!(cleo.view().options.first_dealer, Some(rr.dealer));
    assert_eq!(g.round, 0);
    assert_eq!(g.hand & rr.hands[jass_engine::Seat::ALL[0]], g.hand);
    if g.phase == Phase::Choosing || g.trick.number == 0 && g.trick.cards.is_empty() {
        assert_eq!(g.hand, rr.hands[jass_engine::Seat::ALL[0]]);
    }
    assert_ne!(g.hand, CardSet::EMPTY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_in_play_or_a_bad_request_makes_no_table() {
    let server = Server::start(unlimited_config()).await;
    let (table, _) = two_rounds_played(&server).await;
    let code = |v: &Value| v["code"].as_str().unwrap_or_default().to_owned();
    // Round 2 is in play: never dealt again before it is over.
    let at = format!("/api/tables/{table}/practice");
    let (status, body) = server.post(&at, json!({"name": "Ben", "round": 2})).await;
    assert_eq!((status, code(&body).as_str()), (409, "round_not_over"), "{body}");
    // A ninth trick's successor does not exist.
    let (status, body) = server.post(&at, json!({"name": "Ben", "round": 0, "trick": 9})).await;
    assert_eq!((status, code(&body).as_str()), (400, "bad_message"), "{body}");
    // A table's round with a record too, a record's without one, a field of neither.
    let record: Value = serde_json::from_str(include_str!("../../jass-review/tests/data/game.json")).unwrap();
    let (status, _) = server.post(&at, json!({"name": "Ben", "record": record, "round": 0})).await;
    assert_eq!(status, 413, "a table's round takes a small body");
    let small = json!({"format": "jass-record/1", "options": {}, "rounds": []});
    let (status, _) = server.post(&at, json!({"name": "Ben", "record": small, "round": 0})).await;
    assert_eq!(status, 400);
    let (status, _) = server.post("/api/practice", json!({"name": "Ben", "round": 0})).await;
    assert_eq!(status, 400);
    let (status, _) = server.post("/api/practice", json!({"name": "Ben", "table": table, "round": 0})).await;
    assert_eq!(status, 400, "no such field");
    // A record that does not replay.
    let broken: Value = serde_json::from_str(
        &include_str!("../../jass-review/tests/data/game.json").replacen("\"HJ\"", "\"H6\"", 1),
    )
    .unwrap();
    let (status, body) =
        server.post("/api/practice", json!({"name": "Ben", "record": broken, "round": 1})).await;
    assert_eq!((status, code(&body).as_str()), (400, "bad_message"), "{body}");
    // An unknown table, a bad name.
    let (status, _) = server
        .post("/api/tables/nosuchtable00000000000000/practice", json!({"name": "Ben", "round": 0}))
        .await;
    assert_eq!(status, 404);
    let (status, _) = server.post(&at, json!({"name": "", "round": 0})).await;
    assert_eq!(status, 400);
    // Only the first table exists.
    let (_, stats) = server.http("GET", "/api/stats", None).await;
    let stats: Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(stats["tables_created"], 1, "{stats}");
}
