//! What a stored change does beyond the state: the store first ([`TableActor::commit`]
//! is the only way the durable state changes), then every seat's and the spectators'
//! frames, the computers shown their views and asked when due, the move clock and
//! step-in, finished games kept and finished rounds reviewed.

use axum::extract::ws::Utf8Bytes;
use jass_engine::{BySeat, Seat, Viewer};
use jass_protocol::http::TableInfo;
use jass_protocol::{Deadline, ErrorCode, SeatInfo, ServerMsg, TableView, TurnClock};
use tokio::time::Instant;
use tracing::{debug, info, warn};

use super::Refusal;
use super::actor::TableActor;
use super::state::{Occupant, finished_record};
use super::turn;
use crate::store::Entry;

fn internal(e: impl std::fmt::Display) -> Refusal {
    warn!(error = %e, "store refused a change");
    Refusal::new(ErrorCode::Internal, "the server could not save this; nothing changed")
}

impl TableActor {
    /// Stores `entry`, then applies it: the only way the durable state changes. The
    /// entry passed the actor's checks, so applying it cannot fail by the engine's
    /// contract; if it does anyway the store and memory disagree, which is logged
    /// loudly (a restart would then quarantine the table rather than guess).
    pub(super) async fn commit(&mut self, entry: Entry) -> Result<(), Refusal> {
        let was_over = self.state.finished();
        let rounds = self.rounds_over();
        if self.fenced {
            return Err(internal("the table is being let go"));
        }
        if let Err(e) = self.store.append(&self.id, &entry).await {
            self.fenced = e.is_fenced();
            return Err(internal(e));
        }
        self.state.apply(&entry).map_err(|e| {
            warn!(error = %e, "a stored entry could not be applied");
            Refusal::new(ErrorCode::Internal, "the server could not apply this")
        })?;
        if !was_over && self.state.finished() {
            self.keep_game().await;
        }
        if self.rounds_over() > rounds {
            self.review_ahead();
        }
        Ok(())
    }

    /// Rounds of the latest game that are over.
    pub(super) fn rounds_over(&self) -> usize {
        self.state.game.as_ref().map_or(0, |g| g.history().len())
    }

    /// The latest game's record up to round `round`, once it is over: what its review
    /// is computed from. The round in play (and its secret seed) stays here.
    pub(super) fn review_record(&self, round: u32) -> Result<(u32, jass_engine::Record), Refusal> {
        let game = self
            .state
            .game
            .as_ref()
            .ok_or_else(|| Refusal::new(ErrorCode::NotStarted, "no game has been played"))?;
        let over = usize::try_from(round).ok().filter(|&r| r < game.history().len());
        let Some(r) = over else {
            return Err(Refusal::new(ErrorCode::RoundNotOver, format!("round {round} is not over")));
        };
        let mut record = game.record().clone();
        record.rounds.truncate(r + 1);
        Ok((self.state.games, record))
    }

    /// A round just ended: its review is computed ahead of the question when there is
    /// room (see `review`).
    pub(super) fn review_ahead(&self) {
        let Some(reviews) = &self.reviews else { return };
        let Some(round) = self.rounds_over().checked_sub(1).and_then(|r| u32::try_from(r).ok()) else {
            return;
        };
        let key = crate::review::Key { table: self.id.to_string(), game: self.state.games, round };
        reviews.ahead(key, || self.review_record(round).ok().map(|(_, record)| record));
    }

    /// Keeps the game that just ended on its own, before anyone hears it ended. The
    /// entry that ended it is stored already, so a failure here refuses nothing: the
    /// next start keeps every finished game the entries hold that is not kept yet.
    pub(super) async fn keep_game(&self) {
        match finished_record(&self.state) {
            Ok(record) => {
                if let Err(e) = self.store.keep_game(&self.id, self.state.games, &record).await {
                    warn!(error = %e, game = self.state.games, "could not keep a finished game; the next start keeps it");
                }
            }
            Err(r) => warn!(code = ?r.code, "a finished game has no record"),
        }
    }

    pub(super) fn seat_infos(&self) -> [SeatInfo; 4] {
        Seat::ALL.map(|seat| {
            let occupant = self.state.seats[seat].as_ref();
            let computer = occupant.is_some_and(Occupant::computer);
            let benched = self.state.benched(seat);
            SeatInfo {
                name: occupant.map(|o| o.name.clone()),
                computer,
                level: if computer || benched { self.state.computer_level(seat).shown() } else { None },
                connected: self.conns[seat].present(),
                stand_in: !computer && self.state.playing() && self.computer_plays(seat),
                waiting: self.state.waiting(seat),
                benched,
            }
        })
    }

