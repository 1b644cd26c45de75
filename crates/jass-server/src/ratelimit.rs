//! Per-connection token bucket (lila-ws `RateLimit.scala`): a burst of messages is
//! fine, a steady stream above the refill rate is refused, and a client that keeps
//! going after being refused is flooding and gets disconnected.

use tokio::time::Instant;

/// What to do with one incoming message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Within the budget: handle it.
    Allow,
    /// Over the budget: answer `rate_limited`, drop the message.
    Limited,
    /// Still sending after too many refusals: close with 1008.
    Flood,
}

/// A credit bucket refilled continuously; the time source is Tokio's clock so tests
/// with a paused clock stay deterministic.
#[derive(Debug)]
pub(crate) struct RateLimit {
    /// Credits available now (fractional so slow refill rates work).
    credits: f64,
    /// Most credits ever held, the allowed burst.
    burst: f64,
    /// Credits added per second.
    per_second: f64,
    /// When `credits` was last brought up to date.
    updated: Instant,
    /// Refusals since the last allowed message.
    strikes: u32,
    /// Refusals in a row that count as a flood.
    max_strikes: u32,
}

impl RateLimit {
    /// A full bucket.
    pub(crate) fn new(burst: u32, per_second: u32, max_strikes: u32) -> Self {
        Self {
            credits: f64::from(burst),
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            updated: Instant::now(),
            strikes: 0,
            max_strikes,
        }
    }

    /// Whether the bucket has refilled to its burst (it then says nothing a fresh one
    /// would not, so a map of buckets may drop it).
    pub(crate) fn is_full(&self) -> bool {
        let elapsed = Instant::now().saturating_duration_since(self.updated).as_secs_f64();
        self.credits + elapsed * self.per_second >= self.burst
    }

    /// Takes one credit for a message.
    pub(crate) fn check(&mut self) -> Verdict {
        let now = Instant::now();
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        self.updated = now;
        self.credits = (self.credits + elapsed * self.per_second).min(self.burst);
        if self.credits >= 1.0 {
            self.credits -= 1.0;
            self.strikes = 0;
            Verdict::Allow
        } else {
            self.strikes = self.strikes.saturating_add(1);
            if self.strikes > self.max_strikes { Verdict::Flood } else { Verdict::Limited }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn burst_then_refill_then_flood() {
        let mut r = RateLimit::new(20, 5, 3);
        for _ in 0..20 {
            assert_eq!(r.check(), Verdict::Allow);
        }
        assert_eq!(r.check(), Verdict::Limited);
        tokio::time::advance(std::time::Duration::from_millis(200)).await;
        assert_eq!(r.check(), Verdict::Allow, "one credit back after 1/5 s");
        for _ in 0..3 {
            assert_eq!(r.check(), Verdict::Limited);
        }
        assert_eq!(r.check(), Verdict::Flood);
    }
}
