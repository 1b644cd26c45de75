//! Why an action was refused. Every refusal leaves the game unchanged.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;
use crate::weis::WeisError;

/// A refused action, with a stable snake_case [`code`](RuleError::code) for the wire.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat must act.
    #[error("not your turn: seat {to_act:?} is to act")]
    NotYourTurn {
        /// Who is to act, if anyone.
        to_act: Option<Seat>,
    },
    /// The action does not belong in this phase (e.g. playing before the contract).
    #[error("not possible now: {0}")]
    WrongPhase(&'static str),
    /// The choice was already pushed (and pushed back, if allowed).
    #[error("cannot push: {0}")]
    CannotPush(&'static str),
    /// The card is not in the hand.
    #[error("{0} is not in your hand")]
    CardNotHeld(Card),
    /// The card is held but not legal here (R5).
    #[error("{card} may not be played now; legal: {legal}")]
    IllegalCard {
        /// The card tried.
        card: Card,
        /// What may be played.
        legal: CardSet,
    },
    /// Weis can be declared only with the seat's first card (R6).
    #[error("Weis may only be declared with your first card")]
    WeisTooLate,
    /// The declaration is invalid (R6).
    #[error("invalid Weis: {0}")]
    InvalidWeis(WeisError),
    /// Weis and Stöck are not played with `fixed_rounds` (R10).
    #[error("no Weis or Stöck with fixed rounds")]
    NoExtras,
    /// Stöck is not held: no trump contract, or the trump K and Q are not in the dealt hand.
    #[error("you do not hold Stöck")]
    StoeckNotHeld,
    /// Stöck was already announced.
    #[error("Stöck was already announced")]
    StoeckAlreadyAnnounced,
    /// The card after the second Stöck card was played (R7).
    #[error("too late to announce Stöck")]
    StoeckTooLate,
    /// Bedanken is off (automatic end or fixed rounds).
    #[error("bedanken is not played at this table")]
    BedankeNotAllowed,
}

impl RuleError {
    /// Stable wire code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::GameOver => "game_over",
            Self::NotYourTurn { .. } => "not_your_turn",
            Self::WrongPhase(_) => "wrong_phase",
            Self::CannotPush(_) => "cannot_push",
            Self::CardNotHeld(_) => "card_not_held",
            Self::IllegalCard { .. } => "illegal_card",
            Self::WeisTooLate => "weis_too_late",
            Self::InvalidWeis(_) => "invalid_weis",
            Self::NoExtras => "not_in_fixed_rounds",
            Self::StoeckNotHeld => "stoeck_not_held",
            Self::StoeckAlreadyAnnounced => "stoeck_already_announced",
            Self::StoeckTooLate => "stoeck_too_late",
            Self::BedankeNotAllowed => "bedanke_not_allowed",
        }
    }
}
