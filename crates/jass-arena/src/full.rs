//! The full-rules run (docs/bots.md, "Full rules and each pair's own contracts"): with
//! full rules and the swisslos preset it reports points per round and the win rate of
//! games to 1000 on duplicate deal sequences.
//!
//! Game `g` of a match is a whole game under the swisslos preset with the target at
//! 1000 ([`full_rules_options`]: multipliers 1 1 2 2 3 3, Weis, Stöck, match bonus,
//! bedanken, R8–R11). Its round `r` is dealt from [`round_seed`] (master seed, `g`,
//! `r`), so both plays of the game get the same sequence of deals, round by round;
//! the game is played twice, pair A at seats 0/2 and then at 1/3. How many rounds a
//! play lasts depends on the play, so the second play may use more or fewer deals of
//! the sequence than the first; round `r` is the same deal in both.
//!
//! Every seat makes its own decisions. `computer` and `strong` are `jass_ai::Computer`
//! and decide everything from the view (contract and push, Weis, Stöck, bedanke). The
//! others play their own cards and leave the rest to the table's computer, so that a
//! comparison is their card play plus a common, sensible rest: the contract (or push)
//! is `jass_ai::Computer`'s at `--contract-playouts`; the Weis declared are the
//! computer's (all it may declare); Stöck is announced with the second of trump king
//! and queen (R7), or earlier when the computer would (when it decides the game);
//! bedanke as the computer says it (as soon as its team has reached the target).
//!
//! Figures per paired game: A's points per round minus B's, averaged over the two
//! plays ([`PairedGame::d`]), and the share of the two plays A won ([`PairedGame::a_wins`]);
//! the match reports both means with their standard error and 95 % interval over the
//! paired games.

use std::time::Instant;

use jass_ai::{Computer, Config};
use jass_engine::{
    Action, ByTeam, Card, CardSet, Game, Options, Phase, Preset, Rank, Seat, Seed, Team, Viewer,
};
use sha2::{Digest, Sha256};

use crate::duplicate::{in_parallel, player_seed};
use crate::players::{Kind, Seated};
use crate::think::Think;

/// The game target of the full-rules run ("games to 1000").
pub const FULL_RULES_TARGET: u32 = 1000;

/// A play that has not ended after this many rounds is reported as failed (a game to
/// 1000 lasts about six to ten rounds).
const MAX_ROUNDS: usize = 200;

/// The swisslos preset (R11) with the target at 1000: everything else as the preset
/// has it.
#[must_use]
pub fn full_rules_options() -> Options {
    Options { target: FULL_RULES_TARGET, ..Options::preset(Preset::Swisslos) }
}

/// The seed of round `round` of game `game` of the match with master seed `master`:
/// SHA-256 of a label and the three numbers, as [`deal_seed`](crate::deal_seed).
#[must_use]
pub fn round_seed(master: u64, game: u32, round: u32) -> Seed {
    let mut h = Sha256::new();
    h.update(b"jass-arena full-rules round v1");
    h.update(master.to_le_bytes());
    h.update(game.to_le_bytes());
    h.update(round.to_le_bytes());
    Seed(h.finalize().into())
}

/// A full-rules match.
#[derive(Copy, Clone, Debug)]
pub struct FullMatch {
    /// Pair A.
    pub a: Kind,
    /// Pair B.
    pub b: Kind,
    /// Master seed.
    pub seed: u64,
    /// Games (each played twice).
    pub games: u32,
    /// Worker threads; the results do not depend on it.
    pub threads: usize,
    /// Playouts of the table computer's contract choice for the players that do not
    /// choose their own.
    pub contract_playouts: u32,
}

/// One play of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlay {
    /// The hands of the first round, by seat.
    pub first_hands: [CardSet; 4],
    /// The team pair A sits as.
    pub a_team: Team,
    /// Rounds with a contract (one cut short by bedanke included).
    pub rounds: u32,
    /// Final totals per team.
    pub totals: [u32; 2],
    /// The winner.
    pub winner: Option<Team>,
    /// Wall time each pair (A, B) spent on its cards; not part of the result, and
    /// not reproducible.
    pub think: [Think; 2],
}

impl GamePlay {
    /// A's points per round minus B's.
    #[must_use]
    pub fn d_per_round(&self) -> f64 {
        let totals = ByTeam(self.totals);
        let a = f64::from(totals[self.a_team]);
        let b = f64::from(totals[self.a_team.other()]);
        (a - b) / f64::from(self.rounds.max(1))
    }

    /// Pair A's points per round.
    #[must_use]
    pub fn a_per_round(&self) -> f64 {
        f64::from(ByTeam(self.totals)[self.a_team]) / f64::from(self.rounds.max(1))
    }

    /// Whether pair A won.
    #[must_use]
    pub fn a_won(&self) -> bool {
        self.winner == Some(self.a_team)
    }
}

/// Both plays of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedGame {
    /// The game number.
    pub game: u32,
    /// A at seats 0/2, then at seats 1/3.
    pub plays: [GamePlay; 2],
}

impl PairedGame {
    /// A's points per round minus B's, the mean of the two plays.
    #[must_use]
    pub fn d(&self) -> f64 {
        (self.plays[0].d_per_round() + self.plays[1].d_per_round()) / 2.0
    }

    /// The share of the two plays A won: 0, ½ or 1.
    #[must_use]
    pub fn a_wins(&self) -> f64 {
        f64::from(u8::from(self.plays[0].a_won()) + u8::from(self.plays[1].a_won())) / 2.0
    }
}

