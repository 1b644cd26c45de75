//! Matches between card players on duplicate deals: the measuring stick of the
//! strength ladder (issue 17 points 4 and 5; protocol in `/work/shared/BOTS.md`).
//!
//! Every player decides from its seat's [`SeatView`](jass_engine::SeatView) only: the
//! [`Player`] trait is handed a view and never the game, so no player can see a card
//! its seat could not (an all-seeing player would be the documented exception; there
//! is none yet).
//!
//! Each deal is dealt with the engine's provable shuffle from a seed derived from
//! (master seed, deal number) ([`deal_seed`]) and played twice with the same cards at
//! the same seats: pair A at seats 0/2, then at 1/3. The contract is chosen by one
//! common chooser for both pairs (`jass_ai::Computer`'s contract choice, seeded by
//! deal and seat, so both runs of a deal have the same contract): only card play
//! differs. The headline figure counts card points only (157 a round: no Weis, Stöck,
//! match bonus or multipliers, [`card_points_options`]), as the published work does,
//! so it can be set beside its figures: per deal D = A's points over both runs − 157,
//! reported as mean, standard error, 95 % interval and A's share ([`Summary`]).
//!
//! Deals are shared among threads; every random choice comes from (master seed, deal,
//! seat), so the figures are the same for any `--threads`.
//!
//! ```text
//! cargo run --release -p jass-arena -- --a rules --b random --deals 2000
//! cargo run --release -p jass-arena -- --a computer --b random --deals 500 --playouts 2000
//! cargo run --release -p jass-arena -- --a computer --b rules --deals 1000 --seed 17 --threads 2
//! ```
//!
//! Players: `random` (a uniformly random legal card), `rules` ([`Rules`], a simple
//! rule-based player), `computer` (`jass_ai::Computer` at `--playouts` per decision,
//! without a time budget so that it reproduces).

mod duplicate;
mod players;
mod rules;
mod stats;

pub use duplicate::{
    DealResult, Match, ROUND_POINTS, Run, card_points_options, deal_seed, play_deal, play_match, play_run,
    player_seed,
};
pub use players::{Kind, Player};
pub use rules::Rules;
pub use stats::Summary;
