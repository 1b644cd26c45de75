//! What a request does to a table, decided from its durable state alone: each function
//! checks a request against [`TableState`] and says which entry to store, or that
//! nothing changes, or why it is refused. Nothing here stores, applies, publishes or
//! reads a clock; the actor does that with the answer (`commands`, then `effects`),
//! and recovery applies the same entries (`TableState::apply`).

use jass_engine::{Action, Seat, Seed};
use jass_protocol::{ErrorCode, Level, Timing};

use super::Refusal;
use super::state::{Occupant, TableState};
use crate::store::Entry;

/// The name as it is stored and shown (NFC, trimmed), or why it is refused
/// (protocol.md 1, "Names": no invisible, bidi-control or mixed-script spoofing).
pub(crate) fn valid_name(name: &str) -> Result<String, Refusal> {
    jass_protocol::name::validate(name).map_err(|e| Refusal::new(ErrorCode::BadName, e.to_string()))
}

/// Only the host may change the table (protocol.md 3, "Host controls").
pub(super) fn require_host(state: &TableState, seat: Seat) -> Result<(), Refusal> {
    if seat == state.host {
        Ok(())
    } else {
        Err(Refusal::new(ErrorCode::NotHost, "only the host may do that"))
    }
}

/// Seats and options change only before the first game.
pub(super) fn require_lobby(state: &TableState) -> Result<(), Refusal> {
    if state.game.is_some() {
        Err(Refusal::new(ErrorCode::AlreadyStarted, "the game has started"))
    } else {
        Ok(())
    }
}

/// A new player's seat (the one asked for, or the first free one) and checked name.
pub(super) fn join(state: &TableState, name: &str, want: Option<Seat>) -> Result<(Seat, String), Refusal> {
    let name = valid_name(name)?;
    let seat = match want {
        Some(s) if state.seats[s].is_some() => {
            return Err(Refusal::new(ErrorCode::SeatTaken, format!("seat {s} is taken")));
        }
        Some(s) => s,
        None => state
            .seats
            .iter()
            .find(|(_, slot)| slot.is_none())
            .map(|(s, _)| s)
            .ok_or_else(|| Refusal::new(ErrorCode::TableFull, "every seat is taken"))?,
    };
    Ok((seat, name))
}

/// A player's own game action: refused while the seat waits for the next deal or the
/// host gave it to the computer (the computer acts for it then, through
/// [`game_action`] alone).
pub(super) fn player_may_act(state: &TableState, seat: Seat) -> Result<(), Refusal> {
    if state.waiting(seat) {
        return Err(Refusal::new(ErrorCode::WaitingForDeal, "you take over this seat at the next deal"));
    }
    if state.benched(seat) {
        return Err(Refusal::new(
            ErrorCode::Benched,
            "the host gave your seat to the computer; you play again once given it back",
        ));
    }
    Ok(())
}

/// A game action decided on `version` (if the client said): refused if the game moved
/// since, or if the rules refuse it (R3–R10). `Ok(true)`: it ends the round, so the
/// entry needs the next round's seed.
pub(super) fn game_action(
    state: &TableState,
    seat: Seat,
    version: Option<u64>,
    action: &Action,
) -> Result<bool, Refusal> {
    let Some(game) = &state.game else {
        return Err(Refusal::new(ErrorCode::NotStarted, "the game has not started"));
    };
    // Stale only if the game moved since the client's view: someone connecting, a
    // spectator or a seat change is no reason to refuse a card.
    if let Some(v) = version
        && !state.is_current_for_game(v)
    {
        return Err(Refusal::new(
            ErrorCode::Stale,
            format!("decided on version {v}, the game changed at version {}", state.game_version),
        ));
    }
    game.validate(seat, action).map_err(|e| Refusal::new(ErrorCode::from_rule(&e), e.to_string()))?;
    Ok(matches!(action, Action::Play { .. }) && game.next_card_ends_round())
}

/// A new game dealt from `seed` with the current options (start, rematch).
pub(super) fn new_game(state: &TableState, seed: Seed) -> Result<Entry, Refusal> {
    // The engine refuses options out of range; the options were checked when set, so
    // this only guards a table restored from an older server.
    state.options.validate().map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
    Ok(Entry::GameStarted { game: state.games + 1, seed })
}

/// The host starts the game once all four seats are taken.
pub(super) fn start(state: &TableState, seat: Seat, seed: Seed) -> Result<Entry, Refusal> {
    require_host(state, seat)?;
    require_lobby(state)?;
    if state.has_free_seat() {
        return Err(Refusal::new(ErrorCode::NotEnoughPlayers, "four players are needed"));
    }
    new_game(state, seed)
}

/// A practice table's game: the round's seed dealt again (its options name the
/// dealer, R2), then the round's actions before the practice's start.
pub(super) fn practice(state: &TableState, deal: jass_engine::Practice) -> Result<Vec<Entry>, Refusal> {
    require_lobby(state)?;
    let mut entries = vec![new_game(state, deal.seed)?];
    entries.extend(deal.actions.into_iter().map(|sa| Entry::Action {
        seat: sa.seat,
        action: sa.action,
        next_seed: None,
        reserve: None,
    }));
    Ok(entries)
}