    pub(super) fn spectator_count(&self) -> u32 {
        u32::try_from(self.spectators.len()).unwrap_or(u32::MAX)
    }

    pub(super) fn info(&self) -> TableInfo {
        TableInfo {
            table: self.id.to_string(),
            seats: self.seat_infos(),
            options: self.state.options,
            timing: self.state.timing,
            started: self.state.game.is_some(),
            spectators: self.spectator_count(),
        }
    }

    /// One connection's `state` frame, encoded once and shared by its watchers.
    pub(super) fn encode(&self, you: Option<Seat>) -> Option<Utf8Bytes> {
        // A player who joined during a round sees the table as a spectator until the
        // next deal: that round's hand was someone else's. One whose seat the host gave
        // to the computer watches the same way until given it back.
        let viewer = you
            .filter(|seat| !self.state.waiting(*seat) && !self.state.benched(*seat))
            .map_or(Viewer::Spectator, Viewer::Seat);
        let s = &self.state;
        let view = TableView {
            table: self.id.to_string(),
            you,
            host: s.host,
            seats: self.seat_infos(),
            spectators: self.spectator_count(),
            options: s.options,
            games: s.games,
            rematch: self.rematch_votes(),
            timing: s.timing,
            clock: self.deadline().map(|(seat, kind, at)| TurnClock {
                seat,
                kind,
                deadline: turn::unix_ms(at),
                now: turn::unix_ms(Instant::now()),
            }),
            reserve: (s.timing.move_clock > 0 && s.game.is_some()).then(|| self.reserves()),
            review_ready: self.reviewed.filter(|(g, _)| *g == s.games).map(|(_, r)| r),
            game: s.game.as_ref().map(|g| g.view(viewer)),
        };
        match encode_exact(&ServerMsg::State { version: s.version, view: Box::new(view) }) {
            Ok(frame) => Some(frame),
            Err(e) => {
                warn!(error = %e, "could not encode a state");
                None
            }
        }
    }

    /// The rematch votes as shown: a computer always wants another game, so once a
    /// game is over its seat shows the vote it casts (not stored: it is implied).
    pub(super) fn rematch_votes(&self) -> BySeat<bool> {
        let s = &self.state;
        let over = s.finished();
        BySeat(Seat::ALL.map(|seat| {
            s.rematch[seat] || (over && s.seats[seat].as_ref().is_some_and(Occupant::played_by_computer))
        }))
    }

    /// Each seat's reserve as the clock sees it (one that ran out is spent).
    pub(super) fn reserves(&self) -> BySeat<u32> {
        BySeat(Seat::ALL.map(|seat| if self.turns.clocked_out(seat) { 0 } else { self.state.reserve[seat] }))
    }

    /// Whether the computer makes this seat's decisions now: a computer's seat; during
    /// a game also a seat left free, one whose player takes over at the next deal, and
    /// one whose player is away or out of time (points 1–3).
    pub(super) fn computer_plays(&self, seat: Seat) -> bool {
        let Some(occupant) = &self.state.seats[seat] else { return self.state.playing() };
        occupant.played_by_computer()
            || (self.state.playing() && (occupant.waiting || self.turns.stands_in(seat)))
    }

    /// The awaited human decision's seat, why it has a deadline and when.
    pub(super) fn deadline(&self) -> Option<(Seat, Deadline, Instant)> {
        let (seat, since) = self.turns.current()?;
        // Nobody else at the table is kept waiting: the game pauses rather than play
        // itself out while everyone is away (friends on a break find it as they left).
        // A computer waits too, but only on a player who is here: the move clock runs
        // at a table of one player and computers, while a table that player left
        // pauses (protocol.md 3, "Step-in and move clock").
        let absent = self.conns[seat].absent();
        let player_waits = self.conns.iter().any(|(s, c)| s != seat && c.present());
        let computer_waits = absent.is_none()
            && self.state.seats.iter().any(|(s, o)| s != seat && o.as_ref().is_some_and(Occupant::computer));
        if self.computer_plays(seat) || !(player_waits || computer_waits) {
            return None;
        }
        let reserve = self.state.reserve[seat];
        let (kind, at) = turn::deadline(self.state.timing, since, reserve, absent)?;
        Some((seat, kind, at))
    }

