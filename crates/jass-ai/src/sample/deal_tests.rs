//! Every sampled deal is consistent with what the seat knows, and the deals are drawn
//! uniformly over the consistent ones.
//!
//! The constraints are computed here independently of [`Memory`], from the game's
//! truth: the cards each seat played and the trick before each play (a deal is
//! consistent when every play was legal from the hand it implies, R5, which covers
//! voids, the Puur exception and undertrumping), the Weis each seat declared
//! (revealed cards, or only their points, R6) and who announced Stöck (R7).

use std::collections::HashMap;

use jass_engine::{
    Action, Card, CardSet, Contract, Game, Options, Rank, Seat, Seed, Trick, Viewer, Weis, WeisKey,
    find_weis, legal_cards,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::Constraints;
use crate::memory::{Memory, minus};

/// A round played with random legal actions (pushes, contracts, cards, random
/// subsets of the allowed Weis, Stöck early, with the card or not at all), with
/// what the test needs to know about it.
struct Table {
    game: Game,
    /// Every card played this round: (seat, card, the trick before it).
    plays: Vec<(Seat, Card, Trick)>,
    memories: [Memory; 4],
}

impl Table {
    fn new(rng: &mut Xoshiro256PlusPlus) -> Result<Self, String> {
        let options = Options {
            small_weis: rng.random_bool(0.3),
            auto_stoeck: rng.random_bool(0.3),
            ..Options::default()
        };
        let game = Game::new(options, Seed(rng.random())).map_err(|e| format!("options: {e}"))?;
        let mut t = Self { game, plays: Vec::new(), memories: Default::default() };
        t.observe();
        Ok(t)
    }

    /// Feeds every seat's memory its own view only.
    fn observe(&mut self) {
        for me in Seat::ALL {
            self.memories[me.index()].observe(&self.game.view(Viewer::Seat(me)));
        }
    }

    fn apply(&mut self, seat: Seat, action: Action) -> bool {
        let ok = self.game.apply(seat, action, || Seed([7; 32])).is_ok();
        self.observe();
        ok
    }

    /// One random action; `false` once the round is over.
    fn step(&mut self, rng: &mut Xoshiro256PlusPlus) -> bool {
        if self.game.round_number() != 0 {
            return false;
        }
        let Some(seat) = self.game.to_act() else { return false };
        let Some(contract) = self.game.contract() else {
            let action = if self.game.can_schiebe(seat) && rng.random_bool(0.3) {
                Action::Schiebe
            } else {
                Action::Choose { contract: Contract::ALL[rng.random_range(0..6)] }
            };
            return self.apply(seat, action);
        };
        for s in Seat::ALL {
            if self.game.can_announce_stoeck(s) && rng.random_bool(0.2) {
                self.apply(s, Action::Stoeck);
            }
        }
        let legal = self.game.legal_cards(seat);
        let Some(card) = legal.nth(rng.random_range(0..legal.len())) else { return false };
        let weis: Vec<CardSet> = self
            .game
            .declarable_weis(seat)
            .iter()
            .filter(|_| rng.random_bool(0.7))
            .map(Weis::cards)
            .collect();
        let kq = contract.trump().map_or(CardSet::EMPTY, stoeck_cards);
        let stoeck = self.game.can_announce_stoeck(seat) && kq.contains(card) && rng.random_bool(0.5);
        let trick = *self.game.trick();
        let ok = self.apply(seat, Action::Play { card, weis: weis.clone(), stoeck })
            || (!weis.is_empty() || stoeck) && self.apply(seat, Action::play(card));
        assert!(ok, "a random legal card was refused");
        self.plays.push((seat, card, trick));
        true
    }

    fn played_by(&self, seat: Seat) -> CardSet {
        self.plays.iter().filter(|p| p.0 == seat).fold(CardSet::EMPTY, |a, p| a.with(p.1))
    }

    fn constraints(&self, me: Seat) -> Option<Constraints> {
        self.constraints_limited(me, super::MAX_COMBINATIONS)
    }

    fn constraints_limited(&self, me: Seat, limit: usize) -> Option<Constraints> {
        let view = self.game.view(Viewer::Seat(me));
        let memory = &self.memories[me.index()];
        Constraints::limited(me, view.hand, view.hand_counts, memory, true, self.small_weis(), limit)
    }

    fn small_weis(&self) -> bool {
        self.game.record().options.small_weis
    }

    /// Whether `hands` breaks a card constraint `me` knows of (the Weis points
    /// aside): `Some(why)`, computed from the game's truth and not from the memory.
    fn card_violation(&self, me: Seat, hands: &[CardSet; 4]) -> Option<String> {
        if hands[me.index()] != self.game.hand(me) {
            return Some("the viewer's own hand changed".into());
        }
        let played = self.plays.iter().fold(CardSet::EMPTY, |a, p| a.with(p.1));
        let mut all = CardSet::EMPTY;
        for s in Seat::ALL {
            let h = hands[s.index()];
            if h.len() != self.game.hand(s).len() {
                return Some(format!("{s:?} holds {} cards", h.len()));
            }
            if !(all & h).is_empty() || !(played & h).is_empty() {
                return Some(format!("{s:?} holds a card played or held elsewhere"));
            }
            all = all | h;
        }
        if all != minus(CardSet::DECK, played) {
            return Some("cards missing".into());
        }
        let contract = self.game.contract()?;
        // Every play was legal from the hand it implies (R5: voids, the Puur, undertrumps).
        for (i, (s, card, trick)) in self.plays.iter().enumerate() {
            let later = self.plays.get(i..).unwrap_or_default();
            let then = later.iter().filter(|p| p.0 == *s).fold(hands[s.index()], |a, p| a.with(p.1));
            if !legal_cards(then, trick, contract).contains(*card) {
                return Some(format!("{s:?} could not have played {card:?} from {then:?} (R5)"));
            }
        }
        let revealed = self.game.weis_result().and_then(|r| r.0);
        for s in Seat::ALL.into_iter().filter(|&s| s != me) {
            let dealt = hands[s.index()] | self.played_by(s);
            if revealed == Some(s.team())
                && !self.game.declared_weis(s).iter().all(|w| dealt.contains_all(w.cards()))
            {
                return Some(format!("{s:?} lacks its revealed Weis (R6)"));
            }
            if self.game.stoeck_announced_by() == Some(s)
                && let Some(t) = contract.trump()
                && !dealt.contains_all(stoeck_cards(t))
            {
                return Some(format!("{s:?} announced Stöck without K and Q (R7)"));
            }
        }
        None
    }

    /// Whether every seat whose Weis `me` knows only by its points could have
    /// declared Weis of exactly those points from the hand `hands` gives it, each
    /// ranking below the winning team's best when the comparison is done (R6).
    fn weis_points_hold(&self, me: Seat, hands: &[CardSet; 4]) -> bool {
        let small = self.small_weis();
        let revealed = self.game.weis_result().and_then(|r| r.0);
        let forehand = self.game.view(Viewer::Seat(me)).forehand;
        let Some(contract) = self.game.contract() else { return true };
        let key = |w: &Weis, s: Seat| WeisKey::new(w, s, forehand, contract, small);
        let best = revealed.and_then(|team| {
            team.seats()
                .into_iter()
                .flat_map(|s| self.game.declared_weis(s).iter().map(move |w| key(w, s)))
                .max()
        });
        Seat::ALL.into_iter().filter(|&s| s != me && revealed != Some(s.team())).all(|s| {
            let points: Vec<u32> = self.game.declared_weis(s).iter().map(|w| w.points(small)).collect();
            let held: Vec<Weis> = find_weis(hands[s.index()] | self.played_by(s), small)
                .into_iter()
                .filter(|w| best.is_none_or(|b| key(w, s) < b))
                .collect();
            declarable(&points, &held, 0, CardSet::EMPTY, small)
        })
    }
}

fn stoeck_cards(trump: jass_engine::Suit) -> CardSet {
    CardSet::single(Card::new(trump, Rank::King)).with(Card::new(trump, Rank::Queen))
}

/// Whether distinct Weis of `held` (those not in `taken`, by index) have exactly
/// the points `points` (with `small_weis`, sharing no card, R6).
fn declarable(points: &[u32], held: &[Weis], taken: u64, used: CardSet, small: bool) -> bool {
    let Some((&p, rest)) = points.split_first() else { return true };
    held.iter().enumerate().any(|(i, w)| {
        taken & (1 << i) == 0
            && w.points(small) == p
            && (!small || (used & w.cards()).is_empty())
            && declarable(rest, held, taken | 1 << i, used | w.cards(), small)
    })
}

/// Random rounds, every seat watching every state: the true deal meets the
/// sampler's constraints, and no sampled deal breaks a constraint computed from the
/// game's truth (hands and counts, cards played, R5 legality of every play, revealed
/// Weis and Stöck), nor a declaration whose cards stayed hidden (R6: the points, and
/// ranking below the winning Weis once the comparison is done), checked by an
/// independent test of the hands; the sampler's own check agrees with it on every
/// sample and on the truth. Before the witnesses, about 6 % of the samples with a
/// hidden declaration broke it (a fallback after 24 redraws).
#[test]
fn no_sampled_deal_breaks_what_the_seat_knows() -> Result<(), String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let (mut samples, mut weis_checked, mut exact, mut voids) = (0u32, 0u32, 0u32, 0u32);
    // Samples where a hidden declarer's team lost the comparison (its Weis rank below).
    let mut beaten = 0u32;
    for _ in 0..150 {
        let mut table = Table::new(&mut rng)?;
        loop {
            if table.game.contract().is_some() {
                let truth = Seat::ALL.map(|s| table.game.hand(s));
                for me in Seat::ALL {
                    if let Some(why) = table.card_violation(me, &truth) {
                        return Err(format!("the test's own constraints reject the truth: {why}"));
                    }
                    if !table.weis_points_hold(me, &truth) {
                        return Err("the test's Weis check rejects the truth".into());
                    }
                    let c = table.constraints(me).ok_or("the true deal is consistent")?;
                    if !c.weis_possible(&truth) {
                        return Err("the sampler's Weis check rejects the truth".into());
                    }
                    voids += u32::from(table.memories[me.index()].cannot_hold.iter().any(|v| !v.is_empty()));
                    for _ in 0..6 {
                        let hands = c.sample(&mut rng).ok_or_else(|| format!("no sample for {me:?}"))?;
                        samples += 1;
                        if let Some(why) = table.card_violation(me, &hands) {
                            return Err(format!("sample {hands:?} for {me:?}: {why}"));
                        }
                        let held = table.weis_points_hold(me, &hands);
                        if held != c.weis_possible(&hands) {
                            return Err(format!("Weis checks disagree on {hands:?} for {me:?}"));
                        }
                        if !held {
                            return Err(format!("sample {hands:?} for {me:?} breaks a hidden Weis (R6)"));
                        }
                        if !c.declared.is_empty() {
                            weis_checked += 1;
                            beaten += u32::from(c.declared.iter().any(super::declared::Declared::beaten));
                            exact += u32::from(c.exact.is_some());
                        }
                    }
                }
            }
            if !table.step(&mut rng) {
                break;
            }
        }
    }
    eprintln!(
        "{samples} samples, {weis_checked} with hidden Weis ({exact} drawn under witnesses, {beaten} ranked)"
    );
    if voids < 1_000 || weis_checked < 1_000 || exact * 2 < weis_checked || beaten < 1_000 || samples < 50_000
    {
        return Err(format!(
            "too few cases: {voids} voids, {weis_checked} hidden Weis ({exact} exact), {samples} samples"
        ));
    }
    Ok(())
}

