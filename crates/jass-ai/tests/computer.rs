//! The computer player's guarantees (protocol.md 3, "Host controls"): it decides from
//! its seat's view only, it only ever proposes legal actions, and four of them finish a
//! game.

use jass_ai::{Computer, Config};
use jass_engine::{
    Action, Card, CardSet, End, Game, Options, Preset, Seat, SeatView, Seed, Team, Viewer, random_hands,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// A small, deterministic budget: the tests check behaviour, not strength.
fn config(seed: u64) -> Config {
    Config { playouts: 120, time_budget: None, seed, ..Config::default() }
}

/// Whatever the hidden hands, the same views give the same decisions: two games share
/// the observer's hand and every public event of the round so far (the same actions
/// replay in both), but the other seats' unplayed cards are dealt afresh. The two
/// computers see equal views at every step and must decide alike at every turn.
#[test]
fn decisions_depend_only_on_the_seats_view() {
    views_only(config, 60, 40, 100);
}

/// The same with every sampled deal solved exactly (the strong player's late-round
/// search) and the deals weighed by the contract choice.
#[test]
fn solved_decisions_depend_only_on_the_seats_view() {
    views_only(
        |seed| Config { solve_at_most: 20, solve_deals: 4, infer_choice: true, ..config(seed) },
        30,
        15,
        50,
    );
}

/// The same with the deals weighed by the contract choice and played out, by the
/// strong level's sensible policy.
#[test]
fn decisions_weighing_the_contract_choice_depend_only_on_the_seats_view() {
    views_only(|seed| Config { infer_choice: true, informed_playouts: true, ..config(seed) }, 30, 15, 50);
}

/// The same with the deals also weighed by the cards played, played out seeing the
/// later hands of each sampled deal, and solved late: what the weights and the open
/// playouts read are sampled hands, never the true ones.
#[test]
fn decisions_weighing_the_cards_played_depend_only_on_the_seats_view() {
    views_only(
        |seed| Config {
            infer_choice: true,
            informed_playouts: true,
            open_playouts: true,
            infer_play: 64,
            solve_at_most: 20,
            solve_deals: 4,
            ..config(seed)
        },
        30,
        15,
        50,
    );
}

fn views_only(config: impl Fn(u64) -> Config, cases: u64, min_differing: usize, min_compared: usize) {
    let options = Options::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x14_06);
    let mut compared = 0;
    let mut differing_deals = 0;
    for case in 0..cases {
        let hands = random_hands(&mut rng);
        let dealer = Seat::ALL[rng.random_range(0..4)];
        let forehand = dealer.next();
        let Ok(mut a) = Game::with_hands(options, dealer, hands, forehand, [0, 0]) else { panic!("options") };
        let me = Seat::ALL[rng.random_range(0..4)];
        // Play a prefix of the round with computers in every seat.
        let mut players: Vec<Computer> =
            Seat::ALL.iter().map(|&s| Computer::new(s, options, config(case))).collect();
        let cut = rng.random_range(0..36);
        let mut actions = Vec::new();
        while a.round_number() == 0 && actions.len() < cut + 2 {
            let Some(seat) = a.to_act() else { break };
            let view = a.view(Viewer::Seat(seat));
            let Some(action) = players[seat.index()].decide(&view) else { panic!("no action on its turn") };
            if a.next_card_ends_round() {
                break;
            }
            a.apply(seat, action.clone(), || Seed([1; 32])).unwrap_or_else(|e| panic!("refused: {e}"));
            actions.push((seat, action));
        }
        // Deal the others' unplayed cards afresh until the same actions replay.
        let played: Vec<CardSet> = Seat::ALL
            .iter()
            .map(|&s| CardSet::from_bits(hands[s.index()].bits() & !a.hand(s).bits()))
            .collect();
        let Some((other, differs)) = (0..200).find_map(|_| {
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
            for (seat, action) in &actions {
                b.apply(*seat, action.clone(), || Seed([1; 32])).ok()?;
            }
            Some((other, other != hands))
        }) else {
            continue;
        };
        differing_deals += usize::from(differs);
        // Replay both from the start, feeding the observer's views to two computers.
        let (Ok(mut a), Ok(mut b)) = (
            Game::with_hands(options, dealer, hands, forehand, [0, 0]),
            Game::with_hands(options, dealer, other, forehand, [0, 0]),
        ) else {
            panic!("options")
        };
        let mut ca = Computer::new(me, options, config(case));
        let mut cb = Computer::new(me, options, config(case));
        let mut step = |a: &Game, b: &Game| {
            let (va, vb) = (a.view(Viewer::Seat(me)), b.view(Viewer::Seat(me)));
            assert_eq!(va, vb, "case {case}: the observer's views must agree for the test to mean anything");
            ca.observe(&va);
            cb.observe(&vb);
            let (da, db) = (ca.decide(&va), cb.decide(&vb));
            assert_eq!(da, db, "case {case}: a decision depended on hidden cards");
            usize::from(da.is_some())
        };
        compared += step(&a, &b);
        for (seat, action) in &actions {
            a.apply(*seat, action.clone(), || Seed([1; 32])).unwrap_or_else(|e| panic!("{e}"));
            b.apply(*seat, action.clone(), || Seed([1; 32])).unwrap_or_else(|e| panic!("{e}"));
            compared += step(&a, &b);
        }
    }
    eprintln!("{differing_deals} cases with other hidden hands, {compared} decisions compared");
    assert!(differing_deals >= min_differing, "only {differing_deals} cases had different hidden hands");
    assert!(compared >= min_compared, "only {compared} decisions compared");
}

