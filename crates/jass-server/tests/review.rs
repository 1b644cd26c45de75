//! Round reviews over HTTP (protocol.md, "Round review"): a round is reviewed only
//! once it is over, the review is kept and served again without computing, the view
//! says when one is ready, and bad requests get clear errors.

mod common;

use common::*;
use jass_protocol::review::RoundReview;
use serde_json::{Value, json};

/// `GET` a review, asking again while it is being computed.
async fn review(server: &Server, table: &str, round: u32) -> (u16, String) {
    for _ in 0..60 {
        let (status, body) =
            server.http("GET", &format!("/api/tables/{table}/rounds/{round}/review"), None).await;
        if status != 202 {
            return (status, body);
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    panic!("the review of round {round} never got ready");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_is_reviewed_once_it_is_over_and_never_before() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) = server.create(json!({"name": "Anna", "preset": "to_1000", "computers": true})).await;
    let mut human = server.connect(&table, Some(&token)).await;
    human.wait_view(|v| v.game.is_some()).await;
    // Round 0 is in play: nothing of it is reviewed.
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/rounds/0/review"), None).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["code"], "round_not_over");
    assert!(human.view().review_ready.is_none());
    play_until(&mut human, |g| g.rounds_played >= 1).await;
    let (status, body) = review(&server, &table, 0).await;
    assert_eq!(status, 200, "{body}");
    let r: RoundReview = serde_json::from_str(&body).unwrap();
    assert_eq!(r.round, 0);
    assert!(!r.tricks.is_empty());
    // The round now in play is still refused.
    let (status, _) = server.http("GET", &format!("/api/tables/{table}/rounds/1/review"), None).await;
    assert_eq!(status, 409);
    // The view says the review is ready (it may have been computed ahead already).
    human.wait_view(|v| v.review_ready == Some(0)).await;
    // Asked again, it is served as kept, the same.
    let (status, again) = review(&server, &table, 0).await;
    assert_eq!((status, &again), (200, &body));
    let (_, stats) = server.http("GET", "/api/stats", None).await;
    let stats: Value = serde_json::from_str(&stats).unwrap();
    assert!(stats["reviews"]["computed"].as_u64().unwrap() >= 1, "{stats}");
    assert!(stats["reviews"]["served_kept"].as_u64().unwrap() >= 1, "{stats}");
    // Bad requests: a round that is no number, a table that does not exist.
    let (status, _) = server.http("GET", &format!("/api/tables/{table}/rounds/x/review"), None).await;
    assert_eq!(status, 400);
    let (status, _) = server.http("GET", "/api/tables/nosuchtable00000000000000/rounds/0/review", None).await;
    assert_eq!(status, 404);
}

/// Any record may be reviewed (`POST /api/review?round=N`): a valid record's round
/// that is over is reviewed, a record that does not replay or a round not over is
/// refused, and nothing of it is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_record_is_reviewed_after_its_replay() {
    let server = Server::start(unlimited_config()).await;
    let record = include_str!("../../jass-review/tests/data/game.json");
    let mut answer = (0, String::new());
    for _ in 0..60 {
        answer = server.http("POST", "/api/review?round=1", Some(record)).await;
        if answer.0 != 202 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    assert_eq!(answer.0, 200, "{}", answer.1);
    let r: RoundReview = serde_json::from_str(&answer.1).unwrap();
    assert_eq!(r.round, 1);
    // A record that does not replay: a card changed in the dealt hands.
    let broken = record.replacen("\"HJ\"", "\"H6\"", 1);
    let (status, body) = server.http("POST", "/api/review?round=1", Some(&broken)).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.http("POST", "/api/review?round=99", Some(record)).await;
    assert_eq!(status, 409, "{body}");
    let (status, _) = server.http("POST", "/api/review", Some(record)).await;
    assert_eq!(status, 400, "a round is needed");
    let (status, _) = server.http("POST", "/api/review?round=0", Some("{\"format\":")).await;
    assert_eq!(status, 400, "not JSON");
}
