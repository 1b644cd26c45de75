//! Per-seat views, built by allow-list: a view is constructed field by field from
//! what its viewer may know, never by redacting a copy of the state. A new secret
//! field therefore stays private until someone decides who may see it.

use serde::{Deserialize, Serialize};

use crate::cardset::CardSet;
use crate::contract::Contract;
use crate::deal::Commitment;
use crate::game::{CompletedTrick, Game, GameResult, Phase, RoundSummary};
use crate::seat::{Seat, Team};
use crate::short_list::ShortList;
use crate::trick::PlayedCards;
use crate::weis::{MAX_WEIS, WeisList};

/// Who is looking.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Viewer {
    /// A player: sees its own hand and its own legal actions.
    Seat(Seat),
    /// A spectator: sees no unplayed card.
    Spectator,
}

/// The trick on the table.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrickView {
    /// 0-based trick number in the round.
    pub number: u8,
    /// Who led.
    pub leader: Seat,
    /// Cards so far, in playing order.
    pub cards: PlayedCards,
}

/// One seat's Weis declaration (R6): points are public at once; the cards only to the
/// declarer, and to everyone once its team's Weis won the comparison.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeisView {
    /// Who declared.
    pub seat: Seat,
    /// Points of each declared Weis.
    pub points: ShortList<u32, MAX_WEIS>,
    /// The Weis's cards, when this viewer may see them.
    pub cards: Option<WeisList>,
}

/// No Weis of seat 0: only the filler of a view's unused slots.
impl Default for WeisView {
    fn default() -> Self {
        Self { seat: Seat::ALL[0], points: ShortList::new(), cards: None }
    }
}

/// The outcome of the Weis comparison, after the first trick (R6).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeisOutcome {
    /// The team whose Weis score, if any was declared.
    pub team: Option<Team>,
    /// Its Weis points before the multiplier.
    pub points: u32,
}

/// What the viewer may do now; the client offers exactly these.
#[derive(Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allowed {
    /// May push (R3).
    pub schiebe: bool,
    /// May choose the contract (R3).
    pub choose: bool,
    /// The cards that may be played now (R5).
    pub cards: CardSet,
    /// The Weis that may be declared with the card about to be played (R6).
    pub weis: WeisList,
    /// May announce Stöck (R7).
    pub stoeck: bool,
    /// May say bedanke (R10).
    pub bedanke: bool,
}

/// Everything one viewer may know about the game, and nothing more.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// Where the game stands.
    pub phase: Phase,
    /// 0-based round number.
    pub round: u32,
    /// The round's dealer.
    pub dealer: Seat,
    /// The round's forehand (chooses, leads the first trick).
    pub forehand: Seat,
    /// Who must act now.
    pub to_act: Option<Seat>,
    /// The viewer's own cards (empty for a spectator).
    pub hand: CardSet,
    /// Cards left in each seat's hand.
    pub hand_counts: [u8; 4],
    /// The contract, once chosen.
    pub contract: Option<Contract>,
    /// Who chose it.
    pub chosen_by: Option<Seat>,
    /// Whether the forehand pushed, and the partner pushed back.
    pub pushed: bool,
    /// Whether the partner pushed back (`push_back`).
    pub pushed_back: bool,
    /// The trick on the table.
    pub trick: TrickView,
    /// The last completed trick of this round.
    pub last_trick: Option<CompletedTrick>,
    /// Declared Weis this round.
    pub weis: ShortList<WeisView, 4>,
    /// The Weis comparison, after the first trick.
    pub weis_result: Option<WeisOutcome>,
    /// Who announced Stöck this round.
    pub stoeck: Option<Seat>,
    /// Card points taken this round per team, before the multiplier.
    pub round_points: [u32; 2],
    /// Game totals per team, including what this round has credited (R10).
    pub totals: [u32; 2],
    /// SHA-256 of this round's seed (R12).
    pub commitment: Commitment,
    /// The previous round's score with its revealed seed.
    pub last_round: Option<RoundSummary>,
    /// Number of rounds finished.
    pub rounds_played: u32,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
    /// What the viewer may do now.
    pub allowed: Allowed,
}

impl Game {
    /// The view of `viewer` (allow-list projection).
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> SeatView {
        let r = &self.round;
        let me = match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        };
        let allowed = match me {
            Some(s) if self.result.is_none() => Allowed {
                schiebe: self.can_schiebe(s),
                choose: self.phase() == Phase::Choosing && self.to_act() == Some(s),
                cards: self.legal_cards(s),
                weis: self.declarable(s),
                stoeck: self.can_announce_stoeck(s),
                bedanke: self.can_bedanke(),
            },
            _ => Allowed::default(),
        };
        SeatView {
            seat: me,
            phase: self.phase(),
            round: r.number,
            dealer: r.dealer,
            forehand: r.forehand,
            to_act: self.to_act(),
            hand: me.map_or(CardSet::EMPTY, |s| r.hands[s.index()]),
            hand_counts: r.hand_lens(),
            contract: r.contract,
            chosen_by: r.chosen_by,
            pushed: r.pushed,
            pushed_back: r.pushed_back,
            trick: TrickView { number: r.trick_no, leader: r.trick.leader(), cards: r.trick.played_cards() },
            last_trick: r.last_trick.map(|t| t.completed()),
            weis: r.weis_lists[me.map_or(4, Seat::index)],
            weis_result: r.weis_result.map(|(team, points)| WeisOutcome { team, points }),
            stoeck: self.stoeck_announced_by(),
            round_points: r.card_points,
            totals: self.totals(),
            commitment: r.commitment,
            last_round: self.last_round,
            rounds_played: self.history.len() as u32,
            result: self.result,
            allowed,
        }
    }
}