    /// A deadline passed: the computer takes the decision over (and, while the
    /// player is away, the ones after it).
    pub(super) fn on_deadline(&mut self) {
        let Some((seat, kind, at)) = self.deadline() else { return };
        if at > Instant::now() {
            return;
        }
        info!(%seat, ?kind, "the computer plays for an absent or out-of-time player");
        self.turns.expire(seat, kind, self.conns[seat].present());
        self.publish();
    }

    /// Hands every connection its new view (after a change or a presence change).
    pub(super) fn publish(&mut self) {
        self.turns.follow(self.state.game.as_ref());
        for seat in Seat::ALL {
            let slot = &self.conns[seat];
            // No socket on the seat (a computer's, or its player is away): nobody reads
            // a frame, so none is made or kept; attaching publishes a fresh one.
            if slot.conn.is_none() {
                if !slot.view.borrow().is_empty() {
                    slot.view.send_replace(Utf8Bytes::from_static(""));
                }
                continue;
            }
            if let Some(frame) = self.encode(Some(seat)) {
                self.conns[seat].view.send_replace(frame);
            }
        }
        // Nobody watching: skip the fifth encoding. A spectator who arrives is counted
        // before the publish its attach triggers, so it still starts from a fresh frame.
        if !self.spectators.is_empty()
            && let Some(frame) = self.encode(None)
        {
            self.spectator_view.send_replace(frame);
        }
        self.prompt_computers();
    }

    /// Gives every seat the computer plays its computer (keeping it for the rest of
    /// the game, so its memory of the round stays whole), shows each its view, and
    /// asks those whose decision is due.
    pub(super) fn prompt_computers(&mut self) {
        self.show_computers(true);
    }

    /// Gives every seat the computer plays its computer and shows each its view; with
    /// `ask`, asks those whose decision is due.
    pub(super) fn show_computers(&mut self, ask: bool) {
        for seat in Seat::ALL {
            let plays = self.computer_plays(seat);
            let keep = plays || self.state.playing();
            let slot = &mut self.computers[seat];
            if !keep {
                *slot = None;
                continue;
            }
            let Some(game) = &self.state.game else { continue };
            if plays && slot.as_ref().is_none_or(|c| c.seat() != seat) && !self.thinking[seat] {
                *slot = Some(self.pool.computer(seat, self.state.options));
            }
            let Some(computer) = slot else { continue };
            let view = game.view(Viewer::Seat(seat));
            computer.observe(&view);
            if ask
                && plays
                && crate::computer::due(&view)
                && let Some(computer) = slot.take()
            {
                self.thinking[seat] = true;
                let level = self.state.computer_level(seat);
                let (group, on) = (self.group, self.state.game_version);
                self.pool.think(group, computer, level, view, on, self.thought_tx.clone());
            }
        }
    }

    /// A computer's decision is back: played if the game is still where it was
    /// decided (else it decides again on the new view).
    pub(super) async fn on_thought(&mut self, t: crate::computer::Thought) {
        self.thinking[t.seat] = false;
        self.computers[t.seat] = t.computer;
        // The player came back (or the game ended) while it thought.
        if !self.computer_plays(t.seat) {
            return;
        }
        let nothing_to_do = t.action.is_none() && t.on == self.state.game_version;
        let played = match t.action {
            Some(action) if t.on == self.state.game_version => {
                match self.act(t.seat, Some(t.on), action, true).await {
                    Ok(()) => true,
                    Err(r) => {
                        debug!(seat = %t.seat, code = ?r.code, "a computer's action was refused");
                        false
                    }
                }
            }
            _ => false,
        };
        // Nothing to do on the current view (Stöck it may announce later): the next
        // change prompts it again; asking at once would spin (seen in the load bench).
        if !played && !nothing_to_do {
            self.prompt_computers();
        }
    }
}

thread_local! {
    /// Scratch space for encoding frames, one per worker thread: an actor encodes
    /// without awaiting, so no two encodings share it at once.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(Vec::with_capacity(4096));
}

/// Encodes `msg` into an allocation of exactly its size. The frame is kept in a watch
/// until the next change (seconds), four or five per table: growing a `String` by
/// doubling would keep up to twice the bytes and reallocate a dozen times on the way.
fn encode_exact(msg: &ServerMsg) -> Result<Utf8Bytes, String> {
    SCRATCH.with_borrow_mut(|buf| {
        buf.clear();
        serde_json::to_writer(&mut *buf, msg).map_err(|e| e.to_string())?;
        let text = std::str::from_utf8(buf).map_err(|e| e.to_string())?;
        Ok(Utf8Bytes::from(text))
    })
}
