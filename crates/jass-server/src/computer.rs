//! Computer players at the tables (issue 14). A table actor owns its computers'
//! memories, but their decisions run here, off the async runtime, so a decision never
//! blocks a table actor or a socket task. The answer comes back to the actor as a
//! [`Thought`] and goes through the same checks, store and `apply` as a human's action.
//!
//! Under load the computers give way to the humans (issue 14 point 6, the load bench
//! with a computer at every table): they think on their own threads, one fewer than
//! the machine's cores so that the runtime always has one, at the scheduler's idle
//! priority (they only get a core that nothing else wants, and a socket task that
//! wakes up takes it back at once), and each decision's budget shrinks with the queue
//! behind it, down to a cheap decision of a few playouts, so the queue drains and the
//! tables keep moving.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use jass_ai::Computer;
use jass_engine::{Action, Level, Seat, SeatView};
use tokio::sync::{Semaphore, oneshot};
use tokio::time::Instant;

use crate::stats::ComputerStats;

/// How the computers of every table think.
#[derive(Debug)]
pub(crate) struct Pool {
    /// The budget of one normal-level decision when nothing waits behind it (a level
    /// is applied on top, see [`level_config`]).
    config: jass_ai::Config,
    /// The cheapest decision under load: playouts, at least.
    min_playouts: u32,
    /// The longest pause before a computer's move is shown (see `pace`: drawn from
    /// public information only); zero in tests.
    think: Duration,
    /// Where decisions run.
    runner: Runner,
    /// Decisions, their times and how many were cut down, for `/api/stats`.
    stats: Arc<ComputerStats>,
}

/// Where decisions run.
#[derive(Debug)]
enum Runner {
    /// The pool's own threads, fed through a queue.
    Threads {
        /// The queue; its receiver is shared by the threads.
        jobs: mpsc::Sender<Job>,
        /// Decisions asked for and not yet taken up by a thread.
        queued: Arc<AtomicUsize>,
    },
    /// The runtime's blocking threads, at most one decision per permit at once. Used
    /// with no think pause (tests): tokio does not advance a paused test clock while a
    /// blocking task runs, so a test's timers wait for the decision as they would in
    /// real time, which they would not for a thread of the pool's own.
    Blocking(Semaphore),
}

/// One decision asked for.
struct Job {
    computer: Box<Computer>,
    level: Level,
    view: SeatView,
    asked: std::time::Instant,
    answer: oneshot::Sender<(Box<Computer>, Option<Action>)>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("seat", &self.computer.seat()).finish_non_exhaustive()
    }
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

/// How a pool is set up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Threads deciding at once.
    pub(crate) threads: usize,
    /// The budget of an unhurried decision.
    pub(crate) config: jass_ai::Config,
    /// The cheapest decision under load.
    pub(crate) min_playouts: u32,
    /// The longest think pause (zero: decide on the runtime's blocking threads).
    pub(crate) think: Duration,
}

impl Pool {
    /// A pool with `settings.threads` threads (at least one) of its own at idle
    /// priority, or, without a think pause, on the runtime's blocking threads.
    pub(crate) fn new(settings: Settings, stats: Arc<ComputerStats>) -> Self {
        let threads = settings.threads.max(1);
        stats.set_threads(threads);
        let runner = if settings.think.is_zero() {
            Runner::Blocking(Semaphore::new(threads))
        } else {
            spawn_threads(threads, settings, &stats)
                .unwrap_or_else(|| Runner::Blocking(Semaphore::new(threads)))
        };
        Self {
            config: settings.config,
            min_playouts: settings.min_playouts,
            think: settings.think,
            runner,
            stats,
        }
    }

    /// A new computer for `seat` at a table with `options`.
    pub(crate) fn computer(&self, seat: Seat, options: jass_engine::Options) -> Box<Computer> {
        let config = jass_ai::Config { seed: rand::random(), ..self.config };
        Box::new(Computer::new(seat, options, config))
    }

