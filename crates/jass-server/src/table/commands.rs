//! The table's requests carried out: each is decided on the durable state (`decide`),
//! its entry stored and applied (`effects::commit`), and then what the entry does to
//! the live side (sockets, the computers' turns) is done and everyone is told.

use jass_engine::{Action, Seat, Seed};
use jass_protocol::{ClientMsg, Deadline, ErrorCode, Level, Timing};
use tracing::{Instrument, debug, info};

use super::actor::TableActor;
use super::decide::{self, Rematch};
use super::state::Occupant;
use super::turn;
use super::{ConnId, PracticeStart, Refusal};
use crate::store::Entry;

/// 32 bytes from the OS-seeded thread CSPRNG: one per round (R2, R12).
fn fresh_seed() -> Seed {
    Seed(rand::random())
}

impl TableActor {
    /// A request from connection `conn`, whose seat acts.
    pub(super) async fn request(&mut self, conn: ConnId, msg: ClientMsg) -> Result<(), Refusal> {
        let seat =
            self.seat_of(conn).ok_or_else(|| Refusal::new(ErrorCode::NotSeated, "spectators cannot act"))?;
        let span = tracing::debug_span!("request", %seat);
        self.request_as(seat, msg).instrument(span).await
    }

    async fn request_as(&mut self, seat: Seat, msg: ClientMsg) -> Result<(), Refusal> {
        if let Some(action) = msg.game_action() {
            decide::player_may_act(&self.state, seat)?;
            return self.act(seat, msg.version(), action, false).await;
        }
        let s = &self.state;
        match msg {
            ClientMsg::Start { .. } => {
                let entry = decide::start(s, seat, fresh_seed())?;
                self.start_game(entry).await
            }
            ClientMsg::SwapSeats { a, b, .. } => self.swap(seat, a, b).await,
            ClientMsg::FreeSeat { seat: target, .. } => {
                if let Some(entry) = decide::free(s, seat, target)? {
                    self.commit(entry).await?;
                    self.vacate(target);
                }
                Ok(())
            }
            ClientMsg::AddComputer { seat: target, level, .. } => {
                self.add_computer(seat, target, level.unwrap_or_default()).await
            }
            ClientMsg::GiveToComputer { seat: target, level, .. } => {
                let level = level.unwrap_or_default();
                if let Some(entry) = decide::give_to_computer(s, seat, target, level)? {
                    self.commit(entry).await?;
                    self.turns.clear(target);
                    info!(seat = %target, ?level, "seat given to the computer");
                    self.publish();
                }
                Ok(())
            }
            ClientMsg::GiveBack { seat: target, .. } => {
                let entry = decide::give_back(s, seat, target)?;
                self.commit(entry).await?;
                info!(seat = %target, "seat given back");
                self.publish();
                Ok(())
            }
            ClientMsg::SetOptions { preset, options, .. } => {
                let entry = decide::set_options(s, seat, preset, options.as_ref())?;
                self.store_and_tell(Some(entry)).await
            }
            ClientMsg::SetTiming { step_in, move_clock, reserve, .. } => {
                let entry = decide::timing_request(s, seat, step_in, move_clock, reserve)?;
                self.store_and_tell(entry).await
            }
            ClientMsg::Rematch { .. } => match decide::rematch(s, seat)? {
                Rematch::NewGame => {
                    let entry = decide::new_game(s, fresh_seed())?;
                    self.start_game(entry).await
                }
                // Stored first: a restart in between must not forget who agreed.
                Rematch::Vote(entry) => self.store_and_tell(Some(entry)).await,
                Rematch::Nothing => Ok(()),
            },
            ClientMsg::Hello { .. } => Err(Refusal::new(ErrorCode::HelloExpected, "hello was already said")),
            _ => Err(Refusal::new(ErrorCode::BadMessage, "not a table request")),
        }
    }

    /// Stores `entry`, if there is one, and tells everyone.
    async fn store_and_tell(&mut self, entry: Option<Entry>) -> Result<(), Refusal> {
        if let Some(entry) = entry {
            self.commit(entry).await?;
            self.publish();
        }
        Ok(())
    }

