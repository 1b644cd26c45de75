//! Seats and tokens: reconnecting, replacement (4001), bad and revoked tokens (4003),
//! host controls in the lobby, and the rematch.

mod common;

use common::{Client, Server, act_once, connect_all, fast_config, start, sync_all};
use jass_engine::Seat;
use jass_protocol::{ClientMsg, ErrorCode, close};
use serde_json::json;

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

#[tokio::test]
async fn reconnect_mid_trick_restores_the_exact_view_and_replaces_the_old_socket() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    // Contract and two cards: mid-trick.
    for _ in 0..3 {
        act_once(&mut players).await;
    }
    sync_all(&mut players).await;
    let x = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let before = players[x].view().game.clone().unwrap();
    assert_eq!(before.trick.cards.len(), 2);

    // Seat x drops; everyone sees it disconnected.
    let gone = players.remove(x);
    drop(gone);
    let watcher = &mut players[0];
    while watcher.view().seats[x].connected {
        watcher.next().await;
    }

    // Back with the token: same seat, same game view.
    let mut back = server.connect(&table, Some(&tokens[x])).await;
    assert_eq!(back.view().you, Some(seat(x as u8)));
    assert!(back.view().seats[x].connected);
    assert_eq!(back.view().game.as_ref().unwrap(), &before, "the exact view is restored");

    // A second connection with the same token takes over; the first gets 4001.
    let mut second = server.connect(&table, Some(&tokens[x])).await;
    assert_eq!(back.expect_close().await, close::REPLACED);
    assert_eq!(second.view().game.as_ref().unwrap(), &before);
    // The new connection plays for the seat.
    let card = before.allowed.cards.first().unwrap();
    let version = second.version();
    let id = Some(second.id());
    second
        .request(ClientMsg::Play { card, weis: vec![], stoeck: false, version: Some(version), id })
        .await
        .unwrap();
    assert_eq!(second.view().game.as_ref().unwrap().trick.cards.len(), 3);
}

#[tokio::test]
async fn a_bad_token_gets_its_error_and_4003() {
    let server = Server::start(fast_config()).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut c = server.open(&table).await;
    c.send_text(r#"{"type":"hello","protocol":1,"token":"00000000000000000000000000000000"}"#).await;
    assert_eq!(c.expect_error().await, ErrorCode::BadToken);
    assert_eq!(c.expect_close().await, close::BAD_TOKEN);
}

#[tokio::test]
async fn a_seat_freed_mid_round_is_taken_over_only_at_the_next_deal() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let hand = players[3].view().game.as_ref().unwrap().hand;

    let id = Some(players[0].id());
    players[0].request(ClientMsg::FreeSeat { seat: seat(3), id }).await.unwrap();
    assert_eq!(players[3].expect_close().await, close::BAD_TOKEN, "the revoked player is closed");
    assert_eq!(players[0].view().seats[3].name, None);

    // The old token no longer works.
    let mut old = server.open(&table).await;
    old.send(&ClientMsg::Hello { protocol: 1, token: Some(tokens[3].clone()), id: None }).await;
    assert_eq!(old.expect_error().await, ErrorCode::BadToken);
    assert_eq!(old.expect_close().await, close::BAD_TOKEN);

    // Only the host may free seats, and the host not their own.
    let id = Some(players[1].id());
    assert_eq!(players[1].request(ClientMsg::FreeSeat { seat: seat(2), id }).await, Err(ErrorCode::NotHost));
    let id = Some(players[0].id());
    assert_eq!(
        players[0].request(ClientMsg::FreeSeat { seat: seat(0), id }).await,
        Err(ErrorCode::BadMessage)
    );

    // The computer plays the freed seat, and everyone sees so.
    let free = &players[0].view().seats[3];
    assert!(free.stand_in && free.name.is_none(), "{free:?}");

    // Someone joins the freed seat mid-round: they take over only at the next deal,
    // and until then see no hand (it was someone else's). This test failed before:
    // the new player read the revoked player's hand.
    let token = server.join(&table, "Eva", 3).await;
    let mut eva = server.connect(&table, Some(&token)).await;
    let g = eva.view().game.clone().unwrap();
    assert!(g.hand.is_empty() && g.seat.is_none(), "no hand before the next deal: {:?}", g.hand);
    assert_ne!(g.hand, hand);
    let info = &eva.view().seats[3];
    assert!(info.waiting && info.stand_in && info.name.as_deref() == Some("Eva"), "{info:?}");
    let card = hand.iter().next().unwrap();
    let play = ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: None, id: Some(eva.id()) };
    assert_eq!(eva.request(play).await, Err(ErrorCode::WaitingForDeal));

    // The other three play on (the computer plays seat 3) until the next deal.
    let round = g.round;
    let mut three: Vec<Client> = players.drain(..3).collect();
    while three[0].view().game.as_ref().unwrap().round == round {
        let to_act = three[0].view().game.as_ref().unwrap().to_act.unwrap().index();
        if to_act == 3 {
            three[0].next().await;
        } else {
            act_once_by(&mut three, to_act).await;
        }
    }
    eva.wait_view(|v| v.game.as_ref().is_some_and(|g| g.round > round)).await;
    let g = eva.view().game.clone().unwrap();
    assert_eq!((g.seat, g.hand.len()), (Some(seat(3)), 9), "Eva plays from the new deal");
    let info = &eva.view().seats[3];
    assert!(!info.waiting && !info.stand_in, "{info:?}");
}

