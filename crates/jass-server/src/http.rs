//! The HTTP side: the table API of protocol.md section 1, the WebSocket upgrade,
//! the health check and the static browser client.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN, RETRY_AFTER};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jass_engine::Seat;
use jass_protocol::http::{ApiError, CreateTable, JoinTable, PracticeTable};
use jass_protocol::{ErrorCode, options_from};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use tower_http::trace::TraceLayer;

use crate::app::App;
use crate::cluster::Missing;
use crate::ids::{MAX_TABLE_ID_CHARS, new_table_id, plausible_id};
use crate::stats::bump;
use crate::table::actor::spawn;
use crate::table::decide::valid_name;
use crate::table::state::{TableState, finished_record};
use crate::table::{PracticeStart, Refusal};

/// Largest HTTP request body: create and join bodies are a few hundred bytes.
const MAX_BODY_BYTES: usize = 4096;

/// The router for the whole server.
pub(crate) fn router(app: Arc<App>) -> Router {
    // The table API anyone with a link may call: rate limited per address
    // (protocol.md 1). `route_layer` covers the routes above it only.
    let mut router = Router::new()
        .route("/api/tables", post(create))
        .route("/api/tables/{table}", get(info))
        .route("/api/tables/{table}/seats", post(join))
        .route("/api/tables/{table}/record", get(record))
        .route("/api/tables/{table}/rounds", get(rounds))
        .route("/api/tables/{table}/rounds/{round}/review", get(review))
        .route("/api/review", post(review_upload).layer(DefaultBodyLimit::max(MAX_RECORD_BYTES)))
        .route("/api/practice", post(practice_record).layer(DefaultBodyLimit::max(MAX_RECORD_BYTES)))
        .route("/api/tables/{table}/practice", post(practice_round))
        .route_layer(axum::middleware::from_fn_with_state(Arc::clone(&app), limit_api))
        .route("/ws/{table}", get(socket))
        .route("/api/stats", get(stats))
        .route("/api/presets", get(presets))
        .route("/healthz", get(health));
    router = router.route("/t/{table}", get(table_page)).fallback(file);
    router = router
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(crate::headers::security_headers));
    // Only a named node pays for naming itself on every answer.
    if app.node_header.is_some() {
        router =
            router.layer(axum::middleware::from_fn_with_state(Arc::clone(&app), crate::headers::node_name));
    }
    router.layer(TraceLayer::new_for_http()).with_state(app)
}

/// An API error answer: the status follows the code unless one is given.
struct ApiFailure(Refusal, Option<StatusCode>);

impl From<Refusal> for ApiFailure {
    fn from(r: Refusal) -> Self {
        Self(r, None)
    }
}

impl ApiFailure {
    fn new(code: ErrorCode, message: &str) -> Self {
        Self(Refusal::new(code, message), None)
    }

    fn with_status(code: ErrorCode, status: StatusCode, message: &str) -> Self {
        Self(Refusal::new(code, message), Some(status))
    }
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        let Refusal { code, message } = self.0;
        let status = self.1.unwrap_or(match code {
            ErrorCode::UnknownTable | ErrorCode::UnknownGame => StatusCode::NOT_FOUND,
            ErrorCode::SeatTaken
            | ErrorCode::TableFull
            | ErrorCode::AlreadyStarted
            | ErrorCode::GameNotOver
            | ErrorCode::RoundNotOver => StatusCode::CONFLICT,
            ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::BadOrigin | ErrorCode::OperatorOnly => StatusCode::FORBIDDEN,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        });
        (status, axum::Json(ApiError { code, message })).into_response()
    }
}

fn unknown_table() -> ApiFailure {
    ApiFailure::new(ErrorCode::UnknownTable, "no such table")
}

/// A table that is not here, as an answer: 404, or 503 to try again.
fn missing(m: Missing) -> ApiFailure {
    match m {
        Missing::Unknown => unknown_table(),
        Missing::NotNow => ApiFailure::with_status(
            ErrorCode::Busy,
            StatusCode::SERVICE_UNAVAILABLE,
            "this table is not served here right now; try again",
        ),
    }
}

