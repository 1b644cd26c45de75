//! Whose decision it is, since when, and when the computer takes it over (protocol.md
//! 3, "Step-in and move clock").
//!
//! Nothing here is durable except the reserves, which live in the table state and
//! are stored with each action: after a restart every turn starts afresh at restore
//! time, so the clocks pause while the server was down.

use std::time::Duration;

use jass_engine::{BySeat, Game, Seat};
use jass_protocol::{Deadline, Timing};
use tokio::time::Instant;

/// What identifies one decision of one seat: a seat that acts twice in a row (it
/// chooses the contract, then leads) gets a fresh turn for each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Key {
    seat: Seat,
    round: u32,
    hand: u32,
    chosen: bool,
}

impl Key {
    fn of(game: &Game) -> Option<Self> {
        let seat = game.to_act()?;
        Some(Self {
            seat,
            round: game.round_number(),
            hand: game.hand(seat).len(),
            chosen: game.contract().is_some(),
        })
    }
}

/// The turn being waited for and the seats the computer plays for now.
#[derive(Debug, Default)]
pub(crate) struct Turns {
    /// The decision being waited for, and since when.
    turn: Option<(Key, Instant)>,
    /// The computer plays for these (absent) players until they are back.
    standing_in: BySeat<bool>,
    /// The move clock ran out: the computer makes this seat's current decision.
    clock_out: BySeat<bool>,
}

impl Turns {
    /// Follows the game: a new decision starts its clock now.
    pub(crate) fn follow(&mut self, game: Option<&Game>) {
        let key = game.filter(|g| g.result().is_none()).and_then(Key::of);
        match (key, self.turn) {
            (Some(k), Some((old, _))) if k == old => {}
            (Some(k), _) => self.turn = Some((k, Instant::now())),
            (None, _) => self.turn = None,
        }
    }

    /// The seat whose decision is awaited, and since when.
    pub(crate) fn current(&self) -> Option<(Seat, Instant)> {
        self.turn.map(|(k, since)| (k.seat, since))
    }

    /// Whether the computer plays for this seat's player now (step-in or clock).
    pub(crate) fn stands_in(&self, seat: Seat) -> bool {
        self.standing_in[seat] || self.clock_out[seat]
    }

    /// Whether this seat's move clock ran out on the current decision.
    pub(crate) fn clocked_out(&self, seat: Seat) -> bool {
        self.clock_out[seat]
    }

    /// The player is here again: their next decision is theirs.
    pub(crate) fn back(&mut self, seat: Seat) {
        self.standing_in[seat] = false;
    }

    /// The seat has made a decision (whoever made it).
    pub(crate) fn decided(&mut self, seat: Seat) {
        self.clock_out[seat] = false;
    }

    /// The seat's player decided themselves: they are here.
    pub(crate) fn decided_by_player(&mut self, seat: Seat) {
        self.decided(seat);
        self.back(seat);
    }

    /// A deadline passed: the computer takes the decision over, and keeps playing
    /// for the player while they stay away.
    pub(crate) fn expire(&mut self, seat: Seat, kind: Deadline, present: bool) {
        if kind == Deadline::MoveClock {
            self.clock_out[seat] = true;
        }
        if !present {
            self.standing_in[seat] = true;
        }
    }

    /// Forgets what belonged to the seat's last occupant.
    pub(crate) fn clear(&mut self, seat: Seat) {
        self.standing_in[seat] = false;
        self.clock_out[seat] = false;
    }
}

/// The awaited human decision's deadline and why, from the table's timing, the
/// seat's reserve left (milliseconds) and since when its player has been absent
/// (`None`: present).
pub(crate) fn deadline(
    timing: Timing,
    since: Instant,
    reserve_ms: u32,
    absent_since: Option<Instant>,
) -> Option<(Deadline, Instant)> {
    let step_in = (timing.step_in > 0)
        .then_some(absent_since)
        .flatten()
        .map(|absent| (Deadline::StepIn, since.max(absent) + secs(timing.step_in)));
    let clock = (timing.move_clock > 0).then(|| {
        let at = since + secs(timing.move_clock) + Duration::from_millis(u64::from(reserve_ms));
        (Deadline::MoveClock, at)
    });
    match (step_in, clock) {
        (Some(s), Some(c)) => Some(if c.1 < s.1 { c } else { s }),
        (s, c) => s.or(c),
    }
}

/// The reserve left after a decision that took `took`, in milliseconds: the move
/// clock's seconds are free, the rest comes out of the reserve.
pub(crate) fn reserve_after(timing: Timing, reserve_ms: u32, took: Duration) -> u32 {
    let over = took.saturating_sub(secs(timing.move_clock));
    let over_ms = u32::try_from(over.as_millis()).unwrap_or(u32::MAX);
    reserve_ms.saturating_sub(over_ms)
}

fn secs(s: u32) -> Duration {
    Duration::from_secs(u64::from(s))
}

/// An instant as the server's Unix milliseconds (for clients drawing a countdown).
pub(crate) fn unix_ms(at: Instant) -> u64 {
    let now = Instant::now();
    let wall = std::time::SystemTime::now();
    let t = if at >= now { wall + (at - now) } else { wall - (now - at) };
    t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOCK: Timing = Timing { step_in: 20, move_clock: 10, reserve: 30 };

    #[test]
    fn a_present_player_has_only_the_move_clock() {
        let t0 = Instant::now();
        assert_eq!(deadline(Timing::default(), t0, 60_000, None), None, "no clock, present: no deadline");
        let (kind, at) = deadline(CLOCK, t0, 30_000, None).unwrap();
        assert_eq!((kind, at - t0), (Deadline::MoveClock, Duration::from_secs(40)));
    }

    #[test]
    fn step_in_counts_from_the_later_of_turn_and_absence() {
        let t0 = Instant::now();
        let (kind, at) = deadline(Timing::default(), t0, 0, Some(t0 + Duration::from_secs(5))).unwrap();
        assert_eq!((kind, at - t0), (Deadline::StepIn, Duration::from_secs(25)));
        // With a clock that runs out sooner, the clock decides.
        let (kind, at) = deadline(CLOCK, t0, 0, Some(t0)).unwrap();
        assert_eq!((kind, at - t0), (Deadline::MoveClock, Duration::from_secs(10)));
    }

    #[test]
    fn only_time_over_the_move_clock_uses_the_reserve() {
        assert_eq!(reserve_after(CLOCK, 30_000, Duration::from_secs(4)), 30_000);
        assert_eq!(reserve_after(CLOCK, 30_000, Duration::from_millis(12_500)), 27_500);
        assert_eq!(reserve_after(CLOCK, 1_000, Duration::from_secs(60)), 0);
    }
}
