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

/// How long a finished trick stays on every screen before the next lead may come:
/// the browser client holds each for this long (`web/held.js`), and a computer that
/// leads waits for it, so nobody misses who took a trick.
pub(crate) const TRICK_SHOWN: Duration = Duration::from_millis(1500);

impl Public {
    /// The public part of `view`.
    pub(crate) fn of(view: &SeatView) -> Self {
        let on_table = u8::try_from(view.trick.cards.len()).unwrap_or(u8::MAX);
        let trick = view.trick.number.saturating_add(1).clamp(1, 9);
        Self { choosing: view.phase == Phase::Choosing, trick, on_table }
    }
}

/// The pause before a move at `public`, at most `longest`: the contract takes most of
/// it (55–100 %), a card less as the round goes on (from 40–100 % of half to all of
/// it at the first trick to 40–100 % of half of it at the last), a little more when
/// following than when leading. Drawn uniformly in its range, so it is never zero: a
/// forced card takes as long as a free one at the same place. A lead after a finished
/// trick waits at least [`TRICK_SHOWN`] (within `longest`).
pub(crate) fn pause(public: Public, longest: Duration, rng: &mut impl rand::Rng) -> Duration {
    let (low, high) = if public.choosing {
        (0.55, 1.0)
    } else {
        let left = f64::from(9 - public.trick) / 8.0;
        let follow = 1.0 + 0.05 * f64::from(public.on_table.min(3));
        let scale = (0.5 + 0.5 * left) * follow / 1.15;
        (0.4 * scale, scale)
    };
    let drawn = longest.mul_f64(rng.random_range(low..=high)).min(longest);
    let after_trick = !public.choosing && public.on_table == 0 && public.trick > 1;
    if after_trick { drawn.max(TRICK_SHOWN.min(longest)) } else { drawn }
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

    /// A card decision: its place, its count of legal cards, its pause in ms.
    type Decision = (Public, usize, f64);
    /// What a guess of the count is made from.
    type Key = (u8, u8, i64);

    /// The card decisions of 300 random rounds (the last trick aside, where every card
    /// is forced): each one's place, its count of legal cards and the pause `pause_of`
    /// gives it from its view.
    fn pauses(mut pause_of: impl FnMut(&SeatView) -> f64) -> Vec<Decision> {
        let mut out = Vec::new();
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
                if view.phase == Phase::Playing && view.trick.number < 8 {
                    out.push((Public::of(&view), view.allowed.cards.len() as usize, pause_of(&view)));
                }
                if game.apply(seat, action, || Seed([0x5A; 32])).is_err() {
                    panic!("a legal move");
                }
            }
        }
        out
    }

    /// How far apart the pauses of forced cards and of free cards at the same places
    /// are: the Kolmogorov–Smirnov distance, and its critical value at the 0.1 % level.
    fn forced_against_free(decisions: &[Decision]) -> (f64, f64) {
        let (forced, free): (Vec<_>, Vec<_>) = decisions.iter().partition(|(_, legal, _)| *legal == 1);
        // Like with like: for each forced card a free one at the same place.
        let (mut paired, mut matched) = (Vec::new(), Vec::new());
        for (k, (public, _, forced_ms)) in forced.iter().enumerate() {
            let same: Vec<f64> = free.iter().filter(|(p, _, _)| p == public).map(|(_, _, ms)| *ms).collect();
            if let Some(ms) = same.get(k % same.len().max(1)) {
                matched.push(*ms);
                paired.push(*forced_ms);
            }
        }
        assert!(paired.len() > 200, "{} forced cards matched", paired.len());
        let (n, m) = (paired.len() as f64, matched.len() as f64);
        (ks(paired, matched), 1.95 * ((n + m) / (n * m)).sqrt())
    }

    /// The share of card decisions whose count of legal cards is guessed right from
    /// the pause and the place: the most common count among decisions at the same
    /// place with a pause in the same 25 ms bin, learnt on half the rounds and tried on
    /// the others. Against it, the share guessed from the place alone.
    fn guessed(decisions: &[Decision]) -> (f64, f64) {
        use std::collections::HashMap;
        let bin = |d: &Decision| (d.0.trick, d.0.on_table, (d.2 / 25.0) as i64);
        let place = |d: &Decision| (d.0.trick, d.0.on_table, 0);
        let score = |key: &dyn Fn(&Decision) -> Key| {
            let mut counts: HashMap<Key, HashMap<usize, u32>> = HashMap::new();
            // Alternate rounds (32 card decisions each) to learn and to try, so both
            // see every place.
            let (learn, tried): (Vec<_>, Vec<_>) =
                decisions.iter().enumerate().partition(|(i, _)| (i / 32) % 2 == 0);
            for (_, d) in learn {
                *counts.entry(key(d)).or_default().entry(d.1).or_default() += 1;
            }
            let right = tried
                .iter()
                .filter(|(_, d)| {
                    let best =
                        counts.get(&key(d)).and_then(|c| c.iter().max_by_key(|(_, n)| **n).map(|(l, _)| *l));
                    best == Some(d.1)
                })
                .count();
            right as f64 / tried.len() as f64
        };
        (score(&bin), score(&place))
    }

    // The pause says nothing of the hand. Over the card decisions of 300 random
    // rounds, the pauses of forced cards and of free ones at the same places have the
    // same distribution (a two-sample Kolmogorov–Smirnov test at the 0.1 % level),
    // none is zero, and the pause tells the count of legal cards no better than the
    // place alone does. The test has the power to see the old leak: the pause the
    // computers took before (none for a forced card, else 500 ms + 60 ms a legal card
    // + 40 ms a card in hand) fails it, and told the count of every card.
    // (`cargo test -p jass-server --lib pace -- --nocapture` prints the figures.)
    #[test]
    fn the_pause_tells_nothing_of_the_legal_cards() {
        let longest = Duration::from_secs(2);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let now = pauses(|view| pause(Public::of(view), longest, &mut rng).as_secs_f64() * 1000.0);
        assert!(now.iter().all(|(_, _, ms)| *ms > 0.0));
        let (d, critical) = forced_against_free(&now);
        let (by_pause, by_place) = guessed(&now);
        eprintln!(
            "pause from public information: forced vs free KS {d:.3} (critical {critical:.3}); legal count guessed {:.1} % from the pause, {:.1} % from the place alone",
            100.0 * by_pause,
            100.0 * by_place
        );
        assert!(d < critical, "KS distance {d:.3} ≥ {critical:.3}: the pause depends on the hand");
        assert!(by_pause <= by_place + 0.03, "the pause tells the count: {by_pause} against {by_place}");
        let before = pauses(|view| match view.allowed.cards.len() {
            0 | 1 => 0.0,
            n => f64::from(500 + 60 * n + 40 * view.hand.len()),
        });
        let (d, critical) = forced_against_free(&before);
        let (by_pause, by_place) = guessed(&before);
        eprintln!(
            "the pause taken before: forced vs free KS {d:.3} (critical {critical:.3}); legal count guessed {:.1} % from the pause, {:.1} % from the place alone",
            100.0 * by_pause,
            100.0 * by_place
        );
        assert!(d > critical && by_pause > 0.95, "the test sees the old leak");
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
                    if trick > 1 && on_table == 0 {
                        assert!(p >= TRICK_SHOWN, "a lead waits for the finished trick: {p:?}");
                    }
                }
            }
            let short =
                pause(Public { choosing: false, trick: 5, on_table: 0 }, Duration::from_millis(1), &mut rng);
            assert!(short <= Duration::from_millis(1), "never past the longest pause");
        }
    }
}
