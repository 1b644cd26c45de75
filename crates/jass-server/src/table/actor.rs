//! The table actor: one Tokio task per table that owns its game, seats and version.
//!
//! Invariants:
//! 1. Only this task mutates the table; it awaits only its mailbox, the store, its
//!    idle timer and shutdown, never a socket.
//! 2. A change is handed to the [`Store`] and acknowledged there before any client
//!    hears of it (state frame or `ack`); if the store fails, the change is dropped
//!    and the client gets `internal`.
//! 3. After every change each seat's watch gets its own freshly encoded `state`
//!    frame (the engine's allow-list view for that seat) and the spectators' watch
//!    the spectator view.
//! 4. Durable changes go through [`TableState::apply`], the same function restart
//!    recovery replays the store with, so `version` (entries applied) grows by one
//!    per stored entry and is the same after a restart. Presence (connections,
//!    spectators) is published without moving it, so it never makes an action stale.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use jass_engine::{BySeat, Game, Options, Seat, Seed, Viewer};
use jass_protocol::http::{Joined, TableInfo};
use jass_protocol::{
    ClientMsg, Deadline, ErrorCode, Level, SeatInfo, ServerMsg, TableView, Timing, TurnClock, close,
};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{Instrument, debug, info, info_span, warn};

use super::{Attached, ConnId, Kick, Refusal, TableCmd, TableHandle};
use crate::registry::Registry;
use crate::shutdown::{Shutdown, TaskGuard};
use crate::store::{Entry, Store};
use crate::table::state::{Occupant, TableState, finished_record};
use crate::table::turn::{self, Turns};

/// How long a table stays on a node before it may be handed to another on request,
/// so two balancers that disagree cannot bounce it between nodes.
const HANDOFF_PAUSE: Duration = Duration::from_secs(5);

/// What a new table needs from the server.
pub(crate) struct Spawn {
    /// The table id.
    pub(crate) id: Arc<str>,
    /// Initial options.
    pub(crate) options: Options,
    /// Where changes go before anyone is told.
    pub(crate) store: Arc<dyn Store>,
    /// To remove itself once idle.
    pub(crate) registry: Arc<Registry>,
    /// To stop with the server.
    pub(crate) shutdown: Shutdown,
    /// Counts the actor for graceful shutdown.
    pub(crate) guard: TaskGuard,
    /// Mailbox size.
    pub(crate) mailbox: usize,
    /// Drop the table after this long with nobody connected.
    pub(crate) idle_timeout: Duration,
    /// Drop a table that no player ever connected to after this long (issue 13,
    /// point 10: such a table only holds a slot).
    pub(crate) unjoined_timeout: Duration,
    /// Most spectators watching at once.
    pub(crate) max_spectators: usize,
    /// Most spectators watching at once from one client address.
    pub(crate) max_spectators_per_ip: usize,
    /// The creating address's count of held tables, given back when the actor ends
    /// (`None` for a table restored at start-up).
    pub(crate) held: Option<crate::per_ip::IpSlot>,
    /// Where the table's computer players think.
    pub(crate) computers: Arc<crate::computer::Pool>,
    /// The table's share of the computers' time: the address that created it (see
    /// `computer::Fair`); `None` for a table restored at start-up, which shares as
    /// a group of its own.
    pub(crate) creator: Option<std::net::IpAddr>,
    /// The table sat idle for its whole timeout already (a shared store's table whose
    /// node died): it expires as soon as it is back, unless someone connects first.
    pub(crate) idle_already: bool,
    /// Where its rounds are reviewed once over.
    pub(crate) reviews: Option<Arc<crate::review::Reviews>>,
}

/// Starts a table's actor. The `Created` entry is stored before any command is
/// handled, so the store sees a table's history in order.
pub(crate) fn spawn(s: Spawn) -> TableHandle {
    let state = TableState::new(s.options);
    launch(s, state, true)
}

/// Starts the actor of a table rebuilt from its stored entries (restart recovery).
/// Players come back with their tokens; nothing is written until something changes.
pub(crate) fn restore(s: Spawn, state: TableState) -> TableHandle {
    launch(s, state, false)
}

fn launch(s: Spawn, state: TableState, fresh: bool) -> TableHandle {
    let (tx, rx) = mpsc::channel(s.mailbox.max(1));
    // At most one decision per seat is out at a time.
    let (thought_tx, thought_rx) = mpsc::channel(4);
    let span = info_span!("table", table = %s.id);
    let group = s
        .creator
        .map_or_else(|| crate::per_ip::group(&*s.id), |ip| crate::per_ip::group(&crate::per_ip::key(ip)));
    let actor = TableActor {
        group,
        computers: BySeat::default(),
        thinking: BySeat::default(),
        turns: Turns::default(),
        pool: s.computers,
        thought_tx,
        id: s.id,
        state,
        conns: BySeat::default(),
        spectators: HashMap::new(),
        spectator_view: watch::channel(Utf8Bytes::from_static("")).0,
        store: s.store,
        registry: s.registry,
        idle_timeout: s.idle_timeout,
        unjoined_timeout: s.unjoined_timeout,
        max_spectators: s.max_spectators,
        max_spectators_per_ip: s.max_spectators_per_ip,
        // A restored table was played before the restart, as far as anyone can tell:
        // downtime is not idleness (issue 13, point 1), so it gets the full timeout.
        joined: !fresh,
        last_activity: if s.idle_already {
            Instant::now().checked_sub(s.idle_timeout).unwrap_or_else(Instant::now)
        } else {
            Instant::now()
        },
        since: Instant::now(),
        fenced: false,
        reviews: s.reviews,
        reviewed: None,
        _held: s.held,
    };
    // Boxed: a task that owns its actor by value keeps it twice in its state (once
    // as the captured argument, once as the moved local), about 1.8 KB per table.
    tokio::spawn(Box::new(actor).run(rx, thought_rx, s.shutdown, s.guard, fresh).instrument(span));
    TableHandle { tx }
}