/// `GET /healthz`: 200 while the node serves; 503 while it stops (draining) or its
/// lease on a shared store may have run out, so a balancer sends nobody here.
async fn health(State(app): State<Arc<App>>) -> Response {
    if app.shutdown.is_cancelled() {
        (StatusCode::SERVICE_UNAVAILABLE, "draining").into_response()
    } else if !app.store.serving() {
        (StatusCode::SERVICE_UNAVAILABLE, "not serving: lease not renewed").into_response()
    } else {
        "ok".into_response()
    }
}

fn busy(what: &str) -> ApiFailure {
    ApiFailure(Refusal::new(ErrorCode::Busy, format!("the server is at its limit of {what}")), None)
}

/// 429 `busy`: this client address, not the server, is at a limit.
fn too_many(what: &str) -> Response {
    let message = format!("this address is at its limit of {what}");
    (StatusCode::TOO_MANY_REQUESTS, axum::Json(ApiError { code: ErrorCode::Busy, message })).into_response()
}

/// Parses a JSON body ourselves so every malformed body gets the documented
/// `bad_message` error body (axum's `Json` answers in plain text).
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiFailure> {
    serde_json::from_slice(body)
        .map_err(|e| ApiFailure(Refusal::new(ErrorCode::BadMessage, e.to_string()), None))
}

/// The body of a state-changing request (create, join), checked as a browser would not
/// be stopped from sending it cross-site (protocol.md 1): a foreign page can post
/// `text/plain` or form bodies without asking, but not `application/json`, and its
/// `Origin` is refused like the WebSocket upgrade's. The body must then arrive within
/// `http_body_timeout` (a trickled body holds a connection).
async fn json_body(app: &App, headers: &HeaderMap, body: Body) -> Result<Bytes, ApiFailure> {
    json_body_within(app, headers, body, MAX_BODY_BYTES).await
}

/// [`json_body`] of at most `limit` bytes.
async fn json_body_within(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<Bytes, ApiFailure> {
    let origin = headers.get(ORIGIN).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let host = headers.get(HOST).and_then(|v| v.to_str().ok());
    if !crate::origin::allowed(origin, host, &app.config.allowed_origins) {
        bump(&app.stats.counters.cross_site_refusals);
        return Err(ApiFailure::new(ErrorCode::BadOrigin, "this page's origin may not change tables"));
    }
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        bump(&app.stats.counters.cross_site_refusals);
        let status = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        return Err(ApiFailure::with_status(
            ErrorCode::BadMessage,
            status,
            "send Content-Type: application/json",
        ));
    }
    match tokio::time::timeout(app.config.http_body_timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(ApiFailure::with_status(
            ErrorCode::BadMessage,
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the body is over {limit} bytes or broken"),
        )),
        Err(_) => {
            bump(&app.stats.counters.http_timeouts);
            let status = StatusCode::REQUEST_TIMEOUT;
            Err(ApiFailure::with_status(ErrorCode::BadMessage, status, "the body did not arrive in time"))
        }
    }
}

/// Takes one request from the address's bucket, or answers 429 `rate_limited`.
async fn limit_api(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if app.per_ip.request(peer.ip()) {
        return next.run(req).await;
    }
    bump(&app.stats.counters.http_rate_limited);
    let message = "too many requests from this address; slow down".to_owned();
    let body = axum::Json(ApiError { code: ErrorCode::RateLimited, message });
    (StatusCode::TOO_MANY_REQUESTS, [(RETRY_AFTER, "1")], body).into_response()
}

