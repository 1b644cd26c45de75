//! One task per WebSocket: `hello`, then a single `select!` loop that forwards the
//! table's views, hands requests to the table actor and answers them, sends pings,
//! and obeys kicks and shutdown. No split and no second task, so nothing needs
//! aborting.
//!
//! Hostile input never reaches the table: frames are size-checked by tungstenite,
//! rate-limited, parsed into [`ClientMsg`] (unknown types and fields refused), and
//! every refusal is an `error` frame or a documented close code.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::SinkExt;
use jass_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg, close};
use tokio::sync::{oneshot, watch};
use tokio::time::{Instant, MissedTickBehavior, timeout};
use tokio_tungstenite::tungstenite;
use tracing::{Instrument, debug, field, info, info_span};

use crate::app::App;
use crate::cluster::Missing;
use crate::ratelimit::{RateLimit, Verdict};
use crate::shutdown::Shutdown;
use crate::stats::{bump, drop_one};
use crate::table::{Attached, ConnId, Kick, Refusal, TableHandle};

/// What the server's `welcome` names as itself.
const SERVER_NAME: &str = concat!("jass-server/", env!("CARGO_PKG_VERSION"));

/// The socket is gone or broke: nothing more can be sent on it, so the connection
/// is dropped without a close frame.
#[derive(Copy, Clone, Debug)]
struct Gone;

/// What to do after one incoming frame.
enum Step {
    /// Nothing more (a control frame, or a refusal already answered).
    Continue,
    /// A well-formed client message to act on.
    Msg(ClientMsg),
    /// Close with this code and reason.
    Close(Kick),
    /// The peer is gone or the socket broke: just drop it.
    Gone,
}

/// One connection's state outside the socket.
struct Conn {
    /// The socket.
    socket: WebSocket,
    /// The server (config, shutdown).
    app: Arc<App>,
    /// This connection's id, for the table and the logs.
    id: ConnId,
    /// Token bucket (protocol.md 8).
    limit: RateLimit,
    /// Malformed messages so far; at the configured maximum the socket closes 4009.
    strikes: u32,
    /// Last frame of any kind from the peer; a peer silent too long is dropped.
    last_seen: Instant,
    /// The table id from the URL (echoed in `welcome`).
    table_id: String,
    /// A key for the client's address, for the table's per-address spectator cap.
    peer: u64,
}

/// Serves one upgraded socket for table `table_id` (`table` says why not when it is
/// not here).
///
/// Not an `async fn`: an async fn keeps its arguments (the socket) in its future next
/// to the `Conn` they are moved into, and every caller's future embeds it. The boxed
/// future holds the connection once, and the caller's task only a pointer to it.
pub(crate) fn serve(
    socket: WebSocket,
    app: &Arc<App>,
    table_id: &str,
    table: Result<TableHandle, Missing>,
    peer: std::net::IpAddr,
) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    let id = app.next_conn_id();
    // A hostile path could be long; logs and the welcome get at most 64 characters.
    let table_id: String = table_id.chars().take(64).collect();
    let span = info_span!("conn", table = %table_id, conn = id, seat = field::Empty);
    let config = &app.config;
    let limit = RateLimit::new(config.rate_burst, config.rate_per_second, config.rate_strikes);
    let peer = crate::per_ip::group(&peer);
    let conn = Conn {
        socket,
        limit,
        strikes: 0,
        last_seen: Instant::now(),
        id,
        app: Arc::clone(app),
        table_id,
        peer,
    };
    Box::pin(conn.run(table).instrument(span))
}

