//! Why an action was refused (every refusal leaves the game unchanged), in words for
//! people.

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;
use crate::weis::WeisError;

/// A refused action. The wire's stable codes are mapped in one place, by the protocol
/// crate (`ErrorCode::from_rule`), so the engine keeps none of its own.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat must act.
    #[error("not your turn: {}", who_acts(*to_act))]
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

/// "seat 2 is to act" or "nobody is to act": a message for people, not `Some(Seat(2))`.
fn who_acts(to_act: Option<Seat>) -> String {
    to_act.map_or_else(|| "nobody is to act".to_owned(), |s| format!("seat {s} is to act"))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Messages are for people and name seats as numbers (protocol.md 7).
    #[test]
    fn messages_name_seats_by_number() {
        let e = RuleError::NotYourTurn { to_act: Seat::new(0) };
        assert_eq!(e.to_string(), "not your turn: seat 0 is to act");
        assert_eq!(RuleError::NotYourTurn { to_act: None }.to_string(), "not your turn: nobody is to act");
    }

    // No message of any refusal shows a Rust debug form.
    #[test]
    fn no_message_shows_debug_forms() {
        let card: Card = "HA".parse().unwrap_or_else(|_| unreachable!());
        let set: CardSet = "HA HK".parse().unwrap_or_else(|_| unreachable!());
        let all = [
            RuleError::GameOver,
            RuleError::NotYourTurn { to_act: Seat::new(3) },
            RuleError::NotYourTurn { to_act: None },
            RuleError::WrongPhase("choose first"),
            RuleError::CannotPush("already pushed"),
            RuleError::CardNotHeld(card),
            RuleError::IllegalCard { card, legal: set },
            RuleError::WeisTooLate,
            RuleError::InvalidWeis(WeisError::NotAWeis(set)),
            RuleError::InvalidWeis(WeisError::NotHeld(set)),
            RuleError::InvalidWeis(WeisError::NotWhole(set)),
            RuleError::InvalidWeis(WeisError::Duplicate(set)),
            RuleError::InvalidWeis(WeisError::SharedCard(set)),
            RuleError::InvalidWeis(WeisError::NoWeisInSmall(set)),
            RuleError::NoExtras,
            RuleError::StoeckNotHeld,
            RuleError::StoeckAlreadyAnnounced,
            RuleError::StoeckTooLate,
            RuleError::BedankeNotAllowed,
        ];
        for e in all {
            let m = e.to_string();
            for debug in ["Some(", "None", "Seat(", "Card(", "CardSet(", "{", "\"\""] {
                assert!(!m.contains(debug), "{m:?} shows {debug}");
            }
        }
    }
}