/// `bad_timing` if the create body's `timing` is what made it unreadable (not an
/// object of the three numbers), as an out-of-range timing is (protocol.md 3,
/// "Step-in and move clock").
fn timing_fault(body: &[u8]) -> Option<ApiFailure> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let timing = value.get("timing").filter(|t| !t.is_null())?;
    let e = <jass_protocol::Timing as Deserialize<'_>>::deserialize(timing).err()?;
    Some(Refusal::new(ErrorCode::BadTiming, format!("timing: {e}")).into())
}

/// `POST /api/tables`.
async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiFailure> {
    let body = json_body(&app, &headers, body).await?;
    let req: CreateTable = parse(&body).map_err(|e| timing_fault(&body).unwrap_or(e))?;
    // Checked here too, so a bad name never leaves an empty table behind.
    valid_name(&req.name)?;
    if let Some(timing) = &req.timing {
        timing.validate().map_err(|e| Refusal::new(ErrorCode::BadTiming, e))?;
    }
    if req.computer_level.is_some() && !req.computers {
        return Err(Refusal::new(ErrorCode::BadMessage, "computer_level needs \"computers\": true").into());
    }
    let options = options_from(req.preset, req.options.as_ref())
        .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
    let computers = req.computers.then(|| req.computer_level.unwrap_or_default());
    let setup = (req.timing.is_some() || computers.is_some()).then_some((req.timing, computers, None));
    open_table(&app, peer, options, req.name, setup).await
}

/// What a new table is set up with: its timing, "play with computers" at a level, and
/// a practice table's start.
type Setup = (Option<jass_protocol::Timing>, Option<jass_protocol::Level>, Option<Box<PracticeStart>>);

/// A new table with `options`, its host seated at seat 0 and set up (see
/// [`TableCmd::Setup`](crate::table::TableCmd)): what creating a table and a practice
/// table share, with the same limits per address.
async fn open_table(
    app: &Arc<App>,
    peer: SocketAddr,
    options: jass_engine::Options,
    name: String,
    setup: Option<Setup>,
) -> Result<Response, ApiFailure> {
    if app.shutdown.is_cancelled() || !app.store.serving() {
        return Err(busy("tables"));
    }
    if !app.registry.has_room() {
        return Err(busy("tables"));
    }
    let Some(held) = app.per_ip.hold_table(peer.ip()) else {
        bump(&app.stats.counters.table_rate_refusals);
        return Ok(too_many("tables held"));
    };
    if !app.per_ip.create_table(peer.ip()) {
        bump(&app.stats.counters.table_rate_refusals);
        return Ok(too_many("new tables"));
    }
    let guard = app.guards.guard().ok_or_else(|| busy("tables"))?;
    let id: Arc<str> = new_table_id().into();
    let mut spawning = app.table_spawn(Arc::clone(&id), options, guard);
    spawning.held = Some(held);
    spawning.creator = Some(peer.ip());
    let handle = spawn(spawning);
    if !app.registry.insert(Arc::clone(&id), handle.clone()) {
        return Err(busy("tables"));
    }
    let mut joined = handle.join(name, Seat::new(0)).await?;
    if let Some((timing, computers, practice)) = setup {
        let seat = practice.as_ref().map(|p| p.seat);
        handle.setup(timing, computers, practice).await?;
        // The host moved to the seat asked for, with its token.
        joined.seat = seat.unwrap_or(joined.seat);
    }
    bump(&app.stats.counters.tables_created);
    tracing::info!(table = %id, "table created");
    // The new table's id as a header too: a balancer in front of several nodes learns
    // from it which node holds the table (deploy/haproxy.cfg, `stick store-response`).
    let mut res = (StatusCode::CREATED, axum::Json(joined)).into_response();
    if let Ok(value) = axum::http::HeaderValue::from_str(&id) {
        res.headers_mut().insert(crate::headers::TABLE, value);
    }
    Ok(res)
}

