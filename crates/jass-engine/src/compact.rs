//! The record and the round summaries in the form a game keeps them in memory.
//!
//! A server holds one game per table for the whole game, and the full [`Record`]
//! (40 bytes an action) and the [`RoundSummary`]s (96 bytes a round) grew a table by
//! about 1.8 KiB a round. Kept here as one byte an action, a seed and a dealer a
//! round, and the few facts of a summary that cannot be worked out again (about 90
//! bytes a round in all), the record and the history are rebuilt exactly when asked.
//!
//! [`Record`]: crate::Record

use std::sync::OnceLock;

use crate::action::Action;
use crate::by::{BySeat, ByTeam};
use crate::cardset::CardSet;
use crate::contract::Contract;
use crate::deal::{Seed, deal};
use crate::options::Options;
use crate::record::{RoundRecord, SeatAction};
use crate::score::RoundSummary;
use crate::seat::{Seat, Team};

/// First code of a `choose` (plays take `0..PLAY_END`: card × 4 + Weis × 2 + Stöck).
const PLAY_END: u8 = 36 * 4;
/// First code of a `schiebe` (chooses take contract × 4 + seat).
const CHOOSE_END: u8 = PLAY_END + 6 * 4;
const SCHIEBE_END: u8 = CHOOSE_END + 4;
const STOECK_END: u8 = SCHIEBE_END + 4;
/// Bedanke takes `STOECK_END..STOECK_END + 4` (+ seat).
const BEDANKE: u8 = STOECK_END;

/// Marks the last Weis of one declaration in [`CompactRecord::weis`] (a card set uses
/// only the low 36 bits).
const LAST_WEIS: u64 = 1 << 63;

/// One dealt round: where its actions start in [`CompactRecord::codes`].
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct DealtRound {
    seed: Seed,
    start: u32,
    dealer: Seat,
}

/// The record of a game, one byte an action. A play needs no seat: the card's holder
/// in the dealt hands played it. Weis declared with a play go to their own list, in
/// order.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub(crate) struct CompactRecord {
    rounds: Vec<DealtRound>,
    codes: Vec<u8>,
    /// Each declared Weis's cards, [`LAST_WEIS`] on the last of a declaration.
    weis: Vec<u64>,
    /// The first round's hands when they were given rather than dealt
    /// ([`Game::with_hands`](crate::Game::with_hands)).
    given_hands: Option<Box<[CardSet; 4]>>,
}

impl CompactRecord {
    /// A round was dealt from `seed` with `dealer`.
    pub(crate) fn deal(&mut self, seed: Seed, dealer: Seat) {
        // Far below 2³² actions: a game has at most a few thousand rounds (the target
        // is at most 100,000).
        let start = self.codes.len() as u32;
        self.rounds.push(DealtRound { seed, start, dealer });
    }

    /// The first round's hands and dealer were given, not dealt from its seed.
    pub(crate) fn give_first_hands(&mut self, dealer: Seat, hands: [CardSet; 4]) {
        if let Some(first) = self.rounds.first_mut() {
            first.dealer = dealer;
        }
        self.given_hands = Some(Box::new(hands));
    }

    /// How many rounds were dealt.
    pub(crate) const fn rounds_dealt(&self) -> usize {
        self.rounds.len()
    }

    /// The seed of round `i`.
    fn seed(&self, i: usize) -> Option<Seed> {
        self.rounds.get(i).map(|r| r.seed)
    }

    /// The dealer and the dealt hands of round `i` (the deal is worked out again).
    pub(crate) fn dealt(&self, i: usize) -> Option<(Seat, [CardSet; 4])> {
        let r = self.rounds.get(i)?;
        let hands = match (&self.given_hands, i) {
            (Some(h), 0) => **h,
            _ => deal(r.seed, Some(r.dealer)).hands,
        };
        Some((r.dealer, hands))
    }