    /// Asks `computer` what to do in `view`; the answer arrives on `reply`, after the
    /// computer's think pause (counted from now, so time spent in the queue is part of
    /// it).
    pub(crate) fn think(
        self: &Arc<Self>,
        computer: Box<Computer>,
        level: Level,
        view: SeatView,
        on: u64,
        reply: tokio::sync::mpsc::Sender<Thought>,
    ) {
        let pool = Arc::clone(self);
        let seat = computer.seat();
        let pause = crate::pace::pause(crate::pace::Public::of(&view), self.think, &mut rand::rng());
        tokio::spawn(async move {
            let asked = Instant::now();
            let (computer, action) = match pool.decide(computer, level, view).await {
                Some((c, a)) => (Some(c), a),
                None => {
                    pool.stats.failed();
                    tracing::warn!(%seat, "a computer's decision failed");
                    (None, None)
                }
            };
            tokio::time::sleep_until(asked + pause).await;
            let _ = reply.send(Thought { seat, on, computer, action }).await;
        });
    }

    /// Runs one decision where the pool runs them; `None` if it failed.
    async fn decide(
        &self,
        computer: Box<Computer>,
        level: Level,
        view: SeatView,
    ) -> Option<(Box<Computer>, Option<Action>)> {
        let asked = std::time::Instant::now();
        match &self.runner {
            Runner::Threads { jobs, queued } => {
                let (answer, answered) = oneshot::channel();
                queued.fetch_add(1, Ordering::Relaxed);
                if jobs.send(Job { computer, level, view, asked, answer }).is_err() {
                    queued.fetch_sub(1, Ordering::Relaxed);
                    return None;
                }
                answered.await.ok()
            }
            Runner::Blocking(permits) => {
                let _permit = permits.acquire().await.ok()?;
                // Every thread busy: as if one waited behind this decision.
                let waiting = usize::from(permits.available_permits() == 0);
                let base = self.config.at_level(level);
                let (min, stats) = (self.min_playouts, Arc::clone(&self.stats));
                tokio::task::spawn_blocking(move || {
                    let mut computer = computer;
                    let action = run(&mut computer, &view, Budget { base, min, waiting }, asked, &stats);
                    (computer, action)
                })
                .await
                .ok()
            }
        }
    }
}

/// Starts the pool's threads; `None` if not one could be started.
fn spawn_threads(threads: usize, settings: Settings, stats: &Arc<ComputerStats>) -> Option<Runner> {
    let (jobs, rx) = mpsc::channel::<Job>();
    let rx = Arc::new(Mutex::new(rx));
    let queued = Arc::new(AtomicUsize::new(0));
    let mut started = 0;
    for n in 0..threads {
        let (rx, queued, stats) = (Arc::clone(&rx), Arc::clone(&queued), Arc::clone(stats));
        let (base, min) = (settings.config, settings.min_playouts);
        let spawned = std::thread::Builder::new()
            .name(format!("jass-computer-{n}"))
            .spawn(move || worker(&rx, &queued, base, min, &stats));
        match spawned {
            Ok(_) => started += 1,
            Err(e) => tracing::warn!(error = %e, "cannot start a computer thread"),
        }
    }
    (started > 0).then_some(Runner::Threads { jobs, queued })
}

/// One of the pool's threads: takes decisions from the queue until the pool is gone
/// (its sender dropped).
fn worker(
    jobs: &Mutex<mpsc::Receiver<Job>>,
    queued: &AtomicUsize,
    base: jass_ai::Config,
    min: u32,
    stats: &ComputerStats,
) {
    lower_priority();
    loop {
        let job = {
            let rx = jobs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            rx.recv()
        };
        let Ok(Job { mut computer, level, view, asked, answer }) = job else { return };
        let base = base.at_level(level);
        let waiting = queued.fetch_sub(1, Ordering::Relaxed).saturating_sub(1);
        // A panic in a decision must not take the thread with it: the table gets no
        // answer for this one (the actor sees a failed decision) and the thread goes on.
        let decided = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run(&mut computer, &view, Budget { base, min, waiting }, asked, stats)
        }));
        if let Ok(action) = decided {
            let _ = answer.send((computer, action));
        }
    }
}

