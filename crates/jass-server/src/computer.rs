//! Computer players at the tables (issue 14). A table actor owns its computers'
//! memories, but their decisions run here: on tokio's blocking threads, at most one
//! per core at a time, so a decision never blocks a table actor or a socket task.
//! The answer comes back to the actor as a [`Thought`] and goes through the same
//! checks, store and `apply` as a human's action.

use std::sync::Arc;
use std::time::Duration;

use jass_ai::Computer;
use jass_engine::{Action, Seat, SeatView};
use tokio::sync::{Semaphore, mpsc};
use tokio::time::Instant;

/// How the computers of every table think.
#[derive(Debug)]
pub(crate) struct Pool {
    /// One permit per decision running at once (the machine's cores).
    permits: Semaphore,
    /// Budget of one decision.
    config: jass_ai::Config,
    /// The longest pause before a computer's move is shown: it pauses as its player
    /// suggests (`Computer::think_time`: longer for a contract, none for a forced
    /// card), up to this; zero in tests.
    think: Duration,
}

/// A decision coming back to its table.
#[derive(Debug)]
pub(crate) struct Thought {
    /// The seat it is for.
    pub(crate) seat: Seat,
    /// The table's game version it was decided on.
    pub(crate) on: u64,
    /// The computer, with its memory; `None` if its thread failed.
    pub(crate) computer: Option<Box<Computer>>,
    /// What it does, if anything.
    pub(crate) action: Option<Action>,
}

impl Pool {
    /// A pool running at most `threads` decisions at once.
    pub(crate) fn new(threads: usize, config: jass_ai::Config, think: Duration) -> Self {
        Self { permits: Semaphore::new(threads.max(1)), config, think }
    }

    /// A new computer for `seat` at a table with `options`.
    pub(crate) fn computer(&self, seat: Seat, options: jass_engine::Options) -> Box<Computer> {
        let config = jass_ai::Config { seed: rand::random(), ..self.config };
        Box::new(Computer::new(seat, options, config))
    }

    /// Asks `computer` what to do in `view`; the answer arrives on `reply`.
    pub(crate) fn think(
        self: &Arc<Self>,
        mut computer: Box<Computer>,
        view: SeatView,
        on: u64,
        reply: mpsc::Sender<Thought>,
    ) {
        let pool = Arc::clone(self);
        let seat = computer.seat();
        let pause = computer.think_time(&view).min(self.think);
        tokio::spawn(async move {
            let asked = Instant::now();
            let (computer, action) = match pool.permits.acquire().await {
                Ok(_permit) => {
                    // Every thread busy: think less, so tables under load keep moving.
                    let busy = pool.permits.available_permits() == 0;
                    computer.config_mut().time_budget =
                        pool.config.time_budget.map(|b| if busy { b / 4 } else { b });
                    let decided = tokio::task::spawn_blocking(move || {
                        let action = computer.decide(&view);
                        (computer, action)
                    })
                    .await;
                    match decided {
                        Ok((c, a)) => (Some(c), a),
                        Err(e) => {
                            tracing::warn!(%seat, error = %e, "a computer's decision failed");
                            (None, None)
                        }
                    }
                }
                Err(_) => (None, None),
            };
            tokio::time::sleep_until(asked + pause).await;
            let _ = reply.send(Thought { seat, on, computer, action }).await;
        });
    }
}

/// Whether a view asks its seat for a decision now.
pub(crate) fn due(view: &SeatView) -> bool {
    view.result.is_none() && (view.to_act == view.seat || view.allowed.stoeck)
}