/// `POST /api/tables/{table}/practice` ("replay this deal", protocol.md "Replay a
/// deal"): a table whose first round is a finished round of `table`, dealt again.
async fn practice_round(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(table): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiFailure> {
    if table.len() > MAX_TABLE_ID_CHARS || !plausible_id(&table) {
        return Err(unknown_table());
    }
    let body = json_body(&app, &headers, body).await?;
    let req: PracticeTable = parse(&body)?;
    valid_name(&req.name)?;
    if req.record.is_some() {
        return Err(ApiFailure::new(ErrorCode::BadMessage, "a table's round takes no \"record\""));
    }
    let record = review_record(&app, &table, req.game, req.round).await?.1;
    practice(&app, peer, req, record).await
}

/// `POST /api/practice`: the same for a round of the record sent along.
async fn practice_record(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiFailure> {
    let body = json_body_within(&app, &headers, body, MAX_RECORD_BYTES).await?;
    let mut req: PracticeTable = parse(&body)?;
    valid_name(&req.name)?;
    let record = match (req.record.take(), req.game) {
        (Some(record), None) => record,
        _ => return Err(ApiFailure::new(ErrorCode::BadMessage, "send the \"record\" (and no \"game\")")),
    };
    practice(&app, peer, req, record).await
}

/// A practice table for round `req.round` of `record`, the caller in the seat asked
/// for and computers in the others.
async fn practice(
    app: &Arc<App>,
    peer: SocketAddr,
    req: PracticeTable,
    record: jass_engine::Record,
) -> Result<Response, ApiFailure> {
    let (round, trick) = (req.round, req.trick);
    let deal = tokio::task::spawn_blocking(move || {
        record.practice(usize::try_from(round).unwrap_or(usize::MAX), trick)
    })
    .await
    .map_err(|_| ApiFailure::new(ErrorCode::Internal, "the record could not be checked"))?
    .map_err(|e| match e {
        jass_engine::PracticeError::NotOver(_) => ApiFailure::new(ErrorCode::RoundNotOver, &e.to_string()),
        jass_engine::PracticeError::NoTrick { .. } => ApiFailure::new(ErrorCode::BadMessage, &e.to_string()),
        jass_engine::PracticeError::Replay(e) => {
            ApiFailure::new(ErrorCode::BadMessage, &format!("not a valid record: {e}"))
        }
    })?;
    let options = deal.options;
    let start = PracticeStart { seat: req.seat.unwrap_or(Seat::ALL[0]), deal };
    let level = req.computer_level.unwrap_or_default();
    open_table(app, peer, options, req.name, Some((None, Some(level), Some(Box::new(start))))).await
}

/// `POST /api/tables/{table}/seats`.
async fn join(
    State(app): State<Arc<App>>,
    Path(table): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiFailure> {
    let body = json_body(&app, &headers, body).await?;
    let req: JoinTable = parse(&body)?;
    let handle = app.table(&table).await.map_err(missing)?;
    let joined = handle.join(req.name, req.seat).await?;
    Ok((StatusCode::CREATED, axum::Json(joined)).into_response())
}

/// `GET /api/tables/{table}`.
async fn info(State(app): State<Arc<App>>, Path(table): Path<String>) -> Result<Response, ApiFailure> {
    let handle = app.table(&table).await.map_err(missing)?;
    let info = handle.info().await.ok_or_else(|| missing(Missing::NotNow))?;
    Ok(axum::Json(info).into_response())
}

/// `GET /ws/{table}`: the upgrade. An unknown table is still upgraded, so the client
/// learns why in the protocol's own terms (error `unknown_table`, close 4004).
async fn socket(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(table): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let origin = headers.get(ORIGIN).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let host = headers.get(HOST).and_then(|v| v.to_str().ok());
    if !crate::origin::allowed(origin, host, &app.config.allowed_origins) {
        bump(&app.stats.counters.origin_refusals);
        tracing::info!(origin = ?origin, "WebSocket refused for its origin");
        return ApiFailure::new(ErrorCode::BadOrigin, "this page's origin may not connect").into_response();
    }
    let Some(slot) = app.per_ip.connect(peer.ip()) else {
        bump(&app.stats.counters.per_ip_refusals);
        return too_many("connections");
    };
    let Ok(permit) = Arc::clone(&app.connections).try_acquire_owned() else {
        return busy("connections").into_response();
    };
    let Some(guard) = app.guards.guard() else {
        return busy("connections").into_response();
    };
    let c = &app.config;
    ws.max_message_size(c.max_message_bytes)
        .max_frame_size(c.max_message_bytes)
        .read_buffer_size(c.read_buffer_bytes)
        .write_buffer_size(c.write_buffer_bytes)
        .max_write_buffer_size(c.max_write_buffer_bytes.max(c.write_buffer_bytes + c.max_message_bytes + 64))
        .on_upgrade(move |socket| async move {
            bump(&app.stats.counters.sockets_open);
            // After the upgrade: a claim may take a moment, and its answer (try again,
            // or no such table) is then a close code the client knows.
            let handle = if table.chars().count() <= MAX_TABLE_ID_CHARS {
                app.table(&table).await
            } else {
                Err(Missing::Unknown)
            };
            crate::ws::serve(socket, &app, &table, handle, peer.ip()).await;
            crate::stats::drop_one(&app.stats.counters.sockets_open);
            drop(slot);
            drop(permit);
            drop(guard);
        })
}

/// `GET /api/tables/{table}/record[?game=N]`: a finished game's record (R12), the
/// latest game's without `game`. The live table answers for its latest game; every
/// finished game is kept on its own in the store from its end, so it is served by its
/// number after a rematch and after its table expired. A table stored before games
/// were kept on their own is rebuilt from its entries.
async fn record(
    State(app): State<Arc<App>>,
    Path(table): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiFailure> {
    if table.len() > MAX_TABLE_ID_CHARS {
        return Err(unknown_table());
    }
    let game = game_number(query.as_deref())?;
    let live = match app.registry.get(&table) {
        Some(handle) => match handle.record(game).await {
            Some(Err(r)) if r.code == ErrorCode::UnknownGame => None,
            Some(answer) => Some(answer?),
            None => None,
        },
        None if !plausible_id(&table) => return Err(unknown_table()),
        None => None,
    };
    let record = match live {
        Some(record) => record,
        None => stored_record(&app, &table, game).await?,
    };
    let name = game.map_or_else(|| format!("jass-{table}.json"), |n| format!("jass-{table}-{n}.json"));
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok(([(axum::http::header::CONTENT_DISPOSITION, disposition)], axum::Json(record)).into_response())
}

/// The `game` of a record's query string, if any; anything else is `bad_message`.
fn game_number(query: Option<&str>) -> Result<Option<u32>, ApiFailure> {
    let Some(query) = query.filter(|q| !q.is_empty()) else { return Ok(None) };
    query
        .strip_prefix("game=")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n >= 1)
        .map(Some)
        .ok_or_else(|| ApiFailure::new(ErrorCode::BadMessage, "the query may only be game=N (N from 1)"))
}

/// A finished game from the store: kept on its own, or rebuilt from the entries of a
/// table stored before games were kept so.
async fn stored_record(app: &App, table: &str, game: Option<u32>) -> Result<jass_engine::Record, ApiFailure> {
    let store = Arc::clone(&app.store);
    let id = table.to_owned();
    let found = tokio::task::spawn_blocking(move || {
        let kept = store.load_game(&id, game)?;
        Ok::<_, crate::store::StoreError>(match kept {
            Some(k) => (Some(k.record), None),
            None => (None, store.load(&id)),
        })
    })
    .await
    .map_err(unreadable)?
    .map_err(unreadable)?;
    match found {
        (Some(record), _) => Ok(record),
        (None, Some(entries)) if !entries.is_empty() => match game {
            None => Ok(finished_record(&TableState::replay(&entries).0)?),
            Some(n) => crate::table::state::finished_games(&entries)
                .into_iter()
                .find_map(|(g, record)| (g == n).then_some(record))
                .ok_or_else(|| unknown_game(n)),
        },
        (None, _) => Err(game.map_or_else(unknown_table, unknown_game)),
    }
}

/// A kept game that could not be read (the store failed, or its task did): logged,
/// answered `internal`, never served as something else.
fn unreadable(e: impl std::fmt::Display) -> ApiFailure {
    tracing::warn!(error = %e, "a kept game could not be read");
    ApiFailure::new(ErrorCode::Internal, "the record could not be read")
}

fn unknown_game(n: u32) -> ApiFailure {
    Refusal::new(ErrorCode::UnknownGame, format!("no finished game {n} is kept at this table")).into()
}

/// `GET /api/tables/{table}/rounds`: the latest game's round scores so far.
async fn rounds(State(app): State<Arc<App>>, Path(table): Path<String>) -> Result<Response, ApiFailure> {
    let handle = app.table(&table).await.map_err(missing)?;
    let rounds = handle.rounds().await.ok_or_else(|| missing(Missing::NotNow))??;
    Ok(axum::Json(rounds).into_response())
}

/// How long a review request waits for a review being computed before it answers
/// "computing" (202, try again): most take well under a second.
const REVIEW_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// A request waits (up to [`REVIEW_WAIT`]) only for a review with at most this many
/// asked ones ahead of it.
const REVIEW_WAIT_PLACE: usize = 2;

/// `GET /api/tables/{table}/rounds/{round}/review[?game=N]`: the review of a round
/// that is over (protocol.md, "Round review"), of the latest game or a kept one.
async fn review(
    State(app): State<Arc<App>>,
    Path((table, round)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiFailure> {
    if table.len() > MAX_TABLE_ID_CHARS || !plausible_id(&table) {
        return Err(unknown_table());
    }
    let round: u32 =
        round.parse().map_err(|_| ApiFailure::new(ErrorCode::BadMessage, "the round is a number from 0"))?;
    let game = game_number(query.as_deref())?;
    let (game, record) = review_record(&app, &table, game, round).await?;
    let key = crate::review::Key { table, game, round };
    review_answer(&app, key, record).await
}

/// A review kept, or asked for and waited for a little (see `review`).
async fn review_answer(
    app: &App,
    key: crate::review::Key,
    record: jass_engine::Record,
) -> Result<Response, ApiFailure> {
    if let Some(json) = app.reviews.kept(&key).await {
        return Ok(review_json(&json));
    }
    let busy = || {
        ApiFailure::with_status(
            ErrorCode::Busy,
            StatusCode::SERVICE_UNAVAILABLE,
            "too many reviews wait; try again",
        )
    };
    let (answer, place) = app.reviews.ask(key, Arc::new(record)).ok_or_else(busy)?;
    let computing = || {
        (StatusCode::ACCEPTED, [(RETRY_AFTER, "1")], axum::Json(serde_json::json!({ "status": "computing" })))
            .into_response()
    };
    // Only a review about to be computed is waited for: a request for one further
    // back is answered at once (it stays queued), so a burst of questions holds no
    // connections open.
    if place > REVIEW_WAIT_PLACE {
        return Ok(computing());
    }
    match tokio::time::timeout(REVIEW_WAIT, answer).await {
        Ok(Ok(Ok(json))) => Ok(review_json(&json)),
        Ok(Ok(Err(why))) => Err(ApiFailure::new(ErrorCode::RoundNotOver, &why)),
        Ok(Err(_)) => Err(busy()),
        Err(_) => Ok(computing()),
    }
}

/// Largest record `POST /api/review` takes: a long game's record is a few tens of
/// kilobytes.
const MAX_RECORD_BYTES: usize = 256 * 1024;

/// `POST /api/review?round=N` with a game record (protocol.md 6.3) as the body: the
/// review of its round `N`, for a record from anywhere (a club's game, a bot's). The
/// record is checked by replay first; its reviews are kept in memory only, never in
/// the store (anyone may send one).
async fn review_upload(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
) -> Result<Response, ApiFailure> {
    let round = query
        .as_deref()
        .and_then(|q| q.strip_prefix("round="))
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(|| ApiFailure::new(ErrorCode::BadMessage, "the query is round=N (N from 0)"))?;
    let body = json_body_within(&app, &headers, body, MAX_RECORD_BYTES).await?;
    let record: jass_engine::Record = parse(&body)?;
    let over = tokio::task::spawn_blocking(move || {
        let r = usize::try_from(round).unwrap_or(usize::MAX);
        let game = record.replay_rounds(r.saturating_add(1), |_, _| {})?;
        Ok::<_, jass_engine::ReplayError>((game.history().len() > r, record))
    })
    .await
    .map_err(|_| ApiFailure::new(ErrorCode::Internal, "the record could not be checked"))?;
    let (over, record) =
        over.map_err(|e| ApiFailure::new(ErrorCode::BadMessage, &format!("not a valid record: {e}")))?;
    if !over {
        return Err(ApiFailure::new(
            ErrorCode::RoundNotOver,
            &format!("round {round} of this record is not over"),
        ));
    }
    let digest = Sha256::digest(&body);
    let key = crate::review::Key { table: format!("record:{}", hex::encode(digest)), game: 0, round };
    review_answer(&app, key, record).await
}

fn review_json(json: &str) -> Response {
    ([(CONTENT_TYPE, "application/json")], json.to_owned()).into_response()
}

/// The game and its record up to `round` for a review: the table's latest game if it
/// is here and that is the one asked for (only once the round is over), else a kept
/// game.
async fn review_record(
    app: &Arc<App>,
    table: &str,
    game: Option<u32>,
    round: u32,
) -> Result<(u32, jass_engine::Record), ApiFailure> {
    match app.table(table).await {
        Ok(handle) => match handle.review_record(round).await {
            Some(Ok((latest, record))) if game.is_none_or(|g| g == latest) => return Ok((latest, record)),
            Some(Err(r)) if game.is_none() && r.code != ErrorCode::NotStarted => return Err(r.into()),
            _ => {}
        },
        Err(Missing::NotNow) => return Err(missing(Missing::NotNow)),
        Err(Missing::Unknown) => {}
    }
    let store = Arc::clone(&app.store);
    let id = table.to_owned();
    let kept = tokio::task::spawn_blocking(move || store.load_game(&id, game))
        .await
        .map_err(unreadable)?
        .map_err(unreadable)?;
    let Some(kept) = kept else { return Err(game.map_or_else(unknown_table, unknown_game)) };
    if usize::try_from(round).map_or(true, |r| r >= kept.record.rounds.len()) {
        return Err(ApiFailure::new(
            ErrorCode::RoundNotOver,
            &format!("game {} has no round {round}", kept.game),
        ));
    }
    Ok((kept.game, kept.record))
}

/// `GET /api/stats`: the server's counters (protocol.md section 1).
/// `GET /api/presets`: the same for every table and every run of this build.
async fn presets() -> Response {
    axum::Json(jass_protocol::http::Presets::all()).into_response()
}

async fn stats(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    let token = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
    if !crate::operator::allowed(peer.ip(), token, app.config.stats_token.as_deref()) {
        return Err(Refusal::new(
            ErrorCode::OperatorOnly,
            "the server's counters are for its operator: ask from the server's own machine or send its token",
        )
        .into());
    }
    Ok(axum::Json(app.stats.snapshot(app.registry.len(), app.store.metrics())).into_response())
}

/// `GET /t/{table}`: the client's page (see `web`).
async fn table_page(State(app): State<Arc<App>>, method: Method, headers: HeaderMap) -> Response {
    crate::web::table_page(&app.web, &method, &headers).await
}

/// Every other path: a file of the client, or 404 (see `web`).
async fn file(State(app): State<Arc<App>>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    crate::web::file(&app.web, &method, &uri, &headers).await
}
