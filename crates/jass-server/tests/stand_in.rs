//! The computer plays for a missing or silent player (protocol.md 3, "Step-in and move
//! clock"): after the step-in time for a player who is away on their turn, at once
//! while they stay away, never for a present player unless the move clock runs out, and
//! the seat is theirs again the moment they are back; across a restart too. On a paused
//! clock: the seconds below take no real time.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use jass_engine::{BySeat, Contract};
use jass_protocol::{ClientMsg, Deadline, ErrorCode};
use jass_server::MemoryStore;
use serde_json::json;
use tokio::time::{Instant, timeout};

/// The seat whose decision it is, as `c` sees it.
fn to_act(c: &Client) -> usize {
    c.view().game.as_ref().and_then(|g| g.to_act).expect("someone acts").index()
}

/// `c`'s own decision now, if it has one (a contract it would choose, else its first
/// legal card).
fn decision(c: &mut Client) -> Option<ClientMsg> {
    let g = c.view().game.clone()?;
    if g.to_act != g.seat || g.result.is_some() {
        return None;
    }
    let (id, version) = (Some(c.id()), Some(c.version()));
    Some(if g.allowed.choose {
        ClientMsg::Choose { contract: Contract::Obenabe, version, id }
    } else {
        let card = g.allowed.cards.first()?;
        ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version, id }
    })
}

/// Plays the present humans' decisions until it is `seat`'s turn.
async fn play_until_turn_of(players: &mut [Option<Client>], seat: usize) {
    let watcher = players.iter().position(Option::is_some).expect("someone is connected");
    for _ in 0..200 {
        let w = players[watcher].as_mut().unwrap();
        w.roundtrip(1).await;
        let who = to_act(w);
        if who == seat {
            return;
        }
        match players[who].as_mut() {
            Some(c) => {
                c.roundtrip(1).await;
                if let Some(m) = decision(c) {
                    match c.request(m).await {
                        Ok(()) | Err(ErrorCode::Stale | ErrorCode::NotYourTurn) => {}
                        Err(e) => panic!("refused: {e:?}"),
                    }
                }
            }
            // A computer plays that seat: wait for its move.
            None => {
                let w = players[watcher].as_mut().unwrap();
                let v = w.version();
                w.sync(v + 1).await;
            }
        }
    }
    panic!("seat {seat}'s turn never came");
}

/// Waits until the table's version passes `version`; returns how long that took.
async fn moved_after(c: &mut Client, version: u64) -> Duration {
    let t0 = Instant::now();
    timeout(Duration::from_secs(600), c.sync(version + 1)).await.expect("the game moved on");
    t0.elapsed()
}

/// A started game of four connected humans (step-in 20 s, no move clock).
async fn four_playing(
    server: &Server,
    create: serde_json::Value,
) -> (String, Vec<String>, Vec<Option<Client>>) {
    let (table, tokens) = server.full_table(create).await;
    let mut players = connect_all(server, &table, &tokens).await;
    start(&mut players).await;
    (table, tokens, players.into_iter().map(Some).collect())
}

// Before, a player who left on their turn stalled the table for ever.
#[tokio::test(start_paused = true)]
async fn the_computer_plays_for_a_disconnected_player_and_hands_the_seat_back() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens, mut players) = four_playing(&server, json!({"name": "Anna"})).await;
    let seat = to_act(players[0].as_ref().unwrap());
    let watcher = (seat + 1) % 4;
    // The player whose turn it is goes away (the socket closes).
    drop(players[seat].take());
    let w = players[watcher].as_mut().unwrap();
    w.wait_view(|v| !v.seats[seat].connected).await;
    let clock = w.view().clock.expect("a step-in countdown");
    assert_eq!((clock.seat.index(), clock.kind), (seat, Deadline::StepIn));
    assert_eq!(clock.deadline - clock.now, 20_000, "20 s by default");
    let version = w.version();
    let took = moved_after(w, version).await;
    assert!(took >= Duration::from_secs(20) && took < Duration::from_secs(21), "stepped in after {took:?}");
    assert!(w.view().seats[seat].stand_in, "everyone sees the computer plays for them");

    // While they stay away, their next decision is made at once.
    play_until_turn_of(&mut players, seat).await;
    let w = players[watcher].as_mut().unwrap();
    let version = w.version();
    let took = moved_after(w, version).await;
    assert!(took < Duration::from_secs(2), "still away: at once, not after {took:?}");

    // Back: the seat is theirs again, and nobody plays for them however long they take.
    let back = server.connect(&table, Some(&tokens[seat])).await;
    players[seat] = Some(back);
    let w = players[watcher].as_mut().unwrap();
    w.wait_view(|v| !v.seats[seat].stand_in && v.seats[seat].connected).await;
    play_until_turn_of(&mut players, seat).await;
    let me = players[seat].as_mut().unwrap();
    me.roundtrip(1).await;
    assert_eq!(to_act(me), seat);
    let version = me.version();
    let waited = timeout(Duration::from_secs(90), me.sync(version + 1)).await;
    assert!(waited.is_err(), "a present player is left alone");
    me.roundtrip(2).await;
    let m = decision(me).expect("their decision");
    me.request(m).await.expect("their own move is taken");
}

