//! The score: credits in the table's counting order, round summaries and the game's
//! result (R4, R8, R10).
//!
//! Kept apart from the round's play because R10 decides a game by *when* a team
//! crossed the target, not only by how much it has: every credit carries its place in
//! the counting order, and the end of the game is read from those places alone.

use serde::{Deserialize, Serialize};

use crate::by::ByTeam;
use crate::contract::Contract;
use crate::deal::Seed;
use crate::options::{CountingOrder, Options};
use crate::seat::{Seat, Team};

/// Points for the last trick (R4).
pub const LAST_TRICK_BONUS: u32 = 5;
/// Points for taking all nine tricks (R4, R8).
pub const MATCH_BONUS: u32 = 100;
/// Points for Stöck (R7).
pub(crate) const STOECK_POINTS: u32 = 20;

/// Where a credit falls in the counting order (R10).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreditKind {
    /// Stöck.
    Stoeck,
    /// Weis.
    Weis,
    /// Card points of a trick, with the last-trick 5 and the match bonus.
    Stich,
}

impl CreditKind {
    /// The place of this kind in the table's counting order, as one lookup (every
    /// trick credits its points through here).
    pub(crate) const fn slot(self, order: CountingOrder) -> u8 {
        use CountingOrder::{StoeckStichWeis, StoeckWeisStich, WeisStoeckStich};
        use CreditKind::{Stich, Stoeck, Weis};
        match (order, self) {
            (StoeckWeisStich | StoeckStichWeis, Stoeck) | (WeisStoeckStich, Weis) => 0,
            (StoeckWeisStich, Weis) | (WeisStoeckStich, Stoeck) | (StoeckStichWeis, Stich) => 1,
            (StoeckWeisStich | WeisStoeckStich, Stich) | (StoeckStichWeis, Weis) => 2,
        }
    }
}

/// A point in the game's counting order: round, trick, then the counting order
/// inside the trick (R10). Comparing two tells which credit came first.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
pub struct CountPos {
    /// 0-based round.
    pub round: u32,
    /// 0-based trick.
    pub trick: u8,
    /// Place in the counting order (0 first).
    pub slot: u8,
}

/// One credit to a team, already multiplied.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct Credit {
    team: Team,
    points: u32,
    pos: CountPos,
}

/// The credits of one round, each with its place in the counting order (R10), and
/// their sum per team.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub(crate) struct Credits {
    list: Vec<Credit>,
    /// Sum of `list` per team.
    sums: ByTeam<u32>,
}

impl Credits {
    /// An empty list with room for a round's usual credits.
    pub(crate) fn new() -> Self {
        Self { list: Vec::with_capacity(16), sums: ByTeam([0; 2]) }
    }

    /// Empties the list, keeping its allocation for the next round.
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.sums = ByTeam([0; 2]);
    }

    /// Credits `points` (already multiplied) to `team` at `pos`.
    pub(crate) fn add(&mut self, team: Team, points: u32, pos: CountPos) {
        self.list.push(Credit { team, points, pos });
        self.sums[team] += points;
    }

    /// What `team` was credited this round.
    pub(crate) const fn of(&self, team: Team) -> u32 {
        *self.sums.get(team)
    }

    /// Where `team`, starting the round at `before`, reached `target` in the counting
    /// order (R10), if it did this round.
    pub(crate) fn crossing(&self, team: Team, before: u32, target: u32) -> Option<CountPos> {
        if before >= target || before + self.of(team) < target {
            // Reached in an earlier round (kept by the game), or not yet.
            return None;
        }
        let mut mine: Vec<&Credit> = self.list.iter().filter(|c| c.team == team).collect();
        mine.sort_by_key(|c| c.pos);
        let mut total = before;
        for c in mine {
            total += c.points;
            if total >= target {
                return Some(c.pos);
            }
        }
        None
    }
}

