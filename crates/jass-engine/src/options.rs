//! Table options and the four presets (R2, R3, R4, R6, R7, R8, R9, R10, R11).

use serde::{Deserialize, Serialize};

use crate::contract::Contract;

/// Multiplier per contract (R8); every one is a table option.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Multipliers {
    /// Trump hearts.
    pub hearts: u32,
    /// Trump diamonds.
    pub diamonds: u32,
    /// Trump clubs.
    pub clubs: u32,
    /// Trump spades.
    pub spades: u32,
    /// Obenabe.
    pub obenabe: u32,
    /// Undenufe.
    pub undenufe: u32,
}

impl Multipliers {
    /// The multiplier of `contract`.
    #[must_use]
    pub const fn of(&self, contract: Contract) -> u32 {
        match contract {
            Contract::Hearts => self.hearts,
            Contract::Diamonds => self.diamonds,
            Contract::Clubs => self.clubs,
            Contract::Spades => self.spades,
            Contract::Obenabe => self.obenabe,
            Contract::Undenufe => self.undenufe,
        }
    }

    const fn new(m: [u32; 6]) -> Self {
        Self { hearts: m[0], diamonds: m[1], clubs: m[2], spades: m[3], obenabe: m[4], undenufe: m[5] }
    }
}

/// Who deals and leads the first round (R2).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstRound {
    /// A random seat deals; whoever holds H7 is forehand of the first round.
    SevenOfHearts,
    /// A random seat deals; its right neighbour is forehand.
    Random,
}

/// The order of the credits inside one trick (R10).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountingOrder {
    /// Stöck, Weis, Stich (default).
    StoeckWeisStich,
    /// Weis, Stöck, Stich (seed 003).
    WeisStoeckStich,
    /// Stöck, Stich, Weis.
    StoeckStichWeis,
}

/// How the game ends (R10).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A player claims the win ("bedanke"); right claims win, wrong ones lose.
    Bedanken,
    /// The round that crosses the target is completed; the first to cross wins.
    Automatic,
}

/// Display deck and suit names (R9); the engine never depends on it.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deck {
    /// Hearts, diamonds, clubs, spades.
    French,
    /// Rosen = H, Eicheln = D, Schellen = C, Schilten = S.
    SwissSwisslos,
    /// Rosen = H, Schälle = D, Eichle = C, Schilte = S (seed 000).
    SwissManual,
}

/// The four presets of R11; a preset only fills options.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 1 1 2 2 3 3 to 2500, French (default).
    #[default]
    Swisslos,
    /// 1 2 1 2 3 4 to 2500, Swiss deck per seed 000.
    Manual,
    /// 2 2 1 1 3 3 to 2500.
    Pagat,
    /// All ×1, to 1000. Spelled `to_1000` as in R11 (snake_case alone would give `to1000`).
    #[serde(rename = "to_1000")]
    To1000,
}

impl Preset {
    /// Every preset, the default first: the order a client offers them in.
    pub const ALL: [Self; 4] = [Self::Swisslos, Self::Manual, Self::Pagat, Self::To1000];
}

/// Every rule option of a table. Unknown fields are refused so a typo never plays a
/// different game than the one asked for.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Contract multipliers (R8).
    pub multipliers: Multipliers,
    /// Points to win (R10).
    pub target: u32,
    /// Display deck (R9).
    pub deck: Deck,
    /// First round dealer and forehand (R2).
    pub first_round: FirstRound,
    /// The partner may push back once (R3).
    pub push_back: bool,
    /// Undenufe with A = 11 and 6 = 0 (R4).
    pub old_undenufe: bool,
    /// Each card counts once in Weis, long runs 100, no small fours (R6).
    pub small_weis: bool,
    /// Stöck announced automatically with the second card (R7).
    pub auto_stoeck: bool,
    /// Order of credits within one trick (R10).
    pub counting_order: CountingOrder,
    /// Bedanken or automatic end (R10).
    pub end: End,
    /// A loser below half the target loses double (R10).
    pub schneider: bool,
    /// Play exactly this many rounds: no Weis, Stöck, match bonus or target (R10).
    pub fixed_rounds: Option<u32>,
    /// The first round's dealer, instead of the one the seed draws; its right-hand
    /// neighbour leads, as in every later round (R2). A practice table that replays a
    /// finished round deals that round's seed from its dealer (R12: the record still
    /// replays). Left out when `None`, so tables and records without it read the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_dealer: Option<crate::seat::Seat>,
}

impl Default for Options {
    fn default() -> Self {
        Self::preset(Preset::default())
    }
}

/// Options that make no playable game.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum OptionsError {
    /// Target must be 1..=100000.
    #[error("target must be between 1 and 100000")]
    Target,
    /// A multiplier must be 1..=10.
    #[error("every multiplier must be between 1 and 10")]
    Multiplier,
    /// fixed_rounds must be 1..=100.
    #[error("fixed_rounds must be between 1 and 100")]
    FixedRounds,
}

impl Options {
    /// The options of a preset (R11).
    #[must_use]
    pub const fn preset(p: Preset) -> Self {
        let (m, target, deck) = match p {
            Preset::Swisslos => ([1, 1, 2, 2, 3, 3], 2500, Deck::French),
            Preset::Manual => ([1, 2, 1, 2, 3, 4], 2500, Deck::SwissManual),
            Preset::Pagat => ([2, 2, 1, 1, 3, 3], 2500, Deck::French),
            Preset::To1000 => ([1, 1, 1, 1, 1, 1], 1000, Deck::French),
        };
        Self {
            multipliers: Multipliers::new(m),
            target,
            deck,
            first_round: FirstRound::SevenOfHearts,
            push_back: false,
            old_undenufe: false,
            small_weis: false,
            auto_stoeck: false,
            counting_order: CountingOrder::StoeckWeisStich,
            end: End::Bedanken,
            schneider: false,
            fixed_rounds: None,
            first_dealer: None,
        }
    }

    /// Checks the ranges.
    ///
    /// # Errors
    /// The first option out of range.
    pub fn validate(&self) -> Result<(), OptionsError> {
        if !(1..=100_000).contains(&self.target) {
            return Err(OptionsError::Target);
        }
        if Contract::ALL.iter().any(|&k| !(1..=10).contains(&self.multipliers.of(k))) {
            return Err(OptionsError::Multiplier);
        }
        if self.fixed_rounds.is_some_and(|n| !(1..=100).contains(&n)) {
            return Err(OptionsError::FixedRounds);
        }
        Ok(())
    }

    /// Whether Weis, Stöck and the match bonus are played (not under `fixed_rounds`).
    #[must_use]
    pub const fn has_extras(&self) -> bool {
        self.fixed_rounds.is_none()
    }
}
