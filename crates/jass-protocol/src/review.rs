//! The review of a finished round (protocol.md, "Round review"): for every card played
//! and for the contract, what each choice was worth with all hands known (exact, the
//! solver) and from what the player could see (the strong computer's estimate from
//! that seat's view), and what it cost. Computed only once the round is over, when
//! its seed is revealed and every hand is public.

use jass_engine::{BySeat, ByTeam, Card, Contract, Seat};
use serde::{Deserialize, Serialize};

/// Bumped whenever a review would come out differently (a better solver, another
/// threshold): a stored review of another version is computed again.
pub const REVIEW_VERSION: u32 = 2;

/// The review of one round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundReview {
    /// [`REVIEW_VERSION`] of the code that computed it.
    pub version: u32,
    /// The round, 0-based.
    pub round: u32,
    /// The contract played.
    pub contract: Contract,
    /// Its multiplier at this table.
    pub multiplier: u32,
    /// Who chose it.
    pub chosen_by: Seat,
    /// Points of card play (R4 card points, the last trick's 5, the match bonus);
    /// a card whose exact loss is at least this much is only bounded (`at_least`).
    pub tolerance: u32,
    /// A card's loss from what its player could see counts as clear from this many
    /// points and this many standard errors on.
    pub clear_points: f64,
    /// See `clear_points`.
    pub clear_se: f64,
    /// The contract's choice: each decision (a push, then the choice), and every
    /// contract's exact value.
    pub choice: ChoiceReview,
    /// The tricks in order, each with its cards in the order played.
    pub tricks: Vec<TrickReview>,
    /// Per seat: what its card play cost.
    pub players: BySeat<PlayerTotals>,
    /// Per team: what it took and what best play by both sides would have given it.
    pub teams: ByTeam<TeamTotals>,
}

/// The contract's choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceReview {
    /// The decisions in order: the forehand's push (if it pushed), then whoever chose.
    pub decisions: Vec<ChoiceDecision>,
    /// Every contract's exact value to the choosing team (all hands known, best play
    /// by both sides): card points with Stöck, times its multiplier, in the order of
    /// the contracts (hearts, diamonds, clubs, spades, obenabe, undenufe).
    pub exact: Vec<Bounds>,
}

/// One decision before the first card: push or choose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceDecision {
    /// Who decided.
    pub seat: Seat,
    /// What: a contract, or `null` for a push.
    pub chose: Option<Contract>,
    /// From what the seat could see, each option's estimated worth to its team (as
    /// in `exact`), the push (`contract: null`) where it could push.
    pub options: Vec<ChoiceOption>,
    /// How much the choice is worth less than the best option, from what it could see.
    pub loss: Estimate,
    /// Whether that loss is clear (`clear_points` and `clear_se`).
    pub clear: bool,
}

/// One option of a [`ChoiceDecision`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// The contract, or `null` for a push.
    pub contract: Option<Contract>,
    /// Its estimated worth: the team's card points with Stöck less the opponents',
    /// times the multiplier (a game is a race: a ×3 contract lost gives the opponents
    /// three times as much).
    pub value: Estimate,
}

/// A mean with its standard error.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Estimate {
    /// The mean, in points.
    pub mean: f64,
    /// Its standard error.
    pub se: f64,
}

/// An exact value, or bounds on it (`at_least == at_most` when exact).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// At least.
    pub at_least: u32,
    /// At most.
    pub at_most: u32,
}

/// One trick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrickReview {
    /// Who led it.
    pub leader: Seat,
    /// Who took it.
    pub winner: Seat,
    /// Its cards in the order played.
    pub cards: Vec<CardReview>,
}

/// One card played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardReview {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// What the review says of it, in one word.
    pub verdict: Verdict,
    /// With all hands known.
    pub exact: ExactCard,
    /// From what the player could see; `null` for a forced card (the only legal one).
    pub seen: Option<SeenCard>,
}

/// What the review says of a card.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The only legal card.
    Forced,
    /// Best with all hands known, and no clear loss from what the player could see.
    Good,
    /// Cost points with all hands known, but not clearly from what the player could
    /// see: a guess that did not work out.
    Guess,
    /// A clear loss from what the player could see, and it cost points: a mistake.
    Mistake,
    /// A clear loss from what the player could see that cost nothing with these
    /// hands: it worked out this time.
    Lucky,
}

/// A card with all hands known: the points its team takes from this card on (the
/// trick on the table included) when both sides play best after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactCard {
    /// Every legal card with its value, best first.
    pub options: Vec<ExactOption>,
    /// The best value.
    pub best: u32,
    /// How much the card played is worth less than the best (exact below
    /// `tolerance`).
    pub loss: Bounds,
}

/// One legal card with its exact value ([`ExactCard`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactOption {
    /// The card.
    pub card: Card,
    /// Its value (bounds where it is at least `tolerance` below the best).
    pub value: Bounds,
}

/// A card from what the player could see: the points its team takes from this card
/// on, estimated over deals consistent with the seat's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenCard {
    /// Every legal card with its estimated value, best first.
    pub options: Vec<SeenOption>,
    /// The deals the estimate is over.
    pub deals: u32,
    /// Whether those deals were solved exactly (late in a round) or played out.
    pub solved: bool,
    /// How much the card played is worth less than the best, paired over the deals.
    pub loss: Estimate,
    /// Whether that loss is clear.
    pub clear: bool,
}

/// One legal card with its estimated value ([`SeenCard`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenOption {
    /// The card.
    pub card: Card,
    /// Its estimated value.
    pub value: Estimate,
}

/// What a seat's card play cost its team.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerTotals {
    /// With all hands known: the sum of its cards' losses (bounds).
    pub exact: Bounds,
    /// From what it could see: the sum of its cards' estimated losses.
    pub seen: f64,
    /// Cards marked [`Verdict::Mistake`].
    pub mistakes: u32,
    /// Cards marked [`Verdict::Guess`].
    pub guesses: u32,
}

/// What a team took, and would have taken with best play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamTotals {
    /// The card points it took (R4, last trick, match bonus), before the multiplier.
    pub took: u32,
    /// What it takes from the first card when both sides play best with all hands
    /// known (bounds where the solve was cut short), before the multiplier.
    pub best_play: Bounds,
    /// The losses of its players' cards, with all hands known (bounds).
    pub exact_lost: Bounds,
    /// And from what they could see.
    pub seen_lost: f64,
}