// A silent socket (no heartbeat: away after 10 s) counts as absent.
#[tokio::test(start_paused = true)]
async fn a_silent_player_is_stood_in_for_after_away_and_step_in() {
    let server = Server::start(unlimited_config()).await;
    let (_, _, mut players) = four_playing(&server, json!({"name": "Anna"})).await;
    let seat = to_act(players[0].as_ref().unwrap());
    // Keep the silent client alive (its socket open) but never read it.
    let _silent = players[seat].take();
    let w = players[(seat + 1) % 4].as_mut().unwrap();
    let version = w.version();
    let t0 = Instant::now();
    w.wait_view(|v| !v.seats[seat].connected).await;
    let away = t0.elapsed();
    let rest = moved_after(w, version).await;
    let took = t0.elapsed();
    assert!(away <= Duration::from_secs(11), "away after {away:?}");
    assert!(
        took >= Duration::from_secs(29) && took <= Duration::from_secs(32),
        "away + step-in, was {took:?} ({rest:?})"
    );
}

// With the move clock, a present but slow player gets the clock's seconds and their
// reserve, then the computer moves for them once.
#[tokio::test(start_paused = true)]
async fn the_move_clock_runs_out_and_the_computer_moves() {
    let server = Server::start(unlimited_config()).await;
    let create = json!({"name": "Anna", "timing": {"step_in": 20, "move_clock": 10, "reserve": 5}});
    let (_, _, mut players) = four_playing(&server, create).await;
    let seat = to_act(players[0].as_ref().unwrap());
    let Ok([Some(w), Some(slow)]) = players.get_disjoint_mut([(seat + 1) % 4, seat]) else { panic!() };
    let clock = w.view().clock.expect("a countdown");
    assert_eq!((clock.seat.index(), clock.kind), (seat, Deadline::MoveClock));
    assert_eq!(clock.deadline - clock.now, 15_000, "10 s and the 5 s reserve");
    assert_eq!(w.view().reserve.map(BySeat::into_inner), Some([5_000; 4]));
    let version = w.version();
    // The slow player stays connected (and present: their client answers pings while
    // it reads), but does nothing.
    let (took, _) = tokio::join!(moved_after(w, version), slow.sync(version + 1));
    assert!(took >= Duration::from_secs(15) && took < Duration::from_secs(16), "moved after {took:?}");
    let v = w.view();
    assert_eq!(v.reserve.unwrap().0[seat], 0, "the reserve is spent");
    assert!(!v.seats[seat].stand_in, "present: only that decision was taken over");
}

// A restart in the middle of a stand-in: the countdown starts afresh at restore (the
// clocks pause while the server is down), the computer steps in again, and a computer
// seat's turn is taken up again.
#[tokio::test(start_paused = true)]
async fn a_restart_during_a_stand_in_steps_in_again_after_restore() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens, mut players) = four_playing(&server, json!({"name": "Anna"})).await;
    let seat = to_act(players[0].as_ref().unwrap());
    drop(players[seat].take());
    let w = players[(seat + 1) % 4].as_mut().unwrap();
    let version = w.version();
    moved_after(w, version).await;
    assert!(w.view().seats[seat].stand_in);
    play_until_turn_of(&mut players, seat).await;
    drop(players);
    // The server goes down (the entries are what a restart has) and comes back.
    let entries = stored(&server.store, &table);
    drop(server);
    let again = restoring(unlimited_config(), Arc::new(MemoryStore::new()), vec![entries]).await;
    // One other player is back: the absent player to act is stepped in for a whole
    // step-in time after the restore.
    let mut spectator = again.connect(&table, None).await;
    assert!(spectator.view().seats.iter().all(|s| !s.stand_in), "after a restart, absence is counted afresh");
    let absent = to_act(&spectator);
    let other = (absent + 1) % 4;
    let mut back = again.connect(&table, Some(&tokens[other])).await;
    let version = spectator.version();
    // The player who is back reads (and so answers pings) while they wait.
    let (took, ()) = tokio::join!(moved_after(&mut spectator, version), back.sync(version + 1));
    assert!(took >= Duration::from_secs(19) && took < Duration::from_secs(21), "stepped in after {took:?}");
}

