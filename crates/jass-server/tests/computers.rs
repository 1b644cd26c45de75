//! Computer seats over real sockets (protocol.md 3, "Host controls"): the host fills
//! and removes them, one human and three computers play a whole game, and a table with
//! computers survives a restart in the middle of a game.

mod common;

use std::sync::Arc;

use common::*;
use jass_engine::{Contract, Seat};
use jass_protocol::{ClientMsg, ErrorCode};
use jass_server::MemoryStore;
use jass_server::store::StoredTable;
use serde_json::json;

/// The host asks for a computer in `seat`.
async fn add(host: &mut Client, seat: usize) -> Result<(), ErrorCode> {
    let id = Some(host.id());
    host.request(ClientMsg::AddComputer { seat: Seat::ALL[seat], level: None, id }).await
}

/// A table to 500 of Anna (seat 0, host) and three computers, not started yet.
async fn human_and_three_computers() -> (Server, String, String, Client) {
    let server = Server::start(unlimited_config()).await;
    let (table, token) =
        server.create(json!({"name": "Anna", "preset": "to_1000", "options": {"target": 500}})).await;
    let mut human = server.connect(&table, Some(&token)).await;
    for seat in 1..4 {
        add(&mut human, seat).await.unwrap();
    }
    (server, table, token, human)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_human_and_three_computers_play_a_whole_game() {
    let (server, table, _, mut human) = human_and_three_computers().await;
    human.wait_view(|v| v.seats.iter().skip(1).all(|s| s.computer)).await;
    // Computers go by players' names, one per seat, and are marked as computers.
    let names: Vec<_> = human.view().seats.iter().map(|s| s.name.clone().unwrap_or_default()).collect();
    assert_eq!(names[1..], ["Ueli", "Heidi", "Sepp"]);
    assert!(!human.view().seats[0].computer);
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    play_out(&mut human).await;
    let g = human.view().game.clone().unwrap();
    assert!(g.result.unwrap().winner.is_some(), "the game ended with a winner");
    // The record of a game with computers replays like any other.
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: jass_engine::Record = serde_json::from_str(&body).unwrap();
    record.replay().expect("the record replays");
    // The record's player list marks the computer seats.
    let computers: Vec<bool> = record.players.iter().map(|p| p.computer).collect();
    assert_eq!(computers, [false, true, true, true]);
    assert_eq!(record.players[0].name.as_deref(), Some("Anna"));
}

// "Play with computers" creates, fills and starts a table in one step: the creator and
// a computer partner against two computers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_with_computers_starts_a_game_in_one_step() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) = server
        .create(json!({"name": "Anna", "preset": "to_1000", "options": {"target": 300}, "computers": true}))
        .await;
    let mut human = server.connect(&table, Some(&token)).await;
    let v = human.view();
    assert!(v.game.is_some(), "the game has started");
    assert_eq!(v.seats.iter().map(|s| s.computer).collect::<Vec<_>>(), [false, true, true, true]);
    play_out(&mut human).await;
    // Timing out of range is refused before any table is made.
    let (status, body) = server.post("/api/tables", json!({"name": "Anna", "timing": {"step_in": 2}})).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_timing")), "{body}");
}

// A timing that is not the documented object (an array of the three numbers, a
// string, a field of the wrong type) is refused `bad_timing` at creation like one out
// of range, and no table is made (protocol.md 3, "Step-in and move clock").
#[tokio::test]
async fn a_malformed_timing_at_creation_is_refused_bad_timing() {
    let server = Server::start(unlimited_config()).await;
    for timing in [json!([20, 0, 60]), json!("20"), json!({"step_in": "20"}), json!({"steps": 20}), json!(20)]
    {
        let (status, body) = server.post("/api/tables", json!({"name": "Anna", "timing": timing})).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_timing")), "{timing}: {body}");
    }
    // The documented object, whole or in part, is taken.
    let (status, body) =
        server.post("/api/tables", json!({"name": "Anna", "timing": {"move_clock": 10}})).await;
    assert_eq!(status, 201, "{body}");
    // A malformed body elsewhere is still `bad_message`.
    let (status, body) = server.post("/api/tables", json!(["Anna"])).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")), "{body}");
}

