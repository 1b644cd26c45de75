//! Solver speed on the deals play meets (docs/benchmarks.md, "The solver"): whole deals
//! from the opening lead, each with the contract the table's computer chooses for it
//! (the arena's common chooser, 2000 playouts, as in every arena match), so the
//! positions are those a game reaches rather than a random contract for random cards
//! (which `jass-solver`'s `solve` example times). Per class: median, p95, p99 and max
//! of one exact solve on one core, with the deals of a published seed list.
//!
//! `cargo run --release -p jass-arena --example solve_dealt -- --deals 200 --seeds claim`
//!
//! `--cards 36,24,20`: classes by cards left, the later ones reached from the opening
//! lead by random legal play (seeded by deal and class), or with `--best-play` by the
//! solver's own best play (`Solver::best_card` for every seat: positions of perfect
//! play on the true deal, slow to reach). `--each` prints every solve. `--fresh` gives every deal a new solver
//! (no table entries from earlier deals), `--match` keeps the match bonus (the
//! headline rules have none), `--only K` solves deal K alone.

use std::time::{Duration, Instant};

use jass_ai::{Computer, Config};
use jass_arena::{SeedList, card_points_options, choose_seed, deal_seed, player_seed};
use jass_engine::{Action, Card, Game, Phase, Seat, Seed, Team, Trick, Viewer, legal_cards};
use jass_solver::{Position, Solver};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}

/// The opening position of deal `deal`: the common chooser's contract, nobody has
/// played.
fn opening(master: u64, deal: u32, match_bonus: bool) -> Result<Position, String> {
    let options = card_points_options();
    let mut game = Game::new(options, deal_seed(master, deal)).map_err(|e| e.to_string())?;
    let mut chooser: Vec<Computer> = Seat::ALL
        .iter()
        .map(|&s| {
            let seed = player_seed(master, deal, s, 0);
            Computer::new(s, options, Config { playouts: 2000, time_budget: None, seed, ..Config::default() })
        })
        .collect();
    while let Some(seat) = game.to_act() {
        let view = game.view(Viewer::Seat(seat));
        if view.phase != Phase::Choosing {
            break;
        }
        let action: Action = chooser
            .get_mut(seat.index())
            .and_then(|c| c.decide(&view))
            .ok_or("the chooser did not choose")?;
        game.apply(seat, action, || Seed([0; 32])).map_err(|e| e.to_string())?;
    }
    let leader = game.to_act().ok_or("nobody leads")?;
    Ok(Position {
        hands: Seat::ALL.map(|s| game.hand(s)),
        trick: Trick::new(leader),
        contract: game.contract().ok_or("no contract")?,
        old_undenufe: options.old_undenufe,
        tricks_won: [0, 0],
        match_bonus,
    })
}

/// `pos` after the cards `pick` chooses for the seat to move, until `left` cards are
/// left (and a trick has started when `left` is a multiple of four).
fn play_down(
    mut pos: Position,
    left: u32,
    mut pick: impl FnMut(&Position) -> Option<Card>,
) -> Option<Position> {
    while pos.cards_left() > left {
        let card = pick(&pos)?;
        let seat = pos.to_move();
        pos.hands[seat.index()] = pos.hands[seat.index()].without(card);
        pos.trick.push(card);
        if pos.trick.is_complete() {
            let w = pos.trick.winner(pos.contract)?;
            pos.tricks_won[w.team().index()] += 1;
            pos.trick = Trick::new(w);
        }
    }
    Some(pos)
}

fn report(left: u32, mut t: Vec<Duration>, nodes: u64) {
    let n = t.len();
    if n == 0 {
        return;
    }
    t.sort();
    let q = |p: f64| t[((n as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{left:>3} cards: n={n} median {:.3} ms, p95 {:.3}, p99 {:.3}, max {:.3}; {:.0} nodes per solve",
        q(0.5),
        q(0.95),
        q(0.99),
        q(1.0),
        nodes as f64 / n as f64
    );
}

fn main() -> Result<(), String> {
    let list: Option<SeedList> = arg("--seeds").map(|s| s.parse()).transpose()?;
    let (master, _) = choose_seed(list, arg("--seed").and_then(|s| s.parse().ok()))?;
    let deals: u32 = arg("--deals").and_then(|s| s.parse().ok()).unwrap_or(100);
    let classes: Vec<u32> = arg("--cards")
        .unwrap_or_else(|| "36".into())
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    let fresh = flag("--fresh");
    let best = flag("--best-play");
    let match_bonus = flag("--match");
    let only: Option<usize> = arg("--only").and_then(|s| s.parse().ok());
    let mut openings = Vec::new();
    for deal in 0..deals {
        openings.push(opening(master, deal, match_bonus)?);
    }
    let mut solver = Solver::new();
    for left in classes {
        let mut times = Vec::new();
        let mut nodes = 0;
        for (k, open) in openings.iter().enumerate() {
            if only.is_some_and(|o| o != k) {
                continue;
            }
            let reached = if best {
                let mut player = Solver::new();
                play_down(*open, left, |p| player.best_card(p).ok().map(|b| b.0))
            } else {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(left) << 32 ^ k as u64);
                play_down(*open, left, |p| {
                    let legal = legal_cards(p.hands[p.to_move().index()], &p.trick, p.contract);
                    legal.iter().nth(rng.random_range(0..legal.len() as usize))
                })
            };
            let Some(pos) = reached else { continue };
            if fresh {
                solver = Solver::new();
            }
            let _ = solver.take_stats();
            let t0 = Instant::now();
            let _ = solver.points(&pos, Team::ALL[pos.to_move().team().index()]);
            times.push(t0.elapsed());
            let st = solver.take_stats();
            nodes += st.nodes;
            if flag("--each") {
                println!(
                    "  {:?} leader {} {:.1} ms {} nodes {} searches",
                    pos.contract,
                    pos.to_move().index(),
                    t0.elapsed().as_secs_f64() * 1e3,
                    st.nodes,
                    st.searches
                );
            }
        }
        report(left, times, nodes);
    }
    Ok(())
}