/// Puts the calling thread at the scheduler's idle priority (Linux `SCHED_IDLE`): it
/// runs only on a core nothing else wants. Without it (another system, or refused)
/// the computers still run, at normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if let Err(e) =
            set_thread_priority_and_policy(thread_native_id(), thread_priority::ThreadPriority::Min, idle)
        {
            tracing::warn!(error = ?e, "computer threads run at normal priority");
        }
    }
}

/// What one decision may spend.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// The unhurried budget.
    base: jass_ai::Config,
    /// Playouts, at least.
    min: u32,
    /// Decisions waiting behind this one.
    waiting: usize,
}

impl Budget {
    /// The playouts and time of this decision: the base divided by one more than the
    /// decisions waiting behind it, so a queue of n drains in about one unhurried
    /// decision's time; never below `min` playouts (and a millisecond). Also whether
    /// that cut anything.
    fn shrunk(self) -> (u32, Option<Duration>, bool) {
        let share = u32::try_from(self.waiting.saturating_add(1)).unwrap_or(u32::MAX);
        let min = self.min.min(self.base.playouts);
        let playouts = (self.base.playouts / share).max(min);
        let time = self.base.time_budget.map(|b| (b / share).max(Duration::from_millis(1)).min(b));
        (playouts, time, playouts < self.base.playouts)
    }

    /// The deals a solving decision solves, cut like the playouts (at least one; the
    /// shrunk time budget bounds them as well).
    fn solve_deals(self) -> u32 {
        let share = u32::try_from(self.waiting.saturating_add(1)).unwrap_or(u32::MAX);
        (self.base.solve_deals / share).max(1)
    }
}

/// Decides with the budget, and records the decision's wall time (since `asked`) and
/// CPU time.
fn run(
    computer: &mut Computer,
    view: &SeatView,
    budget: Budget,
    asked: std::time::Instant,
    stats: &ComputerStats,
) -> Option<Action> {
    let (playouts, time, cut) = budget.shrunk();
    let config = computer.config_mut();
    // The whole level's settings, every decision: a seat's level may change while its
    // computer (and its memory of the round) stays, e.g. a stand-in replaced by an
    // easy computer mid-round.
    *config = jass_ai::Config {
        playouts,
        time_budget: time,
        solve_deals: budget.solve_deals(),
        seed: config.seed,
        ..budget.base
    };
    let cpu = cpu_time::ThreadTime::try_now().ok();
    let action = computer.decide(view);
    let cpu = cpu.and_then(|c| c.try_elapsed().ok());
    stats.decided(asked.elapsed(), cpu, cut, action.is_some());
    action
}

