//! The Schieber Jass table server: private tables over HTTP, play over WebSockets,
//! one actor task per table as the only writer of its game (protocol.md is the
//! contract; this crate implements its server side).
//!
//! # Layout
//! - [`config`]: [`Config`], every tunable (timeouts, rate limits, sizes, limits).
//! - `serve`: the accept loop and HTTP/1.1 connections (header timeout, per-address
//!   connection cap, clean closes).
//! - `http`: the router: table API, WebSocket upgrade, health check, static client.
//! - `ws`: one task per socket: `hello`, views out, requests in, pings, kicks.
//! - `table`: a table's handle and commands; `table::actor` owns the game and seats.
//! - `registry`: table id → handle, behind a short-held std mutex.
//! - [`store`]: [`Store`], where every change goes before anyone is told.
//! - `shutdown`: stop signal and task tracking (axum does not track upgraded sockets).
//! - `ratelimit`: the per-connection token bucket.
//! - `per_ip`, `origin`, `headers`: per-address limits, the WebSocket `Origin` check,
//!   security headers.
//! - `stats`: the counters behind `GET /api/stats`.
//! - `cluster`: with a store several nodes share, claiming tables when asked for,
//!   letting them go, and stopping when the node's lease may have run out.
//!
//! # Example
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let storage = jass_server::Storage::Sqlite("data/jass.sqlite3".into());
//! jass_server::run(listener, jass_server::Config::default(), storage, tokio::signal::ctrl_c()).await
//! # }
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod app;
mod claim;
mod cluster;
mod computer;
pub mod config;
mod headers;
mod http;
mod ids;
mod operator;
mod origin;
mod pace;
mod per_ip;
mod proxy;
mod ratelimit;
mod registry;
mod restore;
mod review;
mod run;
mod serve;
mod shutdown;
mod stats;
pub mod store;
mod table;
mod web;
mod ws;

pub use config::Config;
pub use run::{PURGE_EVERY, Storage, run};
pub use store::{MemoryStore, Store};