/// Chi-square critical value for `df` degrees of freedom at p = 1e-5 (Wilson and
/// Hilferty's approximation; z = 4.265).
fn critical(df: f64) -> f64 {
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + 4.265 * a.sqrt()).powi(3)
}

/// Late in random rounds (at most 6 cards unseen among the other three seats, with
/// constraints that rule some deals out): every consistent deal is enumerated from
/// the game's truth, 20,000 samples are drawn, every one is among them, and a
/// chi-square test against the uniform distribution over them passes at p = 1e-5
/// per position (fixed seeds, so not flaky). The greedy fill this replaced failed it.
#[test]
fn late_deals_are_uniform_over_the_consistent_ones() -> Result<(), String> {
    uniform_late(1717, 40, false, super::MAX_COMBINATIONS).map(|_| ())
}

/// As above, on late positions where a declaration whose cards stayed hidden (R6) rules
/// out some of the deals the card constraints allow: the samples never break it and are
/// uniform over the deals that keep it, drawn under witnesses (some positions with
/// deals meeting several) and, separately, with every declaration met by drawing again.
#[test]
fn late_deals_with_hidden_weis_are_uniform() -> Result<(), String> {
    let (several, redrawn) = uniform_late(1718, 40, true, super::MAX_COMBINATIONS)?;
    if several < 2 {
        return Err(format!("only {several} positions with deals meeting several witnesses"));
    }
    let (_, redrawn_all) = uniform_late(1719, 20, true, 0)?;
    if redrawn > 0 || redrawn_all < 20 {
        return Err(format!("redraws: {redrawn} under witnesses, {redrawn_all} of 20 without"));
    }
    Ok(())
}

