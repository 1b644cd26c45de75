//! How a review is computed: the tolerance of the exact view, when a loss from what a
//! player could see is clear, and the work and memory a review may take.

use jass_ai::{Config, Level};

/// How a review is computed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Settings {
    /// A card at least this many points worse than the best (all hands known) is
    /// shown to be so, not valued exactly.
    pub tolerance: u32,
    /// A loss from what the player could see is clear from this many points...
    pub clear_points: f64,
    /// ...and this many standard errors.
    pub clear_se: f64,
    /// Positions the solver may visit for one card played (half for the card, half
    /// for the others) and for each other contract: past it a value is given as the
    /// bounds found so far.
    pub solve_nodes: u64,
    /// The computer that estimates what a player could see: the strong level, with
    /// no time budget (so the review reproduces) and a fixed seed.
    pub seen: Config,
    /// Threads a review may use: with two, the exact half and the "could see" half
    /// run side by side (the result is the same).
    pub threads: usize,
    /// The solver's table at most, in MiB (`Solver::with_table_limit`): a server
    /// reviewing now and then holds this much while it does.
    pub table_mib: u32,
}

impl Settings {
    /// A loss of at least 10 points with all hands known is only bounded.
    pub const TOLERANCE: u32 = 10;
    /// A loss from what the player could see is called from 3 points...
    pub const CLEAR_POINTS: f64 = 3.0;
    /// ...and 2 standard errors.
    pub const CLEAR_SE: f64 = 2.0;
    /// About a third of a second of one core (80–100 ns a position): most positions
    /// need far fewer, the first few of a dear deal tens of millions (their values
    /// are then bounds).
    pub const SOLVE_NODES: u64 = 3_000_000;
    /// 10 MiB of solver table rather than the 48 MiB a whole deal's solve may grow to.
    pub const TABLE_MIB: u32 = 10;
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tolerance: Self::TOLERANCE,
            clear_points: Self::CLEAR_POINTS,
            clear_se: Self::CLEAR_SE,
            solve_nodes: Self::SOLVE_NODES,
            seen: Config { time_budget: None, seed: 0x5EE5_1DE5, ..Config::for_level(Level::Strong) },
            threads: 1,
            table_mib: Self::TABLE_MIB,
        }
    }
}
