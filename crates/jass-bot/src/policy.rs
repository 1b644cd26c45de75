//! What the bot does with a view: a pure function from the latest `state` to at most
//! one message, so it can be tested against the engine without a server.
//!
//! The bot never computes rules itself: it only picks among what `view.game.allowed`
//! offers, which is exactly what protocol.md tells every client to do.

use jass_engine::{CardSet, Contract, Options, Phase, SeatView};
use jass_protocol::{ClientMsg, TableView};
use rand::seq::IndexedRandom;
use rand::{Rng, RngExt};

/// How the bot plays its seat.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Chance of pushing (schiebe) when allowed, so both push paths get exercised.
    pub schiebe: f64,
    /// Claim the win ("bedanke") as soon as the own team has reached the target; off by
    /// default because a bedanke ends the game for everybody.
    pub bedanke: bool,
    /// Vote for a rematch when the game is over (the load bench keeps tables busy).
    pub rematch: bool,
    /// As host, send `start` once all four seats are taken and connected.
    pub start: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Self { schiebe: 0.3, bedanke: false, rematch: false, start: true }
    }
}

/// Whether the bot's team has reached the target (the one condition of a right
/// bedanke, R10); `totals` already include everything credited so far.
#[must_use]
pub fn team_reached_target(game: &SeatView, options: &Options) -> bool {
    game.seat.is_some_and(|s| game.totals[s.team()] >= options.target)
}

/// Everything the seat may declare with its first card: all offered Weis, except that
/// with `small_weis` a card may count only once, so overlapping Weis are dropped
/// (highest points kept).
#[must_use]
pub fn weis_to_declare(game: &SeatView, options: &Options) -> Vec<CardSet> {
    let small = options.small_weis;
    if !small {
        return game.allowed.weis.iter().map(|w| w.cards()).collect();
    }
    let mut offered = game.allowed.weis;
    offered.sort_by_key(|w| std::cmp::Reverse(w.points(small)));
    let mut used = CardSet::EMPTY;
    let mut out = Vec::new();
    for w in offered {
        if (used & w.cards()).is_empty() {
            used = used | w.cards();
            out.push(w.cards());
        }
    }
    out
}

/// Whether the lobby is ready for the host to start: four seated players, each online
/// or a computer (which has no connection).
#[must_use]
pub fn lobby_ready(view: &TableView) -> bool {
    view.seats.iter().all(|s| s.name.is_some() && (s.connected || s.computer))
}

impl Policy {
    /// The message to send for this view, if any. `version` is the state's version,
    /// echoed in game actions so a decision on an outdated view is refused (`stale`)
    /// instead of doing something unintended.
    pub fn decide(&self, version: u64, view: &TableView, rng: &mut impl Rng) -> Option<ClientMsg> {
        let me = view.you?;
        let Some(game) = &view.game else {
            let host = self.start && view.host == me && view.games == 0;
            return (host && lobby_ready(view)).then_some(ClientMsg::Start { id: None });
        };
        let version = Some(version);
        if game.phase == Phase::Over {
            let voted = view.rematch[me];
            return (self.rematch && !voted).then_some(ClientMsg::Rematch { id: None });
        }
        let allowed = &game.allowed;
        if self.bedanke && allowed.bedanke && team_reached_target(game, &view.options) {
            return Some(ClientMsg::Bedanke { version: None, id: None });
        }
        if game.to_act == Some(me) {
            if allowed.schiebe && rng.random_bool(self.schiebe.clamp(0.0, 1.0)) {
                return Some(ClientMsg::Schiebe { version, id: None });
            }
            if allowed.choose {
                let contract = *Contract::ALL.choose(rng)?;
                return Some(ClientMsg::Choose { contract, version, id: None });
            }
            let cards = allowed.cards;
            if !cards.is_empty() {
                let card = cards.nth(rng.random_range(0..cards.len()))?;
                return Some(ClientMsg::Play {
                    card,
                    weis: weis_to_declare(game, &view.options),
                    stoeck: allowed.stoeck,
                    version,
                    id: None,
                });
            }
        }
        // Stöck may be announced out of turn (R7); say it while it is still allowed.
        allowed.stoeck.then_some(ClientMsg::Stoeck { version, id: None })
    }
}

/// The number of cards played in this game so far, as seen in a view: rounds finished
/// × 36 plus the cards gone from the hands this round. It grows by one per accepted
/// card, which lets the load bench tell when a played card has reached a seat even
/// if intermediate states were skipped.
#[must_use]
pub fn cards_played(view: &TableView) -> u64 {
    view.game.as_ref().map_or(0, |g| {
        let left: u64 = g.hand_counts.iter().map(|(_, &n)| u64::from(n)).sum();
        u64::from(g.rounds_played) * 36 + 36u64.saturating_sub(left)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jass_engine::{BySeat, End, Game, Options, Preset, Seat, Seed, Viewer};
    use jass_protocol::SeatInfo;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn table_view(game: &Game, me: Seat) -> TableView {
        let seat = || SeatInfo { name: Some("bot".to_owned()), connected: true, ..SeatInfo::default() };
        TableView {
            table: "t".to_owned(),
            you: Some(me),
            host: Seat::ALL[0],
            seats: [seat(), seat(), seat(), seat()],
            spectators: 0,
            options: *game.options(),
            games: 1,
            rematch: BySeat::default(),
            timing: jass_protocol::Timing::default(),
            clock: None,
            reserve: None,
            game: Some(game.view(Viewer::Seat(me))),
            review_ready: None,
        }
    }

    /// Four policies, each seeing only its own view, play whole games through the
    /// engine: every message they choose must be accepted.
    #[test]
    fn plays_whole_games_with_only_legal_actions() {
        let mut rng = StdRng::seed_from_u64(7);
        for (n, bedanke) in [(0u8, false), (1, true), (2, false), (3, true)] {
            let mut options = Options::preset(Preset::To1000);
            options.target = 400;
            options.small_weis = n == 2;
            // Without bedanke only the automatic end finishes a game (R10).
            if !bedanke {
                options.end = End::Automatic;
            }
            let mut game = Game::new(options, Seed([n; 32])).expect("valid options");
            let policy = Policy { bedanke, ..Policy::default() };
            let mut steps = 0;
            while game.result().is_none() {
                steps += 1;
                assert!(steps < 5000, "game does not end");
                let mut acted = false;
                for me in Seat::ALL {
                    let view = table_view(&game, me);
                    let Some(msg) = policy.decide(1, &view, &mut rng) else { continue };
                    let action = msg.game_action().expect("a game action");
                    let next = Seed([steps as u8; 32]);
                    game.apply(me, action, || next).unwrap_or_else(|e| panic!("{msg:?} refused: {e}"));
                    acted = true;
                    break;
                }
                assert!(acted, "nobody may act but the game is not over");
            }
        }
    }

    #[test]
    fn host_starts_only_when_all_are_seated_and_online() {
        let game = Game::new(Options::default(), Seed([1; 32])).expect("valid options");
        let mut view = table_view(&game, Seat::ALL[0]);
        view.game = None;
        view.games = 0;
        let mut rng = StdRng::seed_from_u64(1);
        let policy = Policy::default();
        assert_eq!(policy.decide(3, &view, &mut rng), Some(ClientMsg::Start { id: None }));
        view.seats[2].connected = false;
        assert_eq!(policy.decide(3, &view, &mut rng), None);
        view.seats[2].connected = true;
        view.you = Some(Seat::ALL[1]);
        assert_eq!(policy.decide(3, &view, &mut rng), None, "not the host");
    }
}
