//! Test harness: a real server on 127.0.0.1:0 in-process, a tiny HTTP client, and a
//! WebSocket client that parses every frame as a `ServerMsg` (so the wire shape is
//! checked on every frame) and keeps them for later checks.
#![allow(dead_code, unreachable_pub, missing_docs)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg, TableView};
use jass_server::{Config, MemoryStore};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Generous bound so a bug shows up as a failure, not a hang.
pub const WAIT: Duration = Duration::from_secs(10);

/// Config with short timings, for tests. Test clients answer pings only while they
/// read, so the pong timeout stays long here (a busy machine must not reap an idle
/// test client); the reaping test shortens it.
pub fn fast_config() -> Config {
    Config {
        hello_timeout: Duration::from_secs(2),
        ping_interval: Duration::from_millis(500),
        pong_timeout: Duration::from_secs(30),
        close_linger: Duration::from_millis(200),
        shutdown_grace: Duration::from_secs(5),
        // Every test client is 127.0.0.1, and some create dozens of tables: the
        // per-address request bucket has its own tests (http_limits.rs).
        http_rate_burst: 1_000_000,
        http_rate_per_second: 1_000_000,
        // Computer players decide at once and quickly (zero think time in tests).
        computer_think: Duration::ZERO,
        computer_playouts: 100,
        ..Config::default()
    }
}

/// Like [`fast_config`] but without the rate limit getting in the way of a fast game.
pub fn unlimited_config() -> Config {
    Config { rate_burst: 100_000, rate_per_second: 100_000, ..fast_config() }
}