/// `want` positions from rounds seeded by `seed`; `hidden_weis`: only positions
/// where a hidden declaration rules deals out; `limit`: the sampler's limit of
/// witness combinations. Returns how many positions had deals meeting several
/// witnesses, and how many met a declaration by drawing again.
fn uniform_late(seed: u64, want: u32, hidden_weis: bool, limit: usize) -> Result<(u32, u32), String> {
    const N: u32 = 20_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = 0;
    let (mut chi_sum, mut df_sum, mut worst) = (0.0, 0.0, 0.0f64);
    // Positions where a deal meets several witnesses (so some draws are thrown
    // back), and where a declaration is met by drawing again.
    let (mut several, mut redrawn) = (0u32, 0u32);
    'games: for _ in 0..4_000 {
        let mut table = Table::new(&mut rng)?;
        while table.step(&mut rng) {
            let me = table.game.to_act().unwrap_or(Seat::ALL[0]);
            let unseen = minus(
                minus(CardSet::DECK, table.game.hand(me)),
                table.plays.iter().fold(CardSet::EMPTY, |a, p| a.with(p.1)),
            );
            if table.game.contract().is_none() || unseen.len() > 6 || unseen.len() < 3 {
                continue;
            }
            let others: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| s != me).collect();
            let cards: Vec<Card> = unseen.iter().collect();
            let (mut all, mut consistent) = (0u32, Vec::new());
            let mut card_ok = 0u32;
            for code in 0..3u32.pow(cards.len() as u32) {
                let mut hands = [CardSet::EMPTY; 4];
                hands[me.index()] = table.game.hand(me);
                let mut x = code;
                for &c in &cards {
                    let s = others[(x % 3) as usize];
                    hands[s.index()] = hands[s.index()].with(c);
                    x /= 3;
                }
                if others.iter().any(|s| hands[s.index()].len() != table.game.hand(*s).len()) {
                    continue;
                }
                all += 1;
                if table.card_violation(me, &hands).is_none() {
                    card_ok += 1;
                    if table.weis_points_hold(me, &hands) {
                        consistent.push(hands);
                    }
                }
            }
            // Constraints must bite (and with `hidden_weis`, a hidden Weis must).
            let k = consistent.len();
            if k < 2 || k as u32 == all || hidden_weis && k as u32 == card_ok {
                continue;
            }
            let c = table.constraints_limited(me, limit).ok_or("the true deal is consistent")?;
            let exact = c.exact.as_ref().map_or(0, |e| e.seats);
            let most = consistent
                .iter()
                .map(|h| {
                    c.declared.iter().take(exact).map(|d| d.count(h[d.seat.index()] | d.played)).product()
                })
                .max()
                .unwrap_or(0u32);
            several += u32::from(most > 1);
            redrawn += u32::from(exact < c.declared.len());
            let index: HashMap<[CardSet; 4], usize> =
                consistent.iter().enumerate().map(|(i, h)| (*h, i)).collect();
            let mut seen = vec![0u32; k];
            for _ in 0..N {
                let hands = c.sample(&mut rng).ok_or("no sample")?;
                let &i = index.get(&hands).ok_or_else(|| format!("inconsistent sample {hands:?}"))?;
                seen[i] += 1;
            }
            let e = f64::from(N) / k as f64;
            let chi: f64 = seen.iter().map(|&o| (f64::from(o) - e).powi(2) / e).sum();
            let df = (k - 1) as f64;
            if chi >= critical(df) {
                return Err(format!("position {positions}: {k} deals, chi-square {chi:.1} on {df} df"));
            }
            chi_sum += chi;
            df_sum += df;
            worst = worst.max(chi / critical(df));
            positions += 1;
            if positions == want {
                break 'games;
            }
            continue 'games;
        }
    }
    eprintln!("{several} positions with deals meeting several witnesses, {redrawn} with redraws");
    eprintln!(
        "{positions} positions: chi-square {chi_sum:.1} on {df_sum} df in all (critical {:.1}); worst {worst:.2} of its critical value",
        critical(df_sum)
    );
    if positions < want || chi_sum >= critical(df_sum) {
        return Err(format!("{positions} positions, chi-square {chi_sum:.1} on {df_sum} df"));
    }
    Ok((several, redrawn))
}
