//! An exact double-dummy solver for the card play of one Schieber round.
//!
//! Given all four hands (a "double-dummy" position: every card known), the contract,
//! the trick so far and the tricks each team has taken, it finds the card points a
//! team takes from here on when both sides play perfectly (R4 card points, the last
//! trick's 5 and the match bonus of 100 for taking all nine tricks, R8), and the value
//! of each legal card of the seat to move. The legal cards are the engine's own
//! ([`jass_engine::legal_cards`], R5): the solver never restates a rule.
//!
//! A computer player that does not see the other hands samples deals consistent with
//! what it has seen and solves each: the card with the best mean is the one to play
//! (the method of the strongest bridge and Skat programs).
//!
//! # How it is fast
//! - **Zero-window search**: the exact value is found by a few alpha-beta searches
//!   with a window of width one, each of which prunes far more than a full-window
//!   search; the first tests the points of a quick playout, the next ones halve the
//!   interval the fail-soft bounds leave.
//! - **Transposition table at trick boundaries** (`table`): a fixed-size table with
//!   exact keys, kept across the searches of a solve and from solve to solve. The
//!   key is the relative-rank form of the cards still held (per suit, which places
//!   in the contract's order are held by whom, up to cards of equal points that are
//!   gone), so positions that differ only in which small cards were played share
//!   an entry; each entry keeps bounds on the points still to take and the best
//!   lead.
//! - **The last two tricks** (`search`): most positions are there. From their start
//!   each is valued exactly, once: four nested loops over the first trick's legal
//!   cards with alpha-beta between them, each line scored at once since the last
//!   trick's cards are forced (no recursion, no ordering, no bounds; a tenth fewer
//!   instructions at 20 cards than the bare recursive search it replaced). The value
//!   is kept in the table under a cheaper key (the cards and their holders): every
//!   later search, whatever its window, reads it.
//! - **Bounds** (`search`): a side cannot take more than the points still out (with
//!   the last trick, and the match while possible). At a trick start the leader's
//!   sure tricks (its unbroken top runs; trumps drawn first, then side suits once
//!   no opponent can ruff; or the partner's when the leader can reach it with a low
//!   card) give the leading side a floor, or cap the other; the floor counts the
//!   cards the others must follow with (all computed only when the table did not
//!   answer). Mid-trick, when no seat still to play can
//!   beat the card that holds the trick, its points go to that side.
//! - **Equivalent cards** (`order`): two cards of one hand, of one suit, with equal
//!   points and no card still in play between them, lead to the same results, so only
//!   one is searched. More: when the trick's winner does not depend on the choice
//!   (the last seat to play, or a trick nobody still to play can beat), a run of a
//!   hand's cards of one suit with no card in play between them is searched once,
//!   by its dearest card if the trick goes to its side and its cheapest if not:
//!   swapping two cards of a run changes only which trick gets whose points, so that
//!   card is never worse (the Puur stays apart: R5.2's exception is its alone).
//!   Whole deals: 29 % fewer nodes. Elsewhere two cards of a run differ in value
//!   by at most the difference of their points, so a card is skipped when the value
//!   of one searched before, plus or minus that, already decides it (14 % fewer).
//! - **Move ordering** (`order`): the table's best lead first, then the killer
//!   (below); leads that cash a top card, then low leads to the partner's top card,
//!   then low leads into the opponents' top card, and a lead an opponent can ruff
//!   last. After the lead, a card that takes the trick and that no seat still to
//!   play beats (the cheapest such), points onto a partner's sure trick, else cheap
//!   cards. The table's lead and the killer are searched before the other cards
//!   are scored, which most nodes then never need (5–10 % fewer instructions).
//! - **Killers** (`search`): per cards left and seat to move (and mid-trick per suit
//!   led, seat whose card holds the trick and whether it can still be beaten), the
//!   card that last cut off a search there is tried right after the table's lead: a
//!   card that refuted one line often refutes its siblings. With them 94 % of the
//!   cut-offs at a lead and 97 % mid-trick come from the first card searched (28
//!   cards), and solves from 24 cards visit 41 % fewer nodes, from 32 cards 64 %.
//! - **Cheap nodes**: hands are bit masks indexed by suit and place in the
//!   contract's order, so higher cards are higher bits and the key and moves need
//!   no translation; the key's per-suit packing is a table-driven 9-bit compress;
//!   the trick is a few bytes; the per-contract tables (`rules`) are built once; no
//!   allocation in the search. A solve indexes only as much of the table as its size
//!   can fill (`table`), so a small solve's probes stay in the core's cache.
//!
//! # Speed
//! From 20 cards left a solve takes about a tenth of a millisecond (p99 under 1 ms),
//! from 24 about half a millisecond. Whole deals with the contract the table's
//! computer chooses take tens of milliseconds at the median and seconds for the
//! dearest trump contracts (7–8 zero-window searches): each of them proves that a side
//! takes at least (or less than) a value next to the true one, and its tree is close
//! to minimal for this search, so the tree, not the cost of a node, would have to
//! shrink; and since a card's points name it, bridge's winning-rank partitions would
//! merge only a few percent of the positions. docs/benchmarks.md ("The solver") has the
//! figures and their commands (`cargo run --release -p jass-solver --example solve`),
//! each step's before and after, and what was tried and dropped.
//!
//! ```
//! use jass_engine::{CardSet, Contract, Seat, Team, Trick};
//! use jass_solver::{Position, Solver};
//! // The last trick: seat 0 leads; hearts are trump.
//! let hands = ["HJ", "H6", "S6", "D6"].map(|h| h.parse::<CardSet>().unwrap());
//! let pos = Position {
//!     hands,
//!     trick: Trick::new(Seat::ALL[0]),
//!     contract: Contract::Hearts,
//!     old_undenufe: false,
//!     tricks_won: [4, 4],
//!     match_bonus: true,
//! };
//! // The Puur (20) takes the trump six (0) and two sixes: 20 + 5 for the last trick.
//! assert_eq!(Solver::new().points(&pos, Team::ALL[0]).unwrap(), 25);
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod endgame;
mod order;
mod position;
mod rules;
mod search;
mod sure;
mod table;
mod trick;

