//! What each choice is worth from one seat's view, with its uncertainty: the strong
//! level's own evaluation (the deals it samples and how it values them), laid open
//! for a round's review instead of reduced to one decision.

use jass_engine::{ByTeam, Card, Contract, Seat, SeatView, has_stoeck};

use crate::choice;
use crate::computer::{Computer, Outcome};

/// Per sampled deal, the value of each option, with the deal's weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples<T> {
    /// The options, in the order of each row's values.
    pub options: Vec<T>,
    /// One row per deal: its weight (the likelihood of the deal given what the seats
    /// chose and played, or 1) and each option's value.
    pub rows: Vec<(f64, Vec<f64>)>,
    /// Whether the deals were solved exactly (else played out).
    pub solved: bool,
}

/// A weighted mean with its standard error.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The weighted mean.
    pub mean: f64,
    /// Its standard error (from the effective sample size of the weights).
    pub se: f64,
}

impl<T: PartialEq> Samples<T> {
    /// The mean value of option `i`.
    #[must_use]
    pub fn value(&self, i: usize) -> Estimate {
        self.estimate(|row| row.get(i).copied())
    }

    /// How much option `j` is worth less than option `i`, deal by deal (paired: both
    /// were valued on the same deals, so the deals' own spread cancels).
    #[must_use]
    pub fn difference(&self, i: usize, j: usize) -> Estimate {
        self.estimate(|row| Some(row.get(i)? - row.get(j)?))
    }

    /// The index of the option with the best mean (the first of equals).
    #[must_use]
    pub fn best(&self) -> Option<usize> {
        (0..self.options.len())
            .map(|i| (i, self.value(i).mean))
            .fold(None, |best, (i, m)| match best {
                Some((_, b)) if b >= m => best,
                _ => Some((i, m)),
            })
            .map(|(i, _)| i)
    }

    /// The index of `option`.
    pub fn index(&self, option: &T) -> Option<usize> {
        self.options.iter().position(|o| o == option)
    }

    fn estimate(&self, x: impl Fn(&[f64]) -> Option<f64>) -> Estimate {
        let (mut w, mut w2, mut wx) = (0.0, 0.0, 0.0);
        for (weight, row) in &self.rows {
            if let Some(v) = x(row) {
                w += weight;
                w2 += weight * weight;
                wx += weight * v;
            }
        }
        if w <= 0.0 {
            return Estimate { mean: 0.0, se: f64::INFINITY };
        }
        let mean = wx / w;
        let var =
            self.rows.iter().filter_map(|(weight, row)| Some(weight * (x(row)? - mean).powi(2))).sum::<f64>()
                / w;
        // Kish's effective sample size: unequal weights count for fewer deals.
        let n_eff = w * w / w2;
        let se = if n_eff > 1.0 { (var / (n_eff - 1.0)).sqrt() } else { f64::INFINITY };
        Estimate { mean, se }
    }
}

impl Computer {
    /// What each legal card is worth to the seat's team from `view` on, as this
    /// computer would estimate it deciding now: the points its team takes from here
    /// to the end of the round (R4, last trick, match bonus), per sampled deal. Give
    /// it every view of the seat up to `view` first ([`Computer::observe`]), as for a
    /// decision. `None` when the seat has no card to play.
    pub fn card_samples(&mut self, view: &SeatView) -> Option<Samples<Card>> {
        if view.seat != Some(self.seat) {
            return None;
        }
        self.memory.observe(view);
        let cards: Vec<Card> = view.allowed.cards.iter().collect();
        if cards.is_empty() {
            return None;
        }
        let taken = f64::from(view.round_points[self.seat.team()]);
        let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut last = None;
        let mut solved = false;
        self.evaluate(view, &cards, |deal, i, outcome| {
            solved = matches!(outcome, Outcome::Solved(_));
            if last != Some(deal) {
                last = Some(deal);
                let weight = match outcome {
                    Outcome::Solved(_) => 1.0,
                    Outcome::Played { weight, .. } => weight,
                };
                rows.push((weight, vec![0.0; cards.len()]));
            }
            let value = match outcome {
                Outcome::Solved(points) => f64::from(points),
                Outcome::Played { mine, .. } => f64::from(mine) - taken,
            };
            if let Some(v) = rows.last_mut().and_then(|(_, row)| row.get_mut(i)) {
                *v = value;
            }
        })?;
        Some(Samples { options: cards, rows, solved })
    }

    /// What each contract (and a push, when the seat may push) is worth to the seat's
    /// team from the choosing seat's `view`, as this computer estimates it choosing:
    /// per sampled deal, the round's card points with Stöck less the opponents', times
    /// the contract's multiplier. The difference, not the team's own points: with
    /// multipliers a game is a race, and a contract of ×3 that the team loses gives
    /// the opponents three times as much too. A push (`None`) is worth the contract the
    /// seat pushed to would choose from its own hand (the fitted [`choice::worth`]) in
    /// each deal.
    #[must_use]
    pub fn contract_samples(&self, view: &SeatView) -> Option<Samples<Option<Contract>>> {
        let seat = view.seat.filter(|&s| s == self.seat)?;
        if !(view.allowed.choose || view.allowed.schiebe) {
            return None;
        }
        let me = seat.team();
        let mut options: Vec<Option<Contract>> = Contract::ALL.into_iter().map(Some).collect();
        if view.allowed.schiebe {
            options.push(None);
        }
        let to = seat.partner();
        let mut rows = Vec::new();
        self.contract_playouts(view, |hands, points| {
            // Stöck: +20 if the seat's team holds it, −20 if the opponents do.
            let stoeck = |k: Contract| -> f64 {
                if !self.options.has_extras() {
                    return 0.0;
                }
                Seat::ALL
                    .iter()
                    .zip(hands)
                    .filter(|(_, h)| has_stoeck(**h, k))
                    .map(|(s, _)| if s.team() == me { 20.0 } else { -20.0 })
                    .sum()
            };
            let value = |k: Contract| {
                let p = ByTeam(*k.of(&points));
                let diff = f64::from(p[me]) - f64::from(p[me.other()]);
                (diff + stoeck(k)) * f64::from(self.options.multipliers.of(k))
            };
            let mut row: Vec<f64> = Contract::ALL.into_iter().map(value).collect();
            if view.allowed.schiebe {
                row.push(value(choice::pick(*to.of(hands), to == view.forehand, &self.options)));
            }
            rows.push((1.0, row));
        });
        Some(Samples { options, rows, solved: false })
    }
}