    /// Keeps an accepted action. Called before the action is applied, so a round's last
    /// card goes to its round before the next is dealt. A bedanke between rounds (the
    /// new round has no action yet) is kept after the finished round's last action
    /// (R10).
    #[inline]
    pub(crate) fn push(&mut self, seat: Seat, action: &Action) {
        let s = seat.index() as u8;
        let code = match action {
            Action::Play { card, weis, stoeck } => {
                if let Some((last, rest)) = weis.split_last() {
                    self.weis.extend(rest.iter().map(|w| w.bits()));
                    self.weis.push(last.bits() | LAST_WEIS);
                }
                card.index() as u8 * 4 + u8::from(!weis.is_empty()) * 2 + u8::from(*stoeck)
            }
            Action::Choose { contract } => PLAY_END + contract.index() as u8 * 4 + s,
            Action::Schiebe => CHOOSE_END + s,
            Action::Stoeck => SCHIEBE_END + s,
            Action::Bedanke => {
                let n = self.rounds.len();
                let len = self.codes.len() as u32;
                if n >= 2
                    && let Some(last) = self.rounds.last_mut()
                    && last.start == len
                {
                    last.start += 1;
                }
                BEDANKE + s
            }
        };
        self.codes.push(code);
    }

    /// The record's rounds, as [`Record::rounds`](crate::Record::rounds).
    pub(crate) fn rounds(&self) -> Vec<RoundRecord> {
        let mut weis = self.weis.iter().copied();
        (0..self.rounds.len())
            .filter_map(|i| {
                let (dealer, hands) = self.dealt(i)?;
                let r = self.rounds.get(i)?;
                let end = self.rounds.get(i + 1).map_or(self.codes.len(), |n| n.start as usize);
                let codes = self.codes.get(r.start as usize..end).unwrap_or_default();
                let actions = codes.iter().filter_map(|&c| decode(c, &hands, &mut weis)).collect();
                Some(RoundRecord { dealer, seed: r.seed, hands: BySeat(hands), actions })
            })
            .collect()
    }
}

/// The action of `code`; a play's seat is the card's holder in `hands`, its Weis the
/// next declaration in `weis`.
fn decode(code: u8, hands: &[CardSet; 4], weis: &mut impl Iterator<Item = u64>) -> Option<SeatAction> {
    let seat = Seat::wrapping(usize::from(code));
    let action = match code {
        0..PLAY_END => {
            let card = crate::card::Card::from_index(code / 4)?;
            let mut declared = Vec::new();
            if code & 2 != 0 {
                for w in weis.by_ref() {
                    declared.push(CardSet::from_bits(w & !LAST_WEIS));
                    if w & LAST_WEIS != 0 {
                        break;
                    }
                }
            }
            let holder = Seat::ALL.into_iter().zip(hands).find_map(|(s, h)| h.contains(card).then_some(s))?;
            return Some(SeatAction {
                seat: holder,
                action: Action::Play { card, weis: declared, stoeck: code & 1 != 0 },
            });
        }
        PLAY_END..CHOOSE_END => {
            Action::Choose { contract: *Contract::ALL.get(usize::from((code - PLAY_END) / 4))? }
        }
        CHOOSE_END..SCHIEBE_END => Action::Schiebe,
        SCHIEBE_END..STOECK_END => Action::Stoeck,
        _ => Action::Bedanke,
    };
    Some(SeatAction { seat, action })
}

/// What a [`RoundSummary`] holds that cannot be worked out from the options, the
/// record and the summaries before it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct CompactSummary {
    /// The Weis scored, by the team of bit [`WEIS_TEAM`].
    weis: u32,
    /// At most 157 a team (R4).
    card_points: [u8; 2],
    dealer: Seat,
    forehand: Seat,
    contract: Option<Contract>,
    chosen_by: Option<Seat>,
    flags: u8,
}

const PUSHED: u8 = 1;
const COMPLETE: u8 = 2;
const WEIS_TEAM: u8 = 4;
/// Shifted by the team's index.
const MATCH: u8 = 8;
/// Shifted by the team's index.
const STOECK: u8 = 32;

