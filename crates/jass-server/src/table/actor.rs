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
//!    the spectator view; `version` grows by one per change.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use jass_engine::{Game, Options, Seat, Seed, Viewer};
use jass_protocol::http::{Joined, TableInfo};
use jass_protocol::{ClientMsg, ErrorCode, SeatInfo, ServerMsg, TableView, close};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tracing::{Instrument, debug, info, info_span, warn};

use super::{Attached, BySeat, ConnId, Kick, Refusal, TableCmd, TableHandle};
use crate::registry::Registry;
use crate::shutdown::{Shutdown, TaskGuard};
use crate::store::{Entry, Store};
use crate::table::rebuild::Rebuilt;

/// Longest player name, in characters (protocol.md 1).
const MAX_NAME_CHARS: usize = 24;

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
}

/// Starts a table's actor. The `Created` entry is stored before any command is
/// handled, so the store sees a table's history in order.
pub(crate) fn spawn(s: Spawn) -> TableHandle {
    launch(s, None)
}

/// Starts the actor of a table rebuilt from its stored entries (restart recovery).
/// Players come back with their tokens; nothing is written until something changes.
pub(crate) fn restore(s: Spawn, rebuilt: Rebuilt) -> TableHandle {
    launch(s, Some(rebuilt))
}

fn launch(s: Spawn, rebuilt: Option<Rebuilt>) -> TableHandle {
    let (tx, rx) = mpsc::channel(s.mailbox.max(1));
    let span = info_span!("table", table = %s.id);
    let fresh = rebuilt.is_none();
    let mut actor = TableActor {
        id: s.id,
        options: s.options,
        host: Seat::ALL[0],
        seats: BySeat::default(),
        spectators: HashSet::new(),
        game: None,
        games: 0,
        rematch: [false; 4],
        version: 0,
        spectator_view: watch::channel(Utf8Bytes::from_static("")).0,
        store: s.store,
        registry: s.registry,
        idle_timeout: s.idle_timeout,
        last_activity: Instant::now(),
    };
    if let Some(r) = rebuilt {
        actor.options = r.options;
        actor.host = r.host;
        for (seat, stored) in Seat::ALL.into_iter().zip(r.seats) {
            if let Some((name, hash)) = stored {
                let slot = actor.seats.at_mut(seat);
                slot.name = Some(name);
                slot.token_hash = Some(hash);
            }
        }
        actor.game = r.game;
        actor.games = r.games;
        actor.rematch = r.rematch;
        // Versions start above anything a client can hold from before the restart
        // only by chance; every client re-attaches and gets a fresh state first.
        actor.version = u64::try_from(r.used).unwrap_or(0);
    }
    // Boxed: a task that owns its actor by value keeps it twice in its state (once
    // as the captured argument, once as the moved local), about 1.8 KB per table.
    tokio::spawn(Box::new(actor).run(rx, s.shutdown, s.guard, fresh).instrument(span));
    TableHandle { tx }
}

/// One seat as the table keeps it.
#[derive(Debug)]
struct SeatSlot {
    /// The player's name; `None` while the seat is free.
    name: Option<String>,
    /// SHA-256 of the seat token: the token itself is never kept.
    token_hash: Option<[u8; 32]>,
    /// The live connection and the way to close it (replaced, freed).
    conn: Option<(ConnId, oneshot::Sender<Kick>)>,
    /// The occupant's `state` frames. It belongs to the occupant, not the seat
    /// number: a swap moves it along, and freeing the seat replaces it so a revoked
    /// connection never sees the next occupant's hand.
    view: watch::Sender<Utf8Bytes>,
}

impl Default for SeatSlot {
    fn default() -> Self {
        Self { name: None, token_hash: None, conn: None, view: watch::channel(Utf8Bytes::from_static("")).0 }
    }
}

impl SeatSlot {
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
    /// The options the next game starts with (and the current game runs with).
    options: Options,
    /// The host's seat; it follows the host through swaps.
    host: Seat,
    /// The four seats.
    seats: BySeat<SeatSlot>,
    /// Spectator connections, counted in every view.
    spectators: HashSet<ConnId>,
    /// The game, once started.
    game: Option<Game>,
    /// Games started here (rematches count).
    games: u32,
    /// Rematch votes by seat.
    rematch: [bool; 4],
    /// Grows by one per change; clients send it back with actions (stale check).
    version: u64,
    /// The spectators' `state` frames.
    spectator_view: watch::Sender<Utf8Bytes>,
    /// Durability before publication.
    store: Arc<dyn Store>,
    /// To remove this table when it goes idle.
    registry: Arc<Registry>,
    /// See [`Spawn::idle_timeout`].
    idle_timeout: Duration,
    /// Last command handled, for the idle timer.
    last_activity: Instant,
}

