//! The solver's values equal plain minimax (no table, no pruning, no merging of
//! equivalent cards) on random positions (issue 17 point 1; a larger sample runs in
//! the `solve` example with `--check`).

use jass_engine::{CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Seat, Team, Trick, legal_cards, tables};
use jass_solver::{Position, Solver};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// A random position with `left` cards still held, reached by random legal play.
fn random_position(rng: &mut Xoshiro256PlusPlus, left: u32) -> Position {
    let mut cards: Vec<u8> = (0..36).collect();
    cards.shuffle(rng);
    let mut hands = [CardSet::EMPTY; 4];
    for (i, c) in cards.iter().enumerate() {
        let card = jass_engine::Card::from_index(*c).unwrap();
        hands[i / 9] = hands[i / 9].with(card);
    }
    let contract = Contract::ALL[rng.random_range(0..6)];
    let mut pos = Position {
        hands,
        trick: Trick::new(Seat::ALL[rng.random_range(0..4)]),
        contract,
        old_undenufe: rng.random_bool(0.2),
        tricks_won: [0, 0],
        match_bonus: rng.random_bool(0.8),
    };
    while pos.cards_left() > left {
        let seat = pos.to_move();
        let legal: Vec<_> = legal_cards(pos.hands[seat.index()], &pos.trick, contract).iter().collect();
        let card = legal[rng.random_range(0..legal.len())];
        pos.hands[seat.index()] = pos.hands[seat.index()].without(card);
        pos.trick.push(card);
        if pos.trick.is_complete() {
            let w = pos.trick.winner(contract).unwrap();
            pos.tricks_won[w.team().index()] += 1;
            pos.trick = Trick::new(w);
        }
    }
    pos
}

/// Plain minimax: the points `team` takes from `pos` on.
fn minimax(pos: &Position, team: Team) -> u32 {
    let seat = pos.to_move();
    let hand = pos.hands[seat.index()];
    if hand.is_empty() {
        return 0;
    }
    let values = legal_cards(hand, &pos.trick, pos.contract).iter().map(|card| after(pos, card, team));
    if seat.team() == team { values.max().unwrap() } else { values.min().unwrap() }
}

/// The points `team` takes from `pos` on when the seat to move plays `card`.
fn after(pos: &Position, card: jass_engine::Card, team: Team) -> u32 {
    let seat = pos.to_move();
    let points = &tables(pos.contract, pos.old_undenufe).points;
    let mut next = *pos;
    next.hands[seat.index()] = pos.hands[seat.index()].without(card);
    next.trick.push(card);
    if !next.trick.is_complete() {
        return minimax(&next, team);
    }
    let w = next.trick.winner(pos.contract).unwrap();
    let mut gained: u32 = next.trick.cards().map(|c| u32::from(points[c.index()])).sum();
    let last = next.cards_left() == 0;
    if last {
        gained += LAST_TRICK_BONUS;
        if pos.match_bonus && pos.tricks_won[1 - w.team().index()] == 0 {
            gained += MATCH_BONUS;
        }
    }
    next.tricks_won[w.team().index()] += 1;
    next.trick = Trick::new(w);
    (if w.team() == team { gained } else { 0 }) + if last { 0 } else { minimax(&next, team) }
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

/// Issue 17 point 1: the table's relative-rank keys. Two positions that differ only
/// in which of two equal-point cards with nothing in play between them was already
/// played share every table entry: the second solve finds its value in the table
/// without searching a card, and the value is the same.
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
