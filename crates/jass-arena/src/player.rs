//! What every card player of a match is: a seat's view in, a card out.
//!
//! Apart from the players and their factory (`players`), so that each player's own
//! module needs only this, never the list of all of them.

use jass_engine::{Card, SeatView};

/// Card points of one round: 152 plus the last trick's 5 (R4).
pub const ROUND_POINTS: u32 = 157;

/// A card player for one seat. The arena asks it for a card only when its seat is to
/// play one; the contract is chosen by the match's common chooser, not by the player,
/// so a comparison measures card play alone.
pub trait Player: Send {
    /// The card to play now, from the seat's own view; `None` if it has none (the
    /// arena then reports the deal as failed rather than playing for it).
    fn card(&mut self, view: &SeatView) -> Option<Card>;
}