    /// A game action by the seat's player or, `by_computer`, by the computer playing
    /// the seat. Checked first, stored second, applied last: the game changes only once
    /// the store has the action, and an action that passed the check cannot fail to
    /// apply.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        version: Option<u64>,
        action: Action,
        by_computer: bool,
    ) -> Result<(), Refusal> {
        let ends_round = decide::game_action(&self.state, seat, version, &action)?;
        let dealt = ends_round.then(fresh_seed);
        debug!(?action, by_computer, "accepted");
        let reserve = self.reserve_after(seat, by_computer);
        self.commit(Entry::Action { seat, action, next_seed: dealt, reserve }).await?;
        if by_computer {
            self.turns.decided(seat);
        } else {
            self.turns.decided_by_player(seat);
        }
        if let Some(result) = self.state.game.as_ref().and_then(jass_engine::Game::result) {
            info!(?result, "game over");
        }
        self.publish();
        Ok(())
    }

    /// The reserve to store with `seat`'s decision now (move clock on only): what the
    /// decision took beyond the clock's seconds comes out of it, and a clock that ran
    /// out leaves none.
    fn reserve_after(&self, seat: Seat, by_computer: bool) -> Option<u32> {
        let timing = self.state.timing;
        if timing.move_clock == 0 || self.state.seats[seat].as_ref().is_none_or(Occupant::computer) {
            return None;
        }
        let left = self.state.reserve[seat];
        if self.turns.clocked_out(seat) {
            return Some(0);
        }
        // Charged only while the clock ran for the decision (a paused table, where
        // nobody is kept waiting, charges nothing).
        match (self.turns.current(), self.deadline()) {
            (Some((s, since)), Some((clocked, Deadline::MoveClock, _)))
                if s == seat && clocked == seat && !by_computer =>
            {
                Some(turn::reserve_after(timing, left, since.elapsed()))
            }
            _ => Some(left),
        }
    }

    /// A new table's timing and, for "play with computers", three computers of the
    /// given level and the start; a practice table's host moves to the seat asked for
    /// and its game starts from the round dealt again.
    pub(super) async fn setup(
        &mut self,
        timing: Option<Timing>,
        computers: Option<Level>,
        practice: Option<Box<PracticeStart>>,
    ) -> Result<(), Refusal> {
        if let Some(timing) = timing {
            let entry = decide::set_timing(&self.state, timing)?;
            self.store_and_tell(entry).await?;
        }
        if let Some(p) = &practice {
            let host = self.state.host;
            self.swap(host, host, p.seat).await?;
        }
        if let Some(level) = computers {
            let host = self.state.host;
            for seat in Seat::ALL {
                if self.state.seats[seat].is_none() {
                    self.add_computer(host, seat, level).await?;
                }
            }
            match practice {
                Some(p) => self.deal_practice(p.deal).await?,
                None => {
                    let entry = decide::start(&self.state, host, fresh_seed())?;
                    self.start_game(entry).await?;
                }
            }
        }
        Ok(())
    }

    /// Starts a practice table's game ([`decide::practice`]), each action stored like
    /// any action so that a restart replays them. The computers see each of them, as
    /// they would have at the table, so they know which cards are gone.
    async fn deal_practice(&mut self, deal: jass_engine::Practice) -> Result<(), Refusal> {
        for entry in decide::practice(&self.state, deal)? {
            if matches!(entry, Entry::Action { .. }) {
                self.show_computers(false);
            }
            self.commit(entry).await?;
        }
        info!(game = self.state.games, "practice game started");
        self.publish();
        Ok(())
    }

    /// Deals a new game (start and rematch).
    async fn start_game(&mut self, entry: Entry) -> Result<(), Refusal> {
        self.commit(entry).await?;
        info!(game = self.state.games, "game started");
        self.publish();
        Ok(())
    }

    async fn swap(&mut self, seat: Seat, a: Seat, b: Seat) -> Result<(), Refusal> {
        if let Some(entry) = decide::swap(&self.state, seat, a, b)? {
            self.commit(entry).await?;
            // Open sockets follow their players (seat indices are 0..4: in bounds).
            self.conns.swap(a, b);
            self.publish();
        }
        Ok(())
    }

    async fn add_computer(&mut self, seat: Seat, target: Seat, level: Level) -> Result<(), Refusal> {
        let entry = decide::add_computer(&self.state, seat, target, level)?;
        self.commit(entry).await?;
        info!(seat = %target, ?level, "computer seated");
        self.publish();
        Ok(())
    }
}
