//! A table: its handle (the only way to reach it) and the messages its actor
//! understands. The actor itself is in [`actor`].
//!
//! Every change to a table goes through its actor's mailbox, one command at a time,
//! so the game, the seats and the version need no lock (boardgame.io's
//! one-queue-per-match, made structural).

pub(crate) mod actor;
mod commands;
mod conn;
pub(crate) mod decide;
mod effects;
mod seats;
pub(crate) mod state;
pub(crate) mod turn;

use axum::extract::ws::Utf8Bytes;
use jass_engine::Seat;
use jass_protocol::http::{Joined, TableInfo};
use jass_protocol::{ClientMsg, ErrorCode};
use tokio::sync::{mpsc, oneshot, watch};

/// Identifies one WebSocket connection inside the server (never sent to clients).
pub(crate) type ConnId = u64;

/// A request the table refused: the code and text of the `error` frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Stable wire code.
    pub(crate) code: ErrorCode,
    /// Detail for humans.
    pub(crate) message: String,
}

impl Refusal {
    /// A refusal with a message.
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    /// The table's actor is gone: the server is stopping, the table moves to another
    /// node, or it just expired. The client tries again and learns which.
    pub(crate) fn gone() -> Self {
        Self::new(ErrorCode::Busy, "the table is not served here right now; try again")
    }
}

/// Why a connection is closed by its table, sent to the connection task.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Kick {
    /// WebSocket close code (`jass_protocol::close`).
    pub(crate) code: u16,
    /// Close reason for humans.
    pub(crate) reason: &'static str,
}

/// What a connection gets when it joins the table with its `hello`.
#[derive(Debug)]
pub(crate) struct Attached {
    /// The seat it plays, `None` for a spectator.
    pub(crate) seat: Option<Seat>,
    /// The latest pre-encoded `state` frame for this connection. A watch keeps only
    /// the newest value, so a slow socket skips stale states instead of queueing them.
    pub(crate) views: watch::Receiver<Utf8Bytes>,
    /// Fires when the table closes this connection (replaced, seat freed); `None`
    /// for spectators, whom the table never kicks.
    pub(crate) kick: Option<oneshot::Receiver<Kick>>,
}

/// How a practice table starts (`POST /api/practice`, protocol.md "Replay a deal").
#[derive(Debug)]
pub(crate) struct PracticeStart {
    /// The host's seat.
    pub(crate) seat: jass_engine::Seat,
    /// The round dealt again and what is played before the practice starts.
    pub(crate) deal: jass_engine::Practice,
}

/// The actor's whole API. Replies travel on oneshot channels, so nothing here can
/// queue without bound.
#[derive(Debug)]
pub(crate) enum TableCmd {
    /// HTTP join (and the host's seat at creation).
    Join {
        /// Player name, validated by the actor.
        name: String,
        /// Wanted seat, or the first free one.
        seat: Option<Seat>,
        /// The new seat and its token.
        reply: oneshot::Sender<Result<Joined, Refusal>>,
    },
    /// HTTP table info.
    Info {
        /// The public summary.
        reply: oneshot::Sender<TableInfo>,
    },
    /// A finished game's record (HTTP download).
    Record {
        /// The game's number; `None` for the latest.
        game: Option<u32>,
        /// The record, or `not_started` / `game_not_over`, or `unknown_game` for a
        /// number that is not the latest game's (the store keeps those).
        reply: oneshot::Sender<Result<jass_engine::Record, Refusal>>,
    },
    /// The record of the latest game up to round `round`, once that round is over,
    /// for its review (never a round in play).
    ReviewRecord {
        /// The round, from 0.
        round: u32,
        /// The game's number and its record up to the round, or `not_started` /
        /// `round_not_over`.
        reply: oneshot::Sender<Result<(u32, jass_engine::Record), Refusal>>,
    },
    /// The review of a round of game `game` is ready: the table says so in its view.
    Reviewed {
        /// The game.
        game: u32,
        /// The round.
        round: u32,
    },
    /// The latest game's round scores so far (HTTP).
    Rounds {
        /// The rounds, or `not_started`.
        reply: oneshot::Sender<Result<jass_protocol::http::Rounds, Refusal>>,
    },
    /// Right after creation: the table's timing, and "play with computers" (seat
    /// computers in the three other seats and start).
    Setup {
        /// Step-in and move clock; `None` keeps the defaults.
        timing: Option<jass_protocol::Timing>,
        /// Fill the other seats with computers of this level and start the game.
        computers: Option<jass_protocol::Level>,
        /// A practice table: the host's seat and the round dealt again, started in
        /// place of a fresh game.
        practice: Option<Box<PracticeStart>>,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// A socket said `hello`.
    Attach {
        /// The seat token, `None` for a spectator.
        token: Option<String>,
        /// The connection.
        conn: ConnId,
        /// A key for the client's address (per-address spectator cap).
        peer: u64,
        /// Its seat and view channel.
        reply: oneshot::Sender<Result<Attached, Refusal>>,
    },
    /// A socket closed.
    Detach {
        /// The connection.
        conn: ConnId,
    },
    /// A seated socket's peer fell silent for `away_after`, or was heard from again
    /// (protocol.md 2). Presence only: published at the same `version`.
    Presence {
        /// The connection.
        conn: ConnId,
        /// Silent (`true`) or heard from again.
        away: bool,
    },
    /// A client request other than `hello` and `ping`.
    Request {
        /// The connection it came from (the actor maps it to a seat).
        conn: ConnId,
        /// The parsed message; boxed, so every mailbox slot (tokio allocates them 32
        /// at a time, per table) is not sized for the largest message.
        msg: Box<ClientMsg>,
        /// `ack` or `error`.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Stop serving the table on this node (shared store only): another node asked
    /// for it (`release`: let it go in the store too), or this node's lease may have
    /// run out (then it must not write at all).
    LetGo {
        /// Let it go in the store as well.
        release: bool,
        /// Whether the table agreed (a handoff waits a few seconds after a move).
        reply: oneshot::Sender<bool>,
    },
}

/// A cheap, clonable way to reach one table's actor.
#[derive(Clone, Debug)]
pub(crate) struct TableHandle {
    /// The actor's bounded mailbox.
    tx: mpsc::Sender<TableCmd>,
}

impl TableHandle {
    /// Sends a command and waits for its reply; `gone` if the actor has stopped.
    async fn call<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> TableCmd) -> Option<T> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.ok()?;
        rx.await.ok()
    }

