//! How long players took over their cards: not part of a result (it depends on the
//! machine and its load, so it does not reproduce), but what the strong level's goal of
//! at most 100 ms a decision (docs/bots.md) is checked on, so the slowest decision and
//! the decisions over that budget are kept beside the mean.

use std::time::Duration;

/// The budget per decision the strong player's goals are stated at (docs/bots.md).
pub const DECISION_BUDGET: Duration = Duration::from_millis(100);

/// The wall time one pair spent on its cards in a run or game, or over many.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Think {
    /// All its card decisions together.
    pub total: Duration,
    /// The cards it played.
    pub cards: u32,
    /// The longest single card decision.
    pub slowest: Duration,
    /// Card decisions that took longer than [`DECISION_BUDGET`].
    pub over_budget: u32,
}

impl Think {
    /// Counts one card decision that took `t`.
    pub fn add(&mut self, t: Duration) {
        self.total += t;
        self.cards += 1;
        self.slowest = self.slowest.max(t);
        self.over_budget += u32::from(t > DECISION_BUDGET);
    }

    /// Both together.
    #[must_use]
    pub fn merge(self, other: Self) -> Self {
        Self {
            total: self.total + other.total,
            cards: self.cards + other.cards,
            slowest: self.slowest.max(other.slowest),
            over_budget: self.over_budget + other.over_budget,
        }
    }

    /// Mean wall time per card in ms (0 without cards).
    #[must_use]
    pub fn ms_per_card(&self) -> f64 {
        if self.cards == 0 { 0.0 } else { self.total.as_secs_f64() * 1e3 / f64::from(self.cards) }
    }

    /// One line for a report: mean, slowest, and the share over the budget.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "{:.2} ms a card on average, slowest {:.1} ms, {} of {} cards ({:.2} %) over {} ms",
            self.ms_per_card(),
            self.slowest.as_secs_f64() * 1e3,
            self.over_budget,
            self.cards,
            if self.cards == 0 { 0.0 } else { 100.0 * f64::from(self.over_budget) / f64::from(self.cards) },
            DECISION_BUDGET.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{DECISION_BUDGET, Think};

    /// The slowest decision and those over the budget survive adding and merging; a
    /// decision of exactly the budget is within it.
    #[test]
    fn slowest_and_over_budget_are_kept() {
        let ms = Duration::from_millis;
        let mut a = Think::default();
        a.add(ms(20));
        a.add(DECISION_BUDGET);
        let mut b = Think::default();
        b.add(ms(150));
        let both = a.merge(b);
        assert_eq!((both.cards, both.over_budget, both.slowest, both.total), (3, 1, ms(150), ms(270)));
        assert!((both.ms_per_card() - 90.0).abs() < 1e-9);
        assert_eq!(Think::default().ms_per_card(), 0.0);
        assert!(both.summary().contains("1 of 3 cards"), "{}", both.summary());
    }
}