use jass_engine::{CardSet, Team, legal_cards};

pub use crate::position::{Position, PositionError};
pub use crate::search::Stats;

/// Bounds on what a card is worth to its team ([`Solver::card_bounds`]): exact
/// when `at_least == at_most`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CardBound {
    /// The card.
    pub card: jass_engine::Card,
    /// The points its team takes after it, at least.
    pub at_least: u32,
    /// And at most.
    pub at_most: u32,
}

/// The solver, with its transposition tables (up to 48 MiB, as large as its largest
/// solve needs), whose entries stay true from solve to solve (sibling positions and
/// the cards of one seat share much), so keep one per thread rather than one per
/// solve.
#[derive(Debug, Default)]
pub struct Solver {
    table: table::Table,
    stats: Stats,
}

impl Solver {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A solver whose table never grows past `mib` MiB (the default grows to 48 MiB
    /// on whole deals): for a process that solves whole deals now and then and keeps
    /// its memory small, at the cost of more positions searched on the dearest deals.
    #[must_use]
    pub fn with_table_limit(mib: u32) -> Self {
        Self { table: table::Table::at_most(mib), stats: Stats::default() }
    }

    /// The card points (with last trick and match bonus) `team` takes from `pos` on
    /// when it plays for the most and the other team for the least, both seeing every
    /// card; the cards already in the trick count for whoever takes it.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn points(&mut self, pos: &Position, team: Team) -> Result<u32, PositionError> {
        pos.validate()?;
        Ok(self.solve(pos, team, None))
    }

