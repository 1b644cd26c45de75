//! How long a computer pauses before its move is shown. It pauses like a person, but
//! a pause must tell nothing of its hand: one computed from the hand (the number of
//! legal cards, a forced card shown at once) lets anyone watching read how many cards
//! of the led suit it holds from every move. So the pause is drawn from what every
//! seat sees ([`Public`]: choosing or playing, the trick, the cards on the table) and
//! from randomness only, for a computer's own seat and for a stand-in alike.

use std::time::Duration;

use jass_engine::{Phase, SeatView};
use rand::RngExt;

/// What a pause may depend on: the public part of a view. Built from a view here, so
/// no pause can be given the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Public {
    /// The contract is being chosen (a longer thought).
    choosing: bool,
    /// The trick of the round, 1–9.
    trick: u8,
    /// Cards already on the table in it, 0–3.
    on_table: u8,
}

impl Public {
    /// The public part of `view`.
    pub(crate) fn of(view: &SeatView) -> Self {
        let on_table = u8::try_from(view.trick.cards.len()).unwrap_or(u8::MAX);
        Self { choosing: view.phase == Phase::Choosing, trick: view.trick.number.clamp(1, 9), on_table }
    }
}

/// The pause before a move at `public`, at most `longest`: the contract takes most of
/// it (55–100 %), a card less as the round goes on (from 40–100 % of half to all of
/// it at the first trick to 40–100 % of half of it at the last), a little more when
/// following than when leading. Drawn uniformly in its range, so it is never zero: a
/// forced card takes as long as a free one at the same place.
pub(crate) fn pause(public: Public, longest: Duration, rng: &mut impl rand::Rng) -> Duration {
    let (low, high) = if public.choosing {
        (0.55, 1.0)
    } else {
        let left = f64::from(9 - public.trick) / 8.0;
        let follow = 1.0 + 0.05 * f64::from(public.on_table.min(3));
        let scale = (0.5 + 0.5 * left) * follow / 1.15;
        (0.4 * scale, scale)
    };
    longest.mul_f64(rng.random_range(low..=high)).min(longest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jass_engine::{Action, Contract, Game, Options, Seed, Viewer};
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// Two-sample Kolmogorov–Smirnov statistic: the largest gap between the samples'
    /// distribution functions.
    fn ks(mut a: Vec<f64>, mut b: Vec<f64>) -> f64 {
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        let (mut i, mut j, mut d) = (0, 0, 0.0_f64);
        while i < a.len() && j < b.len() {
            let x = a[i].min(b[j]);
            while i < a.len() && a[i] <= x {
                i += 1;
            }
            while j < b.len() && b[j] <= x {
                j += 1;
            }
            d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
        }
        d
    }

    // The pause says nothing of the hand. Over the card decisions of 300 random
    // rounds, the pauses of forced cards (one legal card) and of free ones at the same
    // places of the round have the same distribution (a two-sample Kolmogorov–Smirnov
    // test at the 0.1 % level), and none is zero. The pause used to be a function of
    // the legal cards and the hand: it told the count of legal cards of every move.
    #[test]
    fn the_pause_has_the_same_distribution_for_a_forced_and_a_free_card() {
        let longest = Duration::from_secs(2);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut forced, mut free) = (Vec::new(), Vec::new());
        for n in 0..300u16 {
            let mut seed = [7u8; 32];
            seed[..2].copy_from_slice(&n.to_le_bytes());
            let Ok(mut game) = Game::new(Options::default(), Seed(seed)) else { panic!("a game") };
            while game.round_number() == 0 {
                let Some(seat) = game.to_act() else { break };
                let view = game.view(Viewer::Seat(seat));
                let action = match view.allowed.cards.first() {
                    _ if view.allowed.choose => {
                        Action::Choose { contract: Contract::ALL[usize::from(n) % 6] }
                    }
                    Some(card) => Action::Play { card, weis: Vec::new(), stoeck: false },
                    None => panic!("a move"),
                };
                if view.phase == Phase::Playing && view.trick.number < 9 {
                    let public = Public::of(&view);
                    let ms = pause(public, longest, &mut rng).as_secs_f64() * 1000.0;
                    assert!(ms > 0.0);
                    if view.allowed.cards.len() == 1 {
                        forced.push((public, ms));
                    } else {
                        free.push((public, ms));
                    }
                }
                if game.apply(seat, action, || Seed([0x5A; 32])).is_err() {
                    panic!("a legal move");
                }
            }
        }
        // Compare like with like: the free cards sampled at the places (and as often)
        // where forced ones were.
        let (mut matched, mut paired) = (Vec::new(), Vec::new());
        for (k, (public, forced_ms)) in forced.iter().enumerate() {
            let same: Vec<f64> = free.iter().filter(|(p, _)| p == public).map(|(_, ms)| *ms).collect();
            if let Some(ms) = same.get(k % same.len().max(1)) {
                matched.push(*ms);
                paired.push(*forced_ms);
            }
        }
        let forced = paired;
        assert!(
            forced.len() > 200 && matched.len() > 200,
            "{} forced, {} matched",
            forced.len(),
            matched.len()
        );
        let (n, m) = (forced.len() as f64, matched.len() as f64);
        // Critical value at alpha = 0.001: 1.95 * sqrt((n + m) / (n m)).
        let critical = 1.95 * ((n + m) / (n * m)).sqrt();
        let d = ks(forced, matched);
        assert!(d < critical, "KS distance {d:.3} ≥ {critical:.3}: the pause depends on the hand");
    }

    #[test]
    fn the_contract_takes_longest_and_no_pause_exceeds_the_longest() {
        let longest = Duration::from_millis(2000);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let choosing = Public { choosing: true, trick: 1, on_table: 0 };
        for _ in 0..1000 {
            let c = pause(choosing, longest, &mut rng);
            assert!((Duration::from_millis(1100)..=longest).contains(&c), "{c:?}");
            for trick in 1..=9 {
                for on_table in 0..4 {
                    let p = pause(Public { choosing: false, trick, on_table }, longest, &mut rng);
                    assert!((Duration::from_millis(300)..=longest).contains(&p), "{p:?}");
                }
            }
        }
    }
}
