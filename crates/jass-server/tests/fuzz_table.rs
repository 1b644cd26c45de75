//! Fuzzing a live table: random sequences of client frames against a started game with
//! four seated sockets and a spectator: actions from the right and the wrong seat,
//! legal and illegal cards, random Weis, Stöck, bedanke, pushes, contracts, host
//! controls, stale versions, malformed JSON and binary frames.
//!
//! After every refused request nobody gets a new `state` (the version does not move
//! and every view stays as it was), no connection is dropped, and at the end the table
//! still accepts a valid move.

mod common;

use common::{Client, Got, Server, act_once, connect_all, fast_config, start, sync_all};
use jass_engine::{Card, CardSet, Contract, Seat};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg, TableView};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Which card a `play` names, resolved against the sender's view when it is sent.
#[derive(Clone, Debug)]
enum CardPick {
    /// The n-th legal card (falls back to the n-th held card).
    Legal(u32),
    /// The n-th held card (often illegal).
    Held(u32),
    /// Any of the 36 cards (often not held).
    Any(usize),
}

/// Which `version` a game action carries.
#[derive(Clone, Debug)]
enum VersionPick {
    None,
    Current,
    Stale,
    Future,
}

/// One fuzz step: who sends what.
#[derive(Clone, Debug)]
enum Op {
    Play {
        card: CardPick,
        weis: Vec<u64>,
        stoeck: bool,
        version: VersionPick,
    },
    Choose {
        contract: usize,
        version: VersionPick,
    },
    Schiebe {
        version: VersionPick,
    },
    Stoeck {
        version: VersionPick,
    },
    Bedanke,
    Start,
    SwapSeats {
        a: u8,
        b: u8,
    },
    /// Only from a seat that is not the host's: a host freeing a seat would
    /// rightly close that seat's socket.
    FreeSeat {
        seat: u8,
    },
    SetOptions,
    Rematch,
    Hello,
    Ping {
        t: u64,
    },
    Malformed(String),
    Binary(Vec<u8>),
}