pub struct Server {
    pub addr: SocketAddr,
    /// The loopback address this side connects from (`None`: the system's pick).
    pub source: Option<std::net::IpAddr>,
    /// Sent as `authorization: Bearer …` with every HTTP request (the operator's
    /// token, for `/api/stats` from an address that is not the server's own).
    pub token: Option<String>,
    pub store: Arc<MemoryStore>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl Server {
    pub async fn start(config: Config) -> Self {
        let store = Arc::new(MemoryStore::new());
        let mut server = Self::start_with(config, store.clone()).await;
        server.store = store;
        server
    }

    /// A server with a store of the test's own (`self.store` is then unused).
    pub async fn start_with(config: Config, s: Arc<dyn jass_server::Store>) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let store = Arc::new(MemoryStore::new());
        let (stop, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(jass_server::run(
            listener,
            config,
            jass_server::Storage::Given { store: s, restore: Vec::new() },
            async move {
                let _ = rx.await;
            },
        ));
        Self { addr, source: None, token: None, store, stop: Some(stop), task: Some(task) }
    }

    /// A handle on a server running elsewhere (a child process) at `addr`.
    pub fn external(addr: SocketAddr) -> Self {
        Self { addr, source: None, token: None, store: Arc::new(MemoryStore::new()), stop: None, task: None }
    }

    /// A TCP connection to the server, from `self.source` when set.
    pub async fn tcp(&self) -> std::io::Result<TcpStream> {
        match self.source {
            None => TcpStream::connect(self.addr).await,
            Some(ip) => {
                let socket = tokio::net::TcpSocket::new_v4()?;
                socket.bind(SocketAddr::new(ip, 0))?;
                socket.connect(self.addr).await
            }
        }
    }

    /// Stops the server and waits for `run` to return.
    pub async fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(WAIT, task).await.expect("run returns").unwrap().unwrap();
        }
    }

    /// A raw HTTP/1.1 request; returns status and body.
    pub async fn http(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let mut s = self.tcp().await.unwrap();
        let body = body.unwrap_or("");
        let auth = self.token.as_ref().map(|t| format!("authorization: Bearer {t}\r\n")).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{auth}connection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap().unwrap();
        let text = String::from_utf8(out).unwrap();
        let status = text.split(' ').nth(1).unwrap().parse().unwrap();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap();
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        (status, body)
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, body) = self.http("POST", path, Some(&body.to_string())).await;
        (status, serde_json::from_str(&body).unwrap_or(Value::String(body)))
    }

    /// Creates a table; returns (table id, host token).
    pub async fn create(&self, body: Value) -> (String, String) {
        let (status, v) = self.post("/api/tables", body).await;
        assert_eq!(status, 201, "{v}");
        (v["table"].as_str().unwrap().to_owned(), v["token"].as_str().unwrap().to_owned())
    }

    /// Joins a table; returns the token.
    pub async fn join(&self, table: &str, name: &str, seat: u8) -> String {
        let (status, v) =
            self.post(&format!("/api/tables/{table}/seats"), json!({"name": name, "seat": seat})).await;
        assert_eq!(status, 201, "{v}");
        assert_eq!(v["seat"], seat);
        v["token"].as_str().unwrap().to_owned()
    }

    /// A table with four seated players; returns the id and the four tokens.
    pub async fn full_table(&self, create: Value) -> (String, Vec<String>) {
        let (table, host) = self.create(create).await;
        let mut tokens = vec![host];
        for (seat, name) in [(1, "Ben"), (2, "Carla"), (3, "Dan")] {
            tokens.push(self.join(&table, name, seat).await);
        }
        (table, tokens)
    }

    /// Opens a socket without saying hello.
    pub async fn open(&self, table: &str) -> Client {
        let (ws, _) = tokio_tungstenite::client_async_with_config(
            format!("ws://{}/ws/{table}", self.addr),
            MaybeTlsStream::Plain(self.tcp().await.unwrap()),
            None,
        )
        .await
        .unwrap();
        Client { ws, frames: Vec::new(), state: None, next_id: 1 }
    }

    /// Opens a socket, says hello and reads welcome + state; or why not (the upgrade
    /// refused, an `error` and close code, the stream ending).
    pub async fn try_connect(&self, table: &str, token: Option<&str>) -> Result<Client, String> {
        let url = format!("ws://{}/ws/{table}", self.addr);
        let tcp = self.tcp().await.map_err(|e| format!("connect: {e}"))?;
        let (ws, _) = tokio_tungstenite::client_async_with_config(url, MaybeTlsStream::Plain(tcp), None)
            .await
            .map_err(|e| format!("upgrade: {e}"))?;
        let mut c = Client { ws, frames: Vec::new(), state: None, next_id: 1 };
        let hello = ClientMsg::Hello {
            protocol: jass_protocol::PROTOCOL_VERSION,
            token: token.map(str::to_owned),
            id: None,
        };
        // A refusal may come before the hello is read: the answer says which.
        let _ = c.ws.send(Message::Text(serde_json::to_string(&hello).unwrap().into())).await;
        let mut said = Vec::new();
        loop {
            match c.next().await {
                Got::Msg(ServerMsg::Welcome { .. }) => {}
                Got::Msg(ServerMsg::State { .. }) => return Ok(c),
                Got::Msg(m) => said.push(format!("{m:?}")),
                Got::Close(code) => return Err(format!("close {code} after {said:?}")),
                Got::End(why) => return Err(format!("ended ({why}) after {said:?}")),
            }
        }
    }

    /// Opens a socket, says hello and reads welcome + state.
    pub async fn connect(&self, table: &str, token: Option<&str>) -> Client {
        let mut c = self.open(table).await;
        c.hello(token).await;
        c
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn dechunk(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some((len, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

/// What a read produced.
#[derive(Debug)]
pub enum Got {
    Msg(ServerMsg),
    Close(u16),
    /// The stream ended (or broke) without a close frame; why.
    End(String),
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, raw.
    pub frames: Vec<String>,
    /// The latest state.
    pub state: Option<(u64, TableView)>,
    next_id: u64,
}

impl Client {
    pub async fn send_raw(&mut self, m: Message) {
        self.ws.send(m).await.unwrap();
    }

    pub async fn send_text(&mut self, s: &str) {
        self.send_raw(Message::Text(s.into())).await;
    }

    pub async fn send(&mut self, m: &ClientMsg) {
        self.send_text(&serde_json::to_string(m).unwrap()).await;
    }

    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The next frame (text parsed as a ServerMsg, states remembered), or the close.
    pub async fn next(&mut self) -> Got {
        loop {
            let m = match tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time") {
                Some(Ok(m)) => m,
                Some(Err(e)) => return Got::End(e.to_string()),
                None => return Got::End("end of stream".into()),
            };
            match m {
                Message::Text(t) => {
                    let msg: ServerMsg =
                        serde_json::from_str(&t).unwrap_or_else(|e| panic!("bad server frame {t}: {e}"));
                    self.frames.push(t.to_string());
                    if let ServerMsg::State { version, view } = &msg {
                        if let Some((v, _)) = &self.state {
                            // Presence (connections, spectators) is sent at the same
                            // version; a version never goes back (protocol.md 2).
                            assert!(version >= v, "versions never go back: {v} then {version}");
                        }
                        self.state = Some((*version, (**view).clone()));
                    }
                    return Got::Msg(msg);
                }
                Message::Close(f) => return Got::Close(f.map_or(1005, |f| f.code.into())),
                Message::Binary(_) => panic!("the server sent a binary frame"),
                _ => {}
            }
        }
    }

    /// Reads until `pick` accepts a message.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMsg) -> Option<T>) -> T {
        loop {
            match self.next().await {
                Got::Msg(m) => {
                    if let Some(t) = pick(&m) {
                        return t;
                    }
                }
                other => panic!("expected a message, got {other:?}"),
            }
        }
    }

    pub async fn hello(&mut self, token: Option<&str>) {
        let hello = ClientMsg::Hello {
            protocol: jass_protocol::PROTOCOL_VERSION,
            token: token.map(str::to_owned),
            id: None,
        };
        self.send(&hello).await;
        match self.next().await {
            Got::Msg(ServerMsg::Welcome { .. }) => {}
            other => panic!("expected welcome, got {other:?}"),
        }
        match self.next().await {
            Got::Msg(ServerMsg::State { .. }) => {}
            other => panic!("expected state, got {other:?}"),
        }
    }

    /// Reads until the latest state's version is at least `v`.
    pub async fn sync(&mut self, v: u64) {
        while self.version() < v {
            if let Got::Close(c) = self.next().await {
                panic!("closed {c} while waiting for version {v}");
            }
        }
    }

    /// Reads until the latest view satisfies `ok` (presence changes keep the version).
    pub async fn wait_view(&mut self, mut ok: impl FnMut(&TableView) -> bool) {
        while self.state.as_ref().is_none_or(|(_, v)| !ok(v)) {
            if let Got::Close(c) = self.next().await {
                panic!("closed {c} while waiting for a view");
            }
        }
    }

    pub fn version(&self) -> u64 {
        self.state.as_ref().map_or(0, |(v, _)| *v)
    }

    pub fn view(&self) -> &TableView {
        &self.state.as_ref().unwrap().1
    }

    /// Sends a request and reads until its ack (Ok) or error (Err code).
    pub async fn request(&mut self, m: ClientMsg) -> Result<(), ErrorCode> {
        let id = m.id();
        self.send(&m).await;
        self.until(|msg| match msg {
            ServerMsg::Ack { id: i } if *i == id => Some(Ok(())),
            ServerMsg::Error { id: i, code, .. } if *i == id => Some(Err(*code)),
            _ => None,
        })
        .await
    }

    /// Reads until an error frame; returns its code.
    pub async fn expect_error(&mut self) -> ErrorCode {
        self.until(|m| match m {
            ServerMsg::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }

    /// Reads until the server closes; returns the close code.
    pub async fn expect_close(&mut self) -> u16 {
        loop {
            match self.next().await {
                Got::Close(c) => return c,
                Got::End(why) => panic!("stream ended without a close frame: {why}"),
                Got::Msg(_) => {}
            }
        }
    }

    /// Sends a ping and waits for its pong: proves the connection is served.
    pub async fn roundtrip(&mut self, t: u64) {
        self.send(&ClientMsg::Ping { t, id: None }).await;
        self.until(|m| matches!(m, ServerMsg::Pong { t: x, .. } if *x == t).then_some(())).await;
    }
}

/// Brings every client up to the newest version any of them has seen.
pub async fn sync_all(clients: &mut [Client]) -> u64 {
    let latest = clients.iter().map(Client::version).max().unwrap_or(0);
    for c in clients.iter_mut() {
        c.sync(latest).await;
    }
    latest
}

/// One plain move by whoever must act: choose Obenabe, or play the first legal card.
/// Returns the seat that acted.
pub async fn act_once(players: &mut [Client]) -> usize {
    let version = sync_all(players).await;
    let g = players[0].view().game.clone().expect("started");
    let seat = g.to_act.expect("someone must act").index();
    let c = &mut players[seat];
    let v = c.view().game.clone().unwrap();
    let id = Some(c.id());
    let msg = if v.allowed.choose {
        ClientMsg::Choose { contract: jass_engine::Contract::Obenabe, version: Some(version), id }
    } else {
        let card = v.allowed.cards.first().expect("a legal card");
        ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: Some(version), id }
    };
    c.request(msg).await.expect("a legal move is accepted");
    seat
}

/// Starts the game on a four-player table and syncs everyone.
pub async fn start(players: &mut [Client]) {
    let id = Some(players[0].id());
    players[0].request(ClientMsg::Start { id }).await.expect("start");
    sync_all(players).await;
}

/// Connects the four tokens.
pub async fn connect_all(server: &Server, table: &str, tokens: &[String]) -> Vec<Client> {
    let mut v = Vec::new();
    for t in tokens {
        v.push(server.connect(table, Some(t)).await);
    }
    sync_all(&mut v).await;
    v
}

/// Starts a server that first restores `tables` from `store`.
pub async fn restoring(
    config: Config,
    store: Arc<MemoryStore>,
    tables: Vec<jass_server::store::StoredTable>,
) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(jass_server::run(
        listener,
        config,
        jass_server::Storage::Given { store, restore: tables },
        std::future::pending::<()>(),
    ));
    // The handle is enough for these tests: the task ends with the runtime.
    drop(task);
    Server::external(addr)
}

pub fn stored(store: &MemoryStore, table: &str) -> jass_server::store::StoredTable {
    let entries = store.entries(table);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    jass_server::store::StoredTable {
        id: table.to_owned(),
        last_active: now as i64,
        stored: entries.len(),
        entries,
        unreadable: None,
        problem: None,
        kept_games: Vec::new(),
    }
}

/// Plays the human's decisions until the game is over (the computers play theirs).
pub async fn play_out(human: &mut Client) {
    play_until(human, |_| false).await;
    assert!(human.view().game.as_ref().unwrap().result.is_some());
}

/// Plays the human's decisions until the game is over or `stop` says so.
pub async fn play_until(human: &mut Client, mut stop: impl FnMut(&jass_engine::SeatView) -> bool) {
    for _ in 0..5_000 {
        let Some(g) = human.view().game.clone() else {
            human.next().await;
            continue;
        };
        if g.result.is_some() || stop(&g) {
            return;
        }
        let team = g.seat.unwrap().team();
        let msg = if g.allowed.bedanke && g.totals[team] >= human.view().options.target {
            Some(jass_protocol::ClientMsg::Bedanke { version: None, id: Some(human.id()) })
        } else if g.to_act == g.seat {
            let id = Some(human.id());
            let version = Some(human.version());
            Some(if g.allowed.choose {
                jass_protocol::ClientMsg::Choose { contract: jass_engine::Contract::Obenabe, version, id }
            } else {
                let card = g.allowed.cards.first().unwrap();
                jass_protocol::ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version, id }
            })
        } else {
            None
        };
        match msg {
            Some(m) => match human.request(m).await {
                // A computer moved in between (a Stöck or a bedanke): look again.
                Ok(()) | Err(ErrorCode::Stale | ErrorCode::NotYourTurn) => {}
                // A computer's bedanke ended the game first: wait for the view that
                // says so.
                Err(ErrorCode::GameOver) => {
                    human.wait_view(|v| v.game.as_ref().is_some_and(|g| g.result.is_some())).await;
                }
                Err(e) => panic!("the human's move was refused: {e:?}"),
            },
            None => {
                human.next().await;
            }
        }
    }
    panic!("the game did not get there");
}

/// One move by whoever must act (declaring every Weis and announcing Stöck when
/// allowed, so the stored history carries them); returns the seat and the action.
pub async fn play_one(players: &mut [Client]) -> (usize, jass_engine::Action) {
    let version = sync_all(players).await;
    let g = players[0].view().game.clone().expect("started");
    let seat = g.to_act.expect("someone must act").index();
    let c = &mut players[seat];
    let v = c.view().game.clone().unwrap();
    let id = Some(c.id());
    let msg = if v.allowed.schiebe && v.round % 2 == 1 {
        ClientMsg::Schiebe { version: Some(version), id }
    } else if v.allowed.choose {
        ClientMsg::Choose { contract: jass_engine::Contract::Spades, version: Some(version), id }
    } else {
        let card = v.allowed.cards.first().expect("a legal card");
        let weis = v.allowed.weis.iter().map(|w| w.cards()).collect();
        let stoeck = v.allowed.stoeck && v.hand.len() == 9;
        ClientMsg::Play { card, weis, stoeck, version: Some(version), id }
    };
    let action = msg.game_action().unwrap();
    c.request(msg).await.expect("a legal move is accepted");
    (seat, action)
}

/// Every action of a record, in order, with its seat's index.
pub fn recorded_actions(record: &jass_engine::Record) -> Vec<(usize, jass_engine::Action)> {
    record
        .rounds
        .iter()
        .flat_map(|r| r.actions.iter())
        .map(|jass_engine::SeatAction { seat, action }| (seat.index(), action.clone()))
        .collect()
}
