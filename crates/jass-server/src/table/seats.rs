//! Who sits where, live: players joining (the token made and kept only as its hash),
//! connections attaching and leaving, presence, and spectators within their limits.

use jass_engine::Seat;
use jass_protocol::ErrorCode;
use jass_protocol::close;
use jass_protocol::http::Joined;
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;
use tokio::time::Instant;
use tracing::{info, warn};

use super::actor::TableActor;
use super::conn::SeatConn;
use super::decide;
use super::state::Occupant;
use super::{Attached, ConnId, Kick, Refusal};
use crate::store::Entry;

fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl TableActor {
    pub(super) async fn join(&mut self, name: &str, want: Option<Seat>) -> Result<Joined, Refusal> {
        let (seat, name) = decide::join(&self.state, name, want)?;
        let token = uuid::Uuid::new_v4().simple().to_string();
        let token_hash = hash_token(&token);
        self.commit(Entry::Seated { seat, name, token_hash }).await?;
        info!(%seat, "seat taken");
        self.publish();
        Ok(Joined { table: self.id.to_string(), seat, token, link: format!("/t/{}", self.id) })
    }

    pub(super) fn attach(
        &mut self,
        token: Option<&str>,
        conn: ConnId,
        peer: u64,
    ) -> Result<Attached, Refusal> {
        let Some(token) = token else {
            // Watching is free, but bounded: a stranger with the link cannot fill the
            // table's fan-out (protocol.md 8, limits).
            if self.spectators.len() >= self.max_spectators {
                return Err(Refusal::new(ErrorCode::Busy, "this table has its limit of spectators"));
            }
            if self.spectators.values().filter(|p| **p == peer).count() >= self.max_spectators_per_ip {
                return Err(Refusal::new(ErrorCode::Busy, "this address has its limit of spectators here"));
            }
            self.spectators.insert(conn, peer);
            self.publish();
            return Ok(Attached { seat: None, views: self.spectator_view.subscribe(), kick: None });
        };
        let hash = hash_token(token);
        let seat = self
            .state
            .seats
            .iter()
            .find(|(_, slot)| slot.as_ref().is_some_and(|o: &Occupant| o.token_hash == Some(hash)))
            .map(|(s, _)| s)
            .ok_or_else(|| Refusal::new(ErrorCode::BadToken, "this token matches no seat of the table"))?;
        let (kick_tx, kick_rx) = oneshot::channel();
        let slot = &mut self.conns[seat];
        slot.kick(Kick { code: close::REPLACED, reason: "another connection took this seat" });
        slot.conn = Some((conn, kick_tx));
        slot.away = false;
        let views = slot.view.subscribe();
        self.turns.back(seat);
        self.joined = true;
        info!(%seat, conn, "seat connected");
        self.publish();
        Ok(Attached { seat: Some(seat), views, kick: Some(kick_rx) })
    }

    pub(super) fn detach(&mut self, conn: ConnId) {
        if self.spectators.remove(&conn).is_some() {
            self.publish();
            return;
        }
        let seat = self.seat_of(conn);
        if let Some(seat) = seat {
            let slot = &mut self.conns[seat];
            if slot.present() {
                slot.absent_since = Instant::now();
            }
            slot.conn = None;
            slot.away = false;
            info!(%seat, conn, "seat disconnected");
            self.publish();
        }
    }

    /// A seated connection's peer fell silent or spoke again; a replaced connection
    /// or a spectator changes nothing, and neither does a repeat.
    pub(super) fn presence(&mut self, conn: ConnId, away: bool) {
        let Some(seat) = self.seat_of(conn) else { return };
        let slot = &mut self.conns[seat];
        if slot.away == away {
            return;
        }
        slot.away = away;
        if away {
            slot.absent_since = Instant::now();
        } else {
            self.turns.back(seat);
        }
        info!(%seat, conn, away, "seat presence");
        self.publish();
    }

    /// The seat `conn` currently plays (a replaced connection plays none).
    pub(super) fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.conns.iter().find(|(_, slot)| matches!(slot.conn, Some((c, _)) if c == conn)).map(|(s, _)| s)
    }

    /// After a `Freed` entry: closes the seat's connection with 4003 (its token is
    /// revoked) and gives it a fresh view channel, then tells everyone.
    pub(super) fn vacate(&mut self, seat: Seat) {
        let slot = &mut self.conns[seat];
        slot.kick(Kick { code: close::BAD_TOKEN, reason: "the host freed this seat" });
        *slot = SeatConn::default();
        self.turns.clear(seat);
        info!(%seat, "seat freed");
        self.publish();
    }

    /// Undoes a join whose token never reached anyone.
    pub(super) async fn release(&mut self, seat: Seat) {
        if self.conns[seat].conn.is_some() {
            return;
        }
        match self.commit(Entry::Freed { seat }).await {
            Ok(()) => self.vacate(seat),
            Err(e) => warn!(error = ?e, %seat, "could not release an unclaimed seat"),
        }
    }

    /// Closes every seated connection with 1012, so its client reconnects at once and
    /// finds the table where it is served next (spectators see their view end).
    pub(super) fn kick_seats(&mut self, reason: &'static str) {
        for (_, seat) in self.conns.iter_mut() {
            seat.kick(Kick { code: close::SERVICE_RESTART, reason });
        }
    }
}
