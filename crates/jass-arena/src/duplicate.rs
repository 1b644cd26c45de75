//! Duplicate deals (docs/bots.md, "Duplicate deals"): deal `i` of a match is dealt by
//! the engine's provable shuffle from a seed derived from (master seed, `i`), and
//! played twice with the same cards at the same seats, pair A at seats 0 and 2 in the
//! first run and at seats 1 and 3 in the second. The luck of the cards cancels: per
//! deal, D = A's card points over both runs − 157.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use jass_ai::{Computer, Config};
use jass_engine::{
    Action, ByTeam, CardSet, Contract, FirstRound, Game, Options, Phase, Preset, Seat, Seed, Team, Viewer,
};
use sha2::{Digest, Sha256};

use crate::player::ROUND_POINTS;
use crate::players::{Kind, Seated};
use crate::think::Think;

/// One match: who plays, on which deals, and the common contract chooser's budget.
#[derive(Copy, Clone, Debug)]
pub struct Match {
    /// Pair A.
    pub a: Kind,
    /// Pair B.
    pub b: Kind,
    /// Master seed: with the deal number it fixes every card and every random choice.
    pub seed: u64,
    /// Number of deals (each played twice).
    pub deals: u32,
    /// Worker threads; the results do not depend on it.
    pub threads: usize,
    /// Playouts of the common contract chooser per decision.
    pub contract_playouts: u32,
    /// Who chooses the contracts.
    pub contracts: Contracts,
}

/// Who chooses the contracts of a card-points match.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub enum Contracts {
    /// One common chooser for both pairs (the table computer at `contract_playouts`,
    /// seeded by deal and seat): both runs of a deal have the same contract, and the
    /// match measures card play alone (the headline figure).
    #[default]
    Common,
    /// Each pair chooses its own (the separate run for contract choice): `computer` and
    /// `strong` with their own `jass_ai::Computer`, the others with the table computer
    /// at `contract_playouts` seeded for their pair. The match measures contract choice
    /// and card play together.
    Own,
}

/// The table options of the headline figure: card points only, as the published work
/// (docs/bots.md, "The published anchors"): one round (`fixed_rounds`: no Weis, no
/// Stöck, no match bonus, R10), every multiplier 1 (preset `to_1000`, R11), and a
/// random first dealer so the forehand does not depend on who holds H7 (R2).
#[must_use]
pub fn card_points_options() -> Options {
    Options { fixed_rounds: Some(1), first_round: FirstRound::Random, ..Options::preset(Preset::To1000) }
}

/// The seed of deal `deal` of the list `master`: SHA-256 of a label, the master seed
/// and the deal number (little-endian), so every deal of every published list can be
/// re-dealt by anyone with the engine's shuffle (R12) and no two (master, deal) pairs
/// share a seed by construction of the input.
#[must_use]
pub fn deal_seed(master: u64, deal: u32) -> Seed {
    let mut h = Sha256::new();
    h.update(b"jass-arena deal v1");
    h.update(master.to_le_bytes());
    h.update(deal.to_le_bytes());
    Seed(h.finalize().into())
}

/// The seed of a player's (or the chooser's) random numbers, from (master, deal, seat)
/// and a role, so runs reproduce (docs/bots.md, "Duplicate deals") whatever thread
/// plays the deal. Roles: 0 the common chooser (the same in both runs, so the same
/// contract), 1 a player of pair A, 2 of pair B. The pair is in the seed so that two
/// equal players do not replay each other's run move for move: that would make D
/// exactly 0 in self-play and hide any bias of the arena itself from the
/// random-vs-random check.
#[must_use]
pub fn player_seed(master: u64, deal: u32, seat: Seat, role: u8) -> u64 {
    let mut h = Sha256::new();
    h.update(b"jass-arena player v1");
    h.update(master.to_le_bytes());
    h.update(deal.to_le_bytes());
    h.update([seat.index() as u8, role]);
    let d = h.finalize();
    let mut b = [0u8; 8];
    b.copy_from_slice(d.get(..8).unwrap_or(&[0; 8]));
    u64::from_le_bytes(b)
}

/// One run of a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The hands as dealt, by seat.
    pub hands: [CardSet; 4],
    /// The team pair A sits as.
    pub a_team: Team,
    /// The forehand and the contract the common chooser took.
    pub forehand: Seat,
    /// The contract.
    pub contract: Contract,
    /// Card points per team (with the last-trick 5).
    pub card_points: [u32; 2],
    /// Wall time each pair (A, B) spent on its cards; not part of the result, and
    /// not reproducible.
    pub think: [Think; 2],
}

impl Run {
    /// Pair A's card points.
    #[must_use]
    pub fn a_points(&self) -> u32 {
        ByTeam(self.card_points)[self.a_team]
    }
}