/// "Give to computer": the player keeps the seat and token, is told (the seat shows
/// `benched`), watches on without a hand, and the host gives the seat back in one
/// step. Before, the client freed the seat and added a computer: the player was closed
/// with 4003 and a revoked token, and nothing could give them the seat again.
#[tokio::test]
async fn a_seat_given_to_the_computer_keeps_its_player_watching_and_is_given_back_in_one_step() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;

    // Only the host gives seats away, never their own, and only a player's.
    let id = Some(players[1].id());
    let give = |seat, id| ClientMsg::GiveToComputer { seat, level: None, id };
    assert_eq!(players[1].request(give(seat(3), id)).await, Err(ErrorCode::NotHost));
    let id = Some(players[0].id());
    assert_eq!(players[0].request(give(seat(0), id)).await, Err(ErrorCode::BadMessage));
    let id = Some(players[0].id());
    assert_eq!(
        players[0].request(ClientMsg::GiveBack { seat: seat(3), id }).await,
        Err(ErrorCode::BadMessage)
    );

    let id = Some(players[0].id());
    players[0].request(give(seat(3), id)).await.unwrap();
    // The player's socket stays open: the seat is still theirs, played by the computer,
    // and they watch without a hand.
    players[3].wait_view(|v| v.seats[3].benched).await;
    let v = players[3].view().clone();
    assert_eq!(v.you, Some(seat(3)));
    let info = &v.seats[3];
    assert!(info.stand_in && info.name.as_deref() == Some("Dan") && !info.computer, "{info:?}");
    let g = v.game.clone().unwrap();
    assert!(g.seat.is_none() && g.hand.is_empty(), "no hand while the computer plays: {:?}", g.hand);
    let card = hand_card(&players[0]);
    let play =
        ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: None, id: Some(players[3].id()) };
    assert_eq!(players[3].request(play).await, Err(ErrorCode::Benched));

    // Coming back with the same token (another device) still finds the seat, watching.
    let mut again = server.connect(&table, Some(&tokens[3])).await;
    assert!(again.view().seats[3].benched && again.view().game.as_ref().unwrap().hand.is_empty());
    assert_eq!(players[3].expect_close().await, close::REPLACED);

    // The computer plays seat 3 while the other three play on.
    let mut three: Vec<Client> = players.drain(..3).collect();
    let played_by_3 = |c: &Client| {
        let g = c.view().game.as_ref().unwrap();
        g.trick.cards.iter().any(|p| p.seat == seat(3))
            || g.last_trick.as_ref().is_some_and(|t| t.cards.iter().any(|p| p.seat == seat(3)))
    };
    while !played_by_3(&three[0]) {
        let to_act = three[0].view().game.as_ref().unwrap().to_act.unwrap().index();
        if to_act == 3 {
            three[0].next().await;
        } else {
            act_once_by(&mut three, to_act).await;
        }
    }

    // One step gives it back: the open socket sees the seat's hand again at once.
    let id = Some(three[0].id());
    three[0].request(ClientMsg::GiveBack { seat: seat(3), id }).await.unwrap();
    again.wait_view(|v| !v.seats[3].benched).await;
    let v = again.view();
    let g = v.game.as_ref().unwrap();
    assert_eq!(g.seat, Some(seat(3)));
    assert!(!g.hand.is_empty() && !v.seats[3].stand_in, "{:?}", v.seats[3]);
}

