//! protocol.md 5.2 says `weis_result` is `{team, points}` after
//! trick 1, with `team` null when nobody declared. Under `fixed_rounds` nobody can
//! declare (R10), so after trick 1 every view shows `{team: null, points: 0}`, as in
//! any other game without Weis; before trick 1 ends it is `null`.

mod common;

use common::{random_step, seed_n};
use jass_engine::{Game, Options, Phase, Viewer, WeisOutcome};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn weis_result_through_a_round(options: Options) {
    let mut g = Game::new(options, seed_n(1)).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut next = 100;
    let round = g.view(Viewer::Spectator).round;
    while g.phase() != Phase::Over && g.view(Viewer::Spectator).round == round {
        for viewer in [Viewer::Spectator, Viewer::Seat(common::seat(0)), Viewer::Seat(common::seat(3))] {
            let v = g.view(viewer);
            if v.last_trick.is_none() {
                assert_eq!(v.weis_result, None, "before trick 1 is over");
            } else if options.fixed_rounds.is_some() {
                assert_eq!(v.weis_result, Some(WeisOutcome { team: None, points: 0 }), "after trick 1");
            } else {
                assert!(v.weis_result.is_some(), "after trick 1");
            }
        }
        random_step(&mut g, &mut rng, &mut next);
    }
}

#[test]
fn weis_result_is_set_after_trick_one_with_fixed_rounds() {
    weis_result_through_a_round(Options { fixed_rounds: Some(3), ..Options::default() });
}

#[test]
fn weis_result_is_set_after_trick_one_without_fixed_rounds() {
    weis_result_through_a_round(Options::default());
}
