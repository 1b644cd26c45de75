//! The card players of a match, behind one trait that is handed a [`SeatView`] and
//! nothing else: a player cannot see a card its seat could not see, because the arena
//! never gives it the game (as `jass_ai::Computer`). The one
//! exception, the all-seeing [`Oracle`], is a separate [`Seated`] case that the
//! runner hands the game.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use jass_ai::{Computer, Config};
use jass_engine::{Action, Card, Game, Options, Seat, SeatView};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::challenge::Challenge;
use crate::mcts::{Budget, Mcts};
use crate::oracle::{ORACLE_PLAYOUTS, ORACLE_SOLVE_AT_MOST, Oracle};
use crate::player::Player;
use crate::rules::Rules;

/// The settings of the `strong` player.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Strong {
    /// Playouts per decision before the solver takes over.
    pub playouts: u32,
    /// Cards left in the hands (all four) from which on deals are solved.
    pub solve_at_most: u32,
    /// Deals solved per decision.
    pub solve_deals: u32,
    /// Solver nodes per decision in thousands, at most (0: no cap).
    pub solve_knodes: u32,
    /// Wall time per decision in ms, checked between sampled deals as at the
    /// table (0: none, so the play reproduces; with a budget it does not).
    pub budget_ms: u32,
    /// Weigh sampled deals by what the contract choice says of the hands
    /// (`jass_ai::Config::infer_choice`).
    pub infer: bool,
    /// Play deals out by a sensible policy (`jass_ai::Config::informed_playouts`).
    pub informed: bool,
    /// Weigh sampled deals by the cards the opponents played, in 256ths a miss
    /// (`jass_ai::Config::infer_play`; 0: off).
    pub play: u32,
    /// Playouts in which a seat sees the later hands (`jass_ai::Config::open_playouts`).
    pub open: bool,
    /// Choose contracts by the round review's value of each choice
    /// (`jass_ai::Config::choose_by_value`).
    pub choose: bool,
}

impl Strong {
    /// The table's strong level ([`jass_ai::Level::Strong`]), so the arena measures
    /// what hosts get.
    #[must_use]
    pub fn level() -> Self {
        let level = Config::for_level(jass_ai::Level::Strong);
        Self {
            playouts: level.playouts,
            solve_at_most: level.solve_at_most,
            solve_deals: level.solve_deals,
            solve_knodes: STRONG_SOLVE_KNODES,
            budget_ms: 0,
            infer: level.infer_choice,
            informed: level.informed_playouts,
            play: level.infer_play,
            open: level.open_playouts,
            choose: level.choose_by_value,
        }
    }
}

/// The players the command line offers.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Kind {
    /// A uniformly random legal card: the floor of the ladder.
    Random,
    /// The rule-based player of [`Rules`]: what a beginner's rules of thumb reach.
    Rules,
    /// pyschieber's challenge player re-implemented ([`Challenge`]): the open
    /// rule-based bot the published work compared against.
    Challenge,
    /// `jass_ai::Computer` at a fixed playout budget (no time budget, so reproducible).
    Computer {
        /// Playouts per decision.
        playouts: u32,
    },
    /// The computer that solves each sampled deal exactly once at most `solve_at_most`
    /// cards are left in the hands, and plays out before (docs/bots.md).
    Strong(Strong),
    /// The published reference: JassTheRipper's determinized MCTS ([`Mcts`]).
    Mcts {
        /// Iterations per determinization, or wall time per card.
        budget: Budget,
    },
    /// The all-seeing player ([`Oracle`]): the only kind that sees hidden cards, handed
    /// the game rather than a view. The ceiling only with `solve_at_most` = 36.
    Oracle {
        /// Cards left (all four hands) from which on it solves the true deal exactly.
        solve_at_most: u32,
        /// Random playouts of the true deal per decision before that.
        playouts: u32,
    },
}

/// A seated card player: one that decides from its seat's view, or the all-seeing one
/// that the runner hands the game (kept apart so that seeing everything is explicit).
pub enum Seated {
    /// Decides from the seat's view only.
    Blind(Box<dyn Player>),
    /// Sees every hand ([`Oracle`]).
    AllSeeing(Oracle),
}

impl Seated {
    /// The card to play now in `game` for this seat, whose view is `view`.
    pub fn card(&mut self, game: &Game, view: &SeatView) -> Option<Card> {
        match self {
            Self::Blind(p) => p.card(view),
            Self::AllSeeing(o) => o.card(game),
        }
    }
}

/// The reference player's default budget: UCT iterations per determinization (the
/// command line sets it with `--mcts-iterations` or `--mcts-ms`).
pub const MCTS_DEFAULT_ITERATIONS: u32 = 500;

impl Kind {
    /// A player of this kind for `seat`, with its random numbers from `seed` (the
    /// arena derives it from the master seed, the deal and the seat).
    #[must_use]
    pub fn build(self, seat: Seat, options: Options, seed: u64) -> Seated {
        match self {
            Self::Oracle { solve_at_most, playouts } => {
                Seated::AllSeeing(Oracle::new(seat, options, solve_at_most, playouts, seed))
            }
            blind => Seated::Blind(blind.build_blind(seat, options, seed)),
        }
    }

