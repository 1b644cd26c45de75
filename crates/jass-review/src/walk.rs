//! A finished round as the review needs it: each decision with the view its seat had
//! then, and each card with the whole position (every hand, now public).

use jass_engine::{
    Action, BySeat, Card, CardSet, Contract, Event, Game, Options, Record, ReplayError, RoundSummary, Seat,
    SeatView, Seed, Trick, Viewer,
};
use jass_solver::Position;

/// One card played.
pub(crate) struct Play {
    /// The action's place in the round ([`Round::views`]).
    pub(crate) at: usize,
    pub(crate) seat: Seat,
    pub(crate) card: Card,
    /// Every hand, the trick and the tricks taken just before it.
    pub(crate) position: Position,
}

/// A push or a contract chosen, with the seat's view before it.
pub(crate) struct Decision {
    /// The action's place in the round ([`Round::views`]).
    pub(crate) at: usize,
    pub(crate) seat: Seat,
    pub(crate) chose: Option<Contract>,
}

/// One trick's leader and winner.
pub(crate) struct TrickEnd {
    pub(crate) leader: Seat,
    pub(crate) winner: Seat,
}

/// A round that is over, taken apart.
pub(crate) struct Round {
    pub(crate) forehand: Seat,
    pub(crate) dealt: BySeat<CardSet>,
    pub(crate) summary: RoundSummary,
    pub(crate) decisions: Vec<Decision>,
    pub(crate) plays: Vec<Play>,
    pub(crate) tricks: Vec<TrickEnd>,
    /// Before each action of the round, each seat's view: what a player had seen by
    /// then, for the "could see" view.
    pub(crate) views: Vec<[SeatView; 4]>,
}

/// Why a round cannot be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The record does not replay.
    #[error("the record does not replay: {0}")]
    Replay(#[from] ReplayError),
    /// No such round in the record.
    #[error("the record has no round {0}")]
    NoRound(u32),
    /// The round is still being played: nothing of it is reviewed before it is over.
    #[error("round {0} is not over")]
    InPlay(u32),
    /// The round ended before a contract was chosen (a bedanke during the choice).
    #[error("round {0} ended before any card was played")]
    NoPlay(u32),
}

/// Replays `record` up to the end of round `number` and takes that round apart.
pub(crate) fn round(record: &Record, number: u32) -> Result<Round, ReviewError> {
    // The engine's replay checks every action up to the round's end first (the
    // rounds after it are not needed: a game in play may be reviewed up to a round
    // that is over); the walk below then only steps.
    let index = usize::try_from(number).map_err(|_| ReviewError::NoRound(number))?;
    if index >= record.rounds.len() {
        return Err(ReviewError::NoRound(number));
    }
    let whole = record.replay_rounds(index + 1, |_, _| {})?;
    let rr = record.rounds.get(index).ok_or(ReviewError::NoRound(number))?;
    let summary = whole.history().get(index).cloned().ok_or(ReviewError::InPlay(number))?;
    let first = record.rounds.first().ok_or(ReviewError::NoRound(number))?;
    let mut game = Game::new(record.options, first.seed).map_err(ReplayError::from)?;
    for (ri, earlier) in record.rounds.iter().enumerate().take(index) {
        let next = record.rounds.get(ri + 1).map_or(Seed([0; 32]), |r| r.seed);
        for (ai, sa) in earlier.actions.iter().enumerate() {
            game.apply(sa.seat, sa.action.clone(), || next).map_err(|error| ReplayError::Illegal {
                round: ri,
                index: ai,
                error,
            })?;
        }
    }
    let next = record.rounds.get(index + 1).map_or(Seed([0; 32]), |r| r.seed);
    let mut out = Round {
        forehand: game.forehand(),
        dealt: rr.hands,
        summary,
        decisions: Vec::new(),
        plays: Vec::new(),
        tricks: Vec::new(),
        views: Vec::new(),
    };
    let mut tricks_won = [0u8; 2];
    let mut leader = game.forehand();
    for (ai, sa) in rr.actions.iter().enumerate() {
        let seat = sa.seat;
        match &sa.action {
            Action::Schiebe => out.decisions.push(Decision { at: ai, seat, chose: None }),
            Action::Choose { contract } => {
                out.decisions.push(Decision { at: ai, seat, chose: Some(*contract) })
            }
            Action::Play { card, .. } => {
                if let Some(contract) = game.contract() {
                    let position = Position {
                        hands: Seat::ALL.map(|s| game.hand(s)),
                        trick: *game.trick(),
                        contract,
                        old_undenufe: record.options.old_undenufe,
                        tricks_won,
                        match_bonus: record.options.fixed_rounds.is_none(),
                    };
                    if game.trick().is_empty() {
                        leader = game.trick().leader();
                    }
                    out.plays.push(Play { at: ai, seat, card: *card, position });
                }
            }
            _ => {}
        }
        out.views.push(Seat::ALL.map(|s| game.view(Viewer::Seat(s))));
        let events = game
            .apply(sa.seat, sa.action.clone(), || next)
            .map_err(|error| ReplayError::Illegal { round: index, index: ai, error })?;
        for e in events.iter() {
            if let Event::TrickTaken { winner, .. } = e {
                if let Some(t) = tricks_won.get_mut(winner.team().index()) {
                    *t += 1;
                }
                out.tricks.push(TrickEnd { leader, winner: *winner });
            }
        }
    }
    if out.plays.is_empty() {
        return Err(ReviewError::NoPlay(number));
    }
    Ok(out)
}

/// The position at the first card of a round under `contract`.
pub(crate) fn first_position(round: &Round, contract: Contract, options: &Options) -> Position {
    Position {
        hands: round.dealt.into_inner(),
        trick: Trick::new(round.forehand),
        contract,
        old_undenufe: options.old_undenufe,
        tricks_won: [0, 0],
        match_bonus: options.fixed_rounds.is_none(),
    }
}