/// A seat of a full-rules game: who plays its cards and who makes its other decisions.
struct FullSeat {
    /// The card player; `None` when the decider plays the cards too (`computer`,
    /// `strong`).
    cards: Option<Seated>,
    /// Contract, push, Stöck and bedanke; with `cards` `None`, the cards too.
    decider: Computer,
    /// For a seat with its own card player: the table computer at one playout, asked
    /// at the seat's turn for its Weis and whether to say Stöck or bedanke now (its
    /// card is dropped). Cheap where the decider's own search would not be.
    table: Option<Computer>,
}

impl FullSeat {
    fn new(kind: Kind, seat: Seat, options: Options, seed: u64, contract_playouts: u32) -> Self {
        if let Some(decider) = kind.computer(seat, options, seed) {
            return Self { cards: None, decider, table: None };
        }
        let config = |playouts, seed| Config { playouts, time_budget: None, seed, ..Config::default() };
        Self {
            cards: Some(kind.build(seat, options, seed)),
            decider: Computer::new(seat, options, config(contract_playouts, seed ^ 0x5eed_c0de)),
            table: Some(Computer::new(seat, options, config(1, seed ^ 0x7ab1e))),
        }
    }

    /// What the seat does when it is to act.
    fn act(&mut self, game: &Game, seat: Seat) -> Option<Action> {
        let view = game.view(Viewer::Seat(seat));
        let (Some(cards), Some(table), Phase::Playing) = (&mut self.cards, &mut self.table, view.phase)
        else {
            return self.decider.decide(&view);
        };
        let (weis, _) = match table.decide(&view)? {
            Action::Play { weis, stoeck, .. } => (weis, stoeck),
            other => return Some(other),
        };
        let card = cards.card(game, &view)?;
        Some(Action::Play {
            card,
            weis,
            stoeck: view.allowed.stoeck && completes_stoeck(view.hand, card, game),
        })
    }

    /// What the seat says when it is not to act: Stöck or bedanke, or nothing.
    fn interject(&mut self, game: &Game, seat: Seat) -> Option<Action> {
        let view = game.view(Viewer::Seat(seat));
        if !(view.allowed.stoeck || view.allowed.bedanke && view.totals[seat.team()] >= game.options().target)
        {
            return None;
        }
        self.table.as_mut().unwrap_or(&mut self.decider).decide(&view)
    }
}

/// Whether `card` is the second of trump king and queen to leave `hand` (R7: Stöck
/// must be announced at the latest with it).
fn completes_stoeck(hand: CardSet, card: Card, game: &Game) -> bool {
    game.contract().and_then(|k| k.trump()).is_some_and(|t| {
        let kq = CardSet::single(Card::new(t, Rank::King)).with(Card::new(t, Rank::Queen));
        kq.contains(card) && (hand.without(card) & kq).is_empty()
    })
}

/// Plays game `g` once with pair A as `a_team`.
///
/// # Errors
/// When a seat has no action, the engine refuses one, or the game does not end (a
/// bug, reported with the game so it can be replayed).
pub fn play_game(m: &FullMatch, g: u32, a_team: Team) -> Result<GamePlay, String> {
    let options = full_rules_options();
    let fail = |what: &str| format!("game {g}, A as team {}: {what}", a_team.index());
    let mut game = Game::new(options, round_seed(m.seed, g, 0)).map_err(|e| e.to_string())?;
    let first_hands = Seat::ALL.map(|s| game.hand(s));
    let mut seats: Vec<FullSeat> = Seat::ALL
        .iter()
        .map(|&s| {
            let (kind, role) = if s.team() == a_team { (m.a, 1) } else { (m.b, 2) };
            FullSeat::new(kind, s, options, player_seed(m.seed, g, s, role), m.contract_playouts)
        })
        .collect();
    let mut think = [Think::default(); 2];
    while game.result().is_none() {
        if game.history().len() > MAX_ROUNDS {
            return Err(fail("the game did not end"));
        }
        let to_act = game.to_act().ok_or_else(|| fail("nobody to act"))?;
        // The other seats may say Stöck or bedanke first (R7, R10), in seat order.
        let said = Seat::ALL
            .into_iter()
            .filter(|&s| s != to_act)
            .find_map(|s| seats.get_mut(s.index())?.interject(&game, s).map(|a| (s, a)));
        let (seat, action) = match said {
            Some(said) => said,
            None => {
                let start = Instant::now();
                let playing = game.phase() == Phase::Playing;
                let action = seats
                    .get_mut(to_act.index())
                    .and_then(|p| p.act(&game, to_act))
                    .ok_or_else(|| fail("a seat had no action"))?;
                if playing
                    && matches!(action, Action::Play { .. })
                    && let Some(t) = think.get_mut(usize::from(to_act.team() != a_team))
                {
                    t.add(start.elapsed());
                }
                (to_act, action)
            }
        };
        let next = round_seed(m.seed, g, game.round_number() + 1);
        game.apply(seat, action, || next).map_err(|e| fail(&e.to_string()))?;
    }
    let result = game.result().ok_or_else(|| fail("no result"))?;
    let rounds = game.history().iter().filter(|r| r.contract.is_some()).count();
    Ok(GamePlay {
        first_hands,
        a_team,
        rounds: u32::try_from(rounds).unwrap_or(u32::MAX),
        totals: result.totals.into_inner(),
        winner: result.winner,
        think,
    })
}

/// Both plays of game `g`.
///
/// # Errors
/// As [`play_game`].
pub fn play_paired_game(m: &FullMatch, g: u32) -> Result<PairedGame, String> {
    Ok(PairedGame { game: g, plays: [play_game(m, g, Team::ALL[0])?, play_game(m, g, Team::ALL[1])?] })
}

/// Every game of the match, in game order; the same for any number of threads.
///
/// # Errors
/// The first failed game (by game number).
pub fn play_full_match(m: &FullMatch) -> Result<Vec<PairedGame>, String> {
    in_parallel(m.games, m.threads, |g| play_paired_game(m, g))
}