const SUITS: [char; 4] = ['H', 'D', 'C', 'S'];
const RANKS: [char; 9] = ['6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

fn card(n: usize) -> Card {
    let (s, r) = (SUITS[(n / 9) % 4], RANKS[n % 9]);
    format!("{s}{r}").parse().unwrap()
}

fn version_pick() -> impl Strategy<Value = VersionPick> {
    prop_oneof![
        1 => Just(VersionPick::None),
        3 => Just(VersionPick::Current),
        1 => Just(VersionPick::Stale),
        1 => Just(VersionPick::Future),
    ]
}

/// Weis as masks over the hand, or `u64::MAX` for "every Weis the view allows".
fn weis() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        3 => Just(Vec::new()),
        2 => Just(vec![u64::MAX]),
        1 => prop::collection::vec(any::<u64>(), 1..3),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let card = prop_oneof![
        3 => (0u32..9).prop_map(CardPick::Legal),
        1 => (0u32..9).prop_map(CardPick::Held),
        1 => (0usize..36).prop_map(CardPick::Any),
    ];
    let junk = prop_oneof![
        Just(String::from(r#"{"type": "play""#)),
        Just(String::from(r#"{"type": "play", "card": "HX", "id": 5}"#)),
        Just(String::from(r#"{"type": "start", "force": true}"#)),
        Just(String::from(r#"{"type": "deal_me_aces"}"#)),
        Just(String::from("[]")),
        Just(String::from("null")),
        "\\PC{0,40}",
    ];
    prop_oneof![
        24 => (card, weis(), any::<bool>(), version_pick())
            .prop_map(|(card, weis, stoeck, version)| Op::Play { card, weis, stoeck, version }),
        12 => ((0usize..6), version_pick()).prop_map(|(contract, version)| Op::Choose { contract, version }),
        3 => version_pick().prop_map(|version| Op::Schiebe { version }),
        3 => version_pick().prop_map(|version| Op::Stoeck { version }),
        // Rare: an accepted claim ends the game, and the fuzz is most useful mid-game.
        1 => Just(Op::Bedanke),
        3 => Just(Op::Start),
        3 => ((0u8..4), (0u8..4)).prop_map(|(a, b)| Op::SwapSeats { a, b }),
        3 => (0u8..4).prop_map(|seat| Op::FreeSeat { seat }),
        3 => Just(Op::SetOptions),
        3 => Just(Op::Rematch),
        3 => Just(Op::Hello),
        3 => any::<u64>().prop_map(|t| Op::Ping { t }),
        6 => junk.prop_map(Op::Malformed),
        3 => prop::collection::vec(any::<u8>(), 0..16).prop_map(Op::Binary),
    ]
}

/// Who sends a step: mostly whoever must act (so the game moves on and the engine's
/// own refusals are reached), else any socket (0–3 a seat, 4 the spectator).
fn sender() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![3 => Just(None), 2 => (0usize..5).prop_map(Some)]
}

fn steps() -> impl Strategy<Value = Vec<(Option<usize>, Op)>> {
    prop::collection::vec((sender(), op()), 1..40)
}

fn version(pick: &VersionPick, current: u64) -> Option<u64> {
    match pick {
        VersionPick::None => None,
        VersionPick::Current => Some(current),
        VersionPick::Stale => Some(current.saturating_sub(1)),
        VersionPick::Future => Some(current + 7),
    }
}

/// The frame for `op` from `c`, with a fresh request id.
fn frame(c: &mut Client, op: &Op, sender: usize) -> Message {
    let current = c.version();
    let game = c.state.as_ref().and_then(|(_, v)| v.game.clone());
    let hand = game.as_ref().map_or(CardSet::from_bits(0), |g| g.hand);
    let id = Some(c.id());
    let msg = match op {
        Op::Play { card: pick, weis, stoeck, version: v } => {
            let legal = game.as_ref().map_or(CardSet::from_bits(0), |g| g.allowed.cards);
            let card = match pick {
                CardPick::Legal(n) => legal.nth(n % legal.len().max(1)).or_else(|| hand.first()),
                CardPick::Held(n) => hand.nth(n % hand.len().max(1)),
                CardPick::Any(n) => Some(self::card(*n)),
            }
            .unwrap_or_else(|| self::card(0));
            let allowed: Vec<CardSet> =
                game.as_ref().map(|g| g.allowed.weis.iter().map(|w| w.cards()).collect()).unwrap_or_default();
            let weis = weis
                .iter()
                .flat_map(|bits| match bits {
                    &u64::MAX => allowed.clone(),
                    bits => vec![CardSet::from_bits(*bits & hand.bits())],
                })
                .collect();
            ClientMsg::Play { card, weis, stoeck: *stoeck, version: version(v, current), id }
        }
        Op::Choose { contract, version: v } => {
            ClientMsg::Choose { contract: Contract::ALL[*contract], version: version(v, current), id }
        }
        Op::Schiebe { version: v } => ClientMsg::Schiebe { version: version(v, current), id },
        Op::Stoeck { version: v } => ClientMsg::Stoeck { version: version(v, current), id },
        Op::Bedanke => ClientMsg::Bedanke { version: None, id },
        Op::Start => ClientMsg::Start { id },
        Op::SwapSeats { a, b } => {
            ClientMsg::SwapSeats { a: Seat::ALL[usize::from(*a)], b: Seat::ALL[usize::from(*b)], id }
        }
        Op::FreeSeat { seat } if sender != 0 => {
            ClientMsg::FreeSeat { seat: Seat::ALL[usize::from(*seat)], id }
        }
        Op::FreeSeat { .. } => ClientMsg::Rematch { id },
        Op::SetOptions => {
            let options = json!({"target": 1000}).as_object().cloned();
            ClientMsg::SetOptions { preset: None, options, id }
        }
        Op::Rematch => ClientMsg::Rematch { id },
        Op::Hello => ClientMsg::Hello { protocol: jass_protocol::PROTOCOL_VERSION, token: None, id: None },
        Op::Ping { t } => ClientMsg::Ping { t: *t, id: None },
        Op::Malformed(text) => return Message::Text(text.as_str().into()),
        Op::Binary(bytes) => return Message::Binary(bytes.clone().into()),
    };
    Message::Text(serde_json::to_string(&msg).unwrap().into())
}

/// Reads `c`'s reply to what it just sent: `Ok(true)` for an ack, `Ok(false)` for an
/// error or pong; fails on a close or a dropped stream.
async fn reply(c: &mut Client, sent: &Message) -> Result<bool, TestCaseError> {
    let id = match sent {
        Message::Text(t) => serde_json::from_str::<serde_json::Value>(t)
            .ok()
            .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64)),
        _ => None,
    };
    let ping = match sent {
        Message::Text(t) => match serde_json::from_str::<ClientMsg>(t) {
            Ok(ClientMsg::Ping { t, .. }) => Some(t),
            _ => None,
        },
        _ => None,
    };
    loop {
        match c.next().await {
            Got::Msg(ServerMsg::Ack { id: i }) if i == id && ping.is_none() => return Ok(true),
            Got::Msg(ServerMsg::Error { id: i, code, .. }) if i == id && ping.is_none() => {
                prop_assert_ne!(code, ErrorCode::Internal, "the server failed");
                prop_assert_ne!(code, ErrorCode::RateLimited, "the test config has no rate limit");
                return Ok(false);
            }
            Got::Msg(ServerMsg::Pong { t, .. }) if Some(t) == ping => return Ok(false),
            Got::Msg(_) => {}
            other => return Err(TestCaseError::fail(format!("connection lost: {other:?}"))),
        }
    }
}

/// Every client's (version, view).
fn snapshot(clients: &[Client]) -> Vec<(u64, TableView)> {
    clients.iter().map(|c| c.state.clone().unwrap()).collect()
}

/// Plays `steps` on a fresh started table.
async fn run(server: &Server, steps: Vec<(Option<usize>, Op)>) -> Result<(), TestCaseError> {
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut clients = connect_all(server, &table, &tokens).await;
    start(&mut clients).await;
    clients.push(server.connect(&table, None).await);
    sync_all(&mut clients).await;
    // Presence keeps the version: wait until every socket has seen everyone arrive.
    for c in &mut clients {
        c.wait_view(|v| v.spectators == 1 && v.seats.iter().all(|s| s.connected)).await;
    }
    for (n, (pick, op)) in steps.iter().enumerate() {
        let to_act = clients[0].view().game.as_ref().and_then(|g| g.to_act).map(Seat::index);
        let sender = &pick.or(to_act).unwrap_or(0);
        let before = snapshot(&clients);
        let msg = frame(&mut clients[*sender], op, *sender);
        clients[*sender].send_raw(msg.clone()).await;
        if reply(&mut clients[*sender], &msg).await? {
            sync_all(&mut clients).await;
            continue;
        }
        // Refused (or a ping): a round trip on every socket brings no new state.
        for (i, c) in clients.iter_mut().enumerate() {
            c.send(&ClientMsg::Ping { t: n as u64, id: None }).await;
            let t = n as u64;
            loop {
                match c.next().await {
                    Got::Msg(ServerMsg::Pong { t: x, .. }) if x == t => break,
                    Got::Msg(ServerMsg::State { version, view }) => {
                        return Err(TestCaseError::fail(format!(
                            "step {n} {op:?} from {sender} was refused but socket {i} got a new state: \
                             {version} {:?} {}, before {:?}",
                            view.seats, view.spectators, before[i].1.seats
                        )));
                    }
                    Got::Msg(_) => {}
                    other => return Err(TestCaseError::fail(format!("socket {i} lost: {other:?}"))),
                }
            }
        }
        prop_assert!(snapshot(&clients) == before, "step {} changed a view", n);
    }
    // The table still answers a valid request.
    sync_all(&mut clients).await;
    let seats = &mut clients[..4];
    let game = seats[0].view().game.clone().unwrap();
    if game.to_act.is_some() {
        act_once(seats).await;
    } else {
        let id = Some(seats[0].id());
        prop_assert_eq!(seats[0].request(ClientMsg::Rematch { id }).await, Ok(()));
    }
    Ok(())
}

#[test]
fn random_frames_never_change_a_table_when_refused() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let config = jass_server::Config {
        rate_burst: 1_000_000,
        rate_per_second: 1_000_000,
        malformed_strikes: 1_000_000,
        max_tables_per_ip: 1_000_000,
        ..fast_config()
    };
    let server = rt.block_on(Server::start(config));
    let mut runner =
        TestRunner::new(RunnerConfig { cases: 48, failure_persistence: None, ..RunnerConfig::default() });
    let result = runner.run(&steps(), |steps| {
        let run = async { tokio::time::timeout(common::WAIT * 3, run(&server, steps)).await };
        rt.block_on(run).map_err(|_| TestCaseError::fail("hung"))?
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The fuzz reached both paths: moves it made were accepted (beyond each case's
    // start and final move), and the refusals cover the engine's and the server's.
    let (_, body) = rt.block_on(server.http("GET", "/api/stats", None));
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    eprintln!("{stats:#}");
    assert!(stats["actions_accepted"].as_u64().unwrap() > 2 * 48 + 10, "{stats}");
    for code in ["not_your_turn", "stale", "bad_message", "not_seated", "already_started"] {
        assert!(stats["rejected"][code].as_u64().unwrap_or(0) > 0, "no {code}: {stats}");
    }
}
