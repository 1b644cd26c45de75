//! With all hands known: the solver's values, exact where a card's loss is small and
//! bounded where it is at least the tolerance.

use jass_engine::{
    CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Options, Seat, Team, has_stoeck, set_points,
};
use jass_protocol::review::{Bounds, ExactCard, ExactOption};
use jass_solver::Solver;

use crate::settings::Settings;
use crate::walk::{Play, Round};

/// One card's exact review.
pub(crate) fn card(solver: &mut Solver, play: &Play, settings: &Settings) -> ExactCard {
    // The first card's value is the round's best play: worth four times the work.
    let nodes =
        if play.position.cards_left() == 36 { settings.solve_nodes * 4 } else { settings.solve_nodes };
    let values =
        solver.card_bounds(&play.position, settings.tolerance, Some(play.card), nodes).unwrap_or_default();
    let mut options: Vec<ExactOption> = values
        .iter()
        .map(|b| ExactOption { card: b.card, value: Bounds { at_least: b.at_least, at_most: b.at_most } })
        .collect();
    options.sort_by_key(|o| std::cmp::Reverse((o.value.at_least, o.value.at_most)));
    let best_lo = options.iter().map(|o| o.value.at_least).max().unwrap_or(0);
    let best_hi = options.iter().map(|o| o.value.at_most).max().unwrap_or(0);
    let played = options.iter().find(|o| o.card == play.card).map(|o| o.value).unwrap_or_default();
    let loss = Bounds {
        at_least: best_lo.saturating_sub(played.at_most),
        at_most: best_hi.saturating_sub(played.at_least),
    };
    ExactCard { options, best: best_lo, loss }
}

/// Each contract's value to `team` from the first card, all hands known: card points
/// with Stöck, times the multiplier (as [`jass_protocol::review::ChoiceReview::exact`]).
/// `played` is the played contract's value in card points (the first card's best);
/// another contract is valued exactly only where it comes within `tolerance` card
/// points of the played one's score, else shown to be below it.
pub(crate) fn contracts(
    solver: &mut Solver,
    round: &Round,
    options: &Options,
    team: Team,
    played: (Contract, Bounds),
    settings: &Settings,
) -> Vec<Bounds> {
    let stoeck = |contract: Contract| {
        let ours = Seat::ALL.iter().any(|s| s.team() == team && has_stoeck(round.dealt[*s], contract));
        if options.has_extras() && ours { 20 } else { 0 }
    };
    let scored = |contract: Contract, raw: Bounds| {
        let (st, mult) = (stoeck(contract), options.multipliers.of(contract));
        Bounds { at_least: (raw.at_least + st) * mult, at_most: (raw.at_most + st) * mult }
    };
    let target = scored(played.0, played.1).at_least;
    Contract::ALL
        .into_iter()
        .map(|contract| {
            if contract == played.0 {
                return scored(contract, played.1);
            }
            let mult = options.multipliers.of(contract).max(1);
            let floor =
                (target / mult + 1).checked_sub(stoeck(contract) + settings.tolerance).filter(|&f| f > 0);
            let pos = crate::walk::first_position(round, contract, options);
            let raw = solver
                .value_bounds(&pos, team, floor, settings.solve_nodes)
                .map(|(at_least, at_most)| Bounds { at_least, at_most })
                .unwrap_or_default();
            scored(contract, raw)
        })
        .collect()
}

/// What `team` takes from the first card with best play by both sides, given what
/// the other team takes (`other`): the rest of the 157 unless a side may have taken
/// every trick (then solved).
pub(crate) fn best_play_of_other(
    solver: &mut Solver,
    round: &Round,
    options: &Options,
    contract: Contract,
    team: Team,
    other: Bounds,
    settings: &Settings,
) -> Bounds {
    let rest = set_points(CardSet::DECK, contract, options.old_undenufe) + LAST_TRICK_BONUS;
    if other.at_least > 0 && other.at_most < rest + MATCH_BONUS {
        return Bounds {
            at_least: rest.saturating_sub(other.at_most),
            at_most: rest.saturating_sub(other.at_least),
        };
    }
    let pos = crate::walk::first_position(round, contract, options);
    solver
        .value_bounds(&pos, team, None, settings.solve_nodes)
        .map(|(at_least, at_most)| Bounds { at_least, at_most })
        .unwrap_or_default()
}