/// Any card of a seat's hand (a real card: the refusal must be for the seat, not it).
fn hand_card(c: &Client) -> jass_engine::Card {
    c.view().game.as_ref().unwrap().hand.iter().next().unwrap()
}

/// Plays one legal move for `seat` (one of the first three), whoever else waits.
async fn act_once_by(players: &mut [Client], seat: usize) {
    let version = sync_all(players).await;
    let c = &mut players[seat];
    let v = c.view().game.clone().unwrap();
    if v.to_act != v.seat {
        return;
    }
    let id = Some(c.id());
    let msg = if v.allowed.choose {
        ClientMsg::Choose { contract: jass_engine::Contract::Obenabe, version: Some(version), id }
    } else {
        let card = v.allowed.cards.first().unwrap();
        ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: Some(version), id }
    };
    // A computer's move can come in between: then look again.
    let _ = c.request(msg).await;
}

#[tokio::test]
async fn lobby_host_controls_and_their_refusals() {
    let server = Server::start(fast_config()).await;
    let (table, host) = server.create(json!({"name": "Anna", "preset": "to_1000"})).await;

    // HTTP refusals.
    let (status, v) = server.post(&format!("/api/tables/{table}/seats"), json!({"name": ""})).await;
    assert_eq!((status, v["code"].as_str()), (400, Some("bad_name")));
    let (status, v) =
        server.post(&format!("/api/tables/{table}/seats"), json!({"name": "Ben", "seat": 0})).await;
    assert_eq!((status, v["code"].as_str()), (409, Some("seat_taken")));
    let (status, v) = server.post("/api/tables/nosuchtable/seats", json!({"name": "Ben"})).await;
    assert_eq!((status, v["code"].as_str()), (404, Some("unknown_table")));
    let (status, v) = server.post("/api/tables", json!({"name": "Anna", "options": {"target": 0}})).await;
    assert_eq!((status, v["code"].as_str()), (400, Some("bad_options")));
    let (status, v) = server.post("/api/tables", json!({"name": "Anna", "colour": "red"})).await;
    assert_eq!((status, v["code"].as_str()), (400, Some("bad_message")));
    let (status, v) = server.post("/api/tables", json!({"name": "x".repeat(25)})).await;
    assert_eq!((status, v["code"].as_str()), (400, Some("bad_name")));
    let (status, body) = server.http("GET", "/healthz", None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));

    let ben = server.join(&table, "Ben", 1).await;
    let (status, info) = server.http("GET", &format!("/api/tables/{table}"), None).await;
    assert_eq!(status, 200);
    let info: jass_protocol::http::TableInfo = serde_json::from_str(&info).unwrap();
    assert_eq!(info.seats[1].name.as_deref(), Some("Ben"));
    assert!(!info.started);
    assert_eq!(info.options.target, 1000);

    let mut anna = server.connect(&table, Some(&host)).await;
    let mut benc = server.connect(&table, Some(&ben)).await;
    let id = Some(anna.id());
    assert_eq!(anna.request(ClientMsg::Start { id }).await, Err(ErrorCode::NotEnoughPlayers));
    let id = Some(benc.id());
    assert_eq!(benc.request(ClientMsg::Start { id }).await, Err(ErrorCode::NotHost));
    let id = Some(benc.id());
    assert_eq!(benc.request(ClientMsg::Schiebe { version: None, id }).await, Err(ErrorCode::NotStarted));

    // Options: bad ones refused, good ones shown to everyone.
    let bad = serde_json::from_value(json!({"target": -5})).unwrap();
    let id = Some(anna.id());
    assert_eq!(
        anna.request(ClientMsg::SetOptions { preset: None, options: Some(bad), id }).await,
        Err(ErrorCode::BadOptions)
    );
    let good = serde_json::from_value(json!({"target": 1500, "auto_stoeck": true})).unwrap();
    let id = Some(anna.id());
    anna.request(ClientMsg::SetOptions {
        preset: Some(jass_engine::Preset::Swisslos),
        options: Some(good),
        id,
    })
    .await
    .unwrap();
    benc.sync(anna.version()).await;
    assert_eq!(benc.view().options.target, 1500);
    assert!(benc.view().options.auto_stoeck);

    // Swap: Anna (host) moves to seat 2, Ben stays; the host follows Anna.
    let id = Some(anna.id());
    anna.request(ClientMsg::SwapSeats { a: seat(0), b: seat(2), id }).await.unwrap();
    assert_eq!(anna.view().you, Some(seat(2)));
    assert_eq!(anna.view().host, seat(2));
    assert_eq!(anna.view().seats[2].name.as_deref(), Some("Anna"));
    assert_eq!(anna.view().seats[0].name, None);
    // Anna's token now takes seat 2.
    drop(anna);
    let mut anna = server.connect(&table, Some(&host)).await;
    assert_eq!(anna.view().you, Some(seat(2)));

    // Fill up, start; lobby actions are then refused.
    let carla = server.join(&table, "Carla", 0).await;
    let dan = server.join(&table, "Dan", 3).await;
    let (status, v) = server.post(&format!("/api/tables/{table}/seats"), json!({"name": "Eva"})).await;
    assert_eq!((status, v["code"].as_str()), (409, Some("table_full")));
    let id = Some(anna.id());
    anna.request(ClientMsg::Start { id }).await.unwrap();
    let id = Some(anna.id());
    assert_eq!(
        anna.request(ClientMsg::SwapSeats { a: seat(0), b: seat(1), id }).await,
        Err(ErrorCode::AlreadyStarted)
    );
    let id = Some(anna.id());
    assert_eq!(anna.request(ClientMsg::Start { id }).await, Err(ErrorCode::AlreadyStarted));
    let (_, info) = server.http("GET", &format!("/api/tables/{table}"), None).await;
    assert!(info.contains(r#""started":true"#));
    drop((carla, dan, benc));
}

#[tokio::test]
async fn rematch_needs_all_four_votes_after_the_game() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    assert_eq!(players[0].view().games, 1);

    let id = Some(players[1].id());
    assert_eq!(players[1].request(ClientMsg::Rematch { id }).await, Err(ErrorCode::GameNotOver));
    // A bedanke with no points ends the game at once (a wrong claim).
    let id = Some(players[1].id());
    players[1].request(ClientMsg::Bedanke { version: None, id }).await.unwrap();
    sync_all(&mut players).await;
    assert!(players[0].view().game.as_ref().unwrap().result.is_some());
    let id = Some(players[2].id());
    let v = players[2].version();
    let card = players[2].view().game.as_ref().unwrap().hand.first().unwrap();
    assert_eq!(
        players[2].request(ClientMsg::Play { card, weis: vec![], stoeck: false, version: Some(v), id }).await,
        Err(ErrorCode::GameOver)
    );

    for s in 0..4 {
        let id = Some(players[s].id());
        players[s].request(ClientMsg::Rematch { id }).await.unwrap();
        sync_all(&mut players).await;
        if s < 3 {
            assert_eq!(players[0].view().rematch.iter().filter(|(_, v)| **v).count(), s + 1);
        }
    }
    let v = players[0].view();
    assert_eq!(v.games, 2);
    assert_eq!(v.rematch, [false; 4]);
    let g = v.game.as_ref().unwrap();
    assert!(g.result.is_none());
    assert_eq!(g.totals, [0, 0]);
}

#[tokio::test]
async fn a_table_nobody_uses_is_dropped_but_a_connected_one_is_kept() {
    let config =
        jass_server::Config { table_idle_timeout: std::time::Duration::from_millis(300), ..fast_config() };
    let server = Server::start(config).await;
    let (idle, _) = server.create(json!({"name": "Anna"})).await;
    let (used, token) = server.create(json!({"name": "Ben"})).await;
    let mut c = server.connect(&used, Some(&token)).await;
    let deadline = tokio::time::Instant::now() + common::WAIT;
    loop {
        let (status, _) = server.http("GET", &format!("/api/tables/{idle}"), None).await;
        if status == 404 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the idle table is dropped");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (status, _) = server.http("GET", &format!("/api/tables/{used}"), None).await;
    assert_eq!(status, 200);
    c.roundtrip(1).await;
}
