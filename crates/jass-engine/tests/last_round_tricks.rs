//! A view carries the previous round's last trick (protocol.md 5.2), so a client shows
//! the ninth trick before the summary, and `Game::last_round_tricks` gives the whole
//! round (served over HTTP) to browse without replaying rules.
#![allow(missing_docs)]

mod common;

use common::{random_step, seed_n};
use jass_engine::{CardSet, Game, Options, Viewer};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

#[test]
fn the_previous_rounds_tricks_add_up_to_its_card_points() {
    let options = Options { target: 100_000, ..Options::default() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut next = 0;
    let mut g = Game::new(options, seed_n(0)).unwrap();
    assert!(g.view(Viewer::Spectator).last_round_trick.is_none(), "none before a round ends");
    assert!(g.last_round_tricks().is_empty(), "none before a round ends");
    let mut checked = 0;
    while checked < 20 {
        let r = g.round_number();
        random_step(&mut g, &mut rng, &mut next);
        if g.round_number() == r {
            continue;
        }
        let v = g.view(Viewer::Spectator);
        let summary = v.last_round.unwrap();
        let tricks = g.last_round_tricks();
        assert_eq!(tricks.len(), 9);
        assert_eq!(v.last_round_trick.as_ref(), tricks.last(), "the view has the ninth");
        let mut points = [0u32; 2];
        for (i, t) in tricks.iter().enumerate() {
            assert_eq!(usize::from(t.trick), i);
            assert_eq!(t.cards.len(), 4);
            points[t.winner.team().index()] += t.points;
        }
        let deck = tricks.iter().flat_map(|t| t.cards.iter().map(|p| p.card)).collect::<CardSet>();
        assert_eq!(deck, CardSet::DECK, "nine tricks hold the deck");
        assert_eq!(points, summary.card_points, "round {r}: the tricks' points are the round's");
        checked += 1;
        // Sent only until the next round's first card: views stay small all round; the
        // whole round's tricks stay there to be asked for.
        while g.view(Viewer::Spectator).trick.cards.is_empty() && g.round_number() == r + 1 {
            random_step(&mut g, &mut rng, &mut next);
        }
        if g.round_number() == r + 1 {
            assert!(g.view(Viewer::Spectator).last_round_trick.is_none(), "gone once a card is down");
            assert_eq!(g.last_round_tricks(), tricks, "kept to be asked for");
        }
    }
}