    /// Every legal card of the seat to move with the points its team takes after it
    /// (as [`Solver::points`]), best first.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn card_values(&mut self, pos: &Position) -> Result<Vec<(jass_engine::Card, u32)>, PositionError> {
        self.card_values_within(pos, u64::MAX).map(Option::unwrap_or_default)
    }

    /// [`Solver::card_values`] within at most `nodes` positions visited (the unit of
    /// [`Stats::nodes`], give or take the few of one line's last two tricks): `None`
    /// when that was not enough. A player with a budget of work per decision thus
    /// never overruns it on one dear deal; what the table learnt stays, so a later
    /// solve of a like position is cheaper.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn card_values_within(
        &mut self,
        pos: &Position,
        nodes: u64,
    ) -> Result<Option<Vec<(jass_engine::Card, u32)>>, PositionError> {
        pos.validate()?;
        let limit = self.stats.nodes.saturating_add(nodes);
        let seat = pos.to_move();
        let team = seat.team();
        let legal = legal_cards(pos.hand(seat), &pos.trick, pos.contract);
        let mut out: Vec<(jass_engine::Card, u32)> = Vec::with_capacity(legal.len() as usize);
        for card in legal {
            let (next, gained) = search::play(pos, card, team);
            // The cards of one seat are often worth about the same: the last value is
            // the first guess for the next (fewer zero-window searches).
            let guess = out.last().map(|&(_, v)| v.saturating_sub(gained));
            let rest = if next.cards_left() == 0 && next.trick.is_empty() {
                0
            } else {
                let Some(rest) = self.solve_within(&next, team, guess, limit) else { return Ok(None) };
                rest
            };
            out.push((card, gained + rest));
        }
        out.sort_by_key(|v| std::cmp::Reverse(v.1));
        Ok(Some(out))
    }

    /// The best legal card of the seat to move and the points its team takes with it
    /// (as [`Solver::points`]). Cheaper than [`Solver::card_values`]: after the first
    /// card, each other card costs one zero-window search ("does it take more?"),
    /// and only a card that does is solved exactly; equivalent cards are tried once.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn best_card(&mut self, pos: &Position) -> Result<(jass_engine::Card, u32), PositionError> {
        pos.validate()?;
        let team = pos.to_move().team();
        let order = search::Search::new(pos, team, &mut self.table, &mut self.stats).root_moves();
        let mut best: Option<(jass_engine::Card, u32)> = None;
        for card in order.into_iter().filter_map(jass_engine::Card::from_index) {
            let (next, gained) = search::play(pos, card, team);
            let done = next.cards_left() == 0 && next.trick.is_empty();
            match best {
                None => {
                    let rest = if done { 0 } else { self.solve(&next, team, None) };
                    best = Some((card, gained + rest));
                }
                Some((_, value)) => {
                    // Better only if it takes at least one point more.
                    let need = (value + 1).saturating_sub(gained);
                    let better = if done {
                        need == 0
                    } else {
                        need == 0
                            || search::Search::new(&next, team, &mut self.table, &mut self.stats)
                                .at_least(need)
                    };
                    if better {
                        let rest = if done { 0 } else { self.solve(&next, team, Some(need)) };
                        best = Some((card, gained + rest));
                    }
                }
            }
        }
        best.ok_or(PositionError::HandSizes)
    }

    /// Every legal card of the seat to move with bounds on the points its team takes
    /// after it (as [`Solver::points`]): exact for `exact` (valued first), for the
    /// best card and for every card within `tolerance` points of the best; a card
    /// shown to be at least `tolerance` worse is left at bounds that show it (its
    /// `at_most` at most the best's value less `tolerance`). A round's review needs a
    /// bad card's loss only to that point, and one zero-window search shows it where
    /// the exact value takes several. The searches stop after `nodes` positions
    /// visited in all, half of them for `exact` and the rest shared by the others
    /// alike; a card's bounds are then what was known.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn card_bounds(
        &mut self,
        pos: &Position,
        tolerance: u32,
        exact: Option<jass_engine::Card>,
        nodes: u64,
    ) -> Result<Vec<CardBound>, PositionError> {
        pos.validate()?;
        let seat = pos.to_move();
        let team = seat.team();
        let legal = legal_cards(pos.hand(seat), &pos.trick, pos.contract);
        // `exact` first, then the search's own order (its likely best card first: the
        // others are then measured against a good value), then the equivalent cards
        // it skips.
        let mut order: Vec<jass_engine::Card> = exact.filter(|&c| legal.contains(c)).into_iter().collect();
        let moves = search::Search::new(pos, team, &mut self.table, &mut self.stats).root_moves();
        order.extend(moves.into_iter().filter_map(jass_engine::Card::from_index));
        order.extend(legal.iter());
        let mut seen = CardSet::EMPTY;
        order.retain(|&c| {
            let new = !seen.contains(c);
            seen = seen.with(c);
            new
        });
        let mut out: Vec<CardBound> = Vec::with_capacity(order.len());
        let mut best: u32 = 0;
        let others =
            u64::try_from(order.len().saturating_sub(usize::from(exact.is_some()))).unwrap_or(1).max(1);
        for card in order {
            let share = if Some(card) == exact { nodes / 2 } else { nodes / 2 / others };
            let (next, gained) = search::play(pos, card, team);
            let (lo, hi) = if next.cards_left() == 0 && next.trick.is_empty() {
                (0, 0)
            } else {
                // Stop once the card is shown to take at most `best - tolerance`.
                let floor = (Some(card) != exact && !out.is_empty())
                    .then(|| (best + 1).saturating_sub(tolerance).saturating_sub(gained))
                    .filter(|&f| f > 0);
                let guess = (!out.is_empty()).then(|| best.saturating_sub(gained));
                let limit = self.stats.nodes.saturating_add(share.max(1));
                search::Search::new(&next, team, &mut self.table, &mut self.stats)
                    .with_limit(limit)
                    .narrow(guess, floor)
            };
            best = best.max(gained + lo);
            out.push(CardBound { card, at_least: gained + lo, at_most: gained + hi });
        }
        Ok(out)
    }

    /// Bounds on the points `team` takes from `pos` (as [`Solver::points`]): exact
    /// when found within `nodes` positions visited, else what was shown by then; with
    /// a `floor`, the search stops as soon as the value is shown to be below it.
    ///
    /// # Errors
    /// The position cannot occur ([`Position::validate`]).
    pub fn value_bounds(
        &mut self,
        pos: &Position,
        team: Team,
        floor: Option<u32>,
        nodes: u64,
    ) -> Result<(u32, u32), PositionError> {
        pos.validate()?;
        let limit = self.stats.nodes.saturating_add(nodes);
        Ok(search::Search::new(pos, team, &mut self.table, &mut self.stats)
            .with_limit(limit)
            .narrow(None, floor))
    }

    /// What the searches since [`Solver::new`] (or the last [`Solver::take_stats`])
    /// cost.
    pub fn take_stats(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    fn solve(&mut self, pos: &Position, team: Team, guess: Option<u32>) -> u32 {
        // Without a limit a solve never gives up.
        self.solve_within(pos, team, guess, u64::MAX).unwrap_or_default()
    }

    /// The exact value, or `None` once `stats.nodes` passes `limit`.
    fn solve_within(&mut self, pos: &Position, team: Team, guess: Option<u32>, limit: u64) -> Option<u32> {
        let mut s = search::Search::new(pos, team, &mut self.table, &mut self.stats).with_limit(limit);
        let v = s.mtdf(guess);
        (!s.aborted).then_some(v)
    }
}
