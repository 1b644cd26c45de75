//! The solver's values equal plain minimax (no table, no pruning, no merging of
//! equivalent cards) on random positions (a larger sample runs in the `solve` example
//! with `--check`).

mod common;

use common::reference::{after, alpha_beta, deal, play_down};
use jass_engine::{CardSet, Team, legal_cards, tables};
use jass_solver::{Position, Solver};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// A random position with `left` cards still held, reached by random legal play.
fn random_position(rng: &mut Xoshiro256PlusPlus, left: u32) -> Position {
    let dealt = deal(rng, 0.2, 0.8);
    play_down(rng, dealt, left)
}

/// Plain minimax: the points `team` takes from `pos` on.
fn minimax(pos: &Position, team: Team) -> u32 {
    alpha_beta(pos, team, 0, u32::MAX)
}

#[test]
fn the_solver_equals_plain_minimax_on_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let mut solver = Solver::new();
    for i in 0..400 {
        let left = [4, 7, 8, 10, 12][i % 5];
        let pos = random_position(&mut rng, left);
        pos.validate().unwrap();
        for team in Team::ALL {
            assert_eq!(solver.points(&pos, team).unwrap(), minimax(&pos, team), "{pos:?} for {team:?}");
        }
        let seat = pos.to_move();
        let values = solver.card_values(&pos).unwrap();
        let legal = legal_cards(pos.hands[seat.index()], &pos.trick, pos.contract);
        assert_eq!(values.len() as u32, legal.len(), "every legal card has a value");
        let top = values.first().map(|&(_, v)| v);
        for (card, v) in values {
            assert_eq!(v, after(&pos, card, seat.team()), "{card} in {pos:?}");
        }
        // The best card: its value is the most any card takes, and it is that card's.
        let (card, v) = solver.best_card(&pos).unwrap();
        assert_eq!(Some(v), top, "best value in {pos:?}");
        assert_eq!(v, after(&pos, card, seat.team()), "best card {card} in {pos:?}");
    }
}

#[test]
fn positions_that_cannot_occur_are_refused() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let pos = random_position(&mut rng, 12);
    let mut bad = pos;
    bad.tricks_won = [9, 0];
    assert!(bad.validate().is_err());
    let mut bad = pos;
    let seat = pos.to_move().index();
    let other = (seat + 1) % 4;
    let card = pos.hands[other].first().unwrap();
    bad.hands[seat] = bad.hands[seat].with(card);
    assert!(bad.validate().is_err(), "a card held twice");
}

/// The table's relative-rank keys. Two positions that differ only in which of two
/// equal-point cards with nothing in play between them was already played share every
/// table entry: the second solve finds its value in the table without searching a card,
/// and the value is the same.
#[test]
fn a_transposed_position_is_answered_from_the_table() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let mut found = 0;
    for _ in 0..400 {
        let pos = random_position(&mut rng, 12);
        let t = tables(pos.contract, pos.old_undenufe);
        let held = pos.hands.iter().fold(CardSet::EMPTY, |a, h| a | *h);
        // A held card `c` and a played card `d` of its suit with equal points and no
        // held card between them in the contract's order.
        let swap = (0..4).find_map(|seat| {
            pos.hands[seat].iter().find_map(|c| {
                (0..36u8).filter_map(jass_engine::Card::from_index).find_map(|d| {
                    let (oc, od) = (t.order[c.index()], t.order[d.index()]);
                    let between = held.iter().any(|x| {
                        x.suit() == c.suit()
                            && t.order[x.index()].clamp(oc.min(od), oc.max(od)) == t.order[x.index()]
                            && x != c
                    });
                    (d.suit() == c.suit()
                        && !held.contains(d)
                        && t.points[c.index()] == t.points[d.index()]
                        && !between)
                        .then_some((seat, c, d))
                })
            })
        });
        let Some((seat, c, d)) = swap else { continue };
        let mut other = pos;
        other.hands[seat] = other.hands[seat].without(c).with(d);
        other.validate().unwrap();
        let mut solver = Solver::new();
        let team = Team::ALL[0];
        let first = solver.points(&pos, team).unwrap();
        solver.take_stats();
        assert_eq!(solver.points(&other, team).unwrap(), first, "{pos:?} / {other:?}");
        assert_eq!(solver.take_stats().nodes, 0, "answered from the table");
        assert_eq!(minimax(&other, team), first);
        found += 1;
        if found == 20 {
            break;
        }
    }
    assert!(found >= 10, "enough transposed pairs: {found}");
}

