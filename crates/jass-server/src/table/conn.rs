//! A seat's live side: its player's connection, whether its peer is heard from, and
//! its occupant's frames.

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{oneshot, watch};
use tokio::time::Instant;

use super::{ConnId, Kick};

/// A seat's live side: its connection and its occupant's frames.
#[derive(Debug)]
pub(super) struct SeatConn {
    /// The live connection and the way to close it (replaced, freed).
    pub(super) conn: Option<(ConnId, oneshot::Sender<Kick>)>,
    /// The occupant's `state` frames. It belongs to the occupant, not the seat
    /// number: a swap moves it along, and freeing the seat replaces it so a revoked
    /// connection never sees the next occupant's hand.
    pub(super) view: watch::Sender<Utf8Bytes>,
    /// The live connection's peer has been silent for `away_after` (its socket task
    /// says so): shown as `connected: false` although the socket is still open.
    pub(super) away: bool,
    /// When the seat last became absent (or the table was restored): step-in
    /// counts from here.
    pub(super) absent_since: Instant,
}

impl Default for SeatConn {
    fn default() -> Self {
        Self {
            conn: None,
            view: watch::channel(Utf8Bytes::from_static("")).0,
            away: false,
            absent_since: Instant::now(),
        }
    }
}

impl SeatConn {
    /// A live connection whose peer has been heard from lately: what `connected`
    /// shows (protocol.md 5.1, `seats`).
    pub(super) fn present(&self) -> bool {
        self.conn.is_some() && !self.away
    }

    /// Since when the seat's player has been absent, if they are.
    pub(super) fn absent(&self) -> Option<Instant> {
        (!self.present()).then_some(self.absent_since)
    }

    /// Closes the live connection, if any, with `kick`.
    pub(super) fn kick(&mut self, kick: Kick) {
        if let Some((_, tx)) = self.conn.take() {
            let _ = tx.send(kick);
        }
    }
}
