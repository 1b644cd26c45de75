//! The reference alternative client of the Schieber table: a bot that speaks only what
//! protocol.md documents (the `jass-protocol` types over a WebSocket), plays random
//! legal cards from `view.game.allowed`, and drives the load bench.
//!
//! It exists to prove the protocol is enough for a client written from the document
//! alone, to fill seats in tests, and to put thousands of real sockets on a server.
//!
//! # Layout
//! - [`http`]: the three HTTP calls (create, join, look) and the load bench's
//!   `/api/stats`, over plain HTTP/1.1.
//! - [`client`]: one seat's connection (`hello` → `welcome` → states) and its play loop,
//!   with an [`Observer`](client::Observer) hook for measurements.
//! - [`policy`]: the pure choice of one action per view (random card, all Weis, Stöck
//!   when allowed, sometimes schiebe, start as host, optional bedanke).
//! - `decode`: the load bench's fast decoder of `state` frames (the same messages
//!   as the derived decoder, without its buffering).
//! - [`fill`]: create a table and play all four seats (the `--fill` mode and the tests).
//! - binaries: `jass-bot` (the CLI) and `jass-loadgen` (the load bench).
//!
//! # Example
//! ```
//! use jass_bot::http::Server;
//! let server = Server::parse("http://127.0.0.1:8080").unwrap();
//! assert_eq!(server.ws_url("abc"), "ws://127.0.0.1:8080/ws/abc");
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod client;
mod decode;
pub mod fill;
pub mod http;
pub mod policy;

use jass_protocol::ErrorCode;

/// Everything that can stop a bot.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// Bad command-line input.
    #[error("{0}")]
    Usage(String),
    /// The TCP connection failed.
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket failed (handshake refused, connection reset, …); boxed because
    /// tungstenite's error is large and this is the rare path.
    #[error("websocket: {0}")]
    Ws(Box<tokio_tungstenite::tungstenite::Error>),
    /// The HTTP API answered an error (protocol.md section 1).
    #[error("HTTP {status}: {message} ({code:?})")]
    Api {
        /// The HTTP status.
        status: u16,
        /// The error code, if the body was an error body.
        code: Option<ErrorCode>,
        /// The server's message.
        message: String,
    },
    /// The server refused over the socket (e.g. `bad_token` instead of `welcome`).
    #[error("refused: {code:?}: {message}")]
    Refused {
        /// The error code.
        code: ErrorCode,
        /// The server's message.
        message: String,
    },
    /// The server closed the socket (protocol.md section 8 lists the codes).
    #[error("closed by the server: {code} {reason}")]
    Closed {
        /// The close code (1006 when the connection was lost without a close frame).
        code: u16,
        /// The close reason.
        reason: String,
    },
    /// The server sent something protocol.md does not allow.
    #[error("protocol: {0}")]
    Protocol(String),
}

impl From<tokio_tungstenite::tungstenite::Error> for BotError {
    fn from(e: tokio_tungstenite::tungstenite::Error) -> Self {
        Self::Ws(Box::new(e))
    }
}
