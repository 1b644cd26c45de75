//! The reference player `mcts` (issue 17 point 4, JassTheRipper's determinized MCTS):
//! it decides from its seat's view only, always plays a legal card (a forced one at
//! once), and beats random play.

use jass_arena::{Budget, DealResult, Kind, Match, Mcts, Player, Summary, card_points_options, play_match};
use jass_engine::{Action, Card, CardSet, Contract, Game, Seat, Seed, Viewer};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// A small budget: the tests run in a debug build and check behaviour, not strength.
const TINY: Budget = Budget::Iterations(16);

fn random_hands(rng: &mut Xoshiro256PlusPlus) -> [CardSet; 4] {
    let mut deck: Vec<Card> = CardSet::DECK.iter().collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.random_range(0..=i));
    }
    let mut hands = [CardSet::EMPTY; 4];
    for (i, c) in deck.into_iter().enumerate() {
        hands[i / 9] = hands[i / 9].with(c);
    }
    hands
}

fn random_legal(game: &Game, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Card {
    let legal = game.legal_cards(seat);
    legal.nth(rng.random_range(0..legal.len())).unwrap()
}

/// Whatever the hidden hands, the same views give the same card: two games share the
/// observer's hand and every card played so far (the same plays replay in both), but
/// the other seats' unplayed cards are dealt afresh. Two players with the same seed
/// are shown the observer's views at its turns and must play alike every time.
#[test]
fn mcts_decisions_depend_only_on_the_seats_view() {
    let options = card_points_options();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x17_04);
    let (mut compared, mut differing) = (0, 0);
    for case in 0..24u64 {
        let hands = random_hands(&mut rng);
        let dealer = Seat::ALL[rng.random_range(0..4)];
        let forehand = dealer.next();
        let contract = Contract::ALL[case as usize % 6];
        let me = Seat::ALL[rng.random_range(0..4)];
        // A random prefix of the round (the observer's own cards are random too).
        let mut a = Game::with_hands(options, dealer, hands, forehand, [0, 0]).unwrap();
        a.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).unwrap();
        let cut = rng.random_range(0..30);
        let mut plays = Vec::new();
        while plays.len() < cut {
            let seat = a.to_act().unwrap();
            let card = random_legal(&a, seat, &mut rng);
            a.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
            plays.push((seat, card));
        }
        // Deal the others' unplayed cards afresh until the same plays replay.
        let played: Vec<CardSet> = Seat::ALL
            .iter()
            .map(|&s| CardSet::from_bits(hands[s.index()].bits() & !a.hand(s).bits()))
            .collect();
        let Some(other) = (0..500).find_map(|_| {
            let mut pool: Vec<Card> =
                Seat::ALL.iter().filter(|&&s| s != me).flat_map(|&s| a.hand(s).iter()).collect();
            for i in (1..pool.len()).rev() {
                pool.swap(i, rng.random_range(0..=i));
            }
            let mut other = hands;
            for s in Seat::ALL.into_iter().filter(|&s| s != me) {
                let n = a.hand(s).len() as usize;
                other[s.index()] = played[s.index()] | pool.drain(..n).collect::<CardSet>();
            }
            let mut b = Game::with_hands(options, dealer, other, forehand, [0, 0]).ok()?;
            b.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).ok()?;
            for &(seat, card) in &plays {
                b.apply(seat, Action::play(card), || Seed([0; 32])).ok()?;
            }
            Some(other)
        }) else {
            continue;
        };
        differing += usize::from(other != hands);
        // Replay both, asking two equal players at each of the observer's turns.
        let mut games = [hands, other].map(|h| {
            let mut g = Game::with_hands(options, dealer, h, forehand, [0, 0]).unwrap();
            g.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).unwrap();
            g
        });
        let mut players = [Mcts::new(me, options, TINY, case), Mcts::new(me, options, TINY, case)];
        let mut ask = |games: &[Game; 2]| {
            if games[0].to_act() != Some(me) {
                return 0;
            }
            let views = [0, 1].map(|i| games[i].view(Viewer::Seat(me)));
            assert_eq!(views[0], views[1], "case {case}: the views must agree for the test to mean anything");
            let cards = [0, 1].map(|i| players[i].card(&views[i]));
            assert!(cards[0].is_some());
            assert_eq!(cards[0], cards[1], "case {case}: a card depended on hidden cards");
            1
        };
        compared += ask(&games);
        for &(seat, card) in &plays {
            for g in &mut games {
                g.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
            }
            compared += ask(&games);
        }
    }
    eprintln!("{differing} cases with other hidden hands, {compared} decisions compared");
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
/// deals (the published figure at 10 s per card is +50 points a round, BOTS.md).
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