/// Plays a whole game with four computers, checking each action against the rules
/// before applying it; returns the game.
fn whole_game(options: Options, seed: u8) -> Game {
    let Ok(mut game) = Game::new(options, Seed([seed; 32])) else { panic!("options") };
    let mut players: Vec<Computer> =
        Seat::ALL.iter().map(|&s| Computer::new(s, options, config(u64::from(seed)))).collect();
    let mut next = u8::MAX;
    for _ in 0..20_000 {
        if game.result().is_some() {
            return game;
        }
        // Any seat may have something to say (bedanke out of turn); the seat to act
        // always does.
        let mut acted = false;
        for s in Seat::ALL {
            let view = game.view(Viewer::Seat(s));
            let decision = players[s.index()].decide(&view);
            if game.to_act() == Some(s) {
                assert!(decision.is_some(), "seat {s:?} has no action on its turn");
            }
            if let Some(action) = decision {
                assert_legal(&view, &action);
                game.apply(s, action, || {
                    next = next.wrapping_sub(1);
                    Seed([next; 32])
                })
                .unwrap_or_else(|e| panic!("the computer proposed an illegal action: {e}"));
                acted = true;
                break;
            }
        }
        assert!(acted, "nobody acted");
    }
    panic!("the game did not finish");
}

/// The action is among those the view allows.
fn assert_legal(view: &SeatView, action: &Action) {
    match action {
        Action::Schiebe => assert!(view.allowed.schiebe),
        Action::Choose { .. } => assert!(view.allowed.choose),
        Action::Play { card, weis, stoeck } => {
            assert!(view.allowed.cards.contains(*card));
            assert!(!*stoeck || view.allowed.stoeck);
            for w in weis {
                assert!(view.allowed.weis.iter().any(|a| a.cards() == *w));
            }
        }
        Action::Stoeck => assert!(view.allowed.stoeck),
        Action::Bedanke => assert!(view.allowed.bedanke),
    }
}

#[test]
fn four_computers_finish_a_game_under_every_preset() {
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let game = whole_game(Options::preset(preset), 40 + i as u8);
        let Some(result) = game.result() else { panic!("no result") };
        if options_bedanken(&Options::preset(preset)) {
            // The computers say bedanke as soon as their team has reached the target (R10).
            assert!(
                matches!(result.reason, jass_engine::EndReason::Bedanke { right: true, .. }),
                "{result:?}"
            );
        }
    }
}

