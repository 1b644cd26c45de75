//! The cost of sampling deals per decision, against the cost of a whole decision of the
//! default computer.
//!
//! Rounds are played by random legal cards (every allowed Weis declared, as the
//! computer does), so that every build of the sampler meets exactly the same states;
//! at every card decision of seat 0 the example times, on this thread's CPU clock, a
//! default computer's decision (no time budget, so runs repeat exactly) and,
//! separately, drawing as many deals as the decision draws (2,000 playouts / legal
//! cards) with [`SeatKnowledge`], the computer's own sampler.
//! Medians and p99 are printed for all card decisions and for those where some
//! declared Weis stayed hidden from the seat (the hard case of the sampler).
//!
//! With `--decisions-only` no deals are drawn besides the decisions' own, so that
//! the process's instruction count (`perf stat -e instructions:u`), which the other
//! builds on a shared machine do not disturb as they do CPU time, is the decisions'.
//!
//! Measured when hidden Weis became a hard constraint, 1,000 rounds, 6,588 card
//! decisions (1,399 with hidden Weis), release build, one core of a shared two-core
//! machine; CPU µs per decision, median / mean / p99, two runs each, alternating:
//!
//! | | before (redraws, 24 at most) | after (witnesses, exact) |
//! | --- | --- | --- |
//! | decision | 818–823 / 939–947 / 4,650–4,700 | 794–820 / 826–858 / 1,885–2,115 |
//! | decision, hidden Weis | 1,133–1,140 / 1,520 / 7,380–7,470 | 911–933 / 980–1,017 / 2,800–2,880 |
//! | sampling, none hidden | 94–95 / 123–125 / 391–393 | 87–88 / 115–121 / 351–365 |
//! | sampling, hidden Weis | 374–379 / 867–871 / 6,650–7,000 | 157–171 / 257–276 / 1,605–1,733 |
//!
//! Instructions (callgrind, 60 rounds, `--decisions-only`): the decisions took
//! 4.42 × 10⁹ before, 3.90 × 10⁹ after (−12 %). No deal ran out of draws.
//!
//! ```text
//! cargo run --release -p jass-ai --example sample_cost -- --rounds 300
//! perf stat -e instructions:u target/release/examples/sample_cost --rounds 300 --decisions-only
//! ```

use std::time::Duration;

use jass_ai::{Computer, Config, SeatKnowledge};
use jass_engine::{Action, Game, Options, Seat, Seed, Viewer};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn main() {
    let mut rounds = 300u32;
    let mut decisions_only = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--decisions-only" {
            decisions_only = true;
            continue;
        }
        match (flag.as_str(), it.next().and_then(|v| v.parse().ok())) {
            ("--rounds", Some(n)) => rounds = n,
            _ => {
                eprintln!("flags: --rounds N --decisions-only");
                std::process::exit(2);
            }
        }
    }
    let options = Options::default();
    let config = Config { time_budget: None, ..Config::default() };
    let (mut decide, mut sample, mut decide_hidden, mut sample_hidden) = (vec![], vec![], vec![], vec![]);
    let mut sample_open = vec![];
    // Deals asked for and not drawn (a hidden declaration met by too few deals).
    let mut short = 0;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut play = Xoshiro256PlusPlus::seed_from_u64(3);
    for r in 0..rounds {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&r.to_le_bytes());
        let Ok(mut game) = Game::new(options, Seed(seed)) else { return };
        let mut computers: Vec<Computer> = Seat::ALL
            .iter()
            .map(|&s| {
                Computer::new(s, options, Config { seed: u64::from(r) << 2 | s.index() as u64, ..config })
            })
            .collect();
        let mut knowledge = SeatKnowledge::new(Seat::ALL[0], &options);
        while game.round_number() == 0 {
            let Some(seat) = game.to_act() else { break };
            let view0 = game.view(Viewer::Seat(Seat::ALL[0]));
            knowledge.observe(&view0);
            let view = game.view(Viewer::Seat(seat));
            let Some(computer) = computers.get_mut(seat.index()) else { return };
            let searched = seat == Seat::ALL[0] && view.contract.is_some() && view.allowed.cards.len() > 1;
            let start = cpu_time::ThreadTime::now();
            let mut action = Action::Schiebe;
            if view.contract.is_none() || seat == Seat::ALL[0] {
                let Some(a) = computer.decide(&view) else { return };
                action = a;
            }
            let spent = start.elapsed();
            if view.contract.is_some() {
                let cards = view.allowed.cards;
                let Some(card) = cards.nth(play.random_range(0..cards.len())) else { return };
                let weis = view.allowed.weis.iter().map(|w| w.cards()).collect();
                action = Action::Play { card, weis, stoeck: false };
            }
            if searched {
                let hidden = view.weis.iter().any(|w| w.cards.is_none() && w.seat != seat);
                let n = if decisions_only {
                    0
                } else {
                    (config.playouts / view.allowed.cards.len()).max(1) as usize
                };
                let start = cpu_time::ThreadTime::now();
                let deals = knowledge.sample_deals(&view, n, &mut rng);
                let cost = start.elapsed();
                short += n - deals.len();
                std::hint::black_box(deals);
                decide.push(spent);
                sample.push(cost);
                if hidden {
                    decide_hidden.push(spent);
                    sample_hidden.push(cost);
                } else {
                    sample_open.push(cost);
                }
            }
            if game.apply(seat, action, || Seed([0; 32])).is_err() {
                return;
            }
        }
    }
    println!("deals not drawn: {short}");
    for (name, xs) in [
        ("decision", &mut decide),
        ("sampling", &mut sample),
        ("decision, hidden Weis", &mut decide_hidden),
        ("sampling, hidden Weis", &mut sample_hidden),
        ("sampling, none hidden", &mut sample_open),
    ] {
        xs.sort();
        let at = |p: f64| xs.get(((xs.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default();
        let mean = xs.iter().sum::<Duration>().checked_div(xs.len() as u32).unwrap_or_default();
        println!(
            "{name:<24} n {:>6}  median {:>8.1} µs  mean {:>8.1} µs  p99 {:>8.1} µs",
            xs.len(),
            at(0.5).as_secs_f64() * 1e6,
            mean.as_secs_f64() * 1e6,
            at(0.99).as_secs_f64() * 1e6
        );
    }
}
