//! The published seed lists (docs/bots.md, "Seed lists: tuning and claims"). A master
//! seed fixes every deal of a match ([`deal_seed`]) and every random choice of its
//! players ([`player_seed`]); the lists split the master seeds in two so that a figure
//! claimed in the notes was never looked at while a player was tuned:
//!
//! - **Tuning**, master seeds [`TUNING_SEEDS`] (1..=999), default [`TUNING_SEED`] (17,
//!   the seed of every pilot so far): for trying parameters and pilots. Figures from
//!   it are tuned on and say nothing about strength.
//! - **Claims**, master seeds [`CLAIM_SEEDS`] (1,000,000..=1,000,999), default
//!   [`CLAIM_SEED`]: for the figures a claim rests on, run once a player is fixed.
//!
//! Any other master seed is "custom": fine for experiments, never for a claim.
//!
//! [`deal_seed`]: crate::deal_seed
//! [`player_seed`]: crate::player_seed

use std::fmt;
use std::ops::RangeInclusive;

/// Master seeds for tuning and pilots.
pub const TUNING_SEEDS: RangeInclusive<u64> = 1..=999;
/// The tuning list's default master seed (that of the pilots in docs/bots.md).
pub const TUNING_SEED: u64 = 17;
/// Master seeds for claims: far from the small numbers anyone tries first.
pub const CLAIM_SEEDS: RangeInclusive<u64> = 1_000_000..=1_000_999;
/// The claim list's default master seed.
pub const CLAIM_SEED: u64 = 1_000_000;

/// Which published list a master seed belongs to.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum SeedList {
    /// [`TUNING_SEEDS`].
    Tuning,
    /// [`CLAIM_SEEDS`].
    Claim,
    /// Neither.
    Custom,
}

impl SeedList {
    /// The list `master` belongs to.
    #[must_use]
    pub fn of(master: u64) -> Self {
        if TUNING_SEEDS.contains(&master) {
            Self::Tuning
        } else if CLAIM_SEEDS.contains(&master) {
            Self::Claim
        } else {
            Self::Custom
        }
    }

    /// The list's default master seed (`None` for custom: there is none).
    #[must_use]
    pub const fn default_seed(self) -> Option<u64> {
        match self {
            Self::Tuning => Some(TUNING_SEED),
            Self::Claim => Some(CLAIM_SEED),
            Self::Custom => None,
        }
    }

    /// The list's name, as on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Tuning => "tuning",
            Self::Claim => "claim",
            Self::Custom => "custom",
        }
    }
}

impl fmt::Display for SeedList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The master seed a command line asks for: `list` alone takes its default, `seed`
/// alone names its own list, both must agree (a claim seed cannot be used by mistake
/// under `--seeds tuning`, nor the other way round).
///
/// # Errors
/// When `seed` is not in `list`, or `list` is custom without a seed.
pub fn choose_seed(list: Option<SeedList>, seed: Option<u64>) -> Result<(u64, SeedList), String> {
    match (list, seed) {
        (None, None) => Ok((TUNING_SEED, SeedList::Tuning)),
        (None, Some(s)) => Ok((s, SeedList::of(s))),
        (Some(l), None) => {
            l.default_seed().map(|s| (s, l)).ok_or_else(|| "--seeds custom needs --seed".to_owned())
        }
        (Some(l), Some(s)) if SeedList::of(s) == l => Ok((s, l)),
        (Some(l), Some(s)) => {
            Err(format!("master seed {s} is not in the {l} list (it is {})", SeedList::of(s)))
        }
    }
}

impl std::str::FromStr for SeedList {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "tuning" => Ok(Self::Tuning),
            "claim" => Ok(Self::Claim),
            "custom" => Ok(Self::Custom),
            other => Err(format!("unknown seed list {other:?}; lists: tuning, claim, custom")),
        }
    }
}
