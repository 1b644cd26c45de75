//! One seat's WebSocket connection and the loop that plays it, exactly as protocol.md
//! section 2 describes: open `/ws/{table}`, send `hello` with the token, wait for
//! `welcome`, then answer each `state` (a full view) with at most one action, a think
//! time after the seat's turn came.

use std::future::Future;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use jass_engine::{GameResult, Phase, Seat};
use jass_protocol::{ClientMsg, ErrorCode, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ServerMsg, TableView};
use rand::{Rng, RngExt};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::BotError;
use crate::http::Server;
use crate::policy::Policy;

/// The socket type of a connection.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long the server may take to answer `hello` (protocol.md: at once).
const WELCOME_TIMEOUT: Duration = Duration::from_secs(10);

/// Refusals in a row after which the bot gives up rather than loop: a bot that keeps
/// being refused has a bug worth seeing.
const MAX_REFUSALS_IN_A_ROW: u32 = 20;

/// Small socket buffers: a view is a few KiB, and the load bench holds thousands of
/// sockets in one process (tungstenite's defaults are 128 KiB each way).
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(1 << 20))
        .max_frame_size(Some(1 << 20))
}

/// What `welcome` told the connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    /// The table id.
    pub table: String,
    /// The seat this connection plays (`None`: spectator).
    pub seat: Option<Seat>,
    /// The server's name and version.
    pub server: String,
}

/// A welcomed connection, ready to play.
pub struct Connection {
    /// The socket; frames after `welcome` are still unread.
    ws: Ws,
    /// The server's `welcome`.
    pub welcome: Welcome,
}

impl Connection {
    /// Opens the table's socket and says `hello` (no token: spectator); returns once
    /// `welcome` arrived.
    ///
    /// # Errors
    /// The network, an upgrade refused (e.g. 503 `busy`), an `error` instead of
    /// `welcome` (e.g. `bad_token`), or a close (e.g. 4004 unknown table).
    pub async fn open(server: &Server, table: &str, token: Option<&str>) -> Result<Self, BotError> {
        let url = server.ws_url(table);
        let tcp = server.connect().await?;
        tcp.set_nodelay(true)?;
        let stream = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
        let (mut ws, _) =
            tokio_tungstenite::client_async_with_config(url.as_str(), stream, Some(ws_config())).await?;
        let hello =
            ClientMsg::Hello { protocol: PROTOCOL_VERSION, token: token.map(str::to_owned), id: None };
        send(&mut ws, &hello).await?;
        let welcome = tokio::time::timeout(WELCOME_TIMEOUT, async {
            loop {
                match next_msg(&mut ws).await? {
                    ServerMsg::Welcome { protocol, table, seat, server, .. } => {
                        if protocol != PROTOCOL_VERSION {
                            return Err(BotError::Protocol(format!("server speaks protocol {protocol}")));
                        }
                        return Ok(Welcome { table, seat, server });
                    }
                    ServerMsg::Error { code, message, .. } => {
                        return Err(BotError::Refused { code, message });
                    }
                    _ => {}
                }
            }
        })
        .await
        .map_err(|_| BotError::Protocol(format!("no welcome within {WELCOME_TIMEOUT:?}")))??;
        Ok(Self { ws, welcome })
    }

