//! Computer players at the tables (protocol.md 3, "Host controls"). A table actor owns
//! its computers' memories, but their decisions run here, off the async runtime, so a
//! decision never blocks a table actor or a socket task. The answer comes back to the
//! actor as a [`Thought`] and goes through the same checks, store and `apply` as a
//! human's action.
//!
//! Under load the computers give way to the humans (the load bench with a computer at
//! every table): they think on their own threads, one fewer than the machine's cores
//! so that the runtime always has one, at a lowered priority (nice 10: a socket task
//! that wakes up takes the core back at once), and each decision has a wall-clock
//! budget after which it plays what it has computed so far.
//!
//! The priority is lowered, not idle: at the scheduler's idle priority any other work
//! on the host (two busy loops) starved them, and a strong table's moves stopped for
//! seconds. At nice 10 a computer thread still gets about a tenth of a core that
//! ordinary work keeps busy, enough to reach its deadline.
//!
//! The pool's time is shared fairly ([`Fair`]): decisions queue by the address that
//! created their table, the addresses take turns, and a decision's budget shrinks with
//! the decisions its own address has waiting (and, only when more addresses wait than
//! the threads can serve in two unhurried decisions, with their number). So one
//! address's many tables slow only that address's computers: another table's waits
//! at most one short decision of each other waiting address, and plays at its level.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex};
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
    /// The pool's own threads, fed through the fair queue.
    Threads(Arc<Queue>),
    /// The runtime's blocking threads, at most one decision per permit at once. Used
    /// with no think pause (tests): tokio does not advance a paused test clock while a
    /// blocking task runs, so a test's timers wait for the decision as they would in
    /// real time, which they would not for a thread of the pool's own.
    Blocking(Semaphore),
}