impl CompactSummary {
    pub(crate) fn new(s: &RoundSummary) -> Self {
        let mut flags = if s.pushed { PUSHED } else { 0 } | if s.complete { COMPLETE } else { 0 };
        if s.weis[Team::One] != 0 {
            flags |= WEIS_TEAM;
        }
        for t in Team::ALL {
            let i = t.index();
            if s.match_bonus[t] != 0 {
                flags |= MATCH << i;
            }
            if s.stoeck[t] != 0 {
                flags |= STOECK << i;
            }
        }
        Self {
            weis: s.weis[Team::Zero].max(s.weis[Team::One]),
            // Engine-computed card points, at most 157 a team.
            card_points: s.card_points.into_inner().map(|p| p as u8),
            dealer: s.dealer,
            forehand: s.forehand,
            contract: s.contract,
            chosen_by: s.chosen_by,
            flags,
        }
    }

    /// The summary of round `round` with the game totals before it.
    pub(crate) fn expand(
        &self,
        round: u32,
        seed: Seed,
        before: ByTeam<u32>,
        options: &Options,
    ) -> RoundSummary {
        let multiplier = self.contract.map_or(1, |k| options.multipliers.of(k));
        let f = self.flags;
        let on = |bit: u8, points: u32| if f & bit != 0 { points } else { 0 };
        let weis_team = if f & WEIS_TEAM != 0 { Team::One } else { Team::Zero };
        let mut s = RoundSummary {
            round,
            dealer: self.dealer,
            forehand: self.forehand,
            contract: self.contract,
            chosen_by: self.chosen_by,
            pushed: f & PUSHED != 0,
            multiplier,
            card_points: ByTeam(self.card_points.map(u32::from)),
            match_bonus: ByTeam([
                on(MATCH, crate::score::MATCH_BONUS),
                on(MATCH << 1, crate::score::MATCH_BONUS),
            ]),
            weis: ByTeam::default(),
            stoeck: ByTeam([on(STOECK, 20), on(STOECK << 1, 20)]),
            total: ByTeam::default(),
            running_total: ByTeam::default(),
            complete: f & COMPLETE != 0,
            seed,
        };
        s.weis[weis_team] = self.weis;
        // Every credit is its raw points times the multiplier (R8).
        s.total = ByTeam(
            Team::ALL.map(|t| multiplier * (s.card_points[t] + s.match_bonus[t] + s.weis[t] + s.stoeck[t])),
        );
        s.running_total = ByTeam(Team::ALL.map(|t| before[t] + s.total[t]));
        s
    }
}

/// The round summaries of a game.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub(crate) struct History {
    rounds: Vec<CompactSummary>,
    /// The game totals before the first round (not zero only for
    /// [`Game::with_hands`](crate::Game::with_hands)).
    start: ByTeam<u32>,
}

impl History {
    pub(crate) fn new(start: ByTeam<u32>) -> Self {
        Self { rounds: Vec::new(), start }
    }

    /// How many rounds were summed up (views show it).
    pub(crate) const fn len(&self) -> usize {
        self.rounds.len()
    }

    pub(crate) fn push(&mut self, s: &RoundSummary) {
        self.rounds.push(CompactSummary::new(s));
    }

    /// Every summary, in full.
    pub(crate) fn expand(&self, record: &CompactRecord, options: &Options) -> Vec<RoundSummary> {
        let mut before = self.start;
        let mut out = Vec::with_capacity(self.rounds.len());
        for (i, c) in self.rounds.iter().enumerate() {
            // A round is summarized only after it was dealt, and every deal records its seed.
            let seed = record.seed(i);
            debug_assert!(seed.is_some(), "summarized round {i} has a recorded seed");
            let s = c.expand(i as u32, seed.unwrap_or(Seed([0; 32])), before, options);
            before = s.running_total;
            out.push(s);
        }
        out
    }
}

/// A value built on demand from the compact form and kept until the game changes.
/// It is no part of the game's state: clones start without it and comparisons ignore
/// it.
pub(crate) struct Cached<T>(OnceLock<Box<T>>);

impl<T> Default for Cached<T> {
    fn default() -> Self {
        Self(OnceLock::new())
    }
}

impl<T> Cached<T> {
    pub(crate) fn get_or_init(&self, build: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(|| Box::new(build()))
    }

    /// Drops the value: the game changed.
    #[inline]
    pub(crate) fn clear(&mut self) {
        drop(self.0.take());
    }
}

impl<T> Clone for Cached<T> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<T> PartialEq for Cached<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Cached<T> {}

impl<T> std::fmt::Debug for Cached<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cached")
    }
}
