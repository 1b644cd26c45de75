//! The reference player `mcts` (JassTheRipper's determinized MCTS, docs/bots.md): it
//! decides from its seat's view only, always plays a legal card (a forced one at once),
//! and beats random play.

mod common;

use common::random_hands;
use jass_arena::{Budget, DealResult, Kind, Match, Mcts, Player, Summary, card_points_options, play_match};
use jass_engine::{Action, Contract, Game, Seat, Seed, Viewer};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// A small budget: the tests run in a debug build and check behaviour, not strength.
const TINY: Budget = Budget::Iterations(16);

/// Whatever the hidden hands, the same views give the same card
/// (`common::decides_from_its_view_only`).
#[test]
fn mcts_decisions_depend_only_on_the_seats_view() {
    let options = card_points_options();
    let (differing, compared) =
        common::decides_from_its_view_only(0x17_04, 24, 30, |me, case| Mcts::new(me, options, TINY, case));
    assert!(differing >= 15, "only {differing} cases had different hidden hands");
    assert!(compared >= 60, "only {compared} decisions compared");
}

/// Four `mcts` players finish rounds under every contract: every card they choose is
/// legal (R5), and when only one card is legal that is the card they play.
#[test]
fn mcts_plays_legal_cards_and_a_forced_card_at_once() {
    let options = card_points_options();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x17_05);
    let mut forced = 0;
    for case in 0..6u64 {
        let hands = random_hands(&mut rng);
        let forehand = Seat::ALL[case as usize % 4];
        let mut game =
            Game::with_hands(options, forehand.next().next().next(), hands, forehand, [0, 0]).unwrap();
        game.apply(forehand, Action::Choose { contract: Contract::ALL[case as usize] }, || Seed([0; 32]))
            .unwrap();
        let mut players: Vec<Mcts> = Seat::ALL.iter().map(|&s| Mcts::new(s, options, TINY, case)).collect();
        while game.result().is_none() {
            let seat = game.to_act().unwrap();
            let legal = game.legal_cards(seat);
            let card = players[seat.index()].card(&game.view(Viewer::Seat(seat))).unwrap();
            assert!(legal.contains(card), "case {case}: {card} is not legal");
            if legal.len() == 1 {
                forced += 1;
                assert_eq!(Some(card), legal.first());
            }
            game.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
        }
    }
    assert!(forced >= 6, "only {forced} forced cards were seen");
}

/// At a small budget the reference player already beats random play on duplicate
/// deals (the published figure at 10 s per card is +50 points a round, docs/bots.md).
#[test]
fn mcts_beats_random() {
    let m = Match {
        a: Kind::Mcts { budget: Budget::Iterations(16) },
        b: Kind::Random,
        seed: 5,
        deals: 50,
        threads: 2,
        contract_playouts: 60,
        contracts: jass_arena::Contracts::Common,
    };
    let ds: Vec<i64> = play_match(&m).unwrap().iter().map(DealResult::d).collect();
    let s = Summary::of(&ds).unwrap();
    eprintln!("{s:?}");
    assert!(s.mean > 0.0 && s.ci.0 > 0.0, "{s:?}");
}

/// A wall-time budget (`--mcts-ms`) bounds a decision: the first card of a round, the
/// costliest (135 determinizations), comes back legal and in about the budget.
#[test]
fn mcts_time_budget_bounds_a_decision() {
    let options = card_points_options();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x17_06);
    let hands = random_hands(&mut rng);
    let mut game = Game::with_hands(options, Seat::ALL[3], hands, Seat::ALL[0], [0, 0]).unwrap();
    game.apply(Seat::ALL[0], Action::Choose { contract: Contract::Obenabe }, || Seed([0; 32])).unwrap();
    let mut player = Mcts::new(Seat::ALL[0], options, Budget::Millis(40), 1);
    let start = std::time::Instant::now();
    let card = player.card(&game.view(Viewer::Seat(Seat::ALL[0]))).unwrap();
    let took = start.elapsed();
    assert!(game.legal_cards(Seat::ALL[0]).contains(card));
    // Generous: a shared, loaded test machine; without the budget this would not end soon.
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
}

/// The command offers `mcts` with its budget flags and names the budget in its rows.
#[test]
fn command_runs_mcts_with_its_budget() {
    let bin = env!("CARGO_BIN_EXE_jass-arena");
    let out = std::process::Command::new(bin)
        .args([
            "--a",
            "mcts",
            "--b",
            "random",
            "--deals",
            "2",
            "--mcts-iterations",
            "4",
            "--contract-playouts",
            "30",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("mcts(4 iterations) vs random: n 2 deals"), "{text}");
    let out = std::process::Command::new(bin)
        .args(["--a", "random", "--b", "mcts", "--deals", "1", "--mcts-ms", "5", "--contract-playouts", "30"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("| random | mcts(5 ms) | 1 |"));
}
