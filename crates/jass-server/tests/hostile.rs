//! Hostile input, one test each: every case ends in the documented error or close
//! code, the table's state is unchanged, and the server keeps serving.

mod common;

use common::{Client, Server, act_once, connect_all, fast_config, start, sync_all};
use jass_engine::{Card, CardSet, Contract, Seat};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg, close};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

/// Asserts nothing changed: a ping round trip brings no new state.
async fn unchanged(c: &mut Client) {
    let before = c.version();
    c.roundtrip(99).await;
    assert_eq!(c.version(), before, "the table did not change");
}

/// A lobby with the host connected.
async fn lobby(server: &Server) -> (String, Client) {
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let c = server.connect(&table, Some(&token)).await;
    (table, c)
}

/// A started game with all four connected.
async fn game(server: &Server) -> (String, Vec<Client>) {
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(server, &table, &tokens).await;
    start(&mut players).await;
    (table, players)
}

async fn bad_message(text: &str) {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    c.send_text(text).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage, "{text}");
    unchanged(&mut c).await;
}

#[tokio::test]
async fn malformed_json() {
    bad_message(r#"{"type": "start""#).await;
}

#[tokio::test]
async fn unknown_type() {
    bad_message(r#"{"type": "deal_me_aces", "id": 1}"#).await;
}

#[tokio::test]
async fn unknown_field() {
    bad_message(r#"{"type": "start", "id": 1, "force": true}"#).await;
}

#[tokio::test]
async fn missing_field() {
    bad_message(r#"{"type": "swap_seats", "a": 1, "id": 1}"#).await;
}

#[tokio::test]
async fn wrong_types() {
    bad_message(r#"{"type": "play", "card": 5, "id": 1}"#).await;
    bad_message(r#"{"type": "play", "card": "H1", "id": 1}"#).await;
    bad_message(r#"{"type": "free_seat", "seat": 7, "id": 1}"#).await;
    bad_message(r#"[1, 2, 3]"#).await;
}

#[tokio::test]
async fn the_id_of_a_malformed_request_is_echoed_when_readable() {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    c.send_text(r#"{"type": "choose", "contract": "all_trumps", "id": 77}"#).await;
    let id = c.until(|m| if let ServerMsg::Error { id, .. } = m { Some(*id) } else { None }).await;
    assert_eq!(id, Some(77));
}

#[tokio::test]
async fn five_malformed_messages_close_4009() {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    for _ in 0..5 {
        c.send_text("not json").await;
    }
    for _ in 0..5 {
        assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    }
    assert_eq!(c.expect_close().await, close::TOO_MANY_ERRORS);
}

#[tokio::test]
async fn binary_frames_are_bad_messages() {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    c.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    unchanged(&mut c).await;
}

#[tokio::test]
async fn unknown_table() {
    let server = Server::start(fast_config()).await;
    let mut c = server.open("k3v9q2x7m4p8r6t1w5y0z2b8").await;
    assert_eq!(c.expect_error().await, ErrorCode::UnknownTable);
    assert_eq!(c.expect_close().await, close::UNKNOWN_TABLE);
}

#[tokio::test]
async fn bad_token() {
    let server = Server::start(fast_config()).await;
    let (table, mut host) = lobby(&server).await;
    let mut c = server.open(&table).await;
    c.send(&ClientMsg::Hello { protocol: 1, token: Some("guess".into()), id: None }).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadToken);
    assert_eq!(c.expect_close().await, close::BAD_TOKEN);
    unchanged(&mut host).await;
}

#[tokio::test]
async fn no_hello_in_time_closes_4008() {
    let server = Server::start(fast_config()).await;
    let (table, _) = lobby(&server).await;
    let mut c = server.open(&table).await;
    assert_eq!(c.expect_close().await, close::HELLO_TIMEOUT);
}

#[tokio::test]
async fn messages_before_hello_and_a_wrong_protocol() {
    let server = Server::start(fast_config()).await;
    let (table, _) = lobby(&server).await;
    let mut c = server.open(&table).await;
    c.send(&ClientMsg::Start { id: Some(1) }).await;
    assert_eq!(c.expect_error().await, ErrorCode::HelloExpected);
    c.send(&ClientMsg::Hello { protocol: 2, token: None, id: None }).await;
    assert_eq!(c.expect_error().await, ErrorCode::UnsupportedProtocol);
    assert_eq!(c.expect_close().await, close::HELLO_TIMEOUT);

    // A second hello after the welcome is refused, nothing else happens.
    let mut s = server.connect(&table, None).await;
    s.send(&ClientMsg::Hello { protocol: 1, token: None, id: None }).await;
    assert_eq!(s.expect_error().await, ErrorCode::HelloExpected);
    unchanged(&mut s).await;
}

#[tokio::test]
async fn oversized_frames_close_1009() {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    let big = format!(r#"{{"type":"ping","t":1,"pad":"{}"}}"#, "x".repeat(5000));
    c.send_text(&big).await;
    assert_eq!(c.expect_close().await, close::TOO_BIG);
}

#[tokio::test]
async fn invalid_utf8_closes_1007() {
    let server = Server::start(fast_config()).await;
    let (_, mut c) = lobby(&server).await;
    let frame = Frame::message(vec![b'{', 0xff, 0xfe, b'}'], OpCode::Data(Data::Text), true);
    c.send_raw(Message::Frame(frame)).await;
    assert_eq!(c.expect_close().await, close::INVALID_UTF8);
}

#[tokio::test]
async fn floods_are_limited_then_closed_1008() {
    let server = Server::start(fast_config()).await;
    let (table, mut c) = lobby(&server).await;
    let mut other = server.connect(&table, None).await;
    for t in 0..60 {
        c.send(&ClientMsg::Ping { t, id: None }).await;
    }
    let mut limited = 0;
    let code = loop {
        match c.next().await {
            common::Got::Msg(ServerMsg::Error { code: ErrorCode::RateLimited, .. }) => limited += 1,
            common::Got::Msg(_) => {}
            common::Got::Close(code) => break code,
            common::Got::End(why) => panic!("no close frame: {why}"),
        }
    };
    assert!(limited >= 1, "refused with rate_limited before the close");
    assert_eq!(code, close::RATE_LIMITED);
    // The table and its other connections carry on.
    other.roundtrip(5).await;
}

#[tokio::test]
async fn a_peer_that_stops_answering_pings_is_reaped() {
    let config = jass_server::Config {
        ping_interval: std::time::Duration::from_millis(100),
        pong_timeout: std::time::Duration::from_millis(500),
        ..fast_config()
    };
    let server = Server::start(config).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut watcher = server.connect(&table, Some(&tokens[0])).await;
    // Seat 1 says hello, then never reads again, so it never answers a ping.
    let silent = server.connect(&table, Some(&tokens[1])).await;
    watcher.wait_view(|v| v.seats[1].connected).await;
    while watcher.view().seats[1].connected {
        watcher.next().await;
    }
    drop(silent);
}

#[tokio::test]
async fn spectators_cannot_act_and_stale_versions_are_refused() {
    let server = Server::start(fast_config()).await;
    let (table, mut players) = game(&server).await;
    let mut spectator = server.connect(&table, None).await;
    sync_all(&mut players).await;
    let id = Some(spectator.id());
    assert_eq!(spectator.request(ClientMsg::Bedanke { version: None, id }).await, Err(ErrorCode::NotSeated));

    let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let stale = players[s].version() - 1;
    let id = Some(players[s].id());
    let choose = ClientMsg::Choose { contract: Contract::Obenabe, version: Some(stale), id };
    assert_eq!(players[s].request(choose).await, Err(ErrorCode::Stale));
    unchanged(&mut players[s]).await;
}

#[tokio::test]
async fn out_of_turn() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().next().index();
    let id = Some(players[s].id());
    assert_eq!(
        players[s].request(ClientMsg::Choose { contract: Contract::Hearts, version: None, id }).await,
        Err(ErrorCode::NotYourTurn)
    );
    unchanged(&mut players[s]).await;
}

#[tokio::test]
async fn wrong_phase_playing_before_the_contract() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let card = players[s].view().game.as_ref().unwrap().hand.first().unwrap();
    let id = Some(players[s].id());
    let play = ClientMsg::Play { card, weis: vec![], stoeck: false, version: None, id };
    assert_eq!(players[s].request(play).await, Err(ErrorCode::WrongPhase));
    unchanged(&mut players[s]).await;
}

#[tokio::test]
async fn a_second_contract_choice() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    let s = act_once(&mut players).await; // the forehand chooses Obenabe
    let id = Some(players[s].id());
    let again = ClientMsg::Choose { contract: Contract::Undenufe, version: None, id };
    assert_eq!(players[s].request(again).await, Err(ErrorCode::WrongPhase));
    unchanged(&mut players[s]).await;
}

#[tokio::test]
async fn an_illegal_card() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    act_once(&mut players).await; // Obenabe: following suit is compulsory
    for _ in 0..40 {
        sync_all(&mut players).await;
        let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
        let g = players[s].view().game.clone().unwrap();
        let illegal = CardSet::from_bits(g.hand.bits() & !g.allowed.cards.bits());
        if let Some(card) = illegal.first() {
            let id = Some(players[s].id());
            let play = ClientMsg::Play { card, weis: vec![], stoeck: false, version: None, id };
            assert_eq!(players[s].request(play).await, Err(ErrorCode::IllegalCard));
            unchanged(&mut players[s]).await;
            return;
        }
        act_once(&mut players).await;
    }
    panic!("no illegal card came up");
}

#[tokio::test]
async fn a_card_not_held_and_a_weis_not_held() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    let s = act_once(&mut players).await;
    sync_all(&mut players).await;
    let g = players[s].view().game.clone().unwrap();
    let foreign = CardSet::from_bits(CardSet::DECK.bits() & !g.hand.bits());
    let id = Some(players[s].id());
    let play =
        ClientMsg::Play { card: foreign.first().unwrap(), weis: vec![], stoeck: false, version: None, id };
    assert_eq!(players[s].request(play).await, Err(ErrorCode::CardNotHeld));

    // A four of a kind the seat cannot hold all of.
    let four: CardSet = ["H6", "D6", "C6", "S6"].iter().map(|c| c.parse::<Card>().unwrap()).collect();
    let four = if g.hand.contains_all(four) {
        ["HA", "DA", "CA", "SA"].iter().map(|c| c.parse::<Card>().unwrap()).collect()
    } else {
        four
    };
    let card = g.allowed.cards.first().unwrap();
    let id = Some(players[s].id());
    let play = ClientMsg::Play { card, weis: vec![four], stoeck: false, version: None, id };
    assert_eq!(players[s].request(play).await, Err(ErrorCode::InvalidWeis));
    unchanged(&mut players[s]).await;
    assert_eq!(players[s].view().game.as_ref().unwrap().hand.len(), 9);
}

#[tokio::test]
async fn hostile_sockets_do_not_disturb_other_tables() {
    let server = Server::start(fast_config()).await;
    let (_, mut players) = game(&server).await;
    // Another table gets abuse of every kind.
    let (table_b, _) = lobby(&server).await;
    for text in ["garbage", "{}", r#"{"type":"play"}"#] {
        let mut c = server.connect(&table_b, None).await;
        c.send_text(text).await;
        let _ = c.expect_error().await;
    }
    let mut big = server.connect(&table_b, None).await;
    big.send_text(&"x".repeat(10_000)).await;
    assert_eq!(big.expect_close().await, close::TOO_BIG);
    // The first table plays on.
    act_once(&mut players).await;
    act_once(&mut players).await;
    let (status, _) = server.http("GET", "/healthz", None).await;
    assert_eq!(status, 200);
    let _ = Seat::ALL;
}

#[tokio::test]
async fn connections_over_the_limit_are_refused_busy() {
    let server = Server::start(jass_server::Config { max_connections: 1, ..fast_config() }).await;
    let (table, mut first) = lobby(&server).await;
    let r = tokio_tungstenite::connect_async(format!("ws://{}/ws/{table}", server.addr)).await;
    match r {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 503);
            let body = String::from_utf8(resp.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("busy"), "{body}");
        }
        other => panic!("expected 503, got {other:?}"),
    }
    unchanged(&mut first).await;
}

#[tokio::test]
async fn shutdown_closes_every_socket_with_1012() {
    let mut server = Server::start(fast_config()).await;
    let (table, mut host) = lobby(&server).await;
    let mut spectator = server.connect(&table, None).await;
    // A socket still in the hello phase; a refused message proves its task runs.
    let mut waiting = server.open(&table).await;
    waiting.send_text("{}").await;
    assert_eq!(waiting.expect_error().await, ErrorCode::BadMessage);
    server.shutdown().await;
    for (who, c) in [("host", &mut host), ("spectator", &mut spectator), ("waiting", &mut waiting)] {
        assert_eq!(c.expect_close().await, close::SERVICE_RESTART, "{who}");
    }
    assert!(tokio::net::TcpStream::connect(server.addr).await.is_err(), "no longer listening");
}

#[tokio::test]
async fn tables_over_the_limit_are_refused_busy() {
    let server = Server::start(jass_server::Config { max_tables: 2, ..fast_config() }).await;
    server.create(json!({"name": "Anna"})).await;
    server.create(json!({"name": "Ben"})).await;
    let (status, v) = server.post("/api/tables", json!({"name": "Carla"})).await;
    assert_eq!((status, v["code"].as_str()), (503, Some("busy")));
}
