//! Per-seat views, built by allow-list: a view is constructed field by field from
//! what its viewer may know, never by redacting a copy of the state. A new secret
//! field therefore stays private until someone decides who may see it.
//!
//! Every decision of who sees what is here: the hand only to its seat, the allowed
//! actions only to a seat while the game is on, and the Weis cards to their declarer
//! and, after the comparison, to everyone for the winning team (R6). The game hands
//! over its round and the public facts around it ([`Table`]); it does not decide.

use serde::{Deserialize, Serialize};

use crate::by::{BySeat, ByTeam};
use crate::cardset::CardSet;
use crate::contract::Contract;
use crate::deal::Commitment;
use crate::round::{CompletedTrick, Phase, Round};
use crate::score::{GameResult, RoundSummary};
use crate::seat::{Seat, Team};
use crate::short_list::ShortList;
use crate::trick::PlayedCards;
use crate::weis::{MAX_WEIS, WeisList, WeisView};

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

/// The outcome of the Weis comparison, after the first trick (R6).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeisOutcome {
    /// The team whose Weis score, if any was declared.
    pub team: Option<Team>,
    /// Its Weis points before the multiplier.
    pub points: u32,
}

/// Whether there are no Weis points to send (then the field is left out).
fn no_points(p: &ShortList<u32, MAX_WEIS>) -> bool {
    p.iter().next().is_none()
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
    /// The points of each of `weis`, in the same order (R6), so a client shows them
    /// without a points table of its own.
    #[serde(default, skip_serializing_if = "no_points")]
    pub weis_points: ShortList<u32, MAX_WEIS>,
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
    pub hand_counts: BySeat<u8>,
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
    pub round_points: ByTeam<u32>,
    /// Game totals per team, including what this round has credited (R10).
    pub totals: ByTeam<u32>,
    /// SHA-256 of this round's seed (R12).
    pub commitment: Commitment,
    /// The previous round's score with its revealed seed.
    pub last_round: Option<RoundSummary>,
    /// That round's last trick (public: every card was shown when played), so a client
    /// shows it with the same pause as every other trick before the summary
    /// (protocol.md 5.2). Only this one: a whole round's tricks in every frame made
    /// each socket's write buffer grow by a size class (the load bench's memory per
    /// table rose from 57 to 72 KiB); the rest come from [`Game::last_round_tricks`]
    /// (over HTTP).
    ///
    /// [`Game::last_round_tricks`]: crate::Game::last_round_tricks
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_round_trick: Option<CompletedTrick>,
    /// Number of rounds finished.
    pub rounds_played: u32,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
    /// What the viewer may do now.
    pub allowed: Allowed,
}

/// The declared Weis as each viewer sees them (seats 0–3, then spectators), kept up
/// to date when a Weis is declared or compared. A view copies its list whole from
/// memory written long before: a list assembled in the view was read back while its
/// pieces were still being stored, and the stalled loads were a large part of a
/// view's time.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub(crate) struct WeisViews {
    /// What each seat sees: the public list with its own Weis' cards shown.
    seats: BySeat<ShortList<WeisView, 4>>,
    /// What a spectator sees.
    spectators: ShortList<WeisView, 4>,
}

impl WeisViews {
    /// Rebuilds the lists after a declaration or the Weis comparison of `round`: a seat
    /// sees the cards of its own Weis, everyone those of the team that won the
    /// comparison (R6).
    pub(crate) fn refresh(&mut self, round: &Round) {
        let revealed = round.weis_result.and_then(|(team, _)| team);
        // The spectators' list first: every declaration with its points, its cards only
        // where the comparison revealed them. Each seat's list is that one with its own
        // cards shown as well (built once and copied, not re-assembled per viewer).
        let mut public = ShortList::<WeisView, 4>::new();
        let mut own_slot = BySeat([None; 4]);
        for s in Seat::ALL {
            let declared = round.declared[s];
            if !declared.is_empty() {
                own_slot[s] = Some(public.len());
                let visible = revealed == Some(s.team());
                let points = round.declared_points[s];
                let fits = public.try_push(WeisView { seat: s, points, cards: visible.then_some(declared) });
                debug_assert!(fits.is_ok(), "at most one entry per seat: four always fit");
            }
        }
        self.spectators = public;
        for (s, list) in self.seats.iter_mut() {
            *list = public;
            if let Some(slot) = own_slot[s] {
                let own = list.get_mut(slot);
                debug_assert!(own.is_some(), "the seat's own entry was just pushed at this slot");
                if let Some(own) = own {
                    own.cards = Some(round.declared[s]);
                }
            }
        }
    }
}

/// What the game adds to its round for a view: facts every viewer may know.
/// The larger parts are borrowed, so that they are copied once, into the view.
#[derive(Copy, Clone)]
pub(crate) struct Table<'a> {
    pub(crate) phase: Phase,
    pub(crate) to_act: Option<Seat>,
    pub(crate) stoeck: Option<Seat>,
    pub(crate) totals: ByTeam<u32>,
    pub(crate) last_round: &'a Option<RoundSummary>,
    pub(crate) rounds_played: u32,
    pub(crate) result: &'a Option<GameResult>,
}

/// The view of `viewer` (allow-list projection) of `round` in a game with the public
/// facts `table`; `allowed` gives a seat's legal actions, asked only for a seated
/// viewer while the game is on.
#[inline]
pub(crate) fn project(
    viewer: Viewer,
    round: &Round,
    weis: &WeisViews,
    table: Table<'_>,
    last_round_trick: Option<CompletedTrick>,
    allowed: impl FnOnce(Seat) -> Allowed,
) -> SeatView {
    let r = round;
    let me = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let allowed = match me {
        Some(s) if table.result.is_none() => allowed(s),
        _ => Allowed::default(),
    };
    SeatView {
        seat: me,
        phase: table.phase,
        round: r.number,
        dealer: r.dealer,
        forehand: r.forehand,
        to_act: table.to_act,
        hand: me.map_or(CardSet::EMPTY, |s| r.hands[s]),
        hand_counts: BySeat(r.hand_lens()),
        contract: r.contract,
        chosen_by: r.chosen_by,
        pushed: r.pushed,
        pushed_back: r.pushed_back,
        trick: TrickView { number: r.trick_no, leader: r.trick.leader(), cards: r.trick.played_cards() },
        last_trick: r.last_trick.map(|t| t.completed()),
        // Not `map_or`: it would copy the spectators' list for every seat's view too.
        weis: match me {
            Some(s) => weis.seats[s],
            None => weis.spectators,
        },
        weis_result: r.weis_result.map(|(team, points)| WeisOutcome { team, points }),
        stoeck: table.stoeck,
        round_points: r.card_points,
        totals: table.totals,
        commitment: r.commitment,
        last_round: *table.last_round,
        last_round_trick,
        rounds_played: table.rounds_played,
        result: *table.result,
        allowed,
    }
}
