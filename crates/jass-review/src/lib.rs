//! The review of a finished round: which cards cost points, and whether the player
//! could have known.
//!
//! Two views of every card played, side by side:
//! - **With all hands known** (`exact`): the exact double-dummy value of every legal
//!   card at that moment for the player's team ([`jass_solver`]: R4 card points, the
//!   last trick's 5, the match bonus), so "this card cost N points against the best".
//!   A card that is at least [`Settings::tolerance`] points worse than the best is
//!   only shown to be so (one zero-window search instead of several), and the
//!   solves are capped at [`Settings::solve_nodes`] positions each, past which a
//!   value is given as bounds.
//! - **From what the player could see** (`seen`): the strong computer's own estimate
//!   from the seat's view at that moment ([`jass_ai::Computer::card_samples`]: deals
//!   consistent with everything the seat had been shown, weighed by what the choice
//!   and the cards played say of the hands, played out or, late in the round,
//!   solved), with the standard error of each card's value and of the played card's
//!   loss (paired over the same deals). A loss counts as clear from
//!   [`Settings::clear_points`] points and [`Settings::clear_se`] standard errors.
//!
//! The two differ where the cards lay otherwise than the player could expect: a loss
//! with all hands known that was not clear from the seat is a guess that did not
//! work out ([`Verdict::Guess`]), a clear one a mistake ([`Verdict::Mistake`]).
//! The contract gets the same two views: each contract's (and the push's) estimated
//! worth from the chooser's view, and each contract's exact value.
//!
//! A round is reviewed only once it is over (its seed revealed, every hand public):
//! [`ReviewError::InPlay`] otherwise. The computer's random numbers come from a fixed
//! seed and the seat's view, so the "could see" half is the same for every deal
//! consistent with that view.
//!
//! [`Verdict::Guess`]: jass_protocol::review::Verdict::Guess
//! [`Verdict::Mistake`]: jass_protocol::review::Verdict::Mistake
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod exact;
mod seen;
mod settings;
mod walk;

use jass_engine::{BySeat, ByTeam, Record, Seat, Team};
use jass_protocol::review::{
    Bounds, CardReview, ChoiceReview, PlayerTotals, REVIEW_VERSION, RoundReview, TeamTotals, TrickReview,
    Verdict,
};
use jass_solver::Solver;
use std::time::{Duration, Instant};

pub use crate::settings::Settings;
pub use crate::walk::ReviewError;

/// Reviews rounds, keeping its solver's tables from one to the next (keep one per
/// thread).
#[derive(Debug)]
pub struct Reviewer {
    solver: Solver,
    settings: Settings,
    cost: Cost,
}

impl Default for Reviewer {
    fn default() -> Self {
        Self::new(Settings::default())
    }
}

/// What the last review cost, by half.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Wall time of the exact half (its cards, the contracts, best play).
    pub exact: std::time::Duration,
    /// Positions the solver visited for it.
    pub exact_nodes: u64,
    /// Wall time of the "could see" half.
    pub seen: std::time::Duration,
}