// With nobody else at the table, nobody is kept waiting, so the computer does not play
// the game out while everyone is away.
#[tokio::test(start_paused = true)]
async fn a_table_everyone_left_pauses() {
    let server = Server::start(unlimited_config()).await;
    let (table, _, players) = four_playing(&server, json!({"name": "Anna"})).await;
    drop(players);
    let mut spectator = server.connect(&table, None).await;
    let version = spectator.version();
    let moved = timeout(Duration::from_secs(120), spectator.sync(version + 1)).await;
    assert!(moved.is_err(), "the game waits for its players");
    assert!(spectator.view().clock.is_none(), "no countdown runs");
}

// The host frees a player's seat mid-game and gives it to a computer: the computer
// plays it at once.
#[tokio::test(start_paused = true)]
async fn a_freed_seat_given_to_a_computer_mid_game() {
    let server = Server::start(unlimited_config()).await;
    let (_, _, mut players) = four_playing(&server, json!({"name": "Anna"})).await;
    let seat = (1..4).find(|&s| s != to_act(players[0].as_ref().unwrap())).unwrap();
    let host = players[0].as_mut().unwrap();
    let target = jass_engine::Seat::ALL[seat];
    let id = Some(host.id());
    host.request(ClientMsg::FreeSeat { seat: target, id }).await.unwrap();
    let id = Some(host.id());
    host.request(ClientMsg::AddComputer { seat: target, level: None, id }).await.unwrap();
    host.wait_view(|v| v.seats[seat].computer && !v.seats[seat].stand_in).await;
    players[seat] = None;
    play_until_turn_of(&mut players, seat).await;
    let w = players[0].as_mut().unwrap();
    let version = w.version();
    let took = moved_after(w, version).await;
    assert!(took < Duration::from_secs(2), "the computer plays at once, not after {took:?}");
}

// The move clock runs at a table of one player and computers: the computers are kept
// waiting as players would be. Before, the clock never showed there (only another
// present player counted), the computer never decided for a slow player, yet acting
// late took seconds off the reserve. A table that player left still pauses: the
// computers do not count for the step-in.
#[tokio::test(start_paused = true)]
async fn the_move_clock_runs_at_a_table_of_one_player_and_computers() {
    let server = Server::start(unlimited_config()).await;
    let create = json!({"name": "Anna", "timing": {"move_clock": 5, "reserve": 3}, "computers": true});
    let (table, token) = server.create(create).await;
    let mut players = vec![Some(server.connect(&table, Some(&token)).await), None, None, None];
    play_until_turn_of(&mut players, 0).await;
    let Some(mut human) = players[0].take() else { panic!("connected") };
    human.roundtrip(1).await;
    let clock = human.view().clock.expect("the clock runs for the player");
    assert_eq!((clock.seat.index(), clock.kind), (0, Deadline::MoveClock));
    assert_eq!(clock.deadline - clock.now, 8_000, "5 s and the 3 s reserve");
    let version = human.version();
    let took = moved_after(&mut human, version).await;
    assert!(took >= Duration::from_secs(8) && took < Duration::from_secs(9), "moved after {took:?}");
    assert_eq!(human.view().reserve.unwrap().0[0], 0, "the reserve is spent");
    // Gone: the computers play on to the player's turn, and then the table waits.
    drop(human);
    let mut watcher = server.connect(&table, None).await;
    timeout(
        Duration::from_secs(600),
        watcher.wait_view(|v| v.game.as_ref().is_some_and(|g| g.to_act.is_some_and(|s| s.index() == 0))),
    )
    .await
    .expect("the player's turn comes again");
    let version = watcher.version();
    assert!(
        timeout(Duration::from_secs(120), watcher.sync(version + 1)).await.is_err(),
        "the game pauses while its one player is away"
    );
}
