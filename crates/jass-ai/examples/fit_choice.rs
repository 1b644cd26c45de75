//! Fits the weights of `jass_ai::choice::worth` to the computer's own contract
//! estimates, and the temperatures that turn them into choice and push
//! probabilities; prints `crates/jass-ai/src/choice/weights.rs`.
//!
//! For random nine-card hands the example does what the computer's contract choice
//! does (`Computer::choose`): 333 deals of the other 27 cards (its 2,000 playouts
//! over six contracts), each contract played out at random from the forehand, the
//! worth the mean card-point difference for the hand's team; once with the hand
//! leading, once with its partner leading (after a push). A ridge least-squares fit
//! per kind of contract (trump, Obenabe, Undenufe) and leader gives the weights; the
//! last fifth of the hands, left out of the fit, gives the fit's R² and error, and
//! the temperatures of maximum likelihood for the choices and pushes the computer
//! made on them (every multiplier 1, no Stöck: the arena's card-points table).
//!
//! `cargo run --release -p jass-ai --example fit_choice -- [hands] [seed] >
//! crates/jass-ai/src/choice/weights.rs` (default 20,000 hands, seed 1: about a
//! minute of one core).

use jass_ai::choice::{FEATURES, features, kind};
use jass_engine::{Card, CardSet, Contract, Seat, play_random};
use nalgebra::{DMatrix, DVector};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The computer's deals per contract decision at its default 2,000 playouts.
const DEALS: usize = 333;
/// The computer's default push threshold.
const PUSH_BELOW: f64 = 50.0;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let hands: usize = args.next().map_or(Ok(20_000), |a| a.parse()).map_err(|e| format!("hands: {e}"))?;
    let seed: u64 = args.next().map_or(Ok(1), |a| a.parse()).map_err(|e| format!("seed: {e}"))?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // Per hand: the hand and its six worths, with it leading and its partner leading.
    let mut data: Vec<(CardSet, [[f64; 6]; 2])> = Vec::with_capacity(hands);
    for _ in 0..hands {
        let mut deck: Vec<Card> = CardSet::DECK.iter().collect();
        shuffle(&mut deck, &mut rng);
        let hand = deck[..9].iter().fold(CardSet::EMPTY, |h, &c| h.with(c));
        let mut rest = deck[9..].to_vec();
        let mut worths = [[0f64; 6]; 2];
        for (l, leader) in [Seat::ALL[0], Seat::ALL[2]].into_iter().enumerate() {
            for _ in 0..DEALS {
                shuffle(&mut rest, &mut rng);
                let mut four = [hand, CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY];
                for (i, &c) in rest.iter().enumerate() {
                    four[1 + i / 9] = four[1 + i / 9].with(c);
                }
                for (k, contract) in Contract::ALL.into_iter().enumerate() {
                    let p = play_random(&mut rng, four, contract, leader, false);
                    worths[l][k] += f64::from(p[0]) - f64::from(p[1]);
                }
            }
            for w in &mut worths[l] {
                *w /= DEALS as f64;
            }
        }
        data.push((hand, worths));
    }
    let train = hands * 4 / 5;
    let mut weights = [[[0f64; FEATURES]; 2]; 3];
    let mut report = Vec::new();
    for (kd, per_lead) in weights.iter_mut().enumerate() {
        for (l, w) in per_lead.iter_mut().enumerate() {
            let rows = |range: std::ops::Range<usize>| {
                let mut out = Vec::new();
                for (hand, worths) in &data[range] {
                    for (k, contract) in Contract::ALL.into_iter().enumerate() {
                        if kind(contract) == kd {
                            out.push((features(*hand, contract).map(f64::from), worths[l][k]));
                        }
                    }
                }
                out
            };
            *w = ridge(&rows(0..train), 1e-3)?;
            let test = rows(train..hands);
            let mean = test.iter().map(|r| r.1).sum::<f64>() / test.len() as f64;
            let (mut sse, mut sst) = (0.0, 0.0);
            for (x, y) in &test {
                let e = y - dot(x, w);
                sse += e * e;
                sst += (y - mean) * (y - mean);
            }
            report.push(format!(
                "{} leading {}: R² {:.3}, error sd {:.2} points",
                ["trump", "Obenabe", "Undenufe"][kd],
                ["the hand", "its partner"][l],
                1.0 - sse / sst,
                (sse / test.len() as f64).sqrt()
            ));
        }
    }
    // The temperatures: the computer's own choices and pushes on the left-out hands.
    let predicted: Vec<([f64; 6], [f64; 6])> = data[train..]
        .iter()
        .map(|(hand, worths)| {
            let v = Contract::ALL.map(|k| dot(&features(*hand, k).map(f64::from), &weights[kind(k)][0]));
            (v, worths[0])
        })
        .collect();
    let choice_ll = |t: f64| -> f64 {
        predicted
            .iter()
            .map(|(v, truth)| {
                let chosen = argmax(truth);
                let best = v.iter().copied().fold(f64::MIN, f64::max);
                let sum: f64 = v.iter().map(|x| ((x - best) / t).exp()).sum();
                (v[chosen] - best) / t - sum.ln()
            })
            .sum()
    };
    let push_ll = |t: f64| -> f64 {
        predicted
            .iter()
            .map(|(v, truth)| {
                let pushed = truth.iter().copied().fold(f64::MIN, f64::max) < PUSH_BELOW;
                let best = v.iter().copied().fold(f64::MIN, f64::max);
                let q = 1.0 / (1.0 + ((best - PUSH_BELOW) / t).exp());
                (if pushed { q } else { 1.0 - q }).max(1e-12).ln()
            })
            .sum()
    };
    let grid: Vec<f64> = (1..=120).map(|i| f64::from(i) * 0.5).collect();
    let best_t = |ll: &dyn Fn(f64) -> f64| grid.iter().copied().max_by(|a, b| ll(*a).total_cmp(&ll(*b)));
    let choice_t = best_t(&choice_ll).ok_or("no temperature")?;
    let push_t = best_t(&push_ll).ok_or("no temperature")?;
    let n = predicted.len() as f64;
    let hits = predicted.iter().filter(|(v, truth)| argmax(v) == argmax(truth)).count();
    println!("//! Fitted by `cargo run --release -p jass-ai --example fit_choice -- {hands} {seed}`; do not");
    println!("//! edit. On the {} hands left out of the fit:", hands - train);
    for line in &report {
        println!("//! - {line};");
    }
    println!(
        "//! - the contract of highest estimated worth is the computer's {:.1} % of the time;",
        100.0 * hits as f64 / n
    );
    println!(
        "//! - mean log-likelihood of its choice {:.3}, of its push {:.3}.",
        choice_ll(choice_t) / n,
        push_ll(push_t) / n
    );
    println!();
    println!("/// Per kind (trump, Obenabe, Undenufe), per who leads (the seat, its partner).");
    println!("#[rustfmt::skip]");
    println!("pub(super) const WEIGHTS: [[[f32; {FEATURES}]; 2]; 3] = [");
    for per_lead in &weights {
        println!("    [");
        for w in per_lead {
            let cells: Vec<String> = w.iter().map(|x| format!("{x:.4}")).collect();
            println!("        [{}],", cells.join(", "));
        }
        println!("    ],");
    }
    println!("];");
    println!("/// The softmax temperature of the choice among the contracts.");
    println!("pub(super) const CHOICE_TEMPERATURE: f64 = {choice_t:.1};");
    println!("/// The logistic temperature of the push.");
    println!("pub(super) const PUSH_TEMPERATURE: f64 = {push_t:.1};");
    Ok(())
}

fn shuffle<T>(v: &mut [T], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

fn dot(x: &[f64], w: &[f64]) -> f64 {
    x.iter().zip(w).map(|(a, b)| a * b).sum()
}

fn argmax(v: &[f64; 6]) -> usize {
    (0..6).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap_or(0)
}

/// Ridge least squares: the weights minimising the squared error plus `lambda` times
/// the rows times their squared norm (which keeps features that never vary, all
/// zero, at zero), from the normal equations by Cholesky.
fn ridge(rows: &[([f64; FEATURES], f64)], lambda: f64) -> Result<[f64; FEATURES], String> {
    let mut a = DMatrix::<f64>::identity(FEATURES, FEATURES) * (lambda * rows.len() as f64);
    let mut b = DVector::<f64>::zeros(FEATURES);
    for (x, y) in rows {
        let x = DVector::from_row_slice(x);
        a += &x * x.transpose();
        b += &x * *y;
    }
    let w = a.cholesky().ok_or("the normal equations are singular")?.solve(&b);
    let mut out = [0f64; FEATURES];
    out.copy_from_slice(w.as_slice());
    Ok(out)
}
