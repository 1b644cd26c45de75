//! A double-dummy position and its checks: what the solver is asked about.

use jass_engine::{CardSet, Contract, Seat, Trick, legal_cards};

/// A double-dummy position: everything about the rest of a round's card play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The cards each seat still holds (not those in `trick`).
    pub hands: [CardSet; 4],
    /// The trick being played (empty at a trick's start); its leader leads it.
    pub trick: Trick,
    /// The contract (R3).
    pub contract: Contract,
    /// R4's "Altes Undenufe" card points.
    pub old_undenufe: bool,
    /// Tricks each team has taken this round before `trick`: the match bonus needs
    /// all nine.
    pub tricks_won: [u8; 2],
    /// Whether taking all nine tricks scores the match bonus (off with fixed rounds).
    pub match_bonus: bool,
}

/// Why a position cannot be solved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A card is in two hands, or in a hand and the trick.
    SharedCard,
    /// The hands do not fit the trick: the seats that played to it hold one card fewer
    /// than the others, and every seat plays to each remaining trick.
    HandSizes,
    /// The tricks taken and the tricks left are not the nine of a round.
    TrickCount,
    /// A card in the trick was not legal when it was played.
    IllegalTrick,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::SharedCard => "a card is held twice",
            Self::HandSizes => "the hand sizes do not fit the trick",
            Self::TrickCount => "the tricks taken and left are not nine",
            Self::IllegalTrick => "the trick holds a card that was not legal",
        })
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The cards `seat` holds.
    #[inline]
    #[must_use]
    pub const fn hand(&self, seat: Seat) -> CardSet {
        *seat.of(&self.hands)
    }

    /// The seat whose card is next.
    #[must_use]
    pub fn to_move(&self) -> Seat {
        self.trick.next_seat()
    }

    /// The cards still held.
    #[must_use]
    pub fn cards_left(&self) -> u32 {
        self.hands.iter().map(|h| h.len()).sum()
    }

    /// Checks that the position can occur in a round.
    ///
    /// # Errors
    /// What does not fit.
    pub fn validate(&self) -> Result<(), PositionError> {
        let mut seen = self.trick.set();
        for h in self.hands {
            if seen.bits() & h.bits() != 0 {
                return Err(PositionError::SharedCard);
            }
            seen = CardSet::from_bits(seen.bits() | h.bits());
        }
        let leader = self.trick.leader();
        let played = self.trick.len();
        if self.trick.is_complete() {
            return Err(PositionError::HandSizes);
        }
        // `open`: the tricks left, this one included, which is what a seat still to
        // play to this trick holds; a seat that played to it holds one card fewer.
        let open = self.hand(leader.plus(3)).len();
        for i in 0..4 {
            let seat = leader.plus(i);
            let want = if i < played { open.checked_sub(1).ok_or(PositionError::HandSizes)? } else { open };
            if self.hand(seat).len() != want {
                return Err(PositionError::HandSizes);
            }
        }
        let won = u32::from(self.tricks_won[0]) + u32::from(self.tricks_won[1]);
        if won + open != 9 {
            return Err(PositionError::TrickCount);
        }
        let mut replay = Trick::new(leader);
        for (i, card) in self.trick.cards().enumerate() {
            let seat = leader.plus(i);
            let held = CardSet::from_bits(self.hand(seat).bits() | CardSet::single(card).bits());
            if !legal_cards(held, &replay, self.contract).contains(card) {
                return Err(PositionError::IllegalTrick);
            }
            replay.push(card);
        }
        Ok(())
    }
}