/// Both runs of one deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealResult {
    /// The deal number.
    pub deal: u32,
    /// A at seats 0/2, then A at seats 1/3.
    pub runs: [Run; 2],
}

impl DealResult {
    /// D = A's points over both runs − 157.
    #[must_use]
    pub fn d(&self) -> i64 {
        i64::from(self.runs[0].a_points() + self.runs[1].a_points()) - i64::from(ROUND_POINTS)
    }
}

/// Plays deal `deal` once with pair A as `a_team`.
///
/// # Errors
/// When a player has no card or the engine refuses an action (a bug, reported with
/// the deal so it can be replayed).
pub fn play_run(m: &Match, deal: u32, a_team: Team) -> Result<Run, String> {
    let options = card_points_options();
    let seed = deal_seed(m.seed, deal);
    let mut game = Game::new(options, seed).map_err(|e| e.to_string())?;
    let hands = Seat::ALL.map(|s| game.hand(s));
    // The common chooser is the same in both runs: seeded by seat only, it sees the
    // same views (no card is down while choosing), so it picks the same contract.
    let mut chooser: Vec<Computer> = Seat::ALL
        .iter()
        .map(|&s| {
            let (kind, role) = if s.team() == a_team { (m.a, 1) } else { (m.b, 2) };
            let own = m.contracts == Contracts::Own;
            let seed = player_seed(m.seed, deal, s, if own { role } else { 0 });
            let config =
                Config { playouts: m.contract_playouts, time_budget: None, seed, ..Config::default() };
            own.then(|| kind.computer(s, options, seed))
                .flatten()
                .unwrap_or_else(|| Computer::new(s, options, config))
        })
        .collect();
    let mut players: Vec<Seated> = Seat::ALL
        .iter()
        .map(|&s| {
            let kind = if s.team() == a_team { m.a } else { m.b };
            let role = if s.team() == a_team { 1 } else { 2 };
            kind.build(s, options, player_seed(m.seed, deal, s, role))
        })
        .collect();
    let mut think = [Think::default(); 2];
    let fail = |what: &str| format!("deal {deal}, A as team {}: {what}", a_team.index());
    while game.result().is_none() {
        let seat = game.to_act().ok_or_else(|| fail("nobody to act"))?;
        let view = game.view(Viewer::Seat(seat));
        let action = match view.phase {
            Phase::Choosing => chooser
                .get_mut(seat.index())
                .and_then(|c| c.decide(&view))
                .ok_or_else(|| fail("the chooser did not choose"))?,
            Phase::Playing => {
                let start = Instant::now();
                let card = players
                    .get_mut(seat.index())
                    .and_then(|p| p.card(&game, &view))
                    .ok_or_else(|| fail("a player had no card"))?;
                let side = usize::from(seat.team() != a_team);
                if let Some(t) = think.get_mut(side) {
                    t.add(start.elapsed());
                }
                Action::play(card)
            }
            Phase::Over => break,
        };
        game.apply(seat, action, || Seed([0; 32])).map_err(|e| fail(&e.to_string()))?;
    }
    let summary = game.history().first().ok_or_else(|| fail("no round was scored"))?;
    Ok(Run {
        hands,
        a_team,
        forehand: summary.forehand,
        contract: summary.contract.ok_or_else(|| fail("no contract"))?,
        card_points: summary.card_points.into_inner(),
        think,
    })
}

/// Both runs of deal `deal`.
///
/// # Errors
/// As [`play_run`].
pub fn play_deal(m: &Match, deal: u32) -> Result<DealResult, String> {
    Ok(DealResult { deal, runs: [play_run(m, deal, Team::ALL[0])?, play_run(m, deal, Team::ALL[1])?] })
}

/// Every deal of the match, in deal order. Threads take the next unplayed deal; as each
/// deal depends only on (master seed, deal), the result is the same for any number of
/// threads.
///
/// # Errors
/// The first failed deal (by deal number).
pub fn play_match(m: &Match) -> Result<Vec<DealResult>, String> {
    in_parallel(m.deals, m.threads, |deal| play_deal(m, deal))
}

/// `f(0)`, …, `f(n − 1)` on `threads` threads, each taking the next number not yet
/// taken; the results in order, or the first error by number.
pub(crate) fn in_parallel<T: Send>(
    n: u32,
    threads: usize,
    f: impl Fn(u32) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let next = AtomicU32::new(0);
    let threads = threads.clamp(1, n.max(1) as usize);
    let mut all: Vec<(u32, Result<T, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break out;
                        }
                        out.push((i, f(i)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|_| vec![(0, Err("a worker panicked".to_owned()))]))
            .collect()
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