    /// Sends one message before play (e.g. the host's `add_computer` in the lobby);
    /// its answer is read, and ignored, by [`Connection::play`].
    ///
    /// # Errors
    /// The network.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), BotError> {
        send(&mut self.ws, msg).await
    }

    /// Plays the seat until the game is over (unless `config.policy.rematch`), the
    /// server closes, or `stop` completes (then the socket is closed normally).
    ///
    /// # Errors
    /// The network, an unexpected close (e.g. 4001 when another connection took the
    /// seat), a frame that is not a server message, or too many refusals in a row.
    pub async fn play(
        mut self,
        config: &BotConfig,
        rng: &mut impl Rng,
        observer: &mut impl Observer,
        stop: impl Future<Output = ()>,
    ) -> Result<Outcome, BotError> {
        let me = self.welcome.seat;
        let mut out = Outcome { seat: me, ..Outcome::default() };
        let mut latest: Option<(u64, Box<TableView>)> = None;
        // The deadline at which to act on the latest view; set when a view first offers
        // this seat something to do, so the think time counts from the turn's start.
        let mut due: Option<Instant> = None;
        // The version already acted on, so one view gets at most one action.
        let mut acted: Option<u64> = None;
        let mut next_id: u64 = 1;
        let mut last_id: Option<u64> = None;
        let mut refusals = 0u32;
        let mut started = false;
        tokio::pin!(stop);
        loop {
            let wake = due.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                () = &mut stop => {
                    let _ = self.ws.close(None).await;
                    out.view = latest.map(|(_, v)| v);
                    return Ok(out);
                }
                () = tokio::time::sleep_until(wake), if due.is_some() => {
                    due = None;
                    let Some((version, view)) = &latest else { continue };
                    if acted == Some(*version) {
                        continue;
                    }
                    let Some(msg) = config.policy.decide(*version, view, rng) else { continue };
                    let msg = with_id(msg, next_id);
                    last_id = Some(next_id);
                    next_id += 1;
                    acted = Some(*version);
                    observer.sent(&msg, view);
                    send(&mut self.ws, &msg).await?;
                    out.sent += 1;
                }
                frame = next_msg(&mut self.ws) => match frame? {
                    ServerMsg::State { version, view } => {
                        observer.state(version, &view);
                        if let Some(game) = &view.game
                            && game.phase == Phase::Over
                        {
                            out.result = game.result;
                            if !config.policy.rematch {
                                let _ = self.ws.close(None).await;
                                out.view = Some(view);
                                return Ok(out);
                            }
                        }
                        let wants = acted != Some(version) && config.policy.decide(version, &view, rng).is_some();
                        if !wants {
                            due = None;
                        } else if due.is_none() {
                            let think = if started || view.game.is_some() {
                                config.think
                            } else {
                                // Tables set up together must not move in lockstep: the
                                // host starts after a random part of the think time.
                                started = true;
                                config.think.mul_f64(rng.random_range(0.0..1.0))
                            };
                            due = Some(Instant::now() + think);
                        }
                        latest = Some((version, view));
                    }
                    ServerMsg::Ack { id } => {
                        if id.is_some() && id == last_id {
                            refusals = 0;
                        }
                    }
                    ServerMsg::Error { id, code, message } => {
                        observer.refused(code);
                        out.refused += 1;
                        out.stale += u64::from(code == ErrorCode::Stale);
                        // The server echoes the request's `id` in every answer; a
                        // `rate_limited` without one (servers before protocol.md said
                        // so) can only be about the request still unanswered.
                        let ours = id == last_id
                            || (id.is_none() && code == ErrorCode::RateLimited && acted.is_some());
                        if !ours || last_id.is_none() || code == ErrorCode::Stale {
                            // Stale: a newer state is on its way and will be acted on.
                            continue;
                        }
                        refusals += 1;
                        if refusals >= MAX_REFUSALS_IN_A_ROW {
                            return Err(BotError::Refused { code, message });
                        }
                        // Decide again on the latest view, after a pause (longer when
                        // the server asked us to slow down).
                        acted = None;
                        let pause = if code == ErrorCode::RateLimited {
                            Duration::from_secs(1)
                        } else {
                            config.think.max(Duration::from_millis(100))
                        };
                        due = Some(Instant::now() + pause);
                    }
                    ServerMsg::Welcome { .. } | ServerMsg::Pong { .. } => {}
                },
            }
        }
    }
}

/// How a bot plays.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// Pause between the seat's turn coming and its action, like a human's; also keeps
    /// the bot well inside the server's rate limit (5 messages per second).
    pub think: Duration,
    /// What to do with each view.
    pub policy: Policy,
}

