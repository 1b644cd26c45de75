//! One seat's measurements: the card→state latency of every card played at its table,
//! the computers' moves it sees, its refusals, and with `--reviews` the rounds'
//! reviews it asks for.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jass_bot::client::Observer;
use jass_bot::http::Server;
use jass_bot::policy::cards_played;
use jass_engine::Seat;
use jass_protocol::{ClientMsg, ErrorCode, TableView};

/// Send times of the cards played at one table, shared by its four seats so each can
/// time the card's arrival; only the last few are kept (one card is in flight at a time).
#[derive(Default)]
pub(crate) struct TableClock {
    sent: Mutex<Vec<(u64, Instant)>>,
    /// Rounds finished, as the table's seats last saw it.
    pub(crate) rounds: AtomicU32,
}

/// One delivery, kept for the report when it is the slowest.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slowest {
    pub(crate) age: Duration,
    pub(crate) at: Duration,
    pub(crate) card: u64,
    pub(crate) played: u64,
}

/// One seat's measurements.
pub(crate) struct Probe {
    pub(crate) clock: Arc<TableClock>,
    /// Cards played as of the last state this seat saw.
    pub(crate) seen: u64,
    /// Card→state latencies in microseconds.
    pub(crate) samples: Vec<u32>,
    /// When play started, and per second of play the deliveries over 10 ms: tells a
    /// steady tail from a few stalls.
    pub(crate) play_start: Instant,
    /// States read after this are not timed: past the deadline the load generator
    /// stops its seats and takes its readings, and a state that arrived in time can
    /// sit unread for half a second, a delay of the bench's own.
    pub(crate) play_end: Instant,
    pub(crate) slow_by_second: Vec<u32>,
    /// The slowest delivery: latency, when in play it arrived, the card's number in its
    /// game and the cards played by then. Says whether a lone outlier is a stall of
    /// the whole server (many slow seconds around it) or one card's path.
    pub(crate) slowest: Option<Slowest>,
    pub(crate) cards: u64,
    pub(crate) refused: Vec<ErrorCode>,
    /// Seats from this one on are computers whose moves this seat times (none: 4).
    pub(crate) computers_from: usize,
    /// The computer turn being timed: its seat, the cards played when it began, when.
    pub(crate) computer_turn: Option<(Seat, u64, Instant)>,
    /// Computer moves, turn → move on screen, in microseconds.
    pub(crate) computer_waits: Vec<u32>,
    /// `--reviews`, for a host seat: where to ask, and the rounds asked so far.
    pub(crate) reviews: Option<(Server, String, Arc<ReviewCounts>)>,
    pub(crate) reviews_asked: u32,
}

/// The answers to `--reviews`' requests by status.
#[derive(Default)]
pub(crate) struct ReviewCounts {
    ready: AtomicU64,
    computing: AtomicU64,
    busy: AtomicU64,
    other: AtomicU64,
    failed: AtomicU64,
}

impl ReviewCounts {
    pub(crate) fn line(&self) -> String {
        let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
        format!(
            "reviews asked: {} ready (200), {} computing (202), {} busy (503), {} other, {} failed",
            n(&self.ready),
            n(&self.computing),
            n(&self.busy),
            n(&self.other),
            n(&self.failed)
        )
    }
}

impl Probe {
    /// `--reviews`: asks for the review of each round that ended since the last state.
    fn ask_reviews(&mut self, rounds_played: u32) {
        let Some((server, table, counts)) = &self.reviews else { return };
        while self.reviews_asked < rounds_played {
            let (server, table, counts) = (server.clone(), table.clone(), Arc::clone(counts));
            let round = self.reviews_asked;
            tokio::spawn(async move {
                let counter = match server.review_status(&table, round).await {
                    Ok(200) => &counts.ready,
                    Ok(202) => &counts.computing,
                    Ok(503) => &counts.busy,
                    Ok(_) => &counts.other,
                    Err(_) => &counts.failed,
                };
                counter.fetch_add(1, Ordering::Relaxed);
            });
            self.reviews_asked += 1;
        }
    }

    /// Times computer turns: one starts with the first state that gives a computer
    /// seat the turn and ends with the first state after it where that seat no longer
    /// has it or a card more is on the table.
    fn time_computers(&mut self, view: &TableView, now: Instant) {
        let Some(g) = view.game.as_ref().filter(|g| g.result.is_none()) else {
            self.computer_turn = None;
            return;
        };
        let played = cards_played(view);
        if let Some((seat, at_cards, since)) = self.computer_turn
            && (g.to_act != Some(seat) || played != at_cards)
        {
            if now <= self.play_end {
                let age = now.saturating_duration_since(since);
                self.computer_waits.push(u32::try_from(age.as_micros()).unwrap_or(u32::MAX));
            }
            self.computer_turn = None;
        }
        if self.computer_turn.is_none()
            && let Some(seat) = g.to_act.filter(|s| s.index() >= self.computers_from)
        {
            self.computer_turn = Some((seat, played, now));
        }
    }
}

impl Observer for Probe {
    fn sent(&mut self, msg: &ClientMsg, view: &TableView) {
        if let ClientMsg::Play { .. } = msg {
            self.cards += 1;
            let k = cards_played(view) + 1;
            if let Ok(mut sent) = self.clock.sent.lock() {
                // A resend of the same card (after `stale`) restarts its clock.
                sent.retain(|&(i, _)| i != k);
                if sent.len() >= 8 {
                    sent.remove(0);
                }
                sent.push((k, Instant::now()));
            }
        }
    }

    fn state(&mut self, _version: u64, view: &TableView) {
        let now = Instant::now();
        if self.computers_from < 4 {
            self.time_computers(view, now);
        }
        let in_play = now.saturating_duration_since(self.play_start);
        let played = cards_played(view);
        if let Some(g) = &view.game {
            self.clock.rounds.fetch_max(g.rounds_played, Ordering::Relaxed);
            self.ask_reviews(g.rounds_played);
        }
        if played > self.seen
            && now <= self.play_end
            && let Ok(sent) = self.clock.sent.lock()
        {
            for &(k, at) in sent.iter() {
                let age = now.saturating_duration_since(at);
                if k > self.seen && k <= played && age < Duration::from_secs(30) {
                    self.samples.push(u32::try_from(age.as_micros()).unwrap_or(u32::MAX));
                    if self.slowest.is_none_or(|s| age > s.age) {
                        self.slowest = Some(Slowest { age, at: in_play, card: k, played });
                    }
                    if age > Duration::from_millis(10) {
                        let second = in_play.as_secs() as usize;
                        if self.slow_by_second.len() <= second {
                            self.slow_by_second.resize(second + 1, 0);
                        }
                        if let Some(n) = self.slow_by_second.get_mut(second) {
                            *n += 1;
                        }
                    }
                }
            }
        }
        self.seen = played;
    }

    fn refused(&mut self, code: ErrorCode) {
        self.refused.push(code);
    }
}
