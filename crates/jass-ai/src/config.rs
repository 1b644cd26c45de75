//! A computer's settings, and what each level the host chooses sets them to: the one
//! place a level becomes settings, so the server and the arena agree on it.

use std::time::Duration;

/// How much a computer may think, and its seed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Config {
    /// Playouts per decision (split over the legal cards, or the six contracts).
    pub playouts: u32,
    /// Wall time per decision, at most (checked between sampled deals; at least one
    /// deal is always played out). `None`: only `playouts` bounds it, and decisions
    /// are deterministic.
    pub time_budget: Option<Duration>,
    /// Seeds every decision's random numbers, together with the seat and where the
    /// round stands.
    pub seed: u64,
    /// Push (R3) when the best contract's estimated worth (point difference times the
    /// multiplier, plus Stöck) is below this.
    pub push_below: f64,
    /// With at most this many cards left in the hands (0: never), each sampled deal
    /// is solved exactly ([`jass_solver`]) instead of played out at random: late in a
    /// round an exact value per deal is worth far more than many random playouts, and
    /// the solver is fast there.
    pub solve_at_most: u32,
    /// Deals solved per decision when solving (at least one; the time budget may cut
    /// it short).
    pub solve_deals: u32,
    /// Solver nodes per decision, at most (0: no cap): a cap on the work that,
    /// unlike the time budget, reproduces, so cheap positions can take many deals and
    /// dear ones stop early. No deal is started that would pass it if it cost as much
    /// as the dearest so far, and a deal that passes it all the same is cut short and
    /// dropped.
    pub solve_nodes: u64,
    /// Weigh the sampled deals by what the contract choice and any push say of the
    /// hands of the seats that made them ([`choice`](crate::choice)): a deal to solve is kept with
    /// the probability that those seats would have decided as they did with its
    /// hands, and a deal to play out counts with that probability as its weight.
    pub infer_choice: bool,
    /// Play the deals out by a sensible policy for every seat (module `playout`) instead
    /// of at random.
    pub informed_playouts: bool,
    /// In those playouts a seat also looks at the later seats' hands of the sampled
    /// deal (module `playout`).
    pub open_playouts: bool,
    /// Weigh the sampled deals also by how well they explain the opponents' cards
    /// played this round (module `plays`): the weight, in 256ths, a deal keeps for
    /// each card that a player who remembers the cards still out would not have
    /// played (0: off; 256 would weigh nothing).
    pub infer_play: u32,
    /// Choose the contract (or push) by the value a round's review gives each choice
    /// from this seat's view ([`Computer::contract_samples`](crate::Computer::contract_samples): the team's points with
    /// Stöck times the multiplier, a push worth what the partner would pick in each
    /// deal) instead of by the point difference against [`Config::push_below`].
    pub choose_by_value: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            playouts: 2_000,
            time_budget: Some(Duration::from_millis(500)),
            seed: 0,
            push_below: 50.0,
            solve_at_most: 0,
            solve_deals: 24,
            solve_nodes: 0,
            infer_choice: false,
            informed_playouts: false,
            open_playouts: false,
            infer_play: 0,
            choose_by_value: false,
        }
    }
}

/// How strong a computer plays, as the host of a table chooses it (the engine's
/// type, shared with the wire and the records). [`Config::at_level`] is the one place
/// a level becomes settings, so the server and the arena agree on what each means.
pub use jass_engine::Level;

impl Config {
    /// Playouts per decision at [`Level::Easy`] (at most).
    pub const EASY_PLAYOUTS: u32 = 60;
    /// Playouts per decision at [`Level::Strong`] before it solves, as a multiple of
    /// the normal budget (20,000 on the default 2,000): with the engine's
    /// allocation-free playouts that costs a few milliseconds a card. What it is worth:
    /// docs/bots.md.
    pub const STRONG_PLAYOUT_FACTOR: u32 = 10;
    /// Cards left in the hands from which [`Level::Strong`] solves each sampled deal.
    pub const STRONG_SOLVE_AT_MOST: u32 = 24;
    /// Deals solved per decision at [`Level::Strong`], at most: cheap positions take
    /// them all, dear ones stop at [`Config::STRONG_SOLVE_NODES`].
    pub const STRONG_SOLVE_DEALS: u32 = 96;
    /// Solver nodes per decision at [`Level::Strong`], at most: up to about 75 ms of
    /// one core of this project's test machine in the dearest positions (150–190 ns a
    /// node with another run beside it), so that with the deals' drawing (up to
    /// 12 ms) every decision stays within 100 ms, the strong level's goal. The caps
    /// tried and what each cost in time and strength: docs/bots.md.
    pub const STRONG_SOLVE_NODES: u64 = 400_000;
    /// [`Config::infer_play`] at [`Level::Strong`]: a deal keeps 160/256 of its weight
    /// for each opponent card it explains badly: a soft miss, since people do not all
    /// play by the model (a hard one did worse; the figures: docs/bots.md).
    pub const STRONG_INFER_PLAY: u32 = 160;

    /// The settings of a level on top of `self`, the normal budget (the server's is
    /// set by its flags): easy caps the playouts at [`Config::EASY_PLAYOUTS`] and
    /// never solves; normal is `self`; strong plays out
    /// [`Config::STRONG_PLAYOUT_FACTOR`] times the playouts early in a round, solves
    /// from [`Config::STRONG_SOLVE_AT_MOST`] cards, up to [`Config::STRONG_SOLVE_DEALS`]
    /// deals and [`Config::STRONG_SOLVE_NODES`] nodes, weighs its deals by the
    /// contract choice and the opponents' cards ([`Config::STRONG_INFER_PLAY`]),
    /// plays them out by a sensible policy, still within the time budget, and chooses
    /// its contract by the value a round's review gives each choice
    /// ([`Config::choose_by_value`]; docs/bots.md has how it measured).
    #[must_use]
    pub const fn at_level(self, level: Level) -> Self {
        match level {
            Level::Easy => Self {
                playouts: if self.playouts < Self::EASY_PLAYOUTS {
                    self.playouts
                } else {
                    Self::EASY_PLAYOUTS
                },
                solve_at_most: 0,
                ..self
            },
            Level::Normal => self,
            Level::Strong => Self {
                playouts: self.playouts.saturating_mul(Self::STRONG_PLAYOUT_FACTOR),
                infer_choice: true,
                informed_playouts: true,
                solve_at_most: Self::STRONG_SOLVE_AT_MOST,
                solve_deals: Self::STRONG_SOLVE_DEALS,
                solve_nodes: Self::STRONG_SOLVE_NODES,
                infer_play: Self::STRONG_INFER_PLAY,
                choose_by_value: true,
                ..self
            },
        }
    }

    /// A level's settings on top of [`Config::default`].
    #[must_use]
    pub fn for_level(level: Level) -> Self {
        Self::default().at_level(level)
    }
}