impl Conn {
    async fn run(mut self, table: Result<TableHandle, Missing>) {
        let mut shutdown = self.app.shutdown.clone();
        let table = match table {
            Ok(table) => table,
            Err(Missing::Unknown) => {
                let _ = self.error(None, ErrorCode::UnknownTable, "no such table").await;
                return self.close(Kick { code: close::UNKNOWN_TABLE, reason: "unknown table" }).await;
            }
            Err(Missing::NotNow) => {
                let _ = self.error(None, ErrorCode::Busy, "the table is not served here right now").await;
                return self.close(Kick { code: close::TRY_AGAIN_LATER, reason: "try again" }).await;
            }
        };
        // Cold paths (hello, close, a request) are boxed: a socket's task then holds
        // only the idle select loop's state between frames, not the largest path's
        // (measured: 3000 bytes per socket before, see the memory example).
        let (token, hello_id) = match Box::pin(self.hello(&mut shutdown)).await {
            Ok(said) => said,
            Err(Some(k)) => return Box::pin(self.close(k)).await,
            Err(None) => return,
        };
        let attached = match table.attach(token, self.id, self.peer).await {
            Ok(a) => a,
            Err(r) => {
                let (code, reason) = match r.code {
                    ErrorCode::BadToken => (close::BAD_TOKEN, "bad token"),
                    ErrorCode::Busy => (close::TRY_AGAIN_LATER, "try again later"),
                    _ if shutdown.is_cancelled() => (close::SERVICE_RESTART, "server restarting"),
                    _ => (close::UNKNOWN_TABLE, "unknown table"),
                };
                let _ = self.refusal(hello_id, r).await;
                return Box::pin(self.close(Kick { code, reason })).await;
            }
        };
        if let Some(seat) = attached.seat {
            tracing::Span::current().record("seat", field::display(seat));
        }
        info!(spectator = attached.seat.is_none(), "attached");
        let stats = &self.app.stats;
        let gauge = if attached.seat.is_some() {
            &stats.counters.seats_connected
        } else {
            &stats.counters.spectators
        };
        bump(gauge);
        let seated = attached.seat.is_some();
        let end = self.attached(&table, attached, hello_id, &mut shutdown).await;
        let stats = &self.app.stats;
        drop_one(if seated { &stats.counters.seats_connected } else { &stats.counters.spectators });
        table.detach(self.id).await;
        if let Some(k) = end {
            Box::pin(self.close(k)).await;
        }
        debug!("connection closed");
    }

    /// Waits for a valid `hello`; returns its token and `id`, or how to close.
    async fn hello(
        &mut self,
        shutdown: &mut Shutdown,
    ) -> Result<(Option<String>, Option<u64>), Option<Kick>> {
        let deadline = Instant::now() + self.app.config.hello_timeout;
        loop {
            let frame = tokio::select! {
                () = tokio::time::sleep_until(deadline) => {
                    return Err(Some(Kick { code: close::HELLO_TIMEOUT, reason: "no hello in time" }));
                }
                () = shutdown.cancelled() => return Err(Some(Kick { code: close::SERVICE_RESTART, reason: "server restarting" })),
                frame = self.socket.recv() => frame,
            };
            match self.on_frame(frame).await {
                Step::Continue => {}
                Step::Close(k) => return Err(Some(k)),
                Step::Gone => return Err(None),
                Step::Msg(ClientMsg::Hello { protocol, token, id }) => {
                    if protocol == PROTOCOL_VERSION {
                        return Ok((token, id));
                    }
                    let text = format!("this server speaks protocol {PROTOCOL_VERSION}");
                    let _ = self.error(id, ErrorCode::UnsupportedProtocol, text).await;
                    return Err(Some(Kick { code: close::HELLO_TIMEOUT, reason: "unsupported protocol" }));
                }
                Step::Msg(other) => {
                    if self.error(other.id(), ErrorCode::HelloExpected, "send hello first").await.is_err() {
                        return Err(None);
                    }
                }
            }
        }
    }

