//! What the solver is checked against, shared by the exactness test and the `solve`
//! example's `--check` and timings: random positions reached by random legal play,
//! and the minimax value by plain search (no table, no pruning but alpha-beta's, no
//! merging of equivalent cards: nothing the solver's speed depends on).

// Each user takes what it needs of the module (the example no `after`).
#![allow(dead_code, unreachable_pub)]

use jass_engine::{
    Card, CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Seat, Team, Trick, legal_cards, tables,
};
use jass_solver::Position;
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

/// A random deal from the opening lead: a random leader and contract, the old
/// Undenufe with probability `old_undenufe`, the match bonus with `match_bonus`.
/// Its own shuffle rather than the engine's `random_hands`: a seed gives the positions
/// the published solver figures were measured on.
pub fn deal(rng: &mut Xoshiro256PlusPlus, old_undenufe: f64, match_bonus: f64) -> Position {
    let mut cards: Vec<u8> = (0..36).collect();
    cards.shuffle(rng);
    let mut hands = [CardSet::EMPTY; 4];
    for (i, c) in cards.iter().enumerate() {
        if let Some(card) = Card::from_index(*c) {
            hands[i / 9] = hands[i / 9].with(card);
        }
    }
    Position {
        hands,
        trick: Trick::new(Seat::ALL[rng.random_range(0..4)]),
        contract: Contract::ALL[rng.random_range(0..6)],
        old_undenufe: rng.random_bool(old_undenufe),
        tricks_won: [0, 0],
        match_bonus: rng.random_bool(match_bonus),
    }
}

/// `pos` played on by random legal cards until `left` cards are held.
pub fn play_down(rng: &mut Xoshiro256PlusPlus, mut pos: Position, left: u32) -> Position {
    while pos.cards_left() > left {
        let seat = pos.to_move();
        let legal: Vec<_> = legal_cards(pos.hands[seat.index()], &pos.trick, pos.contract).iter().collect();
        let card = legal[rng.random_range(0..legal.len())];
        pos.hands[seat.index()] = pos.hands[seat.index()].without(card);
        pos.trick.push(card);
        if pos.trick.is_complete() {
            let Some(w) = pos.trick.winner(pos.contract) else { break };
            pos.tricks_won[w.team().index()] += 1;
            pos.trick = Trick::new(w);
        }
    }
    pos
}

/// The points `team` takes from `pos` on when every seat plays best: plain
/// fail-hard alpha-beta within `alpha .. beta` (`0, u32::MAX`: plain minimax).
pub fn alpha_beta(pos: &Position, team: Team, mut alpha: u32, mut beta: u32) -> u32 {
    let seat = pos.to_move();
    let hand = pos.hands[seat.index()];
    if hand.is_empty() {
        return 0;
    }
    let max = seat.team() == team;
    for card in legal_cards(hand, &pos.trick, pos.contract) {
        let (gained, next) = step(pos, card, team);
        let rest = next.map_or(0, |next| {
            alpha_beta(&next, team, alpha.saturating_sub(gained), beta.saturating_sub(gained))
        });
        let v = gained + rest;
        if max {
            alpha = alpha.max(v);
        } else {
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    if max { alpha } else { beta }
}

/// The points `team` takes from `pos` on when the seat to move plays `card` and
/// every seat plays best after it.
pub fn after(pos: &Position, card: Card, team: Team) -> u32 {
    let (gained, next) = step(pos, card, team);
    gained + next.map_or(0, |next| alpha_beta(&next, team, 0, u32::MAX))
}

/// `card` played: the points it gives `team` (a trick it completes, with the last
/// trick's 5 and the match), and the position after it (`None` at the round's end).
fn step(pos: &Position, card: Card, team: Team) -> (u32, Option<Position>) {
    let seat = pos.to_move();
    let mut next = *pos;
    next.hands[seat.index()] = pos.hands[seat.index()].without(card);
    next.trick.push(card);
    let mut gained = 0;
    if next.trick.is_complete() {
        let Some(w) = next.trick.winner(pos.contract) else { return (0, None) };
        let points = &tables(pos.contract, pos.old_undenufe).points;
        let last = next.cards_left() == 0;
        if w.team() == team {
            gained = next.trick.cards().map(|c| u32::from(points[c.index()])).sum::<u32>();
            if last {
                gained += LAST_TRICK_BONUS;
                if pos.match_bonus && pos.tricks_won[1 - w.team().index()] == 0 {
                    gained += MATCH_BONUS;
                }
            }
        }
        next.tricks_won[w.team().index()] += 1;
        next.trick = Trick::new(w);
    }
    (gained, (next.cards_left() > 0).then_some(next))
}