/// The score of one round (R8), before and after the multiplier. Indices are teams.
/// `Copy`: every view carries the last one, and a plain copy is cheaper than a clone
/// field by field.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct RoundSummary {
    /// 0-based round number.
    pub round: u32,
    /// Dealer.
    pub dealer: Seat,
    /// Forehand.
    pub forehand: Seat,
    /// The contract, if one was chosen.
    pub contract: Option<Contract>,
    /// Who chose it.
    pub chosen_by: Option<Seat>,
    /// Whether the forehand pushed.
    pub pushed: bool,
    /// The contract's multiplier (1 if none was chosen).
    pub multiplier: u32,
    /// Card points taken, with the last-trick 5.
    pub card_points: ByTeam<u32>,
    /// Match bonus.
    pub match_bonus: ByTeam<u32>,
    /// Weis scored (only the comparison's winner).
    pub weis: ByTeam<u32>,
    /// Stöck scored.
    pub stoeck: ByTeam<u32>,
    /// (card points + match + Weis + Stöck) × multiplier.
    pub total: ByTeam<u32>,
    /// Game totals after this round.
    pub running_total: ByTeam<u32>,
    /// False when the game ended by bedanke during the round.
    pub complete: bool,
    /// The round's seed, revealed (R12).
    pub seed: Seed,
}

/// How the game ended (R10).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EndReason {
    /// A seat said "bedanke".
    Bedanke {
        /// Who said it.
        seat: Seat,
        /// Whether the claim was right (the claimant's team won).
        right: bool,
    },
    /// `end = automatic`: the round that crossed the target was completed.
    Automatic,
    /// `fixed_rounds` were played.
    FixedRounds,
}

/// The end of a game.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner; `None` is a draw (only with `fixed_rounds`).
    pub winner: Option<Team>,
    /// Why it ended.
    pub reason: EndReason,
    /// The loser stayed below half the target and loses double (`schneider`).
    pub schneider: bool,
    /// Final totals.
    pub totals: ByTeam<u32>,
}

impl GameResult {
    /// `winner` won by `reason` with these totals; `schneider` if the loser stayed
    /// below half the target and the table plays it (R10).
    pub(crate) fn won(winner: Team, reason: EndReason, totals: ByTeam<u32>, options: &Options) -> Self {
        let loser = totals[winner.other()];
        let schneider = options.schneider && u64::from(loser) * 2 < u64::from(options.target);
        Self { winner: Some(winner), reason, schneider, totals }
    }

    /// After `fixed_rounds`: the higher total wins, equal totals draw (R10).
    pub(crate) fn after_fixed_rounds(totals: ByTeam<u32>) -> Self {
        let winner = match totals[Team::Zero].cmp(&totals[Team::One]) {
            std::cmp::Ordering::Greater => Some(Team::Zero),
            std::cmp::Ordering::Less => Some(Team::One),
            std::cmp::Ordering::Equal => None,
        };
        Self { winner, reason: EndReason::FixedRounds, schneider: false, totals }
    }
}

/// With `end = automatic`, the team that reached the target first in the counting
/// order, if any has (R10).
pub(crate) fn first_across(crossed: [Option<CountPos>; 2]) -> Option<Team> {
    match crossed {
        [Some(a), Some(b)] => Some(if a <= b { Team::Zero } else { Team::One }),
        [Some(_), None] => Some(Team::Zero),
        [None, Some(_)] => Some(Team::One),
        [None, None] => None,
    }
}

/// Whether a bedanke is right (R10): the claimant's team (`mine`) has reached the
/// target, unless the other team (`theirs`) reached it first within the same trick.
pub(crate) fn bedanke_is_right(mine: Option<CountPos>, theirs: Option<CountPos>) -> bool {
    match (mine, theirs) {
        (None, _) => false,
        (Some(a), Some(b)) if (a.round, a.trick) == (b.round, b.trick) => a < b,
        (Some(_), _) => true,
    }
}
