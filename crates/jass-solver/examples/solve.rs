//! Solver speed (docs/benchmarks.md, "The solver"), on one core: random positions with
//! a given number of cards left (36 = a whole deal from the opening lead), reached by
//! random legal play; per class the median, p95, p99 and max time of one solve. A class
//! stops early when its time budget is spent (the count solved is printed).
//!
//! `cargo run --release -p jass-solver --example solve -- --cards 12,16,20,24,28,36 --n 1000`
//!
//! `--values` times [`Solver::card_values`] (every legal card's value) instead, and
//! `--best` [`Solver::best_card`] (the best card and its value).
//!
//! `--check N` instead compares N positions with 1 to 16 cards left against a plain
//! alpha-beta search (no table, no merged cards, no bounds: the minimax value).

use std::time::{Duration, Instant};

use jass_engine::Team;
use jass_solver::Solver;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

#[path = "../tests/common/reference.rs"]
mod reference;

use reference::{alpha_beta, deal, play_down};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn num(name: &str, default: usize) -> usize {
    arg(name).and_then(|v| v.parse().ok()).unwrap_or(default)
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

fn check(n: usize, rng: &mut Xoshiro256PlusPlus) {
    let mut solver = Solver::new();
    let t0 = Instant::now();
    for i in 0..n {
        let left = rng.random_range(1..=16);
        let dealt = deal(rng, 0.1, 0.9);
        let pos = play_down(rng, dealt, left);
        let team = Team::ALL[i % 2];
        let got = solver.points(&pos, team).unwrap_or(u32::MAX);
        let want = alpha_beta(&pos, team, 0, u32::MAX);
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
            let dealt = deal(&mut rng, 0.1, 0.9);
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
