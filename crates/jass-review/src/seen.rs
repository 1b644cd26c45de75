//! From what the player could see: the strong computer's estimate from the seat's own
//! view at that moment, built from the views the seat had been shown until then and
//! nothing later.

use jass_ai::{Computer, Samples};
use jass_engine::{BySeat, Options, Seat};
use jass_protocol::review::{ChoiceDecision, ChoiceOption, Estimate, SeenCard, SeenOption};

use crate::settings::Settings;
use crate::walk::Round;

/// The "could see" half of a round's review.
pub(crate) struct Seen {
    /// Per card played (in order): `None` for a forced card.
    pub(crate) cards: Vec<Option<SeenCard>>,
    /// Per decision before the first card (in order).
    pub(crate) decisions: Vec<ChoiceDecision>,
}

impl Seen {
    /// No estimate at all (a thread that computed it failed).
    pub(crate) fn none(round: &Round) -> Self {
        Self { cards: round.plays.iter().map(|_| None).collect(), decisions: Vec::new() }
    }
}

/// Steps through the round's actions, each seat's computer shown what its seat was
/// shown, and estimates every decision and every card with more than one choice.
pub(crate) fn round(round: &Round, options: &Options, settings: &Settings) -> Seen {
    let mut computers: BySeat<Computer> =
        BySeat::from(Seat::ALL.map(|s| Computer::new(s, *options, settings.seen)));
    let mut out = Seen { cards: Vec::new(), decisions: Vec::new() };
    let mut plays = round.plays.iter().peekable();
    let mut decisions = round.decisions.iter().peekable();
    for (at, views) in round.views.iter().enumerate() {
        for s in Seat::ALL {
            computers[s].observe(s.of(views));
        }
        if let Some(d) = decisions.next_if(|d| d.at == at) {
            let view = d.seat.of(views);
            if let Some(samples) = computers[d.seat].contract_samples(view) {
                out.decisions.push(decision(d.seat, d.chose, &samples, settings));
            }
        }
        if let Some(p) = plays.next_if(|p| p.at == at) {
            let view = p.seat.of(views);
            let seen = if view.allowed.cards.len() > 1 {
                computers[p.seat].card_samples(view).map(|samples| card(p.card, &samples, settings))
            } else {
                None
            };
            out.cards.push(seen);
        }
    }
    out
}

/// To hundredths of a point (what a reader can use; the JSON stays short). JSON has
/// no infinity: an estimate from fewer than two deals gets a spread of 1e9.
fn estimate(e: jass_ai::Estimate) -> Estimate {
    let round = |x: f64| (x * 100.0).round() / 100.0;
    Estimate { mean: round(e.mean), se: if e.se.is_finite() { round(e.se) } else { 1e9 } }
}

/// Whether a loss is clear enough to call.
fn clear(loss: Estimate, settings: &Settings) -> bool {
    loss.mean >= settings.clear_points && loss.mean >= settings.clear_se * loss.se
}

fn card(played: jass_engine::Card, samples: &Samples<jass_engine::Card>, settings: &Settings) -> SeenCard {
    let mut options: Vec<SeenOption> = samples
        .options
        .iter()
        .enumerate()
        .map(|(i, &card)| SeenOption { card, value: estimate(samples.value(i)) })
        .collect();
    options.sort_by(|a, b| b.value.mean.total_cmp(&a.value.mean));
    let best = samples.best().unwrap_or(0);
    let loss = samples
        .index(&played)
        .map_or(Estimate { mean: 0.0, se: 0.0 }, |i| estimate(samples.difference(best, i)));
    SeenCard {
        options,
        deals: u32::try_from(samples.rows.len()).unwrap_or(u32::MAX),
        solved: samples.solved,
        loss,
        clear: clear(loss, settings),
    }
}

fn decision(
    seat: Seat,
    chose: Option<jass_engine::Contract>,
    samples: &Samples<Option<jass_engine::Contract>>,
    settings: &Settings,
) -> ChoiceDecision {
    let options = samples
        .options
        .iter()
        .enumerate()
        .map(|(i, &contract)| ChoiceOption { contract, value: estimate(samples.value(i)) })
        .collect();
    let best = samples.best().unwrap_or(0);
    let loss = samples
        .index(&chose)
        .map_or(Estimate { mean: 0.0, se: 0.0 }, |i| estimate(samples.difference(best, i)));
    ChoiceDecision { seat, chose, options, loss, clear: clear(loss, settings) }
}