#[tokio::test]
async fn the_host_fills_and_removes_computer_seats() {
    let server = Server::start(unlimited_config()).await;
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    add(&mut host, 1).await.unwrap();
    assert_eq!(add(&mut host, 1).await, Err(ErrorCode::SeatTaken), "a taken seat");
    assert_eq!(add(&mut host, 0).await, Err(ErrorCode::SeatTaken), "the host's own seat");
    host.wait_view(|v| v.seats[1].computer).await;
    // A human cannot take a computer's seat, and no token opens it.
    let (status, body) =
        server.post(&format!("/api/tables/{table}/seats"), json!({"name": "Ben", "seat": 1})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("seat_taken")));
    // Another player may not add computers.
    let ben = server.join(&table, "Ben", 2).await;
    let mut ben = server.connect(&table, Some(&ben)).await;
    assert_eq!(add(&mut ben, 3).await, Err(ErrorCode::NotHost));
    // The host removes the computer again.
    let id = Some(host.id());
    host.request(ClientMsg::FreeSeat { seat: Seat::ALL[1], id }).await.unwrap();
    host.wait_view(|v| v.seats[1].name.is_none() && !v.seats[1].computer).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_come_back_after_a_restart_and_finish_the_game() {
    let (server, table, token, mut human) = human_and_three_computers().await;
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    // Play until a dozen cards are out, then restart from the stored entries.
    play_until(&mut human, |g| g.hand_counts.iter().map(|(_, &n)| u32::from(n)).sum::<u32>() <= 24).await;
    drop(human);
    let entries = server.store.entries(&table);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let stored = StoredTable {
        id: table.clone(),
        last_active: now as i64,
        stored: entries.len(),
        entries,
        unreadable: None,
        problem: None,
        kept_games: Vec::new(),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let store = Arc::new(MemoryStore::new());
    tokio::spawn(jass_server::run(
        listener,
        unlimited_config(),
        jass_server::Storage::Given { store, restore: vec![stored] },
        std::future::pending::<()>(),
    ));
    let again = Server::external(addr);
    let mut human = again.connect(&table, Some(&token)).await;
    assert!(human.view().seats.iter().skip(1).all(|s| s.computer), "the computer seats are back");
    play_out(&mut human).await;
}

// Found by the load bench: a computer whose answer was "nothing to do" on the current
// view was asked again at once, in a loop, for as long as a human took to move. An
// invariant check rather than a reproduction (these games did not hit the view that
// looped in the bench): with the human taking 40 ms per decision for three games, every
// ask with nothing to do comes from a change of the table, at most one per computer and
// change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_with_nothing_to_do_is_not_asked_again_until_the_table_changes() {
    let (server, _, _, mut human) = human_and_three_computers().await;
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    for game in 0..3 {
        for _ in 0..5_000 {
            let g = human.view().game.clone().unwrap();
            if g.result.is_some() {
                break;
            }
            if g.to_act == g.seat {
                tokio::time::sleep(std::time::Duration::from_millis(40)).await;
                human.roundtrip(1).await;
                let g = human.view().game.clone().unwrap();
                let team = g.seat.unwrap().team();
                let id = Some(human.id());
                let version = Some(human.version());
                let msg = if g.allowed.bedanke && g.totals[team] >= human.view().options.target {
                    ClientMsg::Bedanke { version: None, id }
                } else if g.allowed.choose {
                    ClientMsg::Choose { contract: Contract::Obenabe, version, id }
                } else if let Some(card) = g.allowed.cards.first() {
                    ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version, id }
                } else {
                    // A view between two states (nothing to play yet): wait for the next.
                    human.next().await;
                    continue;
                };
                let _ = human.request(msg).await;
            } else {
                human.next().await;
            }
        }
        if game < 2 {
            let id = Some(human.id());
            human.request(ClientMsg::Rematch { id }).await.unwrap();
            human.wait_view(|v| v.game.as_ref().is_some_and(|g| g.result.is_none())).await;
        }
    }
    let (_, body) = server.http("GET", "/api/stats", None).await;
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    let idle = stats["computers"]["idle"].as_u64().unwrap();
    let versions = human.version();
    assert!(idle <= 3 * versions, "{idle} asks with nothing to do over {versions} changes: a loop");
}

// A computer always votes for a rematch (protocol.md 3), and its seat shows the vote
// once the game is over: before, `rematch` stayed all false with one player and three
// computers, and the page showed 0/4 votes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computers_rematch_votes_show_once_the_game_is_over() {
    let (_server, _, _, mut human) = human_and_three_computers().await;
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    assert_eq!(human.view().rematch.0, [false; 4], "no votes while the game is on");
    play_out(&mut human).await;
    assert_eq!(human.view().rematch.0, [false, true, true, true]);
    let id = Some(human.id());
    human.request(ClientMsg::Rematch { id }).await.unwrap();
    human.wait_view(|v| v.games == 2).await;
    assert_eq!(human.view().rematch.0, [false; 4], "a new game, no votes");
}

