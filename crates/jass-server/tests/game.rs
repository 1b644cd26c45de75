//! A whole game over real sockets: four players and a spectator, with a schieben, a
//! Weis and a Stöck, ended by a right bedanke. Every frame each connection received
//! is checked afterwards for another seat's unplayed cards, and the stored history is
//! replayed through the engine to the same final view.

mod common;

use std::collections::HashMap;

use common::{Server, unlimited_config};
use jass_engine::{Action, CardSet, Contract, Game, Phase, Rank, Seat, SeatView, Suit, Team, Viewer};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg};
use jass_server::store::Entry;
use serde_json::json;

const TARGET: u32 = 300;

/// The contract a simple player picks: a trump suit it holds K and Q of (so Stöck
/// comes up often), else its longest suit.
fn pick_contract(hand: CardSet) -> Contract {
    let suits = [
        (Suit::Hearts, Contract::Hearts),
        (Suit::Diamonds, Contract::Diamonds),
        (Suit::Clubs, Contract::Clubs),
        (Suit::Spades, Contract::Spades),
    ];
    let has = |c| hand.contains(c);
    if let Some((_, k)) = suits.iter().find(|(s, _)| {
        has(jass_engine::Card::new(*s, Rank::King)) && has(jass_engine::Card::new(*s, Rank::Queen))
    }) {
        return *k;
    }
    suits
        .iter()
        .max_by_key(|(s, _)| (hand.bits() & CardSet::suit(*s).bits()).count_ones())
        .map(|(_, k)| *k)
        .unwrap()
}

/// Which action a seat takes now, if any.
fn decide(v: &SeatView, seen_push: bool) -> Option<Action> {
    let a = &v.allowed;
    if a.stoeck {
        return Some(Action::Stoeck);
    }
    if v.to_act != v.seat {
        return None;
    }
    if a.schiebe && (v.round == 0 || !seen_push) {
        return Some(Action::Schiebe);
    }
    if a.choose {
        return Some(Action::Choose { contract: pick_contract(v.hand) });
    }
    let card = a.cards.first()?;
    Some(Action::Play { card, weis: a.weis.iter().map(|w| w.cards()).collect(), stoeck: false })
}

fn to_msg(action: Action, version: u64, id: u64) -> ClientMsg {
    let (version, id) = (Some(version), Some(id));
    match action {
        Action::Schiebe => ClientMsg::Schiebe { version, id },
        Action::Choose { contract } => ClientMsg::Choose { contract, version, id },
        Action::Play { card, weis, stoeck } => ClientMsg::Play { card, weis, stoeck, version, id },
        Action::Stoeck => ClientMsg::Stoeck { version, id },
        Action::Bedanke => ClientMsg::Bedanke { version: None, id },
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_and_a_spectator_play_a_whole_game() {
    let server = Server::start(unlimited_config()).await;
    play_game(&server).await;
}

/// Several tables at once: each game is checked as above, and none disturbs another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_tables_play_at_once() {
    let server = Server::start(unlimited_config()).await;
    futures_util::future::join_all((0..3).map(|_| play_game(&server))).await;
}

async fn play_game(server: &Server) {
    let (table, tokens) =
        server.full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"target": TARGET}})).await;
    let mut players = Vec::new();
    for t in &tokens {
        players.push(server.connect(&table, Some(t)).await);
    }
    let mut spectator = server.connect(&table, None).await;
    assert_eq!(spectator.view().you, None);

    let id = players[0].id();
    players[0].request(ClientMsg::Start { id: Some(id) }).await.unwrap();

    let (mut pushed, mut weis, mut stoeck) = (false, false, false);
    let mut claimed = None;
    let mut both_over = false;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 5000, "the game should be over by now");
        let latest = players.iter().chain([&spectator]).map(|c| c.version()).max().unwrap();
        for c in players.iter_mut().chain([&mut spectator]) {
            c.sync(latest).await;
        }
        let g = players[0].view().game.clone().expect("started");
        pushed |= g.pushed;
        weis |= !g.weis.is_empty();
        stoeck |= g.stoeck.is_some();
        if g.phase == Phase::Over {
            break;
        }
        // Bedanke once everything we want to see has happened and a team is there.
        let done = pushed && weis && stoeck;
        let team = Team::ALL.into_iter().find(|&t| g.totals[t] >= TARGET);
        // Both teams over the target in one round: the counting order (R10) decides
        // who crossed first, which the totals alone do not show.
        both_over |= Team::ALL.into_iter().all(|t| g.totals[t] >= TARGET);
        let (seat, action) = match (done, team) {
            (true, Some(t)) => (t.seats()[0], Action::Bedanke),
            _ => players
                .iter()
                .filter_map(|c| {
                    let v = c.view().game.as_ref()?;
                    Some((v.seat?, decide(v, pushed)?))
                })
                .next()
                .expect("someone can act"),
        };
        if action == Action::Bedanke {
            claimed = Some(seat.team());
        }
        let c = &mut players[seat.index()];
        let id = c.id();
        match c.request(to_msg(action.clone(), latest, id)).await {
            Ok(()) => {}
            Err(ErrorCode::Stale) => {}
            Err(e) => panic!("{action:?} by {seat:?} refused: {e:?}"),
        }
    }
    assert!(pushed && weis && stoeck, "schieben, Weis and Stöck all happened");
    let result = players[0].view().game.as_ref().unwrap().result.unwrap();
    if both_over {
        assert!(result.winner.is_some(), "a bedanke decides the game");
    } else {
        assert_eq!(result.winner, claimed, "the right bedanke wins");
    }

    // Everyone saw the same end.
    for c in players.iter().chain([&spectator]) {
        assert_eq!(c.view().game.as_ref().unwrap().phase, Phase::Over);
    }

    check_no_leaks(&players.iter().map(|c| c.frames.clone()).collect::<Vec<_>>(), &spectator.frames, &tokens);

    // The store holds the whole game: replaying it gives the spectator's final view.
    let entries = server.store.entries(&table);
    let mut game: Option<Game> = None;
    let mut options = None;
    for e in entries {
        match e {
            Entry::Created { options: o } | Entry::OptionsSet { options: o } => options = Some(o),
            Entry::Seated { token_hash, .. } => {
                assert!(tokens.iter().all(|t| !format!("{token_hash:?}").contains(t.as_str())));
            }
            Entry::GameStarted { seed, .. } => game = Some(Game::new(options.unwrap(), seed).unwrap()),
            Entry::Action { seat, action, next_seed, .. } => {
                game.as_mut().unwrap().apply(seat, action, || next_seed.expect("a recorded seed")).unwrap();
            }
            Entry::Freed { .. }
            | Entry::Swapped { .. }
            | Entry::RematchVote { .. }
            | Entry::ComputerSeated { .. }
            | Entry::GivenToComputer { .. }
            | Entry::GivenBack { .. }
            | Entry::TimingSet { .. } => {
                panic!("no lobby changes or rematch in this game")
            }
        }
    }
    let replayed = game.unwrap().view(Viewer::Spectator);
    assert_eq!(&replayed, spectator.view().game.as_ref().unwrap());
}