fn options_bedanken(o: &Options) -> bool {
    o.end == End::Bedanken && o.fixed_rounds.is_none() && o.has_extras()
}

#[test]
fn small_weis_and_push_back_games_finish() {
    let options = Options { small_weis: true, push_back: true, ..Options::default() };
    let game = whole_game(options, 7);
    assert!(game.result().is_some());
}

/// R10: a team over the target says bedanke at once, even out of turn.
#[test]
fn bedanke_as_soon_as_the_team_reaches_the_target() {
    let options = Options { target: 1000, ..Options::default() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(10);
    let hands = random_hands(&mut rng);
    let dealer = Seat::ALL[3];
    let Ok(game) = Game::with_hands(options, dealer, hands, dealer.next(), [1000, 0]) else {
        panic!("options")
    };
    for s in Seat::ALL {
        let mut c = Computer::new(s, options, config(1));
        let decision = c.decide(&game.view(Viewer::Seat(s)));
        if s.team() == Team::ALL[0] {
            assert_eq!(decision, Some(Action::Bedanke));
        } else {
            assert_ne!(decision, Some(Action::Bedanke));
        }
    }
}

/// Same views, same seed: the same decision (reproducible games and benchmarks).
#[test]
fn decisions_are_deterministic_given_the_seed() {
    let a = whole_game(Options::default(), 3);
    let b = whole_game(Options::default(), 3);
    assert_eq!(a.to_record(), b.to_record());
}

/// A computer that takes over in the middle of a round (a stand-in for a player who
/// dropped) has missed the earlier tricks; it still plays only legal cards to the end.
#[test]
fn a_computer_taking_over_mid_round_plays_on() {
    let options = Options::default();
    for seed in 0..20u8 {
        let Ok(mut game) = Game::new(options, Seed([seed; 32])) else { panic!("options") };
        let mut players: Vec<Computer> =
            Seat::ALL.iter().map(|&s| Computer::new(s, options, config(u64::from(seed)))).collect();
        let mut replaced = false;
        let mut cards = 0;
        while game.round_number() == 0 {
            let Some(seat) = game.to_act() else { break };
            if cards == 12 + usize::from(seed) && !replaced {
                // A fresh computer for the seat to act: it never saw the first tricks.
                players[seat.index()] = Computer::new(seat, options, config(99));
                replaced = true;
            }
            let view = game.view(Viewer::Seat(seat));
            let Some(action) = players[seat.index()].decide(&view) else { panic!("no action on its turn") };
            assert_legal(&view, &action);
            cards += usize::from(matches!(action, Action::Play { .. }));
            game.apply(seat, action, || Seed([seed ^ 0xFF; 32])).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(replaced);
    }
}

/// The time budget bounds a decision even when the playout budget is huge (a server
/// under load lowers it): a decision for every kind of turn returns within a small
/// multiple of it.
#[test]
fn the_time_budget_bounds_a_decision() {
    let options = Options::default();
    let budget = std::time::Duration::from_millis(20);
    let huge = Config { playouts: u32::MAX, time_budget: Some(budget), seed: 1, ..Config::default() };
    let Ok(mut game) = Game::new(options, Seed([8; 32])) else { panic!("options") };
    let mut players: Vec<Computer> = Seat::ALL.iter().map(|&s| Computer::new(s, options, huge)).collect();
    for _ in 0..6 {
        let Some(seat) = game.to_act() else { break };
        let view = game.view(Viewer::Seat(seat));
        let start = std::time::Instant::now();
        let Some(action) = players[seat.index()].decide(&view) else { panic!("no action") };
        assert!(start.elapsed() < budget * 10, "took {:?}", start.elapsed());
        game.apply(seat, action, || Seed([9; 32])).unwrap_or_else(|e| panic!("{e}"));
    }
}