/// Whether a computer seat (1–3) was dealt the king and queen of a trump contract's
/// suit in some round of `record`: Stöck it could announce at any time.
fn a_computer_held_stoeck(record: &jass_engine::Record) -> bool {
    record.rounds.iter().any(|r| {
        let trump = r.actions.iter().find_map(|a| match &a.action {
            jass_engine::Action::Choose { contract } => contract.trump(),
            _ => None,
        });
        trump.is_some_and(|t| {
            let kq = [
                jass_engine::Card::new(t, jass_engine::Rank::King),
                jass_engine::Card::new(t, jass_engine::Rank::Queen),
            ];
            (1..4).any(|s| kq.iter().all(|c| r.hands[Seat::ALL[s]].contains(*c)))
        })
    })
}

// The operator's counters follow no table's hidden state: a computer was asked to
// decide whenever it held Stöck it had not announced, also out of turn, and each ask
// moved `computers.idle` (5 of 5 rounds with Stöck held, 0 of 53 without, read by a
// stranger from /api/stats). Now a computer is asked on its own turns only: over games
// in which computers held Stöck, nothing is asked that is not a computer's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_counter_moves_while_a_computer_merely_holds_stoeck() {
    let (server, table, _, mut human) = human_and_three_computers().await;
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    let (mut held, mut computer_actions, mut games) = (false, 0u64, 0u64);
    while games < 8 && !(held && games >= 2) {
        play_out(&mut human).await;
        games += 1;
        let (status, body) = server.http("GET", &format!("/api/tables/{table}/record"), None).await;
        assert_eq!(status, 200, "{body}");
        let record: jass_engine::Record = serde_json::from_str(&body).unwrap();
        held |= a_computer_held_stoeck(&record);
        computer_actions +=
            record.rounds.iter().flat_map(|r| &r.actions).filter(|a| a.seat.index() != 0).count() as u64;
        let id = Some(human.id());
        human.request(ClientMsg::Rematch { id }).await.unwrap();
        human.wait_view(|v| v.game.as_ref().is_some_and(|g| g.result.is_none())).await;
    }
    assert!(held, "in {games} games no computer held Stöck");
    let (_, body) = server.http("GET", "/api/stats", None).await;
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    let c = &stats["computers"];
    assert_eq!(c["idle"], 0, "asks with nothing to do: {c}");
    // Every decision is a computer's move, but for a decision the human's bedanke
    // overtook (at most one a game).
    let decisions = c["decisions"].as_u64().unwrap();
    assert!(
        (computer_actions..=computer_actions + games).contains(&decisions),
        "{decisions} decisions, {computer_actions} moves: {c}"
    );
}

// A client that reloads mid-game gets the whole list of round scores over HTTP, equal
// to the summaries the table showed round by round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rounds_so_far_are_served_for_a_reload() {
    let (server, table, _, mut human) = human_and_three_computers().await;
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/rounds"), None).await;
    assert_eq!(status, 400, "{body}");
    let id = Some(human.id());
    human.request(ClientMsg::Start { id }).await.unwrap();
    let mut seen = Vec::new();
    play_until(&mut human, |g| {
        if let Some(lr) = &g.last_round
            && !seen.iter().any(|s: &jass_engine::RoundSummary| s.round == lr.round)
        {
            seen.push(*lr);
        }
        seen.len() >= 2
    })
    .await;
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/rounds"), None).await;
    assert_eq!(status, 200, "{body}");
    let rounds: jass_protocol::http::Rounds = serde_json::from_str(&body).unwrap();
    assert_eq!(rounds.game, 1);
    assert_eq!(rounds.rounds.len(), seen.len());
    assert_eq!(rounds.rounds, seen, "the same scores the table showed");
    // With the last round's tricks to browse from its summary.
    let tricks = &rounds.last_round_tricks;
    assert_eq!(tricks.len(), 9);
    let mut points = [0u32; 2];
    for t in tricks {
        points[t.winner.team().index()] += t.points;
    }
    assert_eq!(points, seen[1].card_points, "the second round's tricks");
    if let Some(last) = human.view().game.as_ref().and_then(|g| g.last_round_trick.as_ref()) {
        assert_eq!(Some(last), tricks.last(), "the view's last trick is the ninth");
    }
}