    /// The attached loop; returns how to close (`None`: just drop the socket).
    async fn attached(
        &mut self,
        table: &TableHandle,
        attached: Attached,
        hello_id: Option<u64>,
        shutdown: &mut Shutdown,
    ) -> Option<Kick> {
        let Attached { seat, mut views, mut kick } = attached;
        // A temporary, so it is not kept for the connection's lifetime.
        self.send_msg(&ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            table: self.table_id.clone(),
            seat,
            server: SERVER_NAME.to_owned(),
            id: hello_id,
        })
        .await
        .ok()?;
        self.send_state(&mut views).await.ok()?;
        let away_after = self.app.config.away_after;
        // Pinged at half the away time, a live peer answers long before it would be
        // shown away, whether or not it sends the `ping` heartbeat itself (bots).
        let period = self.app.config.ping_interval.min(away_after / 2).max(Duration::from_millis(1));
        // Whether the table was told this seat's peer is silent (protocol.md 2).
        let mut away = false;
        // Each connection pings at its own phase: connections opened together (a
        // restart's reconnects, a load test) would otherwise ping in one burst every
        // period, which showed as a latency spike every 15 s in the load bench.
        let phase = period.mul_f64(rand::random_range(0.5..1.5));
        let mut ping = tokio::time::interval_at(Instant::now() + phase, period);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        // When the peer will have been silent for the away time if nothing comes in
        // first: a timer of its own, so the table hears it then and not at the next
        // ping, up to half the away time later. A live peer resets it when it fires,
        // about once per away time.
        let away_at = tokio::time::sleep_until(self.last_seen + away_after);
        tokio::pin!(away_at);
        loop {
            tokio::select! {
                biased;
                k = kicked(&mut kick) => {
                    info!(code = k.code, "closed by the table");
                    return Some(k);
                }
                () = shutdown.cancelled() => return Some(Kick { code: close::SERVICE_RESTART, reason: "server restarting" }),
                changed = views.changed() => {
                    if changed.is_err() {
                        // The table dropped this view: stopping, moving to another
                        // node, or this seat was freed (the kick arrives first when it
                        // was). Its last state still goes out first; the client then
                        // reconnects and finds the table where it is served now.
                        if let Some(frame) = unseen(&mut views) {
                            self.send(Message::Text(frame)).await.ok()?;
                        }
                        return Some(Kick { code: close::SERVICE_RESTART, reason: "table closed" });
                    }
                    self.send_state(&mut views).await.ok()?;
                }
                frame = self.socket.recv() => {
                    let step = Box::pin(self.on_frame(frame)).await;
                    if away && matches!(step, Step::Continue | Step::Msg(_)) {
                        // Back before its message: the others see it present, then its move.
                        away = false;
                        debug!("peer heard from again");
                        table.presence(self.id, false).await;
                    }
                    match step {
                        Step::Continue => {}
                        Step::Close(k) => return Some(k),
                        Step::Gone => return None,
                        Step::Msg(msg) => Box::pin(self.handle(table, msg, &mut views)).await.ok()?,
                    }
                },
                _ = ping.tick() => {
                    let silent = self.last_seen.elapsed();
                    if silent > self.app.config.pong_timeout {
                        info!("peer stopped answering pings, dropping it");
                        return None;
                    }
                    // A peer heard from within the period is alive; a ping would only
                    // add a frame each way.
                    if silent >= period {
                        self.send(Message::Ping(axum::body::Bytes::new())).await.ok()?;
                    }
                }
                () = &mut away_at, if seat.is_some() && !away => {
                    let due = self.last_seen + away_after;
                    if Instant::now() >= due {
                        away = true;
                        info!(silent_ms = self.last_seen.elapsed().as_millis(), "peer silent, shown as away");
                        table.presence(self.id, true).await;
                    } else {
                        away_at.as_mut().reset(due);
                    }
                }
            }
        }
    }

    /// Answers one attached-phase message.
    async fn handle(
        &mut self,
        table: &TableHandle,
        msg: ClientMsg,
        views: &mut watch::Receiver<Utf8Bytes>,
    ) -> Result<(), Gone> {
        match msg {
            ClientMsg::Ping { t, id } => self.send_msg(&ServerMsg::Pong { t, id }).await,
            ClientMsg::Hello { id, .. } => {
                self.error(id, ErrorCode::HelloExpected, "hello was already said").await
            }
            msg => {
                let id = msg.id();
                let result = table.request(self.id, msg).await;
                // The state this request produced goes out before its ack, so a client
                // that sees the ack already holds the new view; queued only, so the
                // two leave in one write when the ack is flushed. Asked of the value,
                // not the channel: a table stopping (SIGTERM) drops its sender right
                // after answering, and `Receiver::has_changed` then errs although the
                // new state is there (protocol.md 2: the state before its `ack`).
                if let Some(frame) = unseen(views) {
                    self.feed(Message::Text(frame)).await?;
                }
                match result {
                    Ok(()) => {
                        bump(&self.app.stats.counters.actions_accepted);
                        self.send_msg(&ServerMsg::Ack { id }).await
                    }
                    Err(r) => self.refusal(id, r).await,
                }
            }
        }
    }

    /// Rate limit, size, UTF-8 and parse checks for one incoming frame.
    async fn on_frame(&mut self, frame: Option<Result<Message, axum::Error>>) -> Step {
        self.last_seen = Instant::now();
        let msg = match frame {
            None => return Step::Gone,
            Some(Err(e)) => return close_for(&e),
            Some(Ok(m)) => m,
        };
        // Control frames count against the budget like messages (protocol.md 8):
        // tungstenite answers every ping by itself, so an uncounted ping flood would
        // be answered without end.
        let text = match msg {
            Message::Ping(_) | Message::Pong(_) => None,
            Message::Close(_) => return Step::Gone,
            Message::Text(t) => Some(Some(t)),
            Message::Binary(_) => Some(None),
        };
        let verdict = self.limit.check();
        if verdict != Verdict::Allow {
            // A refused request still gets its one answer with its `id`
            // (protocol.md 2): a client waiting for it would otherwise wait for ever.
            let id = text.as_ref().and_then(|t| t.as_deref()).and_then(request_id);
            let sent = self.error(id, ErrorCode::RateLimited, "too many messages; slow down").await;
            if verdict == Verdict::Flood {
                bump(&self.app.stats.counters.rate_limited_closes);
                return Step::Close(Kick { code: close::RATE_LIMITED, reason: "rate limit exceeded" });
            }
            return if sent.is_ok() { Step::Continue } else { Step::Gone };
        }
        let Some(text) = text else { return Step::Continue };
        let Some(text) = text else {
            return self.malformed(None, "binary frames are not part of the protocol".to_owned()).await;
        };
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => {
                self.app.stats.message_in(&msg);
                Step::Msg(msg)
            }
            Err(e) => {
                let id = request_id(&text);
                self.malformed(id, e.to_string()).await
            }
        }
    }

    /// Counts a strike and answers `bad_message`, or closes with 4009.
    async fn malformed(&mut self, id: Option<u64>, why: String) -> Step {
        self.strikes += 1;
        bump(&self.app.stats.counters.malformed);
        debug!(strikes = self.strikes, %why, "malformed message");
        if self.error(id, ErrorCode::BadMessage, why).await.is_err() {
            return Step::Gone;
        }
        if self.strikes >= self.app.config.malformed_strikes {
            Step::Close(Kick { code: close::TOO_MANY_ERRORS, reason: "too many malformed messages" })
        } else {
            Step::Continue
        }
    }

    async fn send(&mut self, msg: Message) -> Result<(), Gone> {
        // Boxed: the timer and the send are large and only live while a frame goes out.
        let sent = Box::pin(timeout(self.app.config.send_timeout, self.socket.send(msg))).await;
        self.written(sent)
    }

    /// Queues a frame without flushing; the next `send` writes it out with its own.
    async fn feed(&mut self, msg: Message) -> Result<(), Gone> {
        let queued = Box::pin(timeout(self.app.config.send_timeout, self.socket.feed(msg))).await;
        self.written(queued)
    }

    /// A write's outcome: a peer that does not read (full buffer, timeout) is counted
    /// and dropped, as is one whose socket failed.
    fn written(&self, r: Result<Result<(), axum::Error>, tokio::time::error::Elapsed>) -> Result<(), Gone> {
        match r {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                if is_write_buffer_full(&e) {
                    bump(&self.app.stats.counters.slow_send_closes);
                }
                Err(Gone)
            }
            Err(_) => {
                debug!("peer is not reading, dropping it");
                bump(&self.app.stats.counters.slow_send_closes);
                Err(Gone)
            }
        }
    }

    async fn send_msg(&mut self, msg: &ServerMsg) -> Result<(), Gone> {
        let text = serde_json::to_string(msg).map_err(|_| Gone)?;
        self.send(Message::Text(text.into())).await
    }

    /// Sends the newest state (skipping any this socket did not get to).
    async fn send_state(&mut self, views: &mut watch::Receiver<Utf8Bytes>) -> Result<(), Gone> {
        // Clone the frame (a refcount) so the borrow ends before the await.
        let frame = views.borrow_and_update().clone();
        if frame.is_empty() {
            return Ok(());
        }
        self.send(Message::Text(frame)).await
    }

    async fn error(
        &mut self,
        id: Option<u64>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Result<(), Gone> {
        self.app.stats.rejected(code);
        self.send_msg(&ServerMsg::Error { id, code, message: message.into() }).await
    }

    async fn refusal(&mut self, id: Option<u64>, r: Refusal) -> Result<(), Gone> {
        self.error(id, r.code, r.message).await
    }

    /// Sends a close frame and waits briefly for the peer's reply.
    async fn close(mut self, Kick { code, reason }: Kick) {
        debug!(code, reason, "closing");
        let frame = CloseFrame { code, reason: Utf8Bytes::from_static(reason) };
        if self.send(Message::Close(Some(frame))).await.is_err() {
            return;
        }
        let _ = timeout(self.app.config.close_linger, async {
            while let Some(Ok(m)) = self.socket.recv().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}

/// The `id` of a frame that is not (or not yet) parsed as a message, when it has a
/// readable one: its answer must echo it.
fn request_id(text: &str) -> Option<u64> {
    /// Only the `id`; every other field is skipped unparsed.
    #[derive(serde::Deserialize)]
    struct Probe {
        id: Option<u64>,
    }
    serde_json::from_str::<Probe>(text).ok().and_then(|p| p.id)
}

/// The newest state if this socket has not seen it yet, also when the table has
/// already dropped the channel's sender; marks it seen.
fn unseen(views: &mut watch::Receiver<Utf8Bytes>) -> Option<Utf8Bytes> {
    let frame = views.borrow_and_update();
    (frame.has_changed() && !frame.is_empty()).then(|| frame.clone())
}

/// The close code for a socket error: too big (1009), bad UTF-8 (1007), or just drop.
fn close_for(e: &axum::Error) -> Step {
    let inner = std::error::Error::source(e);
    match inner.and_then(|s| s.downcast_ref::<tungstenite::Error>()) {
        Some(tungstenite::Error::Capacity(_)) => {
            Step::Close(Kick { code: close::TOO_BIG, reason: "frame too big" })
        }
        Some(tungstenite::Error::Utf8(_)) => {
            Step::Close(Kick { code: close::INVALID_UTF8, reason: "invalid UTF-8" })
        }
        Some(tungstenite::Error::Protocol(_)) => {
            Step::Close(Kick { code: close::PROTOCOL_ERROR, reason: "protocol error" })
        }
        _ => Step::Gone,
    }
}

/// Whether a send failed because the peer let the write buffer fill up.
fn is_write_buffer_full(e: &axum::Error) -> bool {
    let inner = std::error::Error::source(e);
    matches!(
        inner.and_then(|s| s.downcast_ref::<tungstenite::Error>()),
        Some(tungstenite::Error::WriteBufferFull(_))
    )
}

/// Resolves with the table's kick, or never (spectators, or the table went away).
async fn kicked(kick: &mut Option<oneshot::Receiver<Kick>>) -> Kick {
    if let Some(rx) = kick.as_mut()
        && let Ok(k) = rx.await
    {
        return k;
    }
    *kick = None;
    std::future::pending().await
}
