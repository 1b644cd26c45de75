//! Speed work, apart from the rules: lookup tables, broadword selects and the
//! batched random playout.
//!
//! Everything here restates a rule that has its readable statement elsewhere (the
//! legal cards of R5 in `trick.rs`, the trick winner, a set's n-th card); the tests in
//! this module hold each fast form to its readable one, which is the oracle. The
//! notes on why a form is fast (profiles, instruction counts) are kept here too, so
//! the rules read without them.

pub(crate) mod keys;
pub(crate) mod legal;
pub(crate) mod playout;
pub(crate) mod select;

use crate::seat::Seat;

/// Cards left in each hand, from the trick number and the trick on the table: nine,
/// less one per completed trick and one for a card in the trick (no popcount needed).
/// One byte per seat, all at once: a one in each of the first `in_trick` bytes, turned
/// so that byte i lands on the seat `leader + i`. Every view carries the counts.
#[inline]
pub(crate) fn hand_lens(trick_no: u8, in_trick: usize, leader: Seat) -> [u8; 4] {
    let in_trick = ((1u64 << (8 * in_trick)) - 1) as u32 & 0x0101_0101;
    let in_trick = in_trick.rotate_left(8 * leader.index() as u32);
    (u32::from(9 - trick_no) * 0x0101_0101 - in_trick).to_le_bytes()
}