    /// The `jass_ai::Computer` of a `computer` or `strong` player (`None` for the
    /// others): under full rules it makes every decision of its seat.
    #[must_use]
    pub fn computer(self, seat: Seat, options: Options, seed: u64) -> Option<Computer> {
        let config = match self {
            Self::Computer { playouts } => Config { playouts, time_budget: None, seed, ..Config::default() },
            Self::Strong(s) => Config {
                playouts: s.playouts,
                time_budget: (s.budget_ms > 0).then(|| Duration::from_millis(u64::from(s.budget_ms))),
                seed,
                solve_at_most: s.solve_at_most,
                solve_deals: s.solve_deals,
                solve_nodes: u64::from(s.solve_knodes) * 1000,
                infer_choice: s.infer,
                informed_playouts: s.informed,
                infer_play: s.play,
                open_playouts: s.open,
                choose_by_value: s.choose,
                ..Config::default()
            },
            _ => return None,
        };
        Some(Computer::new(seat, options, config))
    }

    fn build_blind(self, seat: Seat, options: Options, seed: u64) -> Box<dyn Player> {
        match self {
            Self::Random | Self::Oracle { .. } => {
                Box::new(RandomPlayer(Xoshiro256PlusPlus::seed_from_u64(seed)))
            }
            Self::Rules => Box::new(Rules::new(seat)),
            Self::Challenge => Box::new(Challenge::new(seat, seed)),
            Self::Computer { .. } | Self::Strong(_) => match self.computer(seat, options, seed) {
                Some(c) => Box::new(ComputerPlayer(c)),
                None => Box::new(RandomPlayer(Xoshiro256PlusPlus::seed_from_u64(seed))),
            },
            Self::Mcts { budget } => Box::new(Mcts::new(seat, options, budget, seed)),
        }
    }

    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Rules => "rules",
            Self::Challenge => "challenge",
            Self::Computer { .. } => "computer",
            Self::Strong(_) => "strong",
            Self::Mcts { .. } => "mcts",
            Self::Oracle { .. } => "oracle",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Computer { playouts } => write!(f, "computer({playouts} playouts)"),
            Self::Strong(s) => {
                write!(
                    f,
                    "strong({} playouts, {} deals solved from {} cards",
                    s.playouts, s.solve_deals, s.solve_at_most
                )?;
                if s.solve_knodes > 0 {
                    write!(f, ", at most {}k nodes", s.solve_knodes)?;
                }
                if s.budget_ms > 0 {
                    write!(f, ", at most {} ms a decision", s.budget_ms)?;
                }
                if s.infer {
                    f.write_str(", deals weighed by the contract choice")?;
                }
                if s.informed {
                    f.write_str(", informed playouts")?;
                }
                if s.open {
                    f.write_str(" seeing the later hands")?;
                }
                if s.choose {
                    f.write_str(", contracts by the review's value")?;
                }
                if s.play > 0 {
                    write!(f, ", deals weighed by the opponents' cards ({}/256 a miss)", s.play)?;
                }
                f.write_str(")")
            }
            Self::Mcts { budget: Budget::Iterations(n) } => write!(f, "mcts({n} iterations)"),
            Self::Mcts { budget: Budget::Millis(ms) } => write!(f, "mcts({ms} ms)"),
            Self::Oracle { solve_at_most, .. } if *solve_at_most >= 36 => f.write_str("oracle(exact)"),
            Self::Oracle { solve_at_most, playouts } => {
                write!(f, "oracle(exact from {solve_at_most} cards, {playouts} open playouts before)")
            }
            other => f.write_str(other.name()),
        }
    }
}

/// Parses the name alone; `computer` and `mcts` get their default budgets (the
/// command line sets the real ones with `--playouts`, `--mcts-iterations`, `--mcts-ms`).
impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(Self::Random),
            "rules" => Ok(Self::Rules),
            "challenge" => Ok(Self::Challenge),
            "computer" => Ok(Self::Computer { playouts: Config::default().playouts }),
            "strong" => Ok(Self::Strong(Strong::level())),
            "mcts" => Ok(Self::Mcts { budget: Budget::Iterations(MCTS_DEFAULT_ITERATIONS) }),
            "oracle" => Ok(Self::Oracle { solve_at_most: ORACLE_SOLVE_AT_MOST, playouts: ORACLE_PLAYOUTS }),
            other => Err(format!(
                "unknown player {other:?}; players: random, rules, computer, strong, mcts, oracle, challenge"
            )),
        }
    }
}

/// Where the `strong` player starts solving by default: the table's strong level
/// ([`jass_ai::Level::Strong`]), so the arena measures what hosts get.
pub const STRONG_SOLVE_AT_MOST: u32 = Config::STRONG_SOLVE_AT_MOST;

/// The strong level's node cap per decision, in thousands.
#[allow(clippy::cast_possible_truncation)]
pub const STRONG_SOLVE_KNODES: u32 = (Config::STRONG_SOLVE_NODES / 1000) as u32;

/// A random legal card.
struct RandomPlayer(Xoshiro256PlusPlus);

impl Player for RandomPlayer {
    fn card(&mut self, view: &SeatView) -> Option<Card> {
        let legal = view.allowed.cards;
        if legal.is_empty() {
            return None;
        }
        legal.nth(self.0.random_range(0..legal.len()))
    }
}

/// The computer's card choice; Weis and Stöck it would declare are dropped, as the
/// arena plays without them.
struct ComputerPlayer(Computer);

impl Player for ComputerPlayer {
    fn card(&mut self, view: &SeatView) -> Option<Card> {
        match self.0.decide(view)? {
            Action::Play { card, .. } => Some(card),
            _ => None,
        }
    }
}
