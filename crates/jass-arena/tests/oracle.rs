//! The all-seeing player (exact solver on the true deal: the ceiling): with the solver
//! from the opening lead on its card is the solver's best on the true position, and it
//! beats random play by far.

use jass_arena::{DealResult, Kind, Match, Oracle, Summary, play_match};
use jass_engine::{Action, Contract, Game, Options, Preset, Seat, Seed, Viewer};
use jass_solver::{Position, Solver};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// On a tiny fixed run (tuning seed 5, 16 deals) the all-seeing player, exact from 12
/// cards left and with few playouts before, takes far more than random play.
#[test]
fn oracle_beats_random_clearly() {
    let m = Match {
        a: Kind::Oracle { solve_at_most: 12, playouts: 120 },
        b: Kind::Random,
        seed: 5,
        deals: 16,
        threads: 2,
        contract_playouts: 30,
        contracts: jass_arena::Contracts::Common,
    };
    let ds: Vec<i64> = play_match(&m).unwrap().iter().map(DealResult::d).collect();
    let s = Summary::of(&ds).unwrap();
    assert!(s.ci.0 > 25.0 && s.mean > 40.0, "{s:?}");
}

/// With `solve_at_most` 36 its card, late in a round played out at random, is worth
/// the solver's best on the true position (ties: any best card), under full rules
/// (match bonus on, so the tricks it counts per team matter) and card points only;
/// the tricks it counted are those the round took.
#[test]
fn oracle_with_exact_solving_plays_the_solvers_best() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x0_4ac1e);
    let mut solver = Solver::new();
    let mut checked = 0;
    for case in 0..24u64 {
        let options =
            if case % 2 == 0 { Options::preset(Preset::Swisslos) } else { jass_arena::card_points_options() };
        let mut game = Game::new(options, Seed([case as u8 + 1; 32])).unwrap();
        let me = Seat::ALL[(case % 4) as usize];
        let mut oracle = Oracle::new(me, options, 36, 0, case);
        let forehand = game.to_act().unwrap();
        let contract = Contract::ALL[(case % 6) as usize];
        game.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).unwrap();
        let mut tricks = [0u8; 2];
        loop {
            let seat = game.to_act().unwrap();
            let left: u32 = Seat::ALL.iter().map(|&s| game.hand(s).len()).sum();
            let card = if seat == me {
                let pos = oracle.position(&game).unwrap();
                assert_eq!(pos.tricks_won, tricks, "case {case}");
                if left <= 14 && game.legal_cards(seat).len() > 1 {
                    let truth = Position { tricks_won: tricks, ..pos };
                    let values = solver.card_values(&truth).unwrap();
                    let card = oracle.card(&game).unwrap();
                    let got = values.iter().find(|v| v.0 == card).unwrap().1;
                    assert_eq!(got, values[0].1, "case {case}: {card} worth {got}, best {:?}", values[0]);
                    // One asked for the first time this late has not counted the
                    // tricks: it still plays (it assumes no match is left).
                    assert!(Oracle::new(me, options, 36, 0, case).card(&game).is_some());
                    checked += 1;
                    break;
                }
                let legal = game.legal_cards(seat);
                legal.nth(rng.random_range(0..legal.len())).unwrap()
            } else {
                let legal = game.legal_cards(seat);
                legal.nth(rng.random_range(0..legal.len())).unwrap()
            };
            let before = game.view(Viewer::Spectator).trick.number;
            game.apply(seat, Action::play(card), || Seed([9; 32])).unwrap();
            let view = game.view(Viewer::Spectator);
            if view.trick.number > before {
                let w = view.last_trick.unwrap().winner.team();
                tricks[w.index()] += 1;
            }
            assert!(game.result().is_none() && view.round == 0, "case {case}: the round ended first");
        }
    }
    assert_eq!(checked, 24);
}