/// A solve cut short by its node budget says so and leaves nothing wrong behind: the
/// same solver, given the budget it needs afterwards, still gives every card the
/// minimax value (an aborted search stores no entry), and within a budget that
/// suffices the values are the unbounded ones.
#[test]
fn a_solve_over_its_node_budget_is_dropped_and_leaves_the_table_exact() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    let mut cut = 0;
    for i in 0..120 {
        let pos = random_position(&mut rng, [10, 12][i % 2]);
        let mut fresh = Solver::new();
        let full = fresh.card_values(&pos).unwrap();
        let needed = fresh.take_stats().nodes;
        let mut solver = Solver::new();
        if needed > 1 {
            // Half the budget it needs, so a search stops part way.
            let half = solver.card_values_within(&pos, needed / 2).unwrap();
            // (Give or take the last two tricks of the line it was in, valued whole.)
            assert!(solver.take_stats().nodes <= needed / 2 + 64, "the budget is kept");
            if half.is_none() {
                cut += 1;
            }
        }
        assert_eq!(solver.card_values_within(&pos, u64::MAX).unwrap().as_ref(), Some(&full), "{pos:?}");
        let seat = pos.to_move();
        for (card, v) in full {
            assert_eq!(v, after(&pos, card, seat.team()), "{card} in {pos:?}");
        }
    }
    assert!(cut >= 60, "most budgets of half the need cut the solve: {cut}");
}

/// A round's review asks for bounds: the played card and every card within the
/// tolerance of the best exact, the others shown to be at least that much worse, and
/// every bound true (against plain minimax).
#[test]
fn card_bounds_are_exact_near_the_best_and_true_beyond() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(38);
    let mut solver = Solver::new();
    for i in 0..300 {
        let left = [5, 8, 10, 12][i % 4];
        let pos = random_position(&mut rng, left);
        let seat = pos.to_move();
        let team = seat.team();
        let legal: Vec<_> = legal_cards(pos.hands[seat.index()], &pos.trick, pos.contract).iter().collect();
        let played = legal[i % legal.len()];
        let tolerance = [1, 5, 10, 20][i % 4];
        let bounds = solver.card_bounds(&pos, tolerance, Some(played), u64::MAX).unwrap();
        assert_eq!(bounds.len(), legal.len(), "every legal card once");
        let truth: Vec<u32> = bounds.iter().map(|b| after(&pos, b.card, team)).collect();
        let best = truth.iter().copied().max().unwrap();
        for (b, &v) in bounds.iter().zip(&truth) {
            assert!(b.at_least <= v && v <= b.at_most, "{b:?} against {v} in {pos:?}");
            if b.card == played || v + tolerance > best {
                assert_eq!((b.at_least, b.at_most), (v, v), "{b:?} must be exact (best {best}) in {pos:?}");
            } else if b.at_least != b.at_most {
                assert!(b.at_most + tolerance <= best, "{b:?} must show a loss of {tolerance} (best {best})");
            }
        }
        // A floor stops the search once the value is shown below it; without one it is exact.
        let v = minimax(&pos, team);
        assert_eq!(solver.value_bounds(&pos, team, None, u64::MAX).unwrap(), (v, v));
        let floor = v + 1 + (i as u32 % 7);
        let (lo, hi) = solver.value_bounds(&pos, team, Some(floor), u64::MAX).unwrap();
        assert!(lo <= v && v <= hi && hi < floor, "({lo}, {hi}) for {v} below {floor}");
    }
}
