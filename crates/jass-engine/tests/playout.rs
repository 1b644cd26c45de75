//! The allocation-free playouts (`play_random`, `random_round`) agree with the checked
//! path (`Game::apply`): same legal cards, same trick winners, same points (R4, R5, R8).

mod common;

use common::*;
use jass_engine::{
    Action, Contract, Options, RoundInPlay, Seat, Team, Trick, play_random, random_hands, random_round,
    random_rounds, tables,
};
use rand::{Rng, RngExt};

/// `play_random`'s pick: the `below(len)`-th legal card, drawn from a word that keeps
/// its remaining randomness (a fresh `next_u64` every eight plays).
fn below(word: &mut u64, n: u32) -> u32 {
    let m = u128::from(*word) * u128::from(n);
    *word = m as u64;
    (m >> 64) as u32
}

/// Plays the round of `g` to its end through `Game::apply`, drawing the cards as the
/// fast playouts do (a fresh word every eight plays); its summary.
fn finish_checked(
    g: &mut jass_engine::Game,
    r: &mut rand::rngs::Xoshiro256PlusPlus,
) -> jass_engine::RoundSummary {
    let (mut word, mut plays) = (0, 0);
    loop {
        if plays % 8 == 0 {
            word = r.next_u64();
        }
        plays += 1;
        let s = g.to_act().unwrap();
        let legal = g.legal_cards(s);
        let c = legal.nth(below(&mut word, legal.len())).unwrap();
        if let Some(summary) = summaries(&act(g, s, Action::play(c))).pop() {
            return summary;
        }
    }
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
        let s = finish_checked(&mut g, &mut r);
        let checked = Team::ALL.map(|t| s.card_points[t] + s.match_bonus[t]);
        assert_eq!(fast, checked, "playout {n}: {contract} from seat {leader}");
        assert_eq!(fast_rng.next_u32(), r.next_u32(), "same numbers drawn");
        matches += usize::from(s.match_bonus != [0, 0]);
    }
    assert!(matches > 0, "some playout should be a match");
}

/// `RoundInPlay::play_random` from any point of a round (a random prefix played
/// through `Game::apply`, its tricks scored by the readable rule): the same points
/// as `Game::apply` going on with the same numbers drawn (R4, R5, R8).
#[test]
fn round_in_play_agrees_with_apply() {
    for n in 0..3000u64 {
        let mut r = rng(1000 + n);
        let hands = random_hands(&mut r);
        let contract = Contract::ALL[(n % 6) as usize];
        let leader = Seat::ALL[(n / 6 % 4) as usize];
        let old_undenufe = n % 7 == 0;
        // Rounds of a fixed count score no match bonus (R10).
        let match_bonus = n % 5 != 0;
        let options =
            Options { old_undenufe, fixed_rounds: (!match_bonus).then_some(1), ..Options::default() };
        let mut g = game_with(options, leader.plus(3).index() as u8, leader.index() as u8, hands, [0, 0]);
        act(&mut g, leader, Action::Choose { contract });
        let pts = &tables(contract, old_undenufe).points;
        let mut state = RoundInPlay {
            hands,
            trick: Trick::new(leader),
            trick_no: 0,
            contract,
            old_undenufe,
            points: [0, 0],
            lost_a_trick: [false, false],
            match_bonus,
        };
        let cut = r.random_range(0..36);
        for _ in 0..cut {
            let s = g.to_act().unwrap();
            let legal = g.legal_cards(s);
            let c = legal.nth(r.random_range(0..legal.len())).unwrap();
            act(&mut g, s, Action::play(c));
            state.hands[s.index()] = state.hands[s.index()].without(c);
            state.trick.push(c);
            if state.trick.is_complete() {
                let w = state.trick.winner(contract).unwrap();
                let mut p: u32 = state.trick.cards().map(|c| u32::from(pts[c.index()])).sum();
                if state.trick_no == 8 {
                    p += 5;
                }
                state.points[w.team().index()] += p;
                state.lost_a_trick[1 - w.team().index()] = true;
                state.trick_no += 1;
                state.trick = Trick::new(w);
            }
        }
        let mut fast_rng = r.clone();
        let fast = state.play_random(&mut fast_rng);
        let s = finish_checked(&mut g, &mut r);
        let checked = Team::ALL.map(|t| s.card_points[t] + s.match_bonus[t]);
        assert_eq!(fast, checked, "playout {n}: {contract} from seat {leader}, {cut} cards played");
        assert_eq!(fast_rng.next_u32(), r.next_u32(), "same numbers drawn");
    }
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
