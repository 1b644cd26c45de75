//! Solver speed (issue 17 point 1), on one core: random positions with a given number
//! of cards left (36 = a whole deal from the opening lead), reached by random legal
//! play; per class the median, p95, p99 and max time of one solve. A class stops
//! early when its time budget is spent (the count solved is printed).
//!
//! `cargo run --release -p jass-solver --example solve -- --cards 12,16,20,24,28,36 --n 1000`
//!
//! `--values` times [`Solver::card_values`] (every legal card's value) instead, and
//! `--best` [`Solver::best_card`] (the best card and its value).
//!
//! `--check N` instead compares N positions with 1 to 16 cards left against a plain
//! alpha-beta search (no table, no merged cards, no bounds: the minimax value).

use std::time::{Duration, Instant};

use jass_engine::{CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Seat, Team, Trick, legal_cards, tables};
use jass_solver::{Position, Solver};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn num(name: &str, default: usize) -> usize {
    arg(name).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn deal(rng: &mut Xoshiro256PlusPlus) -> Position {
    let mut cards: Vec<u8> = (0..36).collect();
    cards.shuffle(rng);
    let mut hands = [CardSet::EMPTY; 4];
    for (i, c) in cards.iter().enumerate() {
        if let Some(card) = jass_engine::Card::from_index(*c) {
            hands[i / 9] = hands[i / 9].with(card);
        }
    }
    Position {
        hands,
        trick: Trick::new(Seat::ALL[rng.random_range(0..4)]),
        contract: Contract::ALL[rng.random_range(0..6)],
        old_undenufe: rng.random_bool(0.1),
        tricks_won: [0, 0],
        match_bonus: rng.random_bool(0.9),
    }
}

fn play_down(rng: &mut Xoshiro256PlusPlus, mut pos: Position, left: u32) -> Position {
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

fn report(name: &str, mut t: Vec<Duration>, stats: jass_solver::Stats, stopped: bool) {
    if t.is_empty() {
        return;
    }
    let n = t.len();
    t.sort();
    let q = |p: f64| t[((n as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    let mean = t.iter().sum::<Duration>().as_secs_f64() * 1e3 / n as f64;
    println!(
        "{name:>3} cards: n={n}{} median {:.3} ms, p95 {:.3}, p99 {:.3}, max {:.3}, mean {:.3}; {:.0} nodes, {:.1} searches per solve",
        if stopped { " (budget spent)" } else { "" },
        q(0.5),
        q(0.95),
        q(0.99),
        q(1.0),
        mean,
        stats.nodes as f64 / n as f64,
        stats.searches as f64 / n as f64
    );
}

/// The points `team` takes from `pos` on, by plain fail-hard alpha-beta: the minimax
/// value, with nothing the solver's speed depends on.
fn reference(pos: &Position, team: Team, mut alpha: u32, mut beta: u32) -> u32 {
    let seat = pos.to_move();
    let hand = pos.hands[seat.index()];
    if hand.is_empty() {
        return 0;
    }
    let max = seat.team() == team;
    for card in legal_cards(hand, &pos.trick, pos.contract) {
        let mut next = *pos;
        next.hands[seat.index()] = hand.without(card);
        next.trick.push(card);
        let mut gained = 0;
        if next.trick.is_complete() {
            let Some(w) = next.trick.winner(pos.contract) else { return 0 };
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
        let rest = if next.cards_left() == 0 {
            0
        } else {
            reference(&next, team, alpha.saturating_sub(gained), beta.saturating_sub(gained))
        };
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

fn check(n: usize, rng: &mut Xoshiro256PlusPlus) {
    let mut solver = Solver::new();
    let t0 = Instant::now();
    for i in 0..n {
        let left = rng.random_range(1..=16);
        let dealt = deal(rng);
        let pos = play_down(rng, dealt, left);
        let team = Team::ALL[i % 2];
        let got = solver.points(&pos, team).unwrap_or(u32::MAX);
        let want = reference(&pos, team, 0, 1000);
        assert_eq!(got, want, "{pos:?} for {team:?}");
    }
    println!(
        "check: {n} positions with 1-16 cards left equal plain alpha-beta ({:.1} s)",
        t0.elapsed().as_secs_f64()
    );
}

fn main() {
    let seed = num("--seed", 1) as u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    if let Some(n) = arg("--check").and_then(|v| v.parse().ok()) {
        check(n, &mut rng);
        return;
    }
    let n = num("--n", 1000);
    let budget = Duration::from_secs_f64(num("--budget", 60) as f64);
    let classes: Vec<u32> = arg("--cards")
        .unwrap_or_else(|| "12,16,20,24,28,36".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    let values = std::env::args().any(|a| a == "--values");
    let best = std::env::args().any(|a| a == "--best");
    let mut solver = Solver::new();
    for left in classes {
        let mut times = Vec::new();
        let start = Instant::now();
        let mut stopped = false;
        for _ in 0..n {
            if start.elapsed() > budget {
                stopped = true;
                break;
            }
            let dealt = deal(&mut rng);
            let pos = play_down(&mut rng, dealt, left);
            let t0 = Instant::now();
            if best {
                let _ = solver.best_card(&pos);
            } else if values {
                let _ = solver.card_values(&pos);
            } else {
                let _ = solver.points(&pos, pos.to_move().team());
            }
            times.push(t0.elapsed());
        }
        report(&left.to_string(), times, solver.take_stats(), stopped);
    }
}