/// A seat's live side: its connection and its occupant's frames.
#[derive(Debug)]
struct SeatConn {
    /// The live connection and the way to close it (replaced, freed).
    conn: Option<(ConnId, oneshot::Sender<Kick>)>,
    /// The occupant's `state` frames. It belongs to the occupant, not the seat
    /// number: a swap moves it along, and freeing the seat replaces it so a revoked
    /// connection never sees the next occupant's hand.
    view: watch::Sender<Utf8Bytes>,
    /// The live connection's peer has been silent for `away_after` (its socket task
    /// says so): shown as `connected: false` although the socket is still open.
    away: bool,
    /// When the seat last became absent (or the table was restored): step-in
    /// counts from here.
    absent_since: Instant,
}

impl Default for SeatConn {
    fn default() -> Self {
        Self {
            conn: None,
            view: watch::channel(Utf8Bytes::from_static("")).0,
            away: false,
            absent_since: Instant::now(),
        }
    }
}

impl SeatConn {
    /// A live connection whose peer has been heard from lately: what `connected`
    /// shows (issue 14 point 4).
    fn present(&self) -> bool {
        self.conn.is_some() && !self.away
    }

    /// Since when the seat's player has been absent, if they are.
    fn absent(&self) -> Option<Instant> {
        (!self.present()).then_some(self.absent_since)
    }

    /// Closes the live connection, if any, with `kick`.
    fn kick(&mut self, kick: Kick) {
        if let Some((_, tx)) = self.conn.take() {
            let _ = tx.send(kick);
        }
    }
}

/// The table's state; see the module docs for its invariants.
struct TableActor {
    /// The table id (public: it is in the link).
    id: Arc<str>,
    /// Everything durable: options, seats, host, game, votes, version.
    state: TableState,
    /// The seats' connections and view channels.
    conns: BySeat<SeatConn>,
    /// Spectator connections with their address key, counted in every view.
    spectators: HashMap<ConnId, u64>,
    /// The spectators' `state` frames.
    spectator_view: watch::Sender<Utf8Bytes>,
    /// Durability before publication.
    store: Arc<dyn Store>,
    /// To remove this table when it goes idle.
    registry: Arc<Registry>,
    /// See [`Spawn::idle_timeout`].
    idle_timeout: Duration,
    /// See [`Spawn::unjoined_timeout`].
    unjoined_timeout: Duration,
    /// See [`Spawn::max_spectators`].
    max_spectators: usize,
    /// See [`Spawn::max_spectators_per_ip`].
    max_spectators_per_ip: usize,
    /// Whether a player ever connected a socket to a seat here.
    joined: bool,
    /// Last command handled, for the idle timer.
    last_activity: Instant,
    /// When this actor started (a handoff waits [`HANDOFF_PAUSE`] after it).
    since: Instant,
    /// The store refused an append because another node took the table over: the
    /// actor stops at once and never writes again.
    fenced: bool,
    /// Where its rounds are reviewed.
    reviews: Option<Arc<crate::review::Reviews>>,
    /// The latest round reviewed (game, round), said in the view.
    reviewed: Option<(u32, u32)>,
    /// See [`Spawn::held`]; only dropped.
    _held: Option<crate::per_ip::IpSlot>,
    /// The computer players' memories by seat; `None` for a human or free seat, and
    /// while the computer is thinking (it is then with the pool).
    computers: BySeat<Option<Box<jass_ai::Computer>>>,
    /// Seats whose computer is thinking.
    thinking: BySeat<bool>,
    /// The awaited decision and the seats the computer plays for now.
    turns: Turns,
    /// See [`Spawn::computers`].
    pool: Arc<crate::computer::Pool>,
    /// Where the pool sends the computers' decisions.
    thought_tx: mpsc::Sender<crate::computer::Thought>,
    /// See [`Spawn::creator`].
    group: u64,
}

