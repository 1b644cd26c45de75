//! Engine throughput on one core.
//!
//! `cargo run --release -p jass-engine --example throughput` prints two lines:
//! - `random_rounds_per_sec`: the fast path (deal, contract, 36 random legal plays,
//!   scoring), as bots use it for search: [`random_rounds`] with two rounds per call,
//!   the batched form search should use (one round alone is bound by its card-to-card
//!   dependency chain; two interleaved let the CPU overlap them). `random1` measures
//!   the single-round [`random_round`] instead, `random3`/`random4` other batch sizes;
//! - `apply_rounds_per_sec`: the full checked path: [`Game::apply_into`] (`apply`
//!   with a reused event buffer) for the contract and 36 plays (with the events), building the acting seat's [`Game::view`] before
//!   each action as a bot would. A fresh game starts every 50 rounds so the record
//!   stays small.
//!
//! Each figure is the median of five runs of about 1.5 s. An argument `random` or
//! `apply` measures only that path (for profiling); `apply-count N` plays N games of
//! the apply path and stops, for instruction counts under callgrind (`random-count N`
//! likewise plays N two-round batches of the fast path).
//!
//! Its `expect`s state the engine's own invariants (default options are valid, a seat
//! to play has a legal card, which it accepts): no input reaches them, and a failure
//! is an engine bug.

use std::hint::black_box;
use std::time::{Duration, Instant};

use jass_engine::{Action, Contract, Events, Game, Options, Seed, Viewer, random_round, random_rounds};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

const RUN: Duration = Duration::from_millis(1500);
const RUNS: usize = 5;
const ROUNDS_PER_GAME: u32 = 50;

/// Runs `batch` (which plays some rounds and returns how many) for about [`RUN`] and
/// returns rounds per second.
fn measure(mut batch: impl FnMut() -> u64) -> f64 {
    let start = Instant::now();
    let mut rounds = 0u64;
    while start.elapsed() < RUN {
        rounds += batch();
    }
    rounds as f64 / start.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A seed from the bench RNG (the game's own seeds need not be secret here).
fn seed(rng: &mut Xoshiro256PlusPlus) -> Seed {
    let mut b = [0u8; 32];
    rng.fill_bytes(&mut b);
    Seed(b)
}

/// Plays one round through `Game::apply_into`, viewing before every action; returns the
/// number of events (so nothing is optimized away).
fn apply_round(game: &mut Game, rng: &mut Xoshiro256PlusPlus) -> usize {
    let mut events = 0;
    let mut buffer = Events::new();
    let round = game.round_number();
    let next = seed(rng);
    while game.round_number() == round {
        let Some(seat) = game.to_act() else { break };
        let view = game.view(Viewer::Seat(seat));
        let action = if view.allowed.choose {
            Action::Choose { contract: Contract::ALL[(rng.next_u32() % 6) as usize] }
        } else {
            let legal = view.allowed.cards;
            let card = legal.nth(rng.next_u32() % legal.len()).expect("a legal card");
            // Declares every Weis it may, as before; most plays have none, and
            // collecting from an empty list still cost the loop a call per play.
            let weis = if view.allowed.weis.is_empty() {
                Vec::new()
            } else {
                view.allowed.weis.iter().map(|w| w.cards()).collect()
            };
            Action::Play { card, weis, stoeck: view.allowed.stoeck }
        };
        buffer.clear();
        game.apply_into(seat, action, || next, &mut buffer).expect("legal action");
        events += buffer.len();
    }
    events
}

/// Rounds per second of [`random_round`], one round per call.
fn random_single_rate() -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
    measure(|| {
        for _ in 0..1000 {
            black_box(random_round(&mut rng));
        }
        1000
    })
}

/// Rounds per second of [`random_rounds`], `K` rounds per call.
fn random_rate<const K: usize>() -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
    measure(|| {
        for _ in 0..1000 {
            black_box(random_rounds::<K, _>(&mut rng));
        }
        1000 * K as u64
    })
}

fn apply_rate() -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA991);
    measure(|| {
        let mut game = Game::new(Options::default(), seed(&mut rng)).expect("default options");
        for _ in 0..ROUNDS_PER_GAME {
            black_box(apply_round(&mut game, &mut rng));
        }
        u64::from(ROUNDS_PER_GAME)
    })
}

/// With an argument `random` or `apply`, measures only that path (for profiling).
fn main() {
    let only = std::env::args().nth(1);
    match only.as_deref() {
        Some("random1") => {
            println!("random_round_per_sec={:.0}", median((0..RUNS).map(|_| random_single_rate()).collect()));
            return;
        }
        Some("random4") => {
            println!("random4_per_sec={:.0}", median((0..RUNS).map(|_| random_rate::<4>()).collect()));
            return;
        }
        Some("apply-count") => {
            // A fixed number of rounds, for instruction counts (callgrind) that do not
            // depend on the clock.
            let games: u32 = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(20);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xA991);
            let mut events = 0;
            for _ in 0..games {
                let mut game = Game::new(Options::default(), seed(&mut rng)).expect("default options");
                for _ in 0..ROUNDS_PER_GAME {
                    events += black_box(apply_round(&mut game, &mut rng));
                }
            }
            println!("rounds={} events={events}", games * ROUNDS_PER_GAME);
            return;
        }
        Some("random-count") => {
            // As `apply-count`, for the fast path: N batches of two rounds.
            let batches: u32 = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(1000);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
            for _ in 0..batches {
                black_box(random_rounds::<2, _>(&mut rng));
            }
            println!("rounds={}", 2 * batches);
            return;
        }
        Some("random3") => {
            println!("random3_per_sec={:.0}", median((0..RUNS).map(|_| random_rate::<3>()).collect()));
            return;
        }
        _ => {}
    }
    if only.as_deref() != Some("apply") {
        println!("random_rounds_per_sec={:.0}", median((0..RUNS).map(|_| random_rate::<2>()).collect()));
    }
    if only.as_deref() != Some("random") {
        println!("apply_rounds_per_sec={:.0}", median((0..RUNS).map(|_| apply_rate()).collect()));
    }
}