/// Every frame of every seat: its hand and allowed cards hold only its own cards
/// (as dealt that round), and Weis cards of other seats appear only once revealed
/// (after trick 1, for the team that won the comparison). Spectators see no hand.
/// No frame carries a seat token.
fn check_no_leaks(players: &[Vec<String>], spectator: &[String], tokens: &[String]) {
    // The hand each seat was dealt per round: its first view of the round is complete.
    let mut dealt: HashMap<(u32, usize), CardSet> = HashMap::new();
    for (s, frames) in players.iter().enumerate() {
        for f in frames {
            if let Some(g) = game_of(f) {
                let entry = dealt.entry((g.round, s)).or_insert(CardSet::EMPTY);
                *entry = CardSet::from_bits(entry.bits() | g.hand.bits());
            }
        }
    }
    for ((round, s), hand) in &dealt {
        assert!(hand.len() <= 9, "round {round} seat {s}: a seat's hand is at most nine cards it was dealt");
    }
    let others = |round: u32, me: Option<usize>| -> u64 {
        (0..4)
            .filter(|o| Some(*o) != me)
            .map(|o| dealt.get(&(round, o)).map_or(0, |h| h.bits()))
            .fold(0, |a, b| a | b)
    };
    let viewers = players.iter().enumerate().map(|(s, f)| (Some(s), f.as_slice())).chain([(None, spectator)]);
    let mut checked = 0;
    for (me, frames) in viewers {
        for f in frames {
            for t in tokens {
                assert!(!f.contains(t.as_str()), "a frame carries a seat token");
            }
            let Some(g) = game_of(f) else { continue };
            checked += 1;
            let foreign = others(g.round, me);
            assert_eq!(g.hand.bits() & foreign, 0, "hand leaks another seat's card: {f}");
            assert_eq!(g.allowed.cards.bits() & foreign, 0, "allowed cards leak: {f}");
            for w in &g.allowed.weis {
                assert_eq!(w.cards().bits() & foreign, 0, "allowed Weis leak: {f}");
            }
            if me.is_none() {
                assert!(g.hand.is_empty() && g.allowed.cards.is_empty());
            }
            for w in &g.weis {
                if Some(w.seat.index()) == me {
                    continue;
                }
                if let Some(cards) = &w.cards {
                    let winner = g.weis_result.and_then(|r| r.team);
                    assert_eq!(
                        winner,
                        Some(w.seat.team()),
                        "Weis cards shown only for the winning team: {f}"
                    );
                    assert!(!cards.is_empty());
                }
            }
            let _: Option<Seat> = g.seat;
        }
    }
    assert!(checked > 100, "checked {checked} frames");
}

fn game_of(frame: &str) -> Option<SeatView> {
    match serde_json::from_str::<ServerMsg>(frame).ok()? {
        ServerMsg::State { view, .. } => view.game,
        _ => None,
    }
}
