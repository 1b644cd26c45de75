//! Matches between card players on duplicate deals: the measuring stick of the
//! strength ladder (docs/bots.md, "How strength is measured").
//!
//! Every player decides from its seat's [`SeatView`](jass_engine::SeatView) only: the
//! [`Player`] trait is handed a view and never the game, so no player can see a card
//! its seat could not. The one documented exception is the all-seeing [`Oracle`]
//! (`--a oracle`), a separate case ([`Seated::AllSeeing`]) that the runner hands the
//! game: exact solver on the true deal from `--oracle-solve-at-most` cards left on
//! (default [`ORACLE_SOLVE_AT_MOST`]), random playouts of the true deal before. It is
//! the ceiling of the ladder only with `--oracle-solve-at-most 36`; the command says
//! so when it is not.
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
//! # Seed lists: tuning and claims
//! Master seeds are split into two published lists ([`seeds`](SeedList)): the
//! **tuning** list, master seeds 1..=999 ([`TUNING_SEEDS`], default 17), for trying
//! parameters; and the **claim** list, master seeds 1,000,000..=1,000,999
//! ([`CLAIM_SEEDS`], default 1,000,000), for the figures a claim rests on. A player
//! tuned until it looks good on some deals looks better on those deals than it is; a
//! claim made on deals nobody tuned on does not have that bias. So: tune on `--seeds
//! tuning` (the default), claim only with `--seeds claim`, and run a claim once the
//! player is fixed. The result line names the list; a `--seed` outside both is
//! reported as "custom".
//!
//! ```text
//! cargo run --release -p jass-arena -- --a rules --b random --deals 2000 --seeds claim
//! ```
//!
//! ```text
//! cargo run --release -p jass-arena -- --a rules --b random --deals 2000
//! cargo run --release -p jass-arena -- --a computer --b random --deals 500 --playouts 2000
//! cargo run --release -p jass-arena -- --a computer --b rules --deals 1000 --seed 17 --threads 2
//! ```
//!
//! Players: `random` (a uniformly random legal card), `rules` ([`Rules`], a simple
//! rule-based player), `challenge` ([`Challenge`], pyschieber's challenge player
//! re-implemented: the open rule-based bot the published work measured against),
//! `computer` (`jass_ai::Computer` at `--playouts` per decision,
//! without a time budget so that it reproduces), `mcts` ([`Mcts`], the published
//! reference: JassTheRipper's determinized MCTS, 15 × tricks left determinizations per
//! card, UCT with c = √2 and random rollouts on each; `--mcts-iterations N` UCT
//! iterations per determinization, default 500 and reproducible, or `--mcts-ms M` wall
//! time per card shared by the determinizations, not reproducible).
//!
//! ```text
//! cargo run --release -p jass-arena -- --a mcts --b random --deals 300 --mcts-iterations 500
//! cargo run --release -p jass-arena -- --a computer --b mcts --deals 300 --mcts-ms 100
//! cargo run --release -p jass-arena -- --a challenge --b random --deals 1000 --seeds tuning --threads 1
//! cargo run --release -p jass-arena -- --a mcts --b challenge --deals 1000 --seeds tuning --threads 1
//! ```
//!
//! The budget flags (`--playouts`, `--solve-at-most`, `--solve-deals`,
//! `--mcts-iterations`, `--mcts-ms`, `--oracle-*`) apply to both pairs; a player's own
//! settings after a colon override them for it alone, so two settings of one player
//! can meet (keys `playouts`, `solve`, `deals`, `iterations`, `ms`):
//!
//! ```text
//! cargo run --release -p jass-arena -- --a strong:playouts=10000 --b strong --deals 1000
//! cargo run --release -p jass-arena -- --a strong --b mcts:ms=40 --deals 1000 --seeds claim
//! ```
//!
//! The pilots that set the arena up, the checks of the two references against the
//! published figures and the ladder they stand on are in docs/bots.md ("The ladder").
//!
//! # The separate runs: contract choice and full rules
//! `--contracts own` keeps card points only but lets each pair choose its own
//! contracts ([`Contracts::Own`]: `computer` and `strong` with their own computer, the
//! others with the table computer seeded for their pair), so contract choice counts
//! too; the two runs of a deal may then have different contracts.
//!
//! `--full-rules --games N` plays whole games to 1000 under the swisslos preset
//! ([`full_rules_options`]: Weis, Stöck, match bonus, multipliers 1 1 2 2 3 3,
//! bedanken) on duplicate deal sequences: round `r` of game `g` is dealt from
//! [`round_seed`] (master seed, `g`, `r`), and each game is played twice with the
//! teams swapped. Every seat decides for itself: `computer` and `strong` everything;
//! the others play their own cards and take the table computer's contract, Weis,
//! Stöck and bedanke (see `full`'s docs). It reports A's points per round minus B's
//! ([`PairedGame::d`]) and the share of games A won ([`PairedGame::a_wins`]), each
//! with its standard error and 95 % interval over the paired games ([`Estimate`]).
//!
//! ```text
//! cargo run --release -p jass-arena -- --a computer --b rules --deals 1000 --contracts own
//! cargo run --release -p jass-arena -- --full-rules --games 200 --a computer --b rules
//! cargo run --release -p jass-arena -- --a oracle --b computer --deals 200 --oracle-solve-at-most 28
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod challenge;
mod duplicate;
mod full;
mod mcts;
mod oracle;
mod player;
mod players;
mod rules;
mod seeds;
mod stats;
mod think;

pub use challenge::Challenge;
pub use duplicate::{
    Contracts, DealResult, Match, Run, card_points_options, deal_seed, play_deal, play_match, play_run,
    player_seed,
};
pub use full::{
    FULL_RULES_TARGET, FullMatch, GamePlay, PairedGame, full_rules_options, play_full_match, play_game,
    play_paired_game, round_seed,
};
pub use mcts::{Budget, DETERMINIZATIONS_PER_TRICK, Mcts};
pub use oracle::{ORACLE_PLAYOUTS, ORACLE_SOLVE_AT_MOST, Oracle};
pub use player::{Player, ROUND_POINTS};
pub use players::{Kind, MCTS_DEFAULT_ITERATIONS, STRONG_SOLVE_AT_MOST, STRONG_SOLVE_KNODES, Seated, Strong};
pub use rules::Rules;
pub use seeds::{CLAIM_SEED, CLAIM_SEEDS, SeedList, TUNING_SEED, TUNING_SEEDS, choose_seed};
pub use stats::{Estimate, Summary};
pub use think::{DECISION_BUDGET, Think};
