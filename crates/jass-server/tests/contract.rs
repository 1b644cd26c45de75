//! The protocol says what the server does: each rule of protocol.md that a client
//! written from the document alone had to find out by trying is asserted here over real
//! sockets, with the code the document names.

mod common;

use common::{Client, Got, Server, connect_all, fast_config, start};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg, close};
use serde_json::json;

async fn lobby(server: &Server) -> (String, String, Client) {
    let (table, host) = server.create(json!({"name": "Anna"})).await;
    let c = server.connect(&table, Some(&host)).await;
    (table, host, c)
}

/// Reads until the frame `pick` accepts, skipping states.
async fn answer(c: &mut Client) -> ServerMsg {
    c.until(|m| (!matches!(m, ServerMsg::State { .. })).then(|| m.clone())).await
}

// `hello` and `ping` may carry an `id` (protocol.md 2); their one answer echoes it.
#[tokio::test]
async fn hello_and_ping_echo_their_id() {
    let server = Server::start(fast_config()).await;
    let (table, host, _) = lobby(&server).await;
    let mut c = server.open(&table).await;
    c.send_text(&format!(r#"{{"type":"hello","protocol":1,"token":"{host}","id":41}}"#)).await;
    match answer(&mut c).await {
        ServerMsg::Welcome { id, seat, .. } => assert_eq!((id, seat.map(|s| s.index())), (Some(41), Some(0))),
        other => panic!("expected welcome, got {other:?}"),
    }
    c.send_text(r#"{"type":"ping","t":9,"id":42}"#).await;
    assert_eq!(answer(&mut c).await, ServerMsg::Pong { t: 9, id: Some(42) });
    // Without an id the answers carry none (and the wire shape is unchanged).
    c.send_text(r#"{"type":"ping","t":10}"#).await;
    assert_eq!(answer(&mut c).await, ServerMsg::Pong { t: 10, id: None });
    assert!(c.frames.iter().any(|f| f == r#"{"type":"pong","t":10}"#), "{:?}", c.frames);
    // A second hello is refused with its id.
    c.send_text(r#"{"type":"hello","protocol":1,"id":43}"#).await;
    match answer(&mut c).await {
        ServerMsg::Error { id, code, .. } => assert_eq!((id, code), (Some(43), ErrorCode::HelloExpected)),
        other => panic!("expected an error, got {other:?}"),
    }
}

// A refused hello's error carries the hello's id too.
#[tokio::test]
async fn a_refused_hello_echoes_its_id() {
    let server = Server::start(fast_config()).await;
    let (table, _, _) = lobby(&server).await;
    let mut c = server.open(&table).await;
    c.send_text(r#"{"type":"hello","protocol":2,"id":7}"#).await;
    match answer(&mut c).await {
        ServerMsg::Error { id, code, .. } => {
            assert_eq!((id, code), (Some(7), ErrorCode::UnsupportedProtocol))
        }
        other => panic!("expected an error, got {other:?}"),
    }
    assert_eq!(c.expect_close().await, close::HELLO_TIMEOUT);

    let mut c = server.open(&table).await;
    c.send_text(r#"{"type":"hello","protocol":1,"token":"guess","id":8}"#).await;
    match answer(&mut c).await {
        ServerMsg::Error { id, code, .. } => assert_eq!((id, code), (Some(8), ErrorCode::BadToken)),
        other => panic!("expected an error, got {other:?}"),
    }
    assert_eq!(c.expect_close().await, close::BAD_TOKEN);
}

// Every game action may carry a `version`, `bedanke` and `stoeck` included; a stale one
// is refused `stale` and changes nothing.
#[tokio::test]
async fn every_game_action_takes_a_version() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let now = players[1].version();
    let old = now - 1;
    for msg in [
        ClientMsg::Bedanke { version: Some(old), id: Some(1) },
        ClientMsg::Stoeck { version: Some(old), id: Some(2) },
        ClientMsg::Schiebe { version: Some(old), id: Some(3) },
    ] {
        assert_eq!(players[1].request(msg).await, Err(ErrorCode::Stale));
    }
    assert_eq!(players[1].version(), now, "nothing changed");
    players[1].request(ClientMsg::Bedanke { version: Some(now), id: Some(4) }).await.unwrap();
    players[1].sync(now + 1).await;
    assert!(players[1].view().game.as_ref().unwrap().result.is_some(), "the claim decided the game");
    // And the raw wire form of section 3 is accepted.
    let raw = serde_json::from_str::<ClientMsg>(r#"{"type": "bedanke", "version": 5, "id": 5}"#).unwrap();
    assert_eq!(raw.version(), Some(5));
}

// Open sockets follow their players on `swap_seats` (protocol.md 3, "Host controls"):
// the moved player's connection now sees itself (`you`) at the new seat, without
// reconnecting.
#[tokio::test]
async fn sockets_follow_their_players_on_swap() {
    let server = Server::start(fast_config()).await;
    let (table, _, mut host) = lobby(&server).await;
    let ben = server.join(&table, "Ben", 1).await;
    let mut b = server.connect(&table, Some(&ben)).await;
    host.sync(b.version()).await;
    host.request(ClientMsg::SwapSeats { a: seat(1), b: seat(2), id: Some(3) }).await.unwrap();
    let v = host.version();
    b.sync(v).await;
    let view = b.view();
    assert_eq!(view.you, Some(seat(2)));
    assert_eq!(view.seats[2].name.as_deref(), Some("Ben"));
    assert!(view.seats[2].connected);
    assert_eq!(view.seats[1].name, None);
    // The same token now opens seat 2.
    drop(b);
    let mut again = server.connect(&table, Some(&ben)).await;
    assert_eq!(again.view().you, Some(seat(2)));
    again.roundtrip(1).await;
}

// The codes of protocol.md 7 for the lobby and seat mistakes.
#[tokio::test]
async fn lobby_and_seat_refusals() {
    let server = Server::start(fast_config()).await;
    let (table, _, mut host) = lobby(&server).await;
    // A rematch in the lobby: no game has been played.
    assert_eq!(host.request(ClientMsg::Rematch { id: Some(1) }).await, Err(ErrorCode::NotStarted));
    // A spectator's start.
    let mut spectator = server.connect(&table, None).await;
    assert_eq!(spectator.request(ClientMsg::Start { id: Some(2) }).await, Err(ErrorCode::NotSeated));
    // A seat out of range: the frame does not parse (bad_message, counted toward 4009),
    // and its id is still echoed.
    host.send_text(r#"{"type":"free_seat","seat":4,"id":3}"#).await;
    match answer(&mut host).await {
        ServerMsg::Error { id, code, .. } => assert_eq!((id, code), (Some(3), ErrorCode::BadMessage)),
        other => panic!("expected an error, got {other:?}"),
    }
    let path = format!("/api/tables/{table}/seats");
    let (status, body) = server.post(&path, json!({"name": "Ben", "seat": 4})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")), "{body}");
    // Blank and control-character names (white space at the ends is only trimmed).
    for name in ["", "   ", "An\u{7}na", "An\nna", "\t"] {
        let (status, body) = server.post(&path, json!({"name": name})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_name")), "{name:?}: {body}");
        let (status, body) = server.post("/api/tables", json!({"name": name})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_name")), "{name:?}: {body}");
    }
    let (status, body) = server.post(&path, json!({"name": "x".repeat(25)})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_name")), "{body}");
}

// Joining after the start answers `seat_taken` for a named seat and `table_full`
// otherwise (409), until the host frees a seat; then that seat is joined.
#[tokio::test]
async fn joining_after_the_start() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let path = format!("/api/tables/{table}/seats");
    let (status, body) = server.post(&path, json!({"name": "Eve", "seat": 1})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("seat_taken")), "{body}");
    let (status, body) = server.post(&path, json!({"name": "Eve"})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("table_full")), "{body}");
    // A rematch during the game.
    assert_eq!(players[2].request(ClientMsg::Rematch { id: Some(9) }).await, Err(ErrorCode::GameNotOver));
    players[0].request(ClientMsg::FreeSeat { seat: seat(3), id: Some(10) }).await.unwrap();
    let (status, body) = server.post(&path, json!({"name": "Eve"})).await;
    assert_eq!((status, body["seat"].as_u64()), (201, Some(3)), "{body}");
}

// The 4009 rule (protocol.md 8). Only frames that are not a protocol message count (not
// JSON, unknown type or field, wrong type, binary), before and after `hello` alike, for
// the connection's whole life (never reset); refused but well-formed requests do not
// count. The fifth is answered `bad_message` and then closed 4009.
#[tokio::test]
async fn malformed_frames_are_counted_for_the_connections_life() {
    let server = Server::start(fast_config()).await;
    let (table, _, _) = lobby(&server).await;
    let mut c = server.open(&table).await;
    c.send_text("not json").await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    c.send_text(r#"{"type":"fly"}"#).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    c.hello(None).await;
    c.send_raw(tokio_tungstenite::tungstenite::Message::Binary(vec![1, 2].into())).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    c.send_text(r#"{"type":"ping","t":"soon"}"#).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    // Well-formed refusals in between do not count.
    for id in 1..=6 {
        assert_eq!(c.request(ClientMsg::Start { id: Some(id) }).await, Err(ErrorCode::NotSeated));
    }
    c.roundtrip(1).await;
    // The fifth malformed frame: answered, then closed.
    c.send_text(r#"{"type":"ping","t":1,"x":0}"#).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadMessage);
    assert_eq!(c.expect_close().await, close::TOO_MANY_ERRORS);
}

// Messages are for people: a seat is `seat 2`, not `Some(Seat(2))`.
#[tokio::test]
async fn refusal_messages_name_seats_plainly() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let to_act = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let other = (to_act + 2) % 4;
    players[other].send(&ClientMsg::Schiebe { version: None, id: Some(5) }).await;
    let message = loop {
        match players[other].next().await {
            Got::Msg(ServerMsg::Error { code, message, .. }) => {
                assert_eq!(code, ErrorCode::NotYourTurn);
                break message;
            }
            Got::Msg(_) => {}
            other => panic!("expected an error, got {other:?}"),
        }
    };
    assert_eq!(message, format!("not your turn: seat {to_act} is to act"));
}

fn seat(n: u8) -> jass_engine::Seat {
    jass_engine::Seat::new(n).unwrap()
}

// Names are what they look like (protocol.md 1, "Names"). The server must answer
// `bad_name` for invisible, bidi and mixed-script names, on create and on join, and
// keep a decomposed name in NFC. Enabled once the server calls
// `jass_protocol::name::validate` (its `valid_name` in table/decide.rs and http.rs is
// the lead's to switch).
#[tokio::test]
async fn spoofing_names_are_refused() {
    let server = Server::start(fast_config()).await;
    let (table, _, mut host) = lobby(&server).await;
    let path = format!("/api/tables/{table}/seats");
    for name in [
        "An\u{200B}na",
        "\u{FEFF}Anna",
        "Anna\u{202E}",
        "An\u{AD}na",
        "\u{3164}",
        "\u{0410}nna",
        "A\u{2066}x",
    ] {
        let (status, body) = server.post(&path, json!({"name": name})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_name")), "{name:?}: {body}");
        let (status, body) = server.post("/api/tables", json!({"name": name})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_name")), "{name:?}: {body}");
    }
    let (status, body) = server.post(&path, json!({"name": "Zoe\u{0308}", "seat": 1})).await;
    assert_eq!(status, 201, "{body}");
    host.sync(host.version() + 1).await;
    assert_eq!(host.view().seats[1].name.as_deref(), Some("Zo\u{EB}"));
}