/// The host swaps two seats' occupants; `None` for a seat swapped with itself.
pub(super) fn swap(state: &TableState, seat: Seat, a: Seat, b: Seat) -> Result<Option<Entry>, Refusal> {
    require_host(state, seat)?;
    require_lobby(state)?;
    Ok((a != b).then_some(Entry::Swapped { a, b }))
}

/// The host frees a seat (not their own), revoking its token; `None` if it is free.
pub(super) fn free(state: &TableState, seat: Seat, target: Seat) -> Result<Option<Entry>, Refusal> {
    require_host(state, seat)?;
    if target == state.host {
        return Err(Refusal::new(ErrorCode::BadMessage, "the host cannot free their own seat"));
    }
    Ok(state.seats[target].is_some().then_some(Entry::Freed { seat: target }))
}

/// The host puts a computer in a free seat (in the lobby, or during a game).
pub(super) fn add_computer(
    state: &TableState,
    seat: Seat,
    target: Seat,
    level: Level,
) -> Result<Entry, Refusal> {
    require_host(state, seat)?;
    if state.seats[target].is_some() {
        return Err(Refusal::new(ErrorCode::SeatTaken, format!("seat {target} is taken")));
    }
    Ok(Entry::ComputerSeated { seat: target, level })
}

/// The host lets the computer play a player's seat: the player keeps the seat and
/// token and watches without a hand until given it back ([`give_back`]). Freeing the
/// seat instead would throw the player out with a revoked token and no word why.
/// `None` if the computer plays it already.
pub(super) fn give_to_computer(
    state: &TableState,
    seat: Seat,
    target: Seat,
    level: Level,
) -> Result<Option<Entry>, Refusal> {
    require_host(state, seat)?;
    if target == state.host {
        return Err(Refusal::new(ErrorCode::BadMessage, "the host cannot give their own seat away"));
    }
    match &state.seats[target] {
        None => Err(Refusal::new(ErrorCode::BadMessage, format!("seat {target} is free: add a computer"))),
        Some(o) if o.computer() => {
            Err(Refusal::new(ErrorCode::BadMessage, format!("a computer holds seat {target}")))
        }
        Some(o) if o.benched => Ok(None),
        Some(_) => Ok(Some(Entry::GivenToComputer { seat: target, level })),
    }
}

/// The host gives a seat the computer plays since [`give_to_computer`] back.
pub(super) fn give_back(state: &TableState, seat: Seat, target: Seat) -> Result<Entry, Refusal> {
    require_host(state, seat)?;
    if !state.benched(target) {
        return Err(Refusal::new(
            ErrorCode::BadMessage,
            format!("seat {target} was not given to the computer"),
        ));
    }
    Ok(Entry::GivenBack { seat: target })
}

/// The host sets the options (a preset and overrides, protocol.md 6.1).
pub(super) fn set_options(
    state: &TableState,
    seat: Seat,
    preset: Option<jass_engine::Preset>,
    options: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Result<Entry, Refusal> {
    require_host(state, seat)?;
    require_lobby(state)?;
    let options = jass_protocol::options_from(preset, options)
        .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
    Ok(Entry::OptionsSet { options })
}

/// New step-in and move clock; `None` if they are the table's already.
pub(super) fn set_timing(state: &TableState, timing: Timing) -> Result<Option<Entry>, Refusal> {
    timing.validate().map_err(|e| Refusal::new(ErrorCode::BadTiming, e))?;
    Ok((timing != state.timing).then_some(Entry::TimingSet { timing }))
}

/// The host changes some of the timing's parts.
pub(super) fn timing_request(
    state: &TableState,
    seat: Seat,
    step_in: Option<u32>,
    move_clock: Option<u32>,
    reserve: Option<u32>,
) -> Result<Option<Entry>, Refusal> {
    require_host(state, seat)?;
    require_lobby(state)?;
    let old = state.timing;
    let timing = Timing {
        step_in: step_in.unwrap_or(old.step_in),
        move_clock: move_clock.unwrap_or(old.move_clock),
        reserve: reserve.unwrap_or(old.reserve),
    };
    set_timing(state, timing)
}

/// What a rematch vote does.
pub(super) enum Rematch {
    /// The last vote: the next game starts (its entry stands for the vote too).
    NewGame,
    /// A vote to store.
    Vote(Entry),
    /// A repeated vote, which changes nothing.
    Nothing,
}

/// A seat asks for another game once the game is over; computers always want one.
pub(super) fn rematch(state: &TableState, seat: Seat) -> Result<Rematch, Refusal> {
    match &state.game {
        None => return Err(Refusal::new(ErrorCode::NotStarted, "no game has been played")),
        Some(g) if g.result().is_none() => {
            return Err(Refusal::new(ErrorCode::GameNotOver, "the game is still on"));
        }
        Some(_) => {}
    }
    let mut votes = state.rematch;
    votes[seat] = true;
    let all = !state.has_free_seat()
        && Seat::ALL.into_iter().all(|s| votes[s] || state.seats[s].as_ref().is_some_and(Occupant::computer));
    Ok(if all {
        Rematch::NewGame
    } else if votes == state.rematch {
        Rematch::Nothing
    } else {
        Rematch::Vote(Entry::RematchVote { seat })
    })
}
