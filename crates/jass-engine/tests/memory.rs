//! The memory a game holds stays small over a whole game (docs/benchmarks.md, "Memory
//! over whole games").
#![allow(missing_docs)]

mod common;

use common::{random_step, seed_n};
use jass_engine::{Game, Options};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// Counts the heap (one test in this binary, so nothing else allocates meanwhile).
#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

fn live() -> usize {
    dhat::HeapStats::get().curr_bytes
}

/// The heap a game holds (and its own size), played with random legal actions (Weis,
/// Stöck, pushes) to round 60 of a game that does not end: a game to 2500 lasts
/// about 15–35 rounds. Before the compact form a game held 30.5 KiB after 15 rounds
/// and 110 KiB after 60 (1.6 KiB a round: 40 bytes an action in the record).
#[test]
fn game_memory_is_bounded() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let options = Options { target: 100_000, ..Options::default() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut next = 0;
    let base = live();
    let mut g = Game::new(options, seed_n(0)).unwrap();
    let size = || live() - base + std::mem::size_of::<Game>();
    let mut at = vec![size()];
    while g.round_number() < 60 {
        let r = g.round_number();
        random_step(&mut g, &mut rng, &mut next);
        if g.round_number() != r {
            at.push(size());
        }
    }
    for (r, b) in at.iter().enumerate() {
        eprintln!("round {r}: {b} bytes");
    }
    assert!(at[1] <= 2 * 1024, "round 1: {} bytes", at[1]);
    assert!(at[15] <= 5 * 1024, "round 15: {} bytes", at[15]);
    assert!(at[60] <= 16 * 1024, "round 60: {} bytes", at[60]);

    // The full record, built on demand, is dropped at the next action.
    let held = size();
    let full = g.record().rounds.len();
    assert_eq!(full, 61);
    assert!(size() > held + 60 * 1000, "the full record is large");
    random_step(&mut g, &mut rng, &mut next);
    assert!(size() <= held + 64, "{} bytes after the record was dropped, {held} before", size());
}