/// Hooks for the load bench: what was sent, and every state as it arrives.
pub trait Observer: Send {
    /// Called just before `msg` goes out, with the view it was decided on.
    fn sent(&mut self, _msg: &ClientMsg, _view: &TableView) {}
    /// Called as soon as a `state` has been decoded.
    fn state(&mut self, _version: u64, _view: &TableView) {}
    /// Called for every `error` the server sends.
    fn refused(&mut self, _code: ErrorCode) {}
}

/// An observer that records nothing.
#[derive(Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// How a seat's session ended.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The seat played (`None`: spectator).
    pub seat: Option<Seat>,
    /// The game's result, if it ended.
    pub result: Option<GameResult>,
    /// Messages sent after `hello`.
    pub sent: u64,
    /// `error` answers received.
    pub refused: u64,
    /// Of those, `stale`: a legitimate race (e.g. another seat's Stöck changed the
    /// table while this seat's card was on its way); the bot acts again on the newer view.
    pub stale: u64,
    /// The last view seen.
    pub view: Option<Box<TableView>>,
}

/// The message with its request `id` set, so the `ack` or `error` can be matched.
#[must_use]
pub fn with_id(msg: ClientMsg, new: u64) -> ClientMsg {
    let id = Some(new);
    match msg {
        ClientMsg::Schiebe { version, .. } => ClientMsg::Schiebe { version, id },
        ClientMsg::Choose { contract, version, .. } => ClientMsg::Choose { contract, version, id },
        ClientMsg::Play { card, weis, stoeck, version, .. } => {
            ClientMsg::Play { card, weis, stoeck, version, id }
        }
        ClientMsg::Stoeck { version, .. } => ClientMsg::Stoeck { version, id },
        ClientMsg::Bedanke { version, .. } => ClientMsg::Bedanke { version, id },
        ClientMsg::Start { .. } => ClientMsg::Start { id },
        ClientMsg::SwapSeats { a, b, .. } => ClientMsg::SwapSeats { a, b, id },
        ClientMsg::FreeSeat { seat, .. } => ClientMsg::FreeSeat { seat, id },
        ClientMsg::AddComputer { seat, level, .. } => ClientMsg::AddComputer { seat, level, id },
        ClientMsg::GiveToComputer { seat, level, .. } => ClientMsg::GiveToComputer { seat, level, id },
        ClientMsg::GiveBack { seat, .. } => ClientMsg::GiveBack { seat, id },
        ClientMsg::SetTiming { step_in, move_clock, reserve, .. } => {
            ClientMsg::SetTiming { step_in, move_clock, reserve, id }
        }
        ClientMsg::SetOptions { preset, options, .. } => ClientMsg::SetOptions { preset, options, id },
        ClientMsg::Rematch { .. } => ClientMsg::Rematch { id },
        m @ (ClientMsg::Hello { .. } | ClientMsg::Ping { .. }) => m,
    }
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), BotError> {
    let text = serde_json::to_string(msg).map_err(|e| BotError::Protocol(e.to_string()))?;
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(BotError::Protocol(format!("message of {} bytes exceeds the limit", text.len())));
    }
    ws.send(Message::text(text)).await?;
    Ok(())
}

/// The next server message; pings are answered by tungstenite while reading.
async fn next_msg(ws: &mut Ws) -> Result<ServerMsg, BotError> {
    loop {
        let frame =
            ws.next().await.ok_or(BotError::Closed { code: 1006, reason: "connection lost".into() })??;
        match frame {
            Message::Text(text) => {
                return crate::decode::server_msg(text.as_str())
                    .map_err(|e| BotError::Protocol(format!("not a server message: {e}")));
            }
            Message::Close(frame) => return Err(closed(frame)),
            Message::Binary(_) => return Err(BotError::Protocol("binary frame from the server".into())),
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
        }
    }
}

fn closed(frame: Option<CloseFrame>) -> BotError {
    match frame {
        Some(f) => BotError::Closed { code: u16::from(f.code), reason: f.reason.to_string() },
        None => BotError::Closed { code: u16::from(CloseCode::Status), reason: String::new() },
    }
}