/// Whether a view asks its seat for a decision now: on its own turn only. Stöck
/// could be announced out of turn too (R7), but asking whenever it is allowed would
/// ask only while the seat holds Stöck, and the asks (their counters, their CPU time)
/// would tell anyone watching the server that it does. The computer announces it on
/// its own turn instead: with the card that completes it, or alone when that wins.
pub(crate) fn due(view: &SeatView) -> bool {
    view.result.is_none() && view.to_act == view.seat
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(waiting: usize) -> (u32, Option<Duration>, bool) {
        let base = jass_ai::Config {
            playouts: 2_000,
            time_budget: Some(Duration::from_millis(300)),
            ..Default::default()
        };
        Budget { base, min: 200, waiting }.shrunk()
    }

    // Issue 14 point 6: the budget shrinks with the queue, down to a cheap decision.
    #[test]
    fn the_budget_shrinks_with_the_queue_down_to_the_cheapest_decision() {
        assert_eq!(budget(0), (2_000, Some(Duration::from_millis(300)), false));
        assert_eq!(budget(1), (1_000, Some(Duration::from_millis(150)), true));
        assert_eq!(budget(9), (200, Some(Duration::from_millis(30)), true));
        assert_eq!(budget(10_000), (200, Some(Duration::from_millis(1)), true));
    }

    // Issue 17 point 3: each level's budget is the server's base with the level on
    // top, and the queue cuts a strong decision's solving as it cuts the playouts.
    #[test]
    fn a_levels_budget_is_cut_under_load_like_the_normal_one() {
        let base = jass_ai::Config {
            playouts: 2_000,
            time_budget: Some(Duration::from_millis(300)),
            ..Default::default()
        };
        let easy = Budget { base: base.at_level(Level::Easy), min: 200, waiting: 0 };
        assert_eq!(easy.shrunk(), (60, Some(Duration::from_millis(300)), false));
        let strong = |waiting| Budget { base: base.at_level(Level::Strong), min: 200, waiting };
        assert_eq!(
            (strong(0).shrunk(), strong(0).solve_deals()),
            ((20_000, Some(Duration::from_millis(300)), false), 96)
        );
        assert_eq!(
            (strong(3).shrunk(), strong(3).solve_deals()),
            ((5_000, Some(Duration::from_millis(75)), true), 24)
        );
        assert_eq!(strong(10_000).solve_deals(), 1);
        assert_eq!(base.at_level(Level::Normal), base);
    }

    // Issue 17 point 3: a decision runs with its seat's level, whatever the computer
    // was made with (a stand-in's computer kept when an easy computer takes the seat).
    #[test]
    fn a_decision_runs_with_the_seats_level() -> Result<(), String> {
        let options = jass_engine::Options::default();
        let game = jass_engine::Game::new(options, jass_engine::Seed([9; 32])).map_err(|e| e.to_string())?;
        let seat = game.to_act().ok_or("someone chooses first")?;
        let view = game.view(jass_engine::Viewer::Seat(seat));
        let base = jass_ai::Config { playouts: 400, ..Default::default() };
        let mut computer = Computer::new(seat, options, jass_ai::Config { seed: 77, ..base });
        let stats = ComputerStats::default();
        for (level, playouts, solve_at_most) in [
            (Level::Easy, 60, 0),
            (Level::Strong, 4_000, jass_ai::Config::STRONG_SOLVE_AT_MOST),
            (Level::Normal, 400, 0),
        ] {
            let budget = Budget { base: base.at_level(level), min: 10, waiting: 0 };
            assert!(run(&mut computer, &view, budget, std::time::Instant::now(), &stats).is_some());
            let c = *computer.config_mut();
            assert_eq!((c.playouts, c.solve_at_most, c.seed), (playouts, solve_at_most, 77), "{level:?}");
        }
        Ok(())
    }

    // Issue 14 point 6: decisions on the pool's own threads come back, and are counted
    // with their times.
    #[tokio::test]
    async fn the_pools_own_threads_decide_and_count_their_decisions() {
        let stats = Arc::new(ComputerStats::default());
        let settings = Settings {
            threads: 1,
            config: jass_ai::Config { playouts: 50, ..Default::default() },
            min_playouts: 10,
            think: Duration::from_millis(1),
        };
        let pool = Arc::new(Pool::new(settings, Arc::clone(&stats)));
        assert!(matches!(pool.runner, Runner::Threads { .. }));
        let options = jass_engine::Options::default();
        let Ok(game) = jass_engine::Game::new(options, jass_engine::Seed([7; 32])) else {
            panic!("a game with the default options");
        };
        let Some(seat) = game.to_act() else { panic!("someone chooses first") };
        let (tx, mut rx) = tokio::sync::mpsc::channel(8);
        for _ in 0..3 {
            let view = game.view(jass_engine::Viewer::Seat(seat));
            pool.think(pool.computer(seat, options), Level::Strong, view, 1, tx.clone());
        }
        for _ in 0..3 {
            let thought = tokio::time::timeout(Duration::from_secs(30), rx.recv()).await;
            let Ok(Some(t)) = thought else { panic!("no answer") };
            assert!(t.computer.is_some() && t.action.is_some(), "{t:?}");
        }
        let snap = serde_json::to_value(stats.snapshot()).unwrap();
        assert_eq!(
            (&snap["decisions"], &snap["failed"], &snap["threads"]),
            (&3.into(), &0.into(), &1.into())
        );
    }
}
