//! What a seat can do (the one way into a game) and what happened as a result.
//!
//! Actions and events are plain data, shared by the game, its records and the wire.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::contract::Contract;
use crate::score::{GameResult, RoundSummary};
use crate::seat::{Seat, Team};
use crate::short_list::ShortList;
use crate::trick::PlayedCard;
use crate::weis::{MAX_WEIS, WeisList};

/// An action of one seat. The JSON form (`{"type": "play", "card": "HJ"}`) is the one
/// records and the wire protocol use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Push the choice to the partner (R3); with `push_back`, the partner may push back once.
    Schiebe,
    /// Choose the contract (R3).
    Choose {
        /// The contract.
        contract: Contract,
    },
    /// Play a card (R5). With the seat's first card it may declare Weis (R6), each
    /// given by its cards; it may also announce Stöck (R7).
    Play {
        /// The card.
        card: Card,
        /// Weis declared with this card (only with the seat's first card).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        weis: Vec<CardSet>,
        /// Announce Stöck with this card.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stoeck: bool,
    },
    /// Announce Stöck without playing (R7): any time after the contract, until too late.
    Stoeck,
    /// Claim the win, "mir bedanke üs" (R10): any seat, any time.
    Bedanke,
}

impl Action {
    /// A plain card play without Weis or Stöck.
    #[must_use]
    pub const fn play(card: Card) -> Self {
        Self::Play { card, weis: Vec::new(), stoeck: false }
    }
}

/// The events of one action, in order, kept inline: a heap list per action was a large
/// share of the cost of applying it. Four, not two: the first trick's last card (card,
/// trick, Weis comparison) and a round's last card (card, trick, score, next deal) made
/// a reused buffer spill and stay on the heap for the rest of the round. Only the odd
/// longer list (a Stöck or the game's end on the last card) spills.
pub type Events = smallvec::SmallVec<[Event; 4]>;

/// Something that happened, in order. Events carry only what every seat may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new round was dealt; the seed stays secret until the round ends.
    RoundDealt {
        /// 0-based round number.
        round: u32,
        /// The dealer.
        dealer: Seat,
        /// The forehand, who chooses and leads.
        forehand: Seat,
        /// SHA-256 of the seed (R12), hex.
        commitment: crate::deal::Commitment,
    },
    /// A seat pushed the choice to its partner.
    Pushed {
        /// Who pushed.
        seat: Seat,
    },
    /// The contract was chosen.
    ContractChosen {
        /// Who chose.
        seat: Seat,
        /// The contract.
        contract: Contract,
    },
    /// Weis declared with a first card: only the points are public now (R6).
    WeisDeclared {
        /// Who declared.
        seat: Seat,
        /// The points of each declared Weis.
        points: ShortList<u32, MAX_WEIS>,
    },
    /// Stöck announced (R7).
    StoeckAnnounced {
        /// Who.
        seat: Seat,
        /// Announced by the server (`auto_stoeck`).
        auto: bool,
    },
    /// A card was played.
    CardPlayed(PlayedCard),
    /// A trick was completed.
    TrickTaken {
        /// 0-based trick number.
        trick: u8,
        /// Who took it.
        winner: Seat,
        /// Card points, with the last-trick 5, before multipliers.
        points: u32,
    },
    /// The Weis comparison after the first trick (R6).
    WeisResolved {
        /// The team whose Weis score, if any Weis was declared.
        team: Option<Team>,
        /// Its Weis points before the multiplier.
        points: u32,
        /// The scoring side's Weis, revealed to all (its one or two declaring seats).
        revealed: ArrayVec<(Seat, WeisList), 2>,
    },
    /// A round ended; its seed is revealed. Boxed: it comes once a round, and inline it
    /// would make every event (and the events of every action, copied out of `apply`)
    /// twice as large.
    RoundScored(Box<RoundSummary>),
    /// A seat claimed the win (R10).
    Bedanke {
        /// Who said it.
        seat: Seat,
        /// Whether the claim was right.
        right: bool,
    },
    /// The game ended.
    GameOver(GameResult),
}