/// One decision asked for.
struct Job {
    /// Whose turn it waits for: the address that created its table (see [`Fair`]).
    group: u64,
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
    /// it). `group` is the table's share of the pool ([`Fair`]).
    pub(crate) fn think(
        self: &Arc<Self>,
        group: u64,
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
            let (computer, action) = match pool.decide(group, computer, level, view).await {
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
        group: u64,
        computer: Box<Computer>,
        level: Level,
        view: SeatView,
    ) -> Option<(Box<Computer>, Option<Action>)> {
        let asked = std::time::Instant::now();
        match &self.runner {
            Runner::Threads(queue) => {
                let (answer, answered) = oneshot::channel();
                queue.push(Job { group, computer, level, view, asked, answer });
                answered.await.ok()
            }
            Runner::Blocking(permits) => {
                let _permit = permits.acquire().await.ok()?;
                // Every thread busy: as if one waited behind this decision.
                let share = if permits.available_permits() == 0 { 0.5 } else { 1.0 };
                let base = self.config.at_level(level);
                let (min, stats) = (self.min_playouts, Arc::clone(&self.stats));
                tokio::task::spawn_blocking(move || {
                    let mut computer = computer;
                    let action = run(&mut computer, &view, Budget { base, min, share }, asked, &stats);
                    (computer, action)
                })
                .await
                .ok()
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        if let Runner::Threads(queue) = &self.runner {
            queue.close();
        }
    }
}

/// The decisions waiting for a thread, shared fairly: by group (the address that
/// created the table), each group taking its turn, and within a group in the order
/// asked (one decision per table at a time, so that is the tables' turns).
#[derive(Debug, Default)]
struct Fair {
    /// Waiting decisions by group, oldest first; a group is here while it has any.
    waiting: HashMap<u64, VecDeque<Job>>,
    /// The groups with decisions waiting, in the order they take turns.
    turns: VecDeque<u64>,
    /// The pool is gone: the threads end.
    closed: bool,
}

impl Fair {
    fn push(&mut self, job: Job) {
        let group = job.group;
        let queue = self.waiting.entry(group).or_default();
        if queue.is_empty() {
            self.turns.push_back(group);
        }
        queue.push_back(job);
    }

    /// The next decision and its share of an unhurried budget: the first group's
    /// oldest decision; the group then goes to the back if it has more waiting.
    fn pop(&mut self, threads: usize) -> Option<(Job, f64)> {
        let group = self.turns.pop_front()?;
        let queue = self.waiting.get_mut(&group)?;
        let job = queue.pop_front()?;
        let own_left = queue.len();
        if queue.is_empty() {
            self.waiting.remove(&group);
        } else {
            self.turns.push_back(group);
        }
        Some((job, self.share(own_left, threads)))
    }

    /// The share of an unhurried budget a group's decision gets with `own_left` more of
    /// the group waiting: 1/(own_left + 1), so a group's queue drains in about one
    /// unhurried decision whatever its length, whatever other groups wait. Only when a
    /// round of every waiting group's next decision would take more than two
    /// unhurried decisions a thread (many groups at once) is every share cut alike,
    /// so the queue still drains.
    fn share(&self, own_left: usize, threads: usize) -> f64 {
        let of = |left: usize| 1.0 / (left as f64 + 1.0);
        let round: f64 = of(own_left)
            + self
                .turns
                .iter()
                .filter_map(|g| self.waiting.get(g))
                .map(|q| of(q.len().saturating_sub(1)))
                .sum::<f64>();
        let room = 2.0 * threads.max(1) as f64;
        of(own_left) * (room / round).min(1.0)
    }
}

/// [`Fair`] behind a lock, with the threads waiting on it.
#[derive(Debug, Default)]
struct Queue {
    fair: Mutex<Fair>,
    ready: Condvar,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Fair> {
        self.fair.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push(&self, job: Job) {
        self.lock().push(job);
        self.ready.notify_one();
    }

    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// Waits for the next decision; `None` once the pool is gone.
    fn next(&self, threads: usize) -> Option<(Job, f64)> {
        let mut fair = self.lock();
        loop {
            if fair.closed {
                return None;
            }
            if let Some(next) = fair.pop(threads) {
                return Some(next);
            }
            fair = self.ready.wait(fair).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// Starts the pool's threads; `None` if not one could be started.
fn spawn_threads(threads: usize, settings: Settings, stats: &Arc<ComputerStats>) -> Option<Runner> {
    let queue = Arc::new(Queue::default());
    let mut started = 0;
    for n in 0..threads {
        let (queue, stats) = (Arc::clone(&queue), Arc::clone(stats));
        let (base, min) = (settings.config, settings.min_playouts);
        let spawned = std::thread::Builder::new()
            .name(format!("jass-computer-{n}"))
            .spawn(move || worker(&queue, threads, base, min, &stats));
        match spawned {
            Ok(_) => started += 1,
            Err(e) => tracing::warn!(error = %e, "cannot start a computer thread"),
        }
    }
    (started > 0).then_some(Runner::Threads(queue))
}

/// One of the pool's threads: takes decisions from the queue until the pool is gone.
fn worker(queue: &Queue, threads: usize, base: jass_ai::Config, min: u32, stats: &ComputerStats) {
    lower_priority();
    while let Some((job, share)) = queue.next(threads) {
        let Job { mut computer, level, view, asked, answer, .. } = job;
        let base = base.at_level(level);
        // A panic in a decision must not take the thread with it: the table gets no
        // answer for this one (the actor sees a failed decision) and the thread goes on.
        let decided = std::panic::catch_unwind(AssertUnwindSafe(|| {
            run(&mut computer, &view, Budget { base, min, share }, asked, stats)
        }));
        if let Ok(action) = decided {
            let _ = answer.send((computer, action));
        }
    }
}

/// The niceness of the computers' threads: below the runtime's (0), so a socket task
/// takes a core back at once, and above idle, so ordinary work on the host cannot
/// starve them (see the module docs).
const NICE: i32 = 10;

/// Lowers the calling thread's priority to [`NICE`] (on Linux `setpriority` with a
/// thread id sets that thread's niceness). Without it (another system, or refused)
/// the computers run at normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        if let Err(e) = rustix::process::setpriority_process(Some(tid), NICE) {
            tracing::warn!(error = %e, "computer threads run at normal priority");
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
    /// The share of the unhurried budget this decision gets, in (0, 1] (see
    /// [`Fair::share`]).
    share: f64,
}

impl Budget {
    /// The share as a fraction of 1, clamped.
    fn fraction(self) -> f64 {
        if self.share.is_finite() { self.share.clamp(0.0, 1.0) } else { 1.0 }
    }

    /// The playouts and time of this decision: the base times its share, never below
    /// `min` playouts (and a millisecond). Also whether that cut anything.
    fn shrunk(self) -> (u32, Option<Duration>, bool) {
        let f = self.fraction();
        let min = self.min.min(self.base.playouts);
        let playouts = ((f64::from(self.base.playouts) * f) as u32).max(min);
        let time = self.base.time_budget.map(|b| b.mul_f64(f).max(Duration::from_millis(1)).min(b));
        (playouts, time, playouts < self.base.playouts)
    }

    /// The deals a solving decision solves, cut like the playouts (at least one; the
    /// shrunk time budget bounds them as well).
    fn solve_deals(self) -> u32 {
        ((f64::from(self.base.solve_deals) * self.fraction()) as u32).max(1)
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

    fn budget(share: f64) -> (u32, Option<Duration>, bool) {
        let base = jass_ai::Config {
            playouts: 2_000,
            time_budget: Some(Duration::from_millis(300)),
            ..Default::default()
        };
        Budget { base, min: 200, share }.shrunk()
    }

    // The budget is the unhurried one times its share, down to a cheap decision.
    #[test]
    fn the_budget_shrinks_with_its_share_down_to_the_cheapest_decision() {
        assert_eq!(budget(1.0), (2_000, Some(Duration::from_millis(300)), false));
        assert_eq!(budget(0.5), (1_000, Some(Duration::from_millis(150)), true));
        assert_eq!(budget(0.1), (200, Some(Duration::from_millis(30)), true));
        assert_eq!(budget(0.0001), (200, Some(Duration::from_millis(1)), true));
        assert_eq!(budget(f64::NAN), budget(1.0));
    }

    // Each level's budget is the server's base with the level on top, and a share
    // cuts a strong decision's solving as it cuts the playouts.
    #[test]
    fn a_levels_budget_is_cut_under_load_like_the_normal_one() {
        let base = jass_ai::Config {
            playouts: 2_000,
            time_budget: Some(Duration::from_millis(300)),
            ..Default::default()
        };
        let easy = Budget { base: base.at_level(Level::Easy), min: 200, share: 1.0 };
        assert_eq!(easy.shrunk(), (60, Some(Duration::from_millis(300)), false));
        let strong = |share| Budget { base: base.at_level(Level::Strong), min: 200, share };
        assert_eq!(
            (strong(1.0).shrunk(), strong(1.0).solve_deals()),
            ((20_000, Some(Duration::from_millis(300)), false), 96)
        );
        assert_eq!(
            (strong(0.25).shrunk(), strong(0.25).solve_deals()),
            ((5_000, Some(Duration::from_millis(75)), true), 24)
        );
        assert_eq!(strong(0.0001).solve_deals(), 1);
        assert_eq!(base.at_level(Level::Normal), base);
    }

    // The computers' threads compete at nice 10 rather than wait at the idle
    // priority, where ordinary work on the host starved them (a strong table's moves
    // stopped for seconds beside two busy loops).
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_computers_threads_run_at_nice_10_not_at_idle_priority() {
        let settings = Settings {
            threads: 1,
            config: jass_ai::Config { playouts: 50, ..Default::default() },
            min_playouts: 10,
            think: Duration::from_millis(1),
        };
        let pool = Pool::new(settings, Arc::new(ComputerStats::default()));
        let mut found = None;
        for _ in 0..100 {
            for task in std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten() {
                let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
                if comm.trim() != "jass-computer-0" {
                    continue;
                }
                let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
                // Fields after the command's closing parenthesis: nice is field 19,
                // the scheduling policy field 41 (0 normal, 5 idle).
                let rest: Vec<&str> =
                    stat.rsplit_once(')').map(|(_, r)| r.split_whitespace().collect()).unwrap_or_default();
                let field = |n: usize| rest.get(n - 3).and_then(|v| v.parse::<i64>().ok());
                if field(19) == Some(10) {
                    found = Some((field(19), field(41)));
                }
            }
            if found.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(found, Some((Some(10), Some(0))), "nice 10 under the normal policy");
        drop(pool);
    }

    fn job(group: u64) -> Job {
        let options = jass_engine::Options::default();
        let Ok(game) = jass_engine::Game::new(options, jass_engine::Seed([3; 32])) else { panic!("a game") };
        let Some(seat) = game.to_act() else { panic!("someone chooses") };
        let computer = Box::new(Computer::new(seat, options, jass_ai::Config::default()));
        let view = game.view(jass_engine::Viewer::Seat(seat));
        let (answer, _) = oneshot::channel();
        Job { group, computer, level: Level::Normal, view, asked: std::time::Instant::now(), answer }
    }

    // One address's many tables cannot take the computers' time from another table:
    // the groups take turns, so a lone table's decision waits for at most one decision
    // of each other group with any waiting, and it keeps its whole budget while the
    // flooding group's decisions share theirs.
    #[test]
    fn a_flooding_group_shares_its_own_budget_and_a_lone_table_keeps_its_own() {
        let mut fair = Fair::default();
        for _ in 0..30 {
            fair.push(job(1));
        }
        fair.push(job(2));
        let Some((first, flood_share)) = fair.pop(1) else { panic!("a decision") };
        assert_eq!(first.group, 1);
        assert!((flood_share - 1.0 / 30.0).abs() < 1e-9, "{flood_share}");
        let Some((second, lone_share)) = fair.pop(1) else { panic!("a decision") };
        assert_eq!((second.group, lone_share), (2, 1.0), "the lone table's turn comes next, whole");
        // The flood's next decisions, in turn, each with its own group's share.
        let shares: Vec<f64> = std::iter::from_fn(|| fair.pop(1)).map(|(j, s)| (s, j.group).0).collect();
        assert_eq!(shares.len(), 29);
        assert!((shares[0] - 1.0 / 29.0).abs() < 1e-9 && (shares[28] - 1.0).abs() < 1e-9, "{shares:?}");
        // Six flooding groups of 30 and a lone table: the lone one still waits behind
        // at most six short decisions and keeps its budget.
        for g in 10..16 {
            for _ in 0..30 {
                fair.push(job(g));
            }
        }
        fair.push(job(2));
        let ahead: Vec<(u64, f64)> = (0..7).filter_map(|_| fair.pop(1)).map(|(j, s)| (j.group, s)).collect();
        assert_eq!(ahead.last().map(|(g, s)| (*g, *s)), Some((2, 1.0)), "{ahead:?}");
        assert!(ahead[..6].iter().all(|(_, s)| (s - 1.0 / 30.0).abs() < 1e-9), "{ahead:?}");
    }

    // Past what the threads can serve (more groups waiting than two unhurried
    // decisions a thread), every share is cut alike, so the queue still drains.
    #[test]
    fn many_groups_at_once_share_the_threads_alike() {
        let mut fair = Fair::default();
        for g in 0..10 {
            fair.push(job(g));
        }
        let Some((_, share)) = fair.pop(1) else { panic!("a decision") };
        assert!((share - 0.2).abs() < 1e-9, "{share}");
        let Some((_, share)) = fair.pop(2) else { panic!("a decision") };
        assert!((share - 4.0 / 9.0).abs() < 1e-9, "{share}");
    }

    // A decision runs with its seat's level, whatever the computer was made with (a
    // stand-in's computer kept when an easy computer takes the seat).
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
            let budget = Budget { base: base.at_level(level), min: 10, share: 1.0 };
            assert!(run(&mut computer, &view, budget, std::time::Instant::now(), &stats).is_some());
            let c = *computer.config_mut();
            assert_eq!((c.playouts, c.solve_at_most, c.seed), (playouts, solve_at_most, 77), "{level:?}");
        }
        Ok(())
    }

    // Decisions on the pool's own threads come back, and are counted with their times.
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
        assert!(matches!(pool.runner, Runner::Threads(_)));
        let options = jass_engine::Options::default();
        let Ok(game) = jass_engine::Game::new(options, jass_engine::Seed([7; 32])) else {
            panic!("a game with the default options");
        };
        let Some(seat) = game.to_act() else { panic!("someone chooses first") };
        let (tx, mut rx) = tokio::sync::mpsc::channel(8);
        for _ in 0..3 {
            let view = game.view(jass_engine::Viewer::Seat(seat));
            pool.think(7, pool.computer(seat, options), Level::Strong, view, 1, tx.clone());
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