impl Reviewer {
    /// A reviewer with `settings`.
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        Self { solver: Solver::with_table_limit(settings.table_mib), settings, cost: Cost::default() }
    }

    /// What the last review cost.
    #[must_use]
    pub const fn cost(&self) -> Cost {
        self.cost
    }

    /// The review of round `number` (0-based) of `record`.
    ///
    /// # Errors
    /// The record does not replay, has no such round, the round is not over, or it
    /// ended before a card was played.
    pub fn round(&mut self, record: &Record, number: u32) -> Result<RoundReview, ReviewError> {
        let round = walk::round(record, number)?;
        let options = &record.options;
        let settings = &self.settings;
        let contract = round.summary.contract.ok_or(ReviewError::NoPlay(number))?;
        let chosen_by = round.summary.chosen_by.unwrap_or(round.forehand);
        // The two halves share nothing: side by side when two threads may be used.
        let solver = &mut self.solver;
        let _ = solver.take_stats();
        let timed = |f: &dyn Fn() -> seen::Seen| {
            let start = Instant::now();
            (f(), start.elapsed())
        };
        let started = Instant::now();
        let ((seen, seen_took), exacts) = if settings.threads > 1 {
            std::thread::scope(|scope| {
                let seen = scope.spawn(|| timed(&|| seen::round(&round, options, settings)));
                let exacts: Vec<_> = round.plays.iter().map(|p| exact::card(solver, p, settings)).collect();
                let seen = seen.join().unwrap_or_else(|_| (seen::Seen::none(&round), Duration::ZERO));
                (seen, exacts)
            })
        } else {
            let seen = timed(&|| seen::round(&round, options, settings));
            (seen, round.plays.iter().map(|p| exact::card(solver, p, settings)).collect())
        };
        let cards_took =
            started.elapsed().saturating_sub(if settings.threads > 1 { Duration::ZERO } else { seen_took });
        let mut tricks: Vec<TrickReview> = Vec::new();
        let mut players: BySeat<PlayerTotals> = BySeat::default();
        for (k, ((play, seen), exact)) in round.plays.iter().zip(seen.cards).zip(exacts).enumerate() {
            let forced = seen.is_none() && exact.options.len() == 1;
            let lost = exact.loss.at_least > 0;
            let clear = seen.as_ref().is_some_and(|s| s.clear);
            let verdict = match (forced, clear, lost) {
                (true, _, _) => Verdict::Forced,
                (false, true, true) => Verdict::Mistake,
                (false, true, false) => Verdict::Lucky,
                (false, false, true) => Verdict::Guess,
                (false, false, false) => Verdict::Good,
            };
            let totals = &mut players[play.seat];
            totals.exact = add(totals.exact, exact.loss);
            totals.seen += seen.as_ref().map_or(0.0, |s| s.loss.mean);
            totals.mistakes += u32::from(verdict == Verdict::Mistake);
            totals.guesses += u32::from(verdict == Verdict::Guess);
            let trick_no = k / 4;
            if tricks.len() <= trick_no {
                let Some(end) = round.tricks.get(trick_no) else { break };
                tricks.push(TrickReview { leader: end.leader, winner: end.winner, cards: Vec::new() });
            }
            if let Some(t) = tricks.last_mut() {
                t.cards.push(CardReview { seat: play.seat, card: play.card, verdict, exact, seen });
            }
        }
        // The first card's best is the played contract's value to the choosing team
        // (the forehand leads, and chose or pushed to its partner).
        let first = tricks.first().and_then(|t| t.cards.first()).map(|c| &c.exact);
        let played = first.map_or_else(Bounds::default, |e| Bounds {
            at_least: e.best,
            at_most: e.options.iter().map(|o| o.value.at_most).max().unwrap_or(e.best),
        });
        let contracts_started = Instant::now();
        let contracts = exact::contracts(
            &mut self.solver,
            &round,
            options,
            chosen_by.team(),
            (contract, played),
            settings,
        );
        let other = exact::best_play_of_other(
            &mut self.solver,
            &round,
            options,
            contract,
            chosen_by.team().other(),
            played,
            settings,
        );
        self.cost = Cost {
            exact: cards_took + contracts_started.elapsed(),
            exact_nodes: self.solver.take_stats().nodes,
            seen: seen_took,
        };
        let teams = ByTeam::from(Team::ALL.map(|team| {
            let seats = Seat::ALL.into_iter().filter(|s| s.team() == team);
            TeamTotals {
                took: round.summary.card_points[team] + round.summary.match_bonus[team],
                best_play: if team == chosen_by.team() { played } else { other },
                exact_lost: seats.clone().fold(Bounds::default(), |sum, s| add(sum, players[s].exact)),
                seen_lost: seats.map(|s| players[s].seen).sum(),
            }
        }));
        Ok(RoundReview {
            version: REVIEW_VERSION,
            round: number,
            contract,
            multiplier: round.summary.multiplier,
            chosen_by,
            tolerance: settings.tolerance,
            clear_points: settings.clear_points,
            clear_se: settings.clear_se,
            choice: ChoiceReview { decisions: seen.decisions, exact: contracts },
            tricks,
            players,
            teams,
        })
    }

    /// The review of every round of `record` that is over and had cards played.
    ///
    /// # Errors
    /// The record does not replay.
    pub fn game(&mut self, record: &Record) -> Result<Vec<RoundReview>, ReviewError> {
        let mut out = Vec::new();
        for number in 0..u32::try_from(record.rounds.len()).unwrap_or(u32::MAX) {
            match self.round(record, number) {
                Ok(r) => out.push(r),
                Err(ReviewError::InPlay(_) | ReviewError::NoPlay(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }
}

fn add(a: Bounds, b: Bounds) -> Bounds {
    Bounds { at_least: a.at_least + b.at_least, at_most: a.at_most + b.at_most }
}