/// 32 bytes from the OS-seeded thread CSPRNG: one per round (R2, R12).
fn fresh_seed() -> Seed {
    Seed(rand::random())
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The name as it is stored and shown (NFC, trimmed), or why it is refused
/// (protocol.md 1, "Names": no invisible, bidi-control or mixed-script spoofing).
pub(crate) fn valid_name(name: &str) -> Result<String, Refusal> {
    jass_protocol::name::validate(name).map_err(|e| Refusal::new(ErrorCode::BadName, e.to_string()))
}

fn internal(e: impl std::fmt::Display) -> Refusal {
    warn!(error = %e, "store refused a change");
    Refusal::new(ErrorCode::Internal, "the server could not save this; nothing changed")
}

impl TableActor {
    async fn run(
        mut self: Box<Self>,
        mut rx: mpsc::Receiver<TableCmd>,
        mut thoughts: mpsc::Receiver<crate::computer::Thought>,
        shutdown: Shutdown,
        _guard: TaskGuard,
        fresh: bool,
    ) {
        if fresh && let Err(e) = self.commit(Entry::Created { options: self.state.options }).await {
            warn!(error = ?e, "could not store the new table");
        }
        self.publish();
        // Whether the table is let go to other nodes when the actor stops.
        let mut release = false;
        loop {
            let idle = self.is_idle().then(|| self.last_activity + self.idle_limit());
            let due = self.deadline().map(|(_, _, at)| at);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(TableCmd::LetGo { release: asked, reply }) => {
                        let agreed = !asked || self.since.elapsed() >= HANDOFF_PAUSE;
                        let _ = reply.send(agreed);
                        if agreed {
                            release = asked;
                            self.kick_seats("table moved");
                            break;
                        }
                    }
                    Some(cmd) => {
                        // Looking at the table (info) does not keep it alive.
                        if !matches!(cmd, TableCmd::Info { .. }) {
                            self.last_activity = Instant::now();
                        }
                        self.handle(cmd).await;
                    }
                    None => break,
                },
                Some(thought) = thoughts.recv() => self.on_thought(thought).await,
                () = sleep_until(due) => self.on_deadline(),
                () = shutdown.cancelled() => {
                    release = true;
                    break;
                }
                () = sleep_until(idle) => {
                    // Idle tables expire: a finished one is archived, an unfinished one
                    // forgotten by the store (its finished games are kept on their own).
                    let finished = self.state.finished();
                    info!(finished, joined = self.joined, "table idle, dropping it");
                    let gone = if finished { self.store.archive(&self.id) } else { self.store.forget(&self.id) };
                    if let Err(e) = gone.await {
                        warn!(error = %e, "could not delete an expired table");
                    }
                    break;
                }
            }
            if self.fenced {
                warn!("another node took this table over; letting it go");
                self.kick_seats("table moved");
                break;
            }
        }
        // Requests from now on find the table gone and are told to try again.
        drop(rx);
        if release && let Err(e) = self.store.release(&self.id).await {
            warn!(error = %e, "could not let the table go; its lease runs out instead");
        }
        self.registry.remove(&self.id);
        debug!("table actor stopped");
    }

    /// Closes every seated connection with 1012, so its client reconnects at once and
    /// finds the table where it is served next (spectators see their view end).
    fn kick_seats(&mut self, reason: &'static str) {
        for (_, seat) in self.conns.iter_mut() {
            seat.kick(Kick { code: close::SERVICE_RESTART, reason });
        }
    }

    /// How long the table may sit with nobody connected.
    fn idle_limit(&self) -> Duration {
        if self.joined { self.idle_timeout } else { self.unjoined_timeout.min(self.idle_timeout) }
    }

    /// Nobody is connected.
    fn is_idle(&self) -> bool {
        self.spectators.is_empty() && self.conns.iter().all(|(_, s)| s.conn.is_none())
    }

    async fn handle(&mut self, cmd: TableCmd) {
        match cmd {
            TableCmd::Join { name, seat, reply } => {
                let r = self.join(&name, seat).await;
                // Nobody got the token (the HTTP client went away): give the seat back
                // rather than hold it for a token no one has.
                if let Err(Ok(joined)) = reply.send(r) {
                    self.release(joined.seat).await;
                }
            }
            TableCmd::Info { reply } => {
                let _ = reply.send(self.info());
            }
            TableCmd::Record { game, reply } => {
                let record = match game {
                    Some(n) if n != self.state.games => Err(Refusal::new(
                        ErrorCode::UnknownGame,
                        format!("game {n} is not the table's latest"),
                    )),
                    _ => finished_record(&self.state),
                };
                let _ = reply.send(record);
            }
            TableCmd::ReviewRecord { round, reply } => {
                let _ = reply.send(self.review_record(round));
            }
            TableCmd::Reviewed { game, round } => {
                if game == self.state.games && self.reviewed.is_none_or(|(g, r)| g != game || r < round) {
                    self.reviewed = Some((game, round));
                    self.publish();
                }
            }
            TableCmd::Rounds { reply } => {
                let rounds = match &self.state.game {
                    None => Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
                    Some(g) => Ok(jass_protocol::http::Rounds {
                        table: self.id.to_string(),
                        game: self.state.games,
                        rounds: g.history().to_vec(),
                        last_round_tricks: g.last_round_tricks(),
                    }),
                };
                let _ = reply.send(rounds);
            }
            TableCmd::Setup { timing, computers, practice, reply } => {
                let _ = reply.send(self.setup(timing, computers, practice).await);
            }
            TableCmd::Attach { token, conn, peer, reply } => {
                let r = self.attach(token.as_deref(), conn, peer);
                // The connection is gone already: do not show it as connected.
                if let Err(Ok(_)) = reply.send(r) {
                    self.detach(conn);
                }
            }
            TableCmd::LetGo { reply, .. } => {
                // Handled in the run loop, which stops the actor.
                let _ = reply.send(false);
            }
            TableCmd::Detach { conn } => self.detach(conn),
            TableCmd::Presence { conn, away } => self.presence(conn, away),
            TableCmd::Request { conn, msg, reply } => {
                let r = self.request(conn, *msg).await;
                let _ = reply.send(r);
            }
        }
    }

    /// Stores `entry`, then applies it: the only way the durable state changes. The
    /// entry passed the actor's checks, so applying it cannot fail by the engine's
    /// contract; if it does anyway the store and memory disagree, which is logged
    /// loudly (a restart would then quarantine the table rather than guess).
    async fn commit(&mut self, entry: Entry) -> Result<(), Refusal> {
        let was_over = self.state.finished();
        let rounds = self.rounds_over();
        if self.fenced {
            return Err(internal("the table is being let go"));
        }
        if let Err(e) = self.store.append(&self.id, &entry).await {
            self.fenced = e.is_fenced();
            return Err(internal(e));
        }
        self.state.apply(&entry).map_err(|e| {
            warn!(error = %e, "a stored entry could not be applied");
            Refusal::new(ErrorCode::Internal, "the server could not apply this")
        })?;
        if !was_over && self.state.finished() {
            self.keep_game().await;
        }
        if self.rounds_over() > rounds {
            self.review_ahead();
        }
        Ok(())
    }

    /// Rounds of the latest game that are over.
    fn rounds_over(&self) -> usize {
        self.state.game.as_ref().map_or(0, |g| g.history().len())
    }

    /// The latest game's record up to round `round`, once it is over: what its review
    /// is computed from. The round in play (and its secret seed) stays here.
    fn review_record(&self, round: u32) -> Result<(u32, jass_engine::Record), Refusal> {
        let game = self
            .state
            .game
            .as_ref()
            .ok_or_else(|| Refusal::new(ErrorCode::NotStarted, "no game has been played"))?;
        let over = usize::try_from(round).ok().filter(|&r| r < game.history().len());
        let Some(r) = over else {
            return Err(Refusal::new(ErrorCode::RoundNotOver, format!("round {round} is not over")));
        };
        let mut record = game.record().clone();
        record.rounds.truncate(r + 1);
        Ok((self.state.games, record))
    }

    /// A round just ended: its review is computed ahead of the question when there is
    /// room (see `review`).
    fn review_ahead(&self) {
        let Some(reviews) = &self.reviews else { return };
        let Some(round) = self.rounds_over().checked_sub(1).and_then(|r| u32::try_from(r).ok()) else {
            return;
        };
        let key = crate::review::Key { table: self.id.to_string(), game: self.state.games, round };
        reviews.ahead(key, || self.review_record(round).ok().map(|(_, record)| record));
    }

    /// Keeps the game that just ended on its own, before anyone hears it ended. The
    /// entry that ended it is stored already, so a failure here refuses nothing: the
    /// next start keeps every finished game the entries hold that is not kept yet.
    async fn keep_game(&self) {
        match finished_record(&self.state) {
            Ok(record) => {
                if let Err(e) = self.store.keep_game(&self.id, self.state.games, &record).await {
                    warn!(error = %e, game = self.state.games, "could not keep a finished game; the next start keeps it");
                }
            }
            Err(r) => warn!(code = ?r.code, "a finished game has no record"),
        }
    }

    fn seat_infos(&self) -> [SeatInfo; 4] {
        Seat::ALL.map(|seat| {
            let occupant = self.state.seats[seat].as_ref();
            let computer = occupant.is_some_and(Occupant::computer);
            let benched = self.state.benched(seat);
            SeatInfo {
                name: occupant.map(|o| o.name.clone()),
                computer,
                level: if computer || benched { self.state.computer_level(seat).shown() } else { None },
                connected: self.conns[seat].present(),
                stand_in: !computer && self.state.playing() && self.computer_plays(seat),
                waiting: self.state.waiting(seat),
                benched,
            }
        })
    }

    fn spectator_count(&self) -> u32 {
        u32::try_from(self.spectators.len()).unwrap_or(u32::MAX)
    }

    fn info(&self) -> TableInfo {
        TableInfo {
            table: self.id.to_string(),
            seats: self.seat_infos(),
            options: self.state.options,
            timing: self.state.timing,
            started: self.state.game.is_some(),
            spectators: self.spectator_count(),
        }
    }

    /// One connection's `state` frame, encoded once and shared by its watchers.
    fn encode(&self, you: Option<Seat>) -> Option<Utf8Bytes> {
        // A player who joined during a round sees the table as a spectator until the
        // next deal: that round's hand was someone else's. One whose seat the host gave
        // to the computer watches the same way until given it back.
        let viewer = you
            .filter(|seat| !self.state.waiting(*seat) && !self.state.benched(*seat))
            .map_or(Viewer::Spectator, Viewer::Seat);
        let s = &self.state;
        let view = TableView {
            table: self.id.to_string(),
            you,
            host: s.host,
            seats: self.seat_infos(),
            spectators: self.spectator_count(),
            options: s.options,
            games: s.games,
            rematch: self.rematch_votes(),
            timing: s.timing,
            clock: self.deadline().map(|(seat, kind, at)| TurnClock {
                seat,
                kind,
                deadline: turn::unix_ms(at),
                now: turn::unix_ms(Instant::now()),
            }),
            reserve: (s.timing.move_clock > 0 && s.game.is_some()).then(|| self.reserves()),
            review_ready: self.reviewed.filter(|(g, _)| *g == s.games).map(|(_, r)| r),
            game: s.game.as_ref().map(|g| g.view(viewer)),
        };
        match encode_exact(&ServerMsg::State { version: s.version, view: Box::new(view) }) {
            Ok(frame) => Some(frame),
            Err(e) => {
                warn!(error = %e, "could not encode a state");
                None
            }
        }
    }

    /// The rematch votes as shown: a computer always wants another game, so once a
    /// game is over its seat shows the vote it casts (not stored: it is implied).
    fn rematch_votes(&self) -> BySeat<bool> {
        let s = &self.state;
        let over = s.finished();
        BySeat(Seat::ALL.map(|seat| {
            s.rematch[seat] || (over && s.seats[seat].as_ref().is_some_and(Occupant::played_by_computer))
        }))
    }

    /// Each seat's reserve as the clock sees it (one that ran out is spent).
    fn reserves(&self) -> BySeat<u32> {
        BySeat(Seat::ALL.map(|seat| if self.turns.clocked_out(seat) { 0 } else { self.state.reserve[seat] }))
    }

    /// Whether the computer makes this seat's decisions now: a computer's seat; during
    /// a game also a seat left free, one whose player takes over at the next deal, and
    /// one whose player is away or out of time (points 1–3).
    fn computer_plays(&self, seat: Seat) -> bool {
        let Some(occupant) = &self.state.seats[seat] else { return self.state.playing() };
        occupant.played_by_computer()
            || (self.state.playing() && (occupant.waiting || self.turns.stands_in(seat)))
    }

    /// The awaited human decision's seat, why it has a deadline and when.
    fn deadline(&self) -> Option<(Seat, Deadline, Instant)> {
        let (seat, since) = self.turns.current()?;
        // Nobody else at the table is kept waiting: the game pauses rather than play
        // itself out while everyone is away (friends on a break find it as they left).
        // A computer waits too, but only on a player who is here: the move clock runs
        // at a table of one player and computers, while a table that player left
        // pauses (protocol.md 3, "Step-in and move clock").
        let absent = self.conns[seat].absent();
        let player_waits = self.conns.iter().any(|(s, c)| s != seat && c.present());
        let computer_waits = absent.is_none()
            && self.state.seats.iter().any(|(s, o)| s != seat && o.as_ref().is_some_and(Occupant::computer));
        if self.computer_plays(seat) || !(player_waits || computer_waits) {
            return None;
        }
        let reserve = self.state.reserve[seat];
        let (kind, at) = turn::deadline(self.state.timing, since, reserve, absent)?;
        Some((seat, kind, at))
    }

    /// A deadline passed: the computer takes the decision over (and, while the
    /// player is away, the ones after it).
    fn on_deadline(&mut self) {
        let Some((seat, kind, at)) = self.deadline() else { return };
        if at > Instant::now() {
            return;
        }
        info!(%seat, ?kind, "the computer plays for an absent or out-of-time player");
        self.turns.expire(seat, kind, self.conns[seat].present());
        self.publish();
    }

    /// Hands every connection its new view (after a change or a presence change).
    fn publish(&mut self) {
        self.turns.follow(self.state.game.as_ref());
        for seat in Seat::ALL {
            let slot = &self.conns[seat];
            // No socket on the seat (a computer's, or its player is away): nobody reads
            // a frame, so none is made or kept; attaching publishes a fresh one.
            if slot.conn.is_none() {
                if !slot.view.borrow().is_empty() {
                    slot.view.send_replace(Utf8Bytes::from_static(""));
                }
                continue;
            }
            if let Some(frame) = self.encode(Some(seat)) {
                self.conns[seat].view.send_replace(frame);
            }
        }
        // Nobody watching: skip the fifth encoding. A spectator who arrives is counted
        // before the publish its attach triggers, so it still starts from a fresh frame.
        if !self.spectators.is_empty()
            && let Some(frame) = self.encode(None)
        {
            self.spectator_view.send_replace(frame);
        }
        self.prompt_computers();
    }

    /// Gives every seat the computer plays its computer (keeping it for the rest of
    /// the game, so its memory of the round stays whole), shows each its view, and
    /// asks those whose decision is due.
    fn prompt_computers(&mut self) {
        self.show_computers(true);
    }

    /// Gives every seat the computer plays its computer and shows each its view; with
    /// `ask`, asks those whose decision is due.
    fn show_computers(&mut self, ask: bool) {
        for seat in Seat::ALL {
            let plays = self.computer_plays(seat);
            let keep = plays || self.state.playing();
            let slot = &mut self.computers[seat];
            if !keep {
                *slot = None;
                continue;
            }
            let Some(game) = &self.state.game else { continue };
            if plays && slot.as_ref().is_none_or(|c| c.seat() != seat) && !self.thinking[seat] {
                *slot = Some(self.pool.computer(seat, self.state.options));
            }
            let Some(computer) = slot else { continue };
            let view = game.view(Viewer::Seat(seat));
            computer.observe(&view);
            if ask
                && plays
                && crate::computer::due(&view)
                && let Some(computer) = slot.take()
            {
                self.thinking[seat] = true;
                let level = self.state.computer_level(seat);
                let (group, on) = (self.group, self.state.game_version);
                self.pool.think(group, computer, level, view, on, self.thought_tx.clone());
            }
        }
    }

    /// A computer's decision is back: played if the game is still where it was
    /// decided (else it decides again on the new view).
    async fn on_thought(&mut self, t: crate::computer::Thought) {
        self.thinking[t.seat] = false;
        self.computers[t.seat] = t.computer;
        // The player came back (or the game ended) while it thought.
        if !self.computer_plays(t.seat) {
            return;
        }
        let nothing_to_do = t.action.is_none() && t.on == self.state.game_version;
        let played = match t.action {
            Some(action) if t.on == self.state.game_version => {
                match self.act(t.seat, Some(t.on), action, true).await {
                    Ok(()) => true,
                    Err(r) => {
                        debug!(seat = %t.seat, code = ?r.code, "a computer's action was refused");
                        false
                    }
                }
            }
            _ => false,
        };
        // Nothing to do on the current view (Stöck it may announce later): the next
        // change prompts it again; asking at once would spin (issue 14, load bench).
        if !played && !nothing_to_do {
            self.prompt_computers();
        }
    }

    async fn join(&mut self, name: &str, want: Option<Seat>) -> Result<Joined, Refusal> {
        let name = valid_name(name)?;
        let seat = match want {
            Some(s) if self.state.seats[s].is_some() => {
                return Err(Refusal::new(ErrorCode::SeatTaken, format!("seat {s} is taken")));
            }
            Some(s) => s,
            None => self
                .state
                .seats
                .iter()
                .find(|(_, slot)| slot.is_none())
                .map(|(s, _)| s)
                .ok_or_else(|| Refusal::new(ErrorCode::TableFull, "every seat is taken"))?,
        };
        let token = uuid::Uuid::new_v4().simple().to_string();
        let token_hash = hash_token(&token);
        self.commit(Entry::Seated { seat, name, token_hash }).await?;
        info!(%seat, "seat taken");
        self.publish();
        Ok(Joined { table: self.id.to_string(), seat, token, link: format!("/t/{}", self.id) })
    }

    fn attach(&mut self, token: Option<&str>, conn: ConnId, peer: u64) -> Result<Attached, Refusal> {
        let Some(token) = token else {
            // Watching is free, but bounded: a stranger with the link cannot fill the
            // table's fan-out (issue 13, point 7).
            if self.spectators.len() >= self.max_spectators {
                return Err(Refusal::new(ErrorCode::Busy, "this table has its limit of spectators"));
            }
            if self.spectators.values().filter(|p| **p == peer).count() >= self.max_spectators_per_ip {
                return Err(Refusal::new(ErrorCode::Busy, "this address has its limit of spectators here"));
            }
            self.spectators.insert(conn, peer);
            self.publish();
            return Ok(Attached { seat: None, views: self.spectator_view.subscribe(), kick: None });
        };
        let hash = hash_token(token);
        let seat = self
            .state
            .seats
            .iter()
            .find(|(_, slot)| slot.as_ref().is_some_and(|o: &Occupant| o.token_hash == Some(hash)))
            .map(|(s, _)| s)
            .ok_or_else(|| Refusal::new(ErrorCode::BadToken, "this token matches no seat of the table"))?;
        let (kick_tx, kick_rx) = oneshot::channel();
        let slot = &mut self.conns[seat];
        slot.kick(Kick { code: close::REPLACED, reason: "another connection took this seat" });
        slot.conn = Some((conn, kick_tx));
        slot.away = false;
        let views = slot.view.subscribe();
        self.turns.back(seat);
        self.joined = true;
        info!(%seat, conn, "seat connected");
        self.publish();
        Ok(Attached { seat: Some(seat), views, kick: Some(kick_rx) })
    }

    fn detach(&mut self, conn: ConnId) {
        if self.spectators.remove(&conn).is_some() {
            self.publish();
            return;
        }
        let seat = self.seat_of(conn);
        if let Some(seat) = seat {
            let slot = &mut self.conns[seat];
            if slot.present() {
                slot.absent_since = Instant::now();
            }
            slot.conn = None;
            slot.away = false;
            info!(%seat, conn, "seat disconnected");
            self.publish();
        }
    }

    /// A seated connection's peer fell silent or spoke again; a replaced connection
    /// or a spectator changes nothing, and neither does a repeat.
    fn presence(&mut self, conn: ConnId, away: bool) {
        let Some(seat) = self.seat_of(conn) else { return };
        let slot = &mut self.conns[seat];
        if slot.away == away {
            return;
        }
        slot.away = away;
        if away {
            slot.absent_since = Instant::now();
        } else {
            self.turns.back(seat);
        }
        info!(%seat, conn, away, "seat presence");
        self.publish();
    }

    /// The seat `conn` currently plays (a replaced connection plays none).
    fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.conns.iter().find(|(_, slot)| matches!(slot.conn, Some((c, _)) if c == conn)).map(|(s, _)| s)
    }

    fn require_host(&self, seat: Seat) -> Result<(), Refusal> {
        if seat == self.state.host {
            Ok(())
        } else {
            Err(Refusal::new(ErrorCode::NotHost, "only the host may do that"))
        }
    }

    fn require_lobby(&self) -> Result<(), Refusal> {
        if self.state.game.is_some() {
            Err(Refusal::new(ErrorCode::AlreadyStarted, "the game has started"))
        } else {
            Ok(())
        }
    }

    async fn request(&mut self, conn: ConnId, msg: ClientMsg) -> Result<(), Refusal> {
        let seat =
            self.seat_of(conn).ok_or_else(|| Refusal::new(ErrorCode::NotSeated, "spectators cannot act"))?;
        let span = tracing::debug_span!("request", %seat);
        self.request_as(seat, msg).instrument(span).await
    }

    async fn request_as(&mut self, seat: Seat, msg: ClientMsg) -> Result<(), Refusal> {
        if let Some(action) = msg.game_action() {
            if self.state.waiting(seat) {
                return Err(Refusal::new(
                    ErrorCode::WaitingForDeal,
                    "you take over this seat at the next deal",
                ));
            }
            if self.state.benched(seat) {
                return Err(Refusal::new(
                    ErrorCode::Benched,
                    "the host gave your seat to the computer; you play again once given it back",
                ));
            }
            return self.act(seat, msg.version(), action, false).await;
        }
        match msg {
            ClientMsg::Start { .. } => self.start(seat).await,
            ClientMsg::SwapSeats { a, b, .. } => self.swap(seat, a, b).await,
            ClientMsg::FreeSeat { seat: target, .. } => self.free(seat, target).await,
            ClientMsg::AddComputer { seat: target, level, .. } => {
                self.add_computer(seat, target, level.unwrap_or_default()).await
            }
            ClientMsg::GiveToComputer { seat: target, level, .. } => {
                self.give_to_computer(seat, target, level.unwrap_or_default()).await
            }
            ClientMsg::GiveBack { seat: target, .. } => self.give_back(seat, target).await,
            ClientMsg::SetOptions { preset, options, .. } => {
                self.require_host(seat)?;
                self.require_lobby()?;
                let options = jass_protocol::options_from(preset, options.as_ref())
                    .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
                self.commit(Entry::OptionsSet { options }).await?;
                self.publish();
                Ok(())
            }
            ClientMsg::SetTiming { step_in, move_clock, reserve, .. } => {
                self.require_host(seat)?;
                self.require_lobby()?;
                let old = self.state.timing;
                let timing = Timing {
                    step_in: step_in.unwrap_or(old.step_in),
                    move_clock: move_clock.unwrap_or(old.move_clock),
                    reserve: reserve.unwrap_or(old.reserve),
                };
                self.set_timing(timing).await
            }
            ClientMsg::Rematch { .. } => self.vote_rematch(seat).await,
            ClientMsg::Hello { .. } => Err(Refusal::new(ErrorCode::HelloExpected, "hello was already said")),
            _ => Err(Refusal::new(ErrorCode::BadMessage, "not a table request")),
        }
    }

    /// A game action by the seat's player or, `by_computer`, by the computer playing
    /// the seat.
    async fn act(
        &mut self,
        seat: Seat,
        version: Option<u64>,
        action: jass_engine::Action,
        by_computer: bool,
    ) -> Result<(), Refusal> {
        let Some(game) = &self.state.game else {
            return Err(Refusal::new(ErrorCode::NotStarted, "the game has not started"));
        };
        // Stale only if the game moved since the client's view: someone connecting,
        // a spectator or a seat change is no reason to refuse a card (point 7).
        if let Some(v) = version
            && !self.state.is_current_for_game(v)
        {
            return Err(Refusal::new(
                ErrorCode::Stale,
                format!("decided on version {v}, the game changed at version {}", self.state.game_version),
            ));
        }
        // Check first, store second, apply last: the game changes only once the store
        // has the action, and an action that passed `validate` cannot fail to apply.
        game.validate(seat, &action).map_err(|e| Refusal::new(ErrorCode::from_rule(&e), e.to_string()))?;
        let dealt = (matches!(action, jass_engine::Action::Play { .. }) && game.next_card_ends_round())
            .then(fresh_seed);
        debug!(?action, by_computer, "accepted");
        let reserve = self.reserve_after(seat, by_computer);
        self.commit(Entry::Action { seat, action, next_seed: dealt, reserve }).await?;
        if by_computer {
            self.turns.decided(seat);
        } else {
            self.turns.decided_by_player(seat);
        }
        if let Some(result) = self.state.game.as_ref().and_then(Game::result) {
            info!(?result, "game over");
        }
        self.publish();
        Ok(())
    }

    /// The reserve to store with `seat`'s decision now (move clock on only): what the
    /// decision took beyond the clock's seconds comes out of it, and a clock that ran
    /// out leaves none.
    fn reserve_after(&self, seat: Seat, by_computer: bool) -> Option<u32> {
        let timing = self.state.timing;
        if timing.move_clock == 0 || self.state.seats[seat].as_ref().is_none_or(Occupant::computer) {
            return None;
        }
        let left = self.state.reserve[seat];
        if self.turns.clocked_out(seat) {
            return Some(0);
        }
        // Charged only while the clock ran for the decision (a paused table, where
        // nobody is kept waiting, charges nothing).
        match (self.turns.current(), self.deadline()) {
            (Some((s, since)), Some((clocked, Deadline::MoveClock, _)))
                if s == seat && clocked == seat && !by_computer =>
            {
                Some(turn::reserve_after(timing, left, since.elapsed()))
            }
            _ => Some(left),
        }
    }

    async fn set_timing(&mut self, timing: Timing) -> Result<(), Refusal> {
        timing.validate().map_err(|e| Refusal::new(ErrorCode::BadTiming, e))?;
        if timing != self.state.timing {
            self.commit(Entry::TimingSet { timing }).await?;
            self.publish();
        }
        Ok(())
    }

    /// A new table's timing and, for "play with computers", three computers of the
    /// given level and the start (the creator is seat 0 and the host).
    async fn setup(
        &mut self,
        timing: Option<Timing>,
        computers: Option<Level>,
        practice: Option<Box<super::PracticeStart>>,
    ) -> Result<(), Refusal> {
        if let Some(timing) = timing {
            self.set_timing(timing).await?;
        }
        if let Some(p) = &practice {
            let host = self.state.host;
            self.swap(host, host, p.seat).await?;
        }
        if let Some(level) = computers {
            let host = self.state.host;
            for seat in Seat::ALL {
                if self.state.seats[seat].is_none() {
                    self.add_computer(host, seat, level).await?;
                }
            }
            match practice {
                Some(p) => self.deal_practice(p.deal).await?,
                None => self.start(host).await?,
            }
        }
        Ok(())
    }

    /// Starts a practice table's game: the round's seed dealt again (the table's
    /// options name its dealer, R2), then the round's actions before the practice's
    /// start, each stored like any action so that a restart replays them. The
    /// computers see each of them, as they would have at the table, so they know
    /// which cards are gone.
    async fn deal_practice(&mut self, deal: jass_engine::Practice) -> Result<(), Refusal> {
        self.require_lobby()?;
        let number = self.state.games + 1;
        self.commit(Entry::GameStarted { game: number, seed: deal.seed }).await?;
        for sa in deal.actions {
            self.show_computers(false);
            let entry = Entry::Action { seat: sa.seat, action: sa.action, next_seed: None, reserve: None };
            self.commit(entry).await?;
        }
        info!(game = number, "practice game started");
        self.publish();
        Ok(())
    }

    /// Deals a new game with the current options (start and rematch).
    async fn new_game(&mut self) -> Result<(), Refusal> {
        // The engine refuses options out of range; the options were checked when set,
        // so this only guards a table restored from an older server.
        self.state.options.validate().map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
        let number = self.state.games + 1;
        self.commit(Entry::GameStarted { game: number, seed: fresh_seed() }).await?;
        info!(game = number, "game started");
        self.publish();
        Ok(())
    }

    async fn start(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        self.require_lobby()?;
        if self.state.has_free_seat() {
            return Err(Refusal::new(ErrorCode::NotEnoughPlayers, "four players are needed"));
        }
        self.new_game().await
    }

    async fn swap(&mut self, seat: Seat, a: Seat, b: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        self.require_lobby()?;
        if a == b {
            return Ok(());
        }
        self.commit(Entry::Swapped { a, b }).await?;
        // Open sockets follow their players (seat indices are 0..4: in bounds).
        self.conns.swap(a, b);
        self.publish();
        Ok(())
    }

    async fn free(&mut self, seat: Seat, target: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        if target == self.state.host {
            return Err(Refusal::new(ErrorCode::BadMessage, "the host cannot free their own seat"));
        }
        if self.state.seats[target].is_none() {
            return Ok(());
        }
        self.commit(Entry::Freed { seat: target }).await?;
        self.vacate(target);
        Ok(())
    }

    /// The host puts a computer in a free seat (in the lobby, or during a game).
    async fn add_computer(&mut self, seat: Seat, target: Seat, level: Level) -> Result<(), Refusal> {
        self.require_host(seat)?;
        if self.state.seats[target].is_some() {
            return Err(Refusal::new(ErrorCode::SeatTaken, format!("seat {target} is taken")));
        }
        self.commit(Entry::ComputerSeated { seat: target, level }).await?;
        info!(seat = %target, ?level, "computer seated");
        self.publish();
        Ok(())
    }

    /// The host lets the computer play a player's seat: the player keeps the seat and
    /// token, is told so in every view (`benched`) and watches on without a hand, and
    /// the host can give it back in one step ([`Self::give_back`]). Freeing the seat
    /// instead would throw the player out with a revoked token and no word why.
    async fn give_to_computer(&mut self, seat: Seat, target: Seat, level: Level) -> Result<(), Refusal> {
        self.require_host(seat)?;
        if target == self.state.host {
            return Err(Refusal::new(ErrorCode::BadMessage, "the host cannot give their own seat away"));
        }
        match &self.state.seats[target] {
            None => {
                return Err(Refusal::new(
                    ErrorCode::BadMessage,
                    format!("seat {target} is free: add a computer"),
                ));
            }
            Some(o) if o.computer() => {
                return Err(Refusal::new(ErrorCode::BadMessage, format!("a computer holds seat {target}")));
            }
            Some(o) if o.benched => return Ok(()),
            Some(_) => {}
        }
        self.commit(Entry::GivenToComputer { seat: target, level }).await?;
        self.turns.clear(target);
        info!(seat = %target, ?level, "seat given to the computer");
        self.publish();
        Ok(())
    }

    /// The host gives a seat the computer plays since [`Self::give_to_computer`] back
    /// to its player, whose open connection sees the hand again at once.
    async fn give_back(&mut self, seat: Seat, target: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        if !self.state.benched(target) {
            return Err(Refusal::new(
                ErrorCode::BadMessage,
                format!("seat {target} was not given to the computer"),
            ));
        }
        self.commit(Entry::GivenBack { seat: target }).await?;
        info!(seat = %target, "seat given back");
        self.publish();
        Ok(())
    }

    /// After a `Freed` entry: closes the seat's connection with 4003 (its token is
    /// revoked) and gives it a fresh view channel, then tells everyone.
    fn vacate(&mut self, seat: Seat) {
        let slot = &mut self.conns[seat];
        slot.kick(Kick { code: close::BAD_TOKEN, reason: "the host freed this seat" });
        *slot = SeatConn::default();
        self.turns.clear(seat);
        info!(%seat, "seat freed");
        self.publish();
    }

    /// Undoes a join whose token never reached anyone.
    async fn release(&mut self, seat: Seat) {
        if self.conns[seat].conn.is_some() {
            return;
        }
        match self.commit(Entry::Freed { seat }).await {
            Ok(()) => self.vacate(seat),
            Err(e) => warn!(error = ?e, %seat, "could not release an unclaimed seat"),
        }
    }

    async fn vote_rematch(&mut self, seat: Seat) -> Result<(), Refusal> {
        match &self.state.game {
            None => return Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
            Some(g) if g.result().is_none() => {
                return Err(Refusal::new(ErrorCode::GameNotOver, "the game is still on"));
            }
            Some(_) => {}
        }
        let mut votes = self.state.rematch;
        votes[seat] = true;
        // Computers always want another game.
        let all = !self.state.has_free_seat()
            && Seat::ALL
                .into_iter()
                .all(|s| votes[s] || self.state.seats[s].as_ref().is_some_and(Occupant::computer));
        if all {
            // The new game's entry stands for the last vote too.
            self.new_game().await
        } else {
            // A repeated vote changes nothing, so nobody gets a new state for it.
            if votes != self.state.rematch {
                // Stored first: a restart in between must not forget who agreed.
                self.commit(Entry::RematchVote { seat }).await?;
                self.publish();
            }
            Ok(())
        }
    }
}

/// Sleeps until `deadline`, or for ever when there is none.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

thread_local! {
    /// Scratch space for encoding frames, one per worker thread: an actor encodes
    /// without awaiting, so no two encodings share it at once.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(Vec::with_capacity(4096));
}

/// Encodes `msg` into an allocation of exactly its size. The frame is kept in a watch
/// until the next change (seconds), four or five per table: growing a `String` by
/// doubling would keep up to twice the bytes and reallocate a dozen times on the way.
fn encode_exact(msg: &ServerMsg) -> Result<Utf8Bytes, String> {
    SCRATCH.with_borrow_mut(|buf| {
        buf.clear();
        serde_json::to_writer(&mut *buf, msg).map_err(|e| e.to_string())?;
        let text = std::str::from_utf8(buf).map_err(|e| e.to_string())?;
        Ok(Utf8Bytes::from(text))
    })
}