/// The record of a finished game (seeds revealed, R12), or why there is none yet.
pub(crate) fn finished_record(game: Option<&Game>) -> Result<jass_engine::Record, Refusal> {
    match game {
        None => Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
        Some(g) if g.result().is_none() => {
            Err(Refusal::new(ErrorCode::GameNotOver, "the record is published when the game is over"))
        }
        Some(g) => Ok(g.to_record()),
    }
}

/// 32 bytes from the OS-seeded thread CSPRNG: one per round (R2, R12).
fn fresh_seed() -> Seed {
    Seed(rand::random())
}

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The trimmed name if it is 1–24 characters without control characters.
pub(crate) fn valid_name(name: &str) -> Option<String> {
    let name = name.trim();
    let n = name.chars().count();
    ((1..=MAX_NAME_CHARS).contains(&n) && !name.chars().any(char::is_control)).then(|| name.to_owned())
}

fn internal(e: impl std::fmt::Display) -> Refusal {
    warn!(error = %e, "store refused a change");
    Refusal::new(ErrorCode::Internal, "the server could not save this; nothing changed")
}

impl TableActor {
    async fn run(
        mut self: Box<Self>,
        mut rx: mpsc::Receiver<TableCmd>,
        mut shutdown: Shutdown,
        _guard: TaskGuard,
        fresh: bool,
    ) {
        if fresh && let Err(e) = self.store.append(&self.id, Entry::Created { options: self.options }).await {
            warn!(error = %e, "could not store the new table");
        }
        self.publish();
        loop {
            let idle = self.is_idle().then(|| self.last_activity + self.idle_timeout);
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        // Looking at the table (info) does not keep it alive.
                        if !matches!(cmd, TableCmd::Info { .. }) {
                            self.last_activity = Instant::now();
                        }
                        self.handle(cmd).await;
                    }
                    None => break,
                },
                () = shutdown.wait() => break,
                () = sleep_until(idle) => {
                    // Idle tables expire; a finished game keeps its record (issue: durable
                    // tables), anything else is forgotten by the store too.
                    let finished = self.game.as_ref().is_some_and(|g| g.result().is_some());
                    info!(finished, "table idle, dropping it");
                    if !finished && let Err(e) = self.store.forget(&self.id).await {
                        warn!(error = %e, "could not delete an expired table");
                    }
                    break;
                }
            }
        }
        self.registry.remove(&self.id);
        debug!("table actor stopped");
    }

    /// Nobody is connected.
    fn is_idle(&self) -> bool {
        self.spectators.is_empty() && self.seats.iter().all(|(_, s)| s.conn.is_none())
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
            TableCmd::Record { reply } => {
                let _ = reply.send(finished_record(self.game.as_ref()));
            }
            TableCmd::Attach { token, conn, reply } => {
                let r = self.attach(token.as_deref(), conn);
                // The connection is gone already: do not show it as connected.
                if let Err(Ok(_)) = reply.send(r) {
                    self.detach(conn);
                }
            }
            TableCmd::Detach { conn } => self.detach(conn),
            TableCmd::Request { conn, msg, reply } => {
                let r = self.request(conn, *msg).await;
                let _ = reply.send(r);
            }
        }
    }

    fn seat_infos(&self) -> [SeatInfo; 4] {
        self.seats.0.each_ref().map(|s| SeatInfo { name: s.name.clone(), connected: s.conn.is_some() })
    }

    fn spectator_count(&self) -> u32 {
        u32::try_from(self.spectators.len()).unwrap_or(u32::MAX)
    }

    fn info(&self) -> TableInfo {
        TableInfo {
            table: self.id.to_string(),
            seats: self.seat_infos(),
            options: self.options,
            started: self.game.is_some(),
            spectators: self.spectator_count(),
        }
    }

    /// One connection's `state` frame, encoded once and shared by its watchers.
    fn encode(&self, you: Option<Seat>) -> Option<Utf8Bytes> {
        let viewer = you.map_or(Viewer::Spectator, Viewer::Seat);
        let view = TableView {
            table: self.id.to_string(),
            you,
            host: self.host,
            seats: self.seat_infos(),
            spectators: self.spectator_count(),
            options: self.options,
            games: self.games,
            rematch: self.rematch,
            game: self.game.as_ref().map(|g| g.view(viewer)),
        };
        match encode_exact(&ServerMsg::State { version: self.version, view: Box::new(view) }) {
            Ok(frame) => Some(frame),
            Err(e) => {
                warn!(error = %e, "could not encode a state");
                None
            }
        }
    }

    /// Bumps the version and hands every connection its new view.
    fn publish(&mut self) {
        self.version += 1;
        for seat in Seat::ALL {
            if let Some(frame) = self.encode(Some(seat)) {
                self.seats.at(seat).view.send_replace(frame);
            }
        }
        // Nobody watching: skip the fifth encoding. A spectator who arrives is counted
        // before the publish its attach triggers, so it still starts from a fresh frame.
        if !self.spectators.is_empty()
            && let Some(frame) = self.encode(None)
        {
            self.spectator_view.send_replace(frame);
        }
    }

    async fn join(&mut self, name: &str, want: Option<Seat>) -> Result<Joined, Refusal> {
        let name =
            valid_name(name).ok_or_else(|| Refusal::new(ErrorCode::BadName, "names are 1–24 characters"))?;
        let seat = match want {
            Some(s) if self.seats.at(s).name.is_some() => {
                return Err(Refusal::new(ErrorCode::SeatTaken, format!("seat {s} is taken")));
            }
            Some(s) => s,
            None => self
                .seats
                .iter()
                .find(|(_, slot)| slot.name.is_none())
                .map(|(s, _)| s)
                .ok_or_else(|| Refusal::new(ErrorCode::TableFull, "every seat is taken"))?,
        };
        let token = uuid::Uuid::new_v4().simple().to_string();
        let token_hash = hash_token(&token);
        self.store
            .append(&self.id, Entry::Seated { seat, name: name.clone(), token_hash })
            .await
            .map_err(internal)?;
        let slot = self.seats.at_mut(seat);
        slot.name = Some(name);
        slot.token_hash = Some(token_hash);
        info!(%seat, "seat taken");
        self.publish();
        Ok(Joined { table: self.id.to_string(), seat, token, link: format!("/t/{}", self.id) })
    }

    fn attach(&mut self, token: Option<&str>, conn: ConnId) -> Result<Attached, Refusal> {
        let Some(token) = token else {
            self.spectators.insert(conn);
            self.publish();
            return Ok(Attached { seat: None, views: self.spectator_view.subscribe(), kick: None });
        };
        let hash = hash_token(token);
        let seat =
            self.seats.iter().find(|(_, slot)| slot.token_hash == Some(hash)).map(|(s, _)| s).ok_or_else(
                || Refusal::new(ErrorCode::BadToken, "this token matches no seat of the table"),
            )?;
        let (kick_tx, kick_rx) = oneshot::channel();
        let slot = self.seats.at_mut(seat);
        slot.kick(Kick { code: close::REPLACED, reason: "another connection took this seat" });
        slot.conn = Some((conn, kick_tx));
        let views = slot.view.subscribe();
        info!(%seat, conn, "seat connected");
        self.publish();
        Ok(Attached { seat: Some(seat), views, kick: Some(kick_rx) })
    }

    fn detach(&mut self, conn: ConnId) {
        if self.spectators.remove(&conn) {
            self.publish();
            return;
        }
        let seat = self.seat_of(conn);
        if let Some(seat) = seat {
            self.seats.at_mut(seat).conn = None;
            info!(%seat, conn, "seat disconnected");
            self.publish();
        }
    }

    /// The seat `conn` currently plays (a replaced connection plays none).
    fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.seats.iter().find(|(_, slot)| matches!(slot.conn, Some((c, _)) if c == conn)).map(|(s, _)| s)
    }

    fn require_host(&self, seat: Seat) -> Result<(), Refusal> {
        if seat == self.host {
            Ok(())
        } else {
            Err(Refusal::new(ErrorCode::NotHost, "only the host may do that"))
        }
    }

    fn require_lobby(&self) -> Result<(), Refusal> {
        if self.game.is_some() {
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
            return self.act(seat, msg.version(), action).await;
        }
        match msg {
            ClientMsg::Start { .. } => self.start(seat).await,
            ClientMsg::SwapSeats { a, b, .. } => self.swap(seat, a, b).await,
            ClientMsg::FreeSeat { seat: target, .. } => self.free(seat, target).await,
            ClientMsg::SetOptions { preset, options, .. } => {
                self.require_host(seat)?;
                self.require_lobby()?;
                let options = jass_protocol::options_from(preset, options.as_ref())
                    .map_err(|e| Refusal::new(ErrorCode::BadOptions, e))?;
                self.store.append(&self.id, Entry::OptionsSet { options }).await.map_err(internal)?;
                self.options = options;
                self.publish();
                Ok(())
            }
            ClientMsg::Rematch { .. } => self.vote_rematch(seat).await,
            ClientMsg::Hello { .. } => Err(Refusal::new(ErrorCode::HelloExpected, "hello was already said")),
            _ => Err(Refusal::new(ErrorCode::BadMessage, "not a table request")),
        }
    }

    async fn act(
        &mut self,
        seat: Seat,
        version: Option<u64>,
        action: jass_engine::Action,
    ) -> Result<(), Refusal> {
        let Some(game) = &self.game else {
            return Err(Refusal::new(ErrorCode::NotStarted, "the game has not started"));
        };
        if let Some(v) = version
            && v != self.version
        {
            return Err(Refusal::new(
                ErrorCode::Stale,
                format!("decided on version {v}, the table is at {}", self.version),
            ));
        }
        // Check first, store second, apply last: the game changes only once the store
        // has the action, and an action that passed `validate` cannot fail to apply.
        game.validate(seat, &action).map_err(|e| Refusal::new(ErrorCode::from_rule(&e), e.to_string()))?;
        let dealt = (matches!(action, jass_engine::Action::Play { .. }) && game.next_card_ends_round())
            .then(fresh_seed);
        self.store
            .append(&self.id, Entry::Action { seat, action: action.clone(), next_seed: dealt })
            .await
            .map_err(internal)?;
        let Some(game) = self.game.as_mut() else {
            return Err(Refusal::new(ErrorCode::NotStarted, "the game has not started"));
        };
        let applied = game.apply(seat, action.clone(), || dealt.unwrap_or_else(fresh_seed));
        if let Err(e) = applied {
            // Unreachable by the engine's contract (validate == apply's check); say so loudly.
            warn!(error = %e, "an action that passed validation was refused");
            return Err(Refusal::new(ErrorCode::Internal, "the server could not apply this"));
        }
        debug!(?action, "accepted");
        if let Some(result) = game.result() {
            info!(?result, "game over");
        }
        self.publish();
        Ok(())
    }

    /// Deals a new game with the current options (start and rematch).
    async fn new_game(&mut self) -> Result<(), Refusal> {
        let seed = fresh_seed();
        // Boxed while the store writes: a game held across an `.await` would sit in
        // every table task's state, used or not (a whole game per table).
        let game = Box::new(
            Game::new(self.options, seed).map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?,
        );
        let number = self.games + 1;
        self.store.append(&self.id, Entry::GameStarted { game: number, seed }).await.map_err(internal)?;
        self.game = Some(*game);
        self.games = number;
        self.rematch = [false; 4];
        info!(game = number, "game started");
        self.publish();
        Ok(())
    }

    async fn start(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        self.require_lobby()?;
        if self.seats.iter().any(|(_, s)| s.name.is_none()) {
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
        self.store.append(&self.id, Entry::Swapped { a, b }).await.map_err(internal)?;
        // Seat indices are 0..4, so the swap cannot go out of bounds.
        self.seats.0.swap(a.index(), b.index());
        if self.host == a {
            self.host = b;
        } else if self.host == b {
            self.host = a;
        }
        self.publish();
        Ok(())
    }

    async fn free(&mut self, seat: Seat, target: Seat) -> Result<(), Refusal> {
        self.require_host(seat)?;
        if target == self.host {
            return Err(Refusal::new(ErrorCode::BadMessage, "the host cannot free their own seat"));
        }
        if self.seats.at(target).name.is_none() {
            return Ok(());
        }
        self.store.append(&self.id, Entry::Freed { seat: target }).await.map_err(internal)?;
        self.vacate(target);
        Ok(())
    }

    /// Empties a seat: closes its connection with 4003 (its token is revoked) and
    /// gives it a fresh view channel, then tells everyone.
    fn vacate(&mut self, seat: Seat) {
        let slot = self.seats.at_mut(seat);
        slot.kick(Kick { code: close::BAD_TOKEN, reason: "the host freed this seat" });
        *slot = SeatSlot::default();
        if let Some(v) = self.rematch.get_mut(seat.index()) {
            *v = false;
        }
        info!(%seat, "seat freed");
        self.publish();
    }

    /// Undoes a join whose token never reached anyone.
    async fn release(&mut self, seat: Seat) {
        if self.seats.at(seat).conn.is_some() {
            return;
        }
        match self.store.append(&self.id, Entry::Freed { seat }).await {
            Ok(()) => self.vacate(seat),
            Err(e) => warn!(error = %e, %seat, "could not release an unclaimed seat"),
        }
    }

    async fn vote_rematch(&mut self, seat: Seat) -> Result<(), Refusal> {
        match &self.game {
            None => return Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
            Some(g) if g.result().is_none() => {
                return Err(Refusal::new(ErrorCode::GameNotOver, "the game is still on"));
            }
            Some(_) => {}
        }
        let mut votes = self.rematch;
        if let Some(v) = votes.get_mut(seat.index()) {
            *v = true;
        }
        let all = votes.iter().all(|v| *v) && self.seats.iter().all(|(_, s)| s.name.is_some());
        if all {
            // The new game's entry stands for the last vote too.
            self.new_game().await
        } else {
            if votes != self.rematch {
                // Stored first: a restart in between must not forget who agreed.
                self.store.append(&self.id, Entry::RematchVote { seat }).await.map_err(internal)?;
                self.rematch = votes;
            }
            self.publish();
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
