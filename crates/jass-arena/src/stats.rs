//! The headline figures of a match (docs/bots.md, "Duplicate deals"): mean D, its
//! standard error sd(D)/√n, the 95 % interval mean ± 1.96·SE, and A's share of the
//! points.

use crate::player::ROUND_POINTS;

/// The summary of a list of per-deal D values.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Summary {
    /// Number of deals.
    pub n: usize,
    /// Mean D: A's advantage in card points per 157-point round.
    pub mean: f64,
    /// Sample standard deviation of D (n − 1 in the denominator; 0 for one deal).
    pub sd: f64,
    /// Standard error of the mean.
    pub se: f64,
    /// The 95 % interval, mean ± 1.96·SE (normal approximation: n is in the hundreds).
    pub ci: (f64, f64),
    /// A's share of all card points, 50 % + mean / 314 (a fraction, not per cent).
    pub share: f64,
}

impl Summary {
    /// The summary of `ds`; `None` for no deals.
    #[must_use]
    pub fn of(ds: &[i64]) -> Option<Self> {
        if ds.is_empty() {
            return None;
        }
        let n = ds.len() as f64;
        let mean = ds.iter().map(|&d| d as f64).sum::<f64>() / n;
        let var = if ds.len() > 1 {
            ds.iter().map(|&d| (d as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let sd = var.sqrt();
        let se = sd / n.sqrt();
        Some(Self {
            n: ds.len(),
            mean,
            sd,
            se,
            ci: (mean - 1.96 * se, mean + 1.96 * se),
            share: 0.5 + mean / (2.0 * f64::from(ROUND_POINTS)),
        })
    }
}

/// A mean with its standard error and 95 % interval, for values that are not whole
/// points (points per round, shares of games won).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Number of values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 for one value).
    pub sd: f64,
    /// Standard error of the mean.
    pub se: f64,
    /// mean ± 1.96·SE.
    pub ci: (f64, f64),
}

impl Estimate {
    /// The estimate of `xs`; `None` for no values.
    #[must_use]
    pub fn of(xs: &[f64]) -> Option<Self> {
        if xs.is_empty() {
            return None;
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var =
            if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        let sd = var.sqrt();
        let se = sd / n.sqrt();
        Some(Self { n: xs.len(), mean, sd, se, ci: (mean - 1.96 * se, mean + 1.96 * se) })
    }
}
