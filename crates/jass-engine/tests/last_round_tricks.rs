//! Issue 15 point 2: a view carries the previous round's nine tricks, so a client
//! shows the ninth trick and lets players browse the round without replaying rules.
#![allow(missing_docs)]

mod common;

use common::{random_step, seed_n};
use jass_engine::{Game, Options, Viewer};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

#[test]
fn the_previous_rounds_tricks_add_up_to_its_card_points() {
    let options = Options { target: 100_000, ..Options::default() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut next = 0;
    let mut g = Game::new(options, seed_n(0)).unwrap();
    assert!(g.view(Viewer::Spectator).last_round_tricks.is_empty(), "none before a round ends");
    let mut checked = 0;
    while checked < 20 {
        let r = g.round_number();
        random_step(&mut g, &mut rng, &mut next);
        if g.round_number() == r {
            continue;
        }
        let v = g.view(Viewer::Spectator);
        let summary = v.last_round.unwrap();
        assert_eq!(v.last_round_tricks.len(), 9);
        let mut points = [0u32; 2];
        for (i, t) in v.last_round_tricks.iter().enumerate() {
            assert_eq!(usize::from(t.trick), i);
            assert_eq!(t.cards.len(), 4);
            points[t.winner.team().index()] += t.points;
        }
        assert_eq!(points, summary.card_points, "round {r}: the tricks' points are the round's");
        checked += 1;
        // Sent only until the next round's first card: views stay small all round.
        while g.view(Viewer::Spectator).trick.cards.is_empty() && g.round_number() == r + 1 {
            random_step(&mut g, &mut rng, &mut next);
        }
        if g.round_number() == r + 1 {
            assert!(g.view(Viewer::Spectator).last_round_tricks.is_empty(), "gone once a card is down");
        }
    }
}
