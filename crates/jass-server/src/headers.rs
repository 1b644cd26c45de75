//! Security headers on every HTTP answer: the browser client is served from here, so
//! its CSP and framing rules must come from here too.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The client is plain same-origin modules and a stylesheet; `img-src data:` covers
/// the empty `data:` favicon, `'unsafe-inline'` styles cover style attributes set by
/// script. Nothing inline runs, so a reflected string can never become script.
pub(crate) const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// The header that names a new table (on `POST /api/tables`).
pub(crate) const TABLE: HeaderName = HeaderName::from_static("x-jass-table");

/// The header that names the node which answered (with `--node-name`).
pub(crate) const NODE: HeaderName = HeaderName::from_static("x-jass-node");

/// Names the node on every answer when it has a name: behind a balancer an operator
/// (and the routing tests) can tell which node served a request.
pub(crate) async fn node_name(State(app): State<Arc<crate::app::App>>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    if let Some(name) = &app.node_header {
        res.headers_mut().insert(NODE, name.clone());
    }
    res
}

/// Adds the headers; `/api/*` answers (tokens, live state) are never cached.
pub(crate) async fn security_headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if api {
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}
