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
use jass_engine::{BySeat, Options};
use jass_protocol::ErrorCode;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tracing::{Instrument, debug, info, info_span, warn};

use super::conn::SeatConn;
use super::state::{TableState, finished_record};
use super::turn::Turns;
use super::{ConnId, Refusal, TableCmd, TableHandle};
use crate::registry::Registry;
use crate::shutdown::{Shutdown, TaskGuard};
use crate::store::{Entry, Store};

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
    /// Drop a table that no player ever connected to after this long: such a table
    /// only holds a slot.
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
        // downtime is not idleness, so it gets the full timeout.
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

/// The table's state; see the module docs for its invariants.
pub(super) struct TableActor {
    /// The table id (public: it is in the link).
    pub(super) id: Arc<str>,
    /// Everything durable: options, seats, host, game, votes, version.
    pub(super) state: TableState,
    /// The seats' connections and view channels.
    pub(super) conns: BySeat<SeatConn>,
    /// Spectator connections with their address key, counted in every view.
    pub(super) spectators: HashMap<ConnId, u64>,
    /// The spectators' `state` frames.
    pub(super) spectator_view: watch::Sender<Utf8Bytes>,
    /// Durability before publication.
    pub(super) store: Arc<dyn Store>,
    /// To remove this table when it goes idle.
    pub(super) registry: Arc<Registry>,
    /// See [`Spawn::idle_timeout`].
    pub(super) idle_timeout: Duration,
    /// See [`Spawn::unjoined_timeout`].
    pub(super) unjoined_timeout: Duration,
    /// See [`Spawn::max_spectators`].
    pub(super) max_spectators: usize,
    /// See [`Spawn::max_spectators_per_ip`].
    pub(super) max_spectators_per_ip: usize,
    /// Whether a player ever connected a socket to a seat here.
    pub(super) joined: bool,
    /// Last command handled, for the idle timer.
    pub(super) last_activity: Instant,
    /// When this actor started (a handoff waits [`HANDOFF_PAUSE`] after it).
    pub(super) since: Instant,
    /// The store refused an append because another node took the table over: the
    /// actor stops at once and never writes again.
    pub(super) fenced: bool,
    /// Where its rounds are reviewed.
    pub(super) reviews: Option<Arc<crate::review::Reviews>>,
    /// The latest round reviewed (game, round), said in the view.
    pub(super) reviewed: Option<(u32, u32)>,
    /// See [`Spawn::held`]; only dropped.
    pub(super) _held: Option<crate::per_ip::IpSlot>,
    /// The computer players' memories by seat; `None` for a human or free seat, and
    /// while the computer is thinking (it is then with the pool).
    pub(super) computers: BySeat<Option<Box<jass_ai::Computer>>>,
    /// Seats whose computer is thinking.
    pub(super) thinking: BySeat<bool>,
    /// The awaited decision and the seats the computer plays for now.
    pub(super) turns: Turns,
    /// See [`Spawn::computers`].
    pub(super) pool: Arc<crate::computer::Pool>,
    /// Where the pool sends the computers' decisions.
    pub(super) thought_tx: mpsc::Sender<crate::computer::Thought>,
    /// See [`Spawn::creator`].
    pub(super) group: u64,
}

impl TableActor {
    pub(super) async fn run(
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

    /// How long the table may sit with nobody connected.
    pub(super) fn idle_limit(&self) -> Duration {
        if self.joined { self.idle_timeout } else { self.unjoined_timeout.min(self.idle_timeout) }
    }

    /// Nobody is connected.
    pub(super) fn is_idle(&self) -> bool {
        self.spectators.is_empty() && self.conns.iter().all(|(_, s)| s.conn.is_none())
    }

    pub(super) async fn handle(&mut self, cmd: TableCmd) {
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
}

/// Sleeps until `deadline`, or for ever when there is none.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