    /// Takes a seat (see [`TableCmd::Join`]).
    pub(crate) async fn join(&self, name: String, seat: Option<Seat>) -> Result<Joined, Refusal> {
        self.call(|reply| TableCmd::Join { name, seat, reply }).await.unwrap_or_else(|| Err(Refusal::gone()))
    }

    /// Sets a new table up (see [`TableCmd::Setup`]).
    pub(crate) async fn setup(
        &self,
        timing: Option<jass_protocol::Timing>,
        computers: Option<jass_protocol::Level>,
        practice: Option<Box<PracticeStart>>,
    ) -> Result<(), Refusal> {
        self.call(|reply| TableCmd::Setup { timing, computers, practice, reply })
            .await
            .unwrap_or_else(|| Err(Refusal::gone()))
    }

    /// The public summary, `None` if the table is gone.
    pub(crate) async fn info(&self) -> Option<TableInfo> {
        self.call(|reply| TableCmd::Info { reply }).await
    }

    /// A finished game's record (see [`TableCmd::Record`]); `None` if the table is gone.
    pub(crate) async fn record(&self, game: Option<u32>) -> Option<Result<jass_engine::Record, Refusal>> {
        self.call(|reply| TableCmd::Record { game, reply }).await
    }

    /// The latest game's record up to a round that is over (see
    /// [`TableCmd::ReviewRecord`]); `None` if the table is gone.
    pub(crate) async fn review_record(
        &self,
        round: u32,
    ) -> Option<Result<(u32, jass_engine::Record), Refusal>> {
        self.call(|reply| TableCmd::ReviewRecord { round, reply }).await
    }

    /// Tells the table a review of one of its rounds is ready.
    pub(crate) async fn reviewed(&self, game: u32, round: u32) {
        let _ = self.tx.send(TableCmd::Reviewed { game, round }).await;
    }

    /// The latest game's round scores; `None` if the table is gone.
    pub(crate) async fn rounds(&self) -> Option<Result<jass_protocol::http::Rounds, Refusal>> {
        self.call(|reply| TableCmd::Rounds { reply }).await
    }

    /// Attaches a connection (see [`TableCmd::Attach`]).
    pub(crate) async fn attach(
        &self,
        token: Option<String>,
        conn: ConnId,
        peer: u64,
    ) -> Result<Attached, Refusal> {
        self.call(|reply| TableCmd::Attach { token, conn, peer, reply })
            .await
            .unwrap_or_else(|| Err(Refusal::gone()))
    }

    /// Detaches a connection; a table that is gone needs no telling.
    pub(crate) async fn detach(&self, conn: ConnId) {
        let _ = self.tx.send(TableCmd::Detach { conn }).await;
    }

    /// Tells the table whether `conn`'s peer is silent; a table that is gone needs no
    /// telling.
    pub(crate) async fn presence(&self, conn: ConnId, away: bool) {
        let _ = self.tx.send(TableCmd::Presence { conn, away }).await;
    }

    /// Asks the table to stop serving here (see [`TableCmd::LetGo`]); whether it did.
    pub(crate) async fn let_go(&self, release: bool) -> bool {
        self.call(|reply| TableCmd::LetGo { release, reply }).await.unwrap_or(false)
    }

    /// Hands a client request to the table.
    pub(crate) async fn request(&self, conn: ConnId, msg: ClientMsg) -> Result<(), Refusal> {
        self.call(|reply| TableCmd::Request { conn, msg: Box::new(msg), reply })
            .await
            .unwrap_or_else(|| Err(Refusal::new(ErrorCode::Internal, "the table is closed")))
    }
}

#[cfg(test)]
mod tests {
    /// A table's mailbox allocates 32 slots of this size up front; 2,500 tables pay it
    /// 2,500 times (the load bench's memory target: ≤ 64 KiB per table, docs/benchmarks.md).
    #[test]
    fn a_mailbox_slot_stays_small() {
        assert!(size_of::<super::TableCmd>() <= 48, "{} bytes", size_of::<super::TableCmd>());
    }
}
