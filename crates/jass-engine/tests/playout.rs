//! The allocation-free playouts (`play_random`, `random_round`) agree with the checked
//! path (`Game::apply`): same legal cards, same trick winners, same points (R4, R5, R8).

mod common;

use common::*;
use jass_engine::{
    Action, Contract, Options, Seat, Team, play_random, random_hands, random_round, random_rounds,
};
use rand::Rng;

/// `play_random`'s pick: the `below(len)`-th legal card, drawn from a word that keeps
/// its remaining randomness (a fresh `next_u64` every eight plays).
fn below(word: &mut u64, n: u32) -> u32 {
    let m = u128::from(*word) * u128::from(n);
    *word = m as u64;
    (m >> 64) as u32
}

/// Replays a random playout through `Game::apply`, drawing the same numbers, and
/// compares the card points (with the last trick and the match bonus, before the
/// multiplier).
#[test]
fn play_random_agrees_with_apply() {
    let mut matches = 0;
    for n in 0..3000u64 {
        let mut r = rng(n);
        let hands = random_hands(&mut r);
        let contract = Contract::ALL[(n % 6) as usize];
        let leader = Seat::ALL[(n / 6 % 4) as usize];
        let old_undenufe = n % 7 == 0;
        let mut fast_rng = r.clone();
        let fast = play_random(&mut fast_rng, hands, contract, leader, old_undenufe);

        let options = Options { old_undenufe, ..Options::default() };
        let mut g = game_with(options, leader.plus(3).index() as u8, leader.index() as u8, hands, [0, 0]);
        act(&mut g, leader, Action::Choose { contract });
        let mut summary = None;
        let (mut word, mut plays) = (0, 0);
        while summary.is_none() {
            if plays % 8 == 0 {
                word = r.next_u64();
            }
            plays += 1;
            let s = g.to_act().unwrap();
            let legal = g.legal_cards(s);
            let c = legal.nth(below(&mut word, legal.len())).unwrap();
            summary = summaries(&act(&mut g, s, Action::play(c))).pop();
        }
        let s = summary.unwrap();
        let checked = Team::ALL.map(|t| s.card_points[t] + s.match_bonus[t]);
        assert_eq!(fast, checked, "playout {n}: {contract} from seat {leader}");
        assert_eq!(fast_rng.next_u32(), r.next_u32(), "same numbers drawn");
        matches += usize::from(s.match_bonus != [0, 0]);
    }
    assert!(matches > 0, "some playout should be a match");
}

/// `random_round` deals nine cards each and scores 157 (257 with a match).
#[test]
fn random_round_scores_157_or_257() {
    let mut r = rng(1);
    for _ in 0..20_000 {
        let p = random_round(&mut r);
        assert!(matches!(p.points[0] + p.points[1], 157 | 257), "{p:?}");
    }
}

/// `random_rounds` (the batched playouts) equals as many calls of `random_round` on
/// the same generator, for several batch sizes, and leaves it in the same state.
#[test]
fn random_rounds_equal_random_round_in_sequence() {
    let (mut batched, mut single) = (rng(7), rng(7));
    for _ in 0..3000 {
        for p in random_rounds::<2, _>(&mut batched) {
            assert_eq!(p, random_round(&mut single));
        }
        for p in random_rounds::<3, _>(&mut batched) {
            assert_eq!(p, random_round(&mut single));
        }
        let [p] = random_rounds::<1, _>(&mut batched);
        assert_eq!(p, random_round(&mut single));
    }
    assert_eq!(batched.next_u64(), single.next_u64());
}
