//! Declared Weis whose cards a seat was not shown (R6): what a deal must give the
//! declarer so that it could have made the declaration.
//!
//! The seat knows each declaration's points, and after the first trick which team's
//! Weis won; so a hidden declarer's dealt hand (the cards it holds and those it
//! played) held distinct Weis of exactly those points, each ranking below the
//! winning team's best when its team lost. Whether a hand held a given Weis is the
//! engine's rule ([`validate_declaration`]); here it is only rewritten as card
//! conditions (hold these cards, none of those) that a count of deals can take.

use std::sync::OnceLock;

use jass_engine::{CardSet, Contract, MAX_WEIS, Rank, Seat, Weis, WeisKey, find_weis, validate_declaration};

use crate::memory::minus;

/// A Weis as card conditions: a hand declares it validly exactly when it holds
/// `cards` and none of `away` (a run is declared whole, R6).
#[derive(Copy, Clone, Debug)]
struct Shape {
    weis: Weis,
    cards: CardSet,
    away: CardSet,
}

/// Every Weis there is (runs of three to nine, fours) with its card conditions,
/// without and with `small_weis`; fours that are no Weis there are left out.
fn shapes(small_weis: bool) -> &'static [Shape] {
    static SHAPES: OnceLock<[Vec<Shape>; 2]> = OnceLock::new();
    let all = SHAPES.get_or_init(|| [build(false), build(true)]);
    if small_weis { &all[1] } else { &all[0] }
}

fn build(small_weis: bool) -> Vec<Shape> {
    let runs = (0..36u32).flat_map(|low| {
        (3..=9u32)
            .filter(move |len| low % 9 + len <= 9)
            .map(move |len| CardSet::from_bits(((1 << len) - 1) << low))
    });
    let fours = Rank::ALL.into_iter().map(CardSet::rank);
    runs.chain(fours)
        .filter_map(|cards| {
            let weis = Weis::from_cards(cards)?;
            validate_declaration(cards, &[cards], small_weis).ok()?;
            // The cards whose presence alone makes the declaration invalid; the
            // engine's rule looks at single neighbours, so these are all there is
            // (checked against it on random hands by a test).
            let away = CardSet::DECK
                .iter()
                .filter(|&c| {
                    !cards.contains(c) && validate_declaration(cards.with(c), &[cards], small_weis).is_err()
                })
                .fold(CardSet::EMPTY, CardSet::with);
            Some(Shape { weis, cards, away })
        })
        .collect()
}

/// What the losing side's hidden Weis rank below (R6.2–6.3): the winning team's best.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Beaten {
    pub(crate) best: WeisKey,
    pub(crate) forehand: Seat,
    pub(crate) contract: Contract,
}

/// One witness that a deal lets the declarer have made its declaration: its dealt
/// hand holds `cards` and none of `away`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Witness {
    pub(crate) cards: CardSet,
    pub(crate) away: CardSet,
}

/// One seat's declaration whose cards stay hidden, with every card it played (all of
/// them seen, so its dealt hand is its hand and these).
#[derive(Clone, Debug)]
pub(crate) struct Declared {
    pub(crate) seat: Seat,
    pub(crate) played: CardSet,
    /// The points of each declared Weis, sorted.
    points: Vec<u32>,
    small_weis: bool,
    beaten: Option<Beaten>,
}

impl Declared {
    pub(crate) fn new(
        seat: Seat,
        played: CardSet,
        mut points: Vec<u32>,
        small_weis: bool,
        beaten: Option<Beaten>,
    ) -> Self {
        points.sort_unstable();
        Self { seat, played, points, small_weis, beaten }
    }

    /// Whether `weis` could be one of the declared: of declared points, and below
    /// the winning Weis when this seat's team lost.
    fn fits(&self, weis: &Weis) -> bool {
        self.points.contains(&weis.points(self.small_weis))
            && self.beaten.is_none_or(|b| {
                WeisKey::new(weis, self.seat, b.forehand, b.contract, self.small_weis) < b.best
            })
    }

    /// Whether the Weis of `chosen` (distinct, as many as declared) are exactly a
    /// declaration the hand `hand` could have made.
    fn declares(&self, hand: CardSet, chosen: &[Weis]) -> bool {
        let mut points = [0u32; MAX_WEIS];
        let mut cards = [CardSet::EMPTY; MAX_WEIS];
        let n = chosen.len();
        if n != self.points.len() || n > MAX_WEIS {
            return false;
        }
        for ((p, c), w) in points.iter_mut().zip(&mut cards).zip(chosen) {
            *p = w.points(self.small_weis);
            *c = w.cards();
        }
        let (points, cards) = (points.get_mut(..n).unwrap_or_default(), cards.get(..n).unwrap_or_default());
        points.sort_unstable();
        *points == self.points[..] && validate_declaration(hand, cards, self.small_weis).is_ok()
    }

    /// Every witness of the declaration that `possible` allows (a witness is a set of
    /// Weis, each listed once): a deal meets the declaration exactly when the
    /// declarer's dealt hand meets one of them.
    pub(crate) fn witnesses(&self, possible: impl Fn(&Witness) -> bool) -> Vec<Witness> {
        let fitting: Vec<Shape> = shapes(self.small_weis)
            .iter()
            .filter(|s| self.fits(&s.weis) && possible(&Witness { cards: s.cards, away: s.away }))
            .copied()
            .collect();
        let mut out = Vec::new();
        each_subset(&fitting, self.points.len(), &mut Vec::new(), 0, &mut |chosen: &[Shape]| {
            let cards = chosen.iter().fold(CardSet::EMPTY, |a, s| a | s.cards);
            let away = chosen.iter().fold(CardSet::EMPTY, |a, s| a | s.away);
            let weis: Vec<Weis> = chosen.iter().map(|s| s.weis).collect();
            let w = Witness { cards, away };
            if (cards & away).is_empty() && self.declares(cards, &weis) && possible(&w) {
                out.push(w);
            }
        });
        out
    }

    /// How many witnesses the dealt hand `dealt` meets (0: it could not have made
    /// the declaration).
    pub(crate) fn count(&self, dealt: CardSet) -> u32 {
        let held = find_weis(dealt, self.small_weis);
        let k = self.points.len();
        if held.len() < k || held.len() > MAX_WEIS {
            // A dealt hand of nine holds at most MAX_WEIS Weis.
            return 0;
        }
        let mut n = 0;
        let mut chosen = [Weis::default(); MAX_WEIS];
        for mask in 1u32..1 << held.len() {
            if mask.count_ones() as usize != k {
                continue;
            }
            let picked = held.iter().enumerate().filter(|(i, _)| mask & 1 << i != 0);
            for (slot, (_, w)) in chosen.iter_mut().zip(picked) {
                *slot = *w;
            }
            let chosen = chosen.get(..k).unwrap_or_default();
            n += u32::from(chosen.iter().all(|w| self.fits(w)) && self.declares(dealt, chosen));
        }
        n
    }

    /// Whether the seat's team lost the Weis comparison, so its Weis rank below the
    /// winner's (R6).
    #[cfg(test)]
    pub(crate) const fn beaten(&self) -> bool {
        self.beaten.is_some()
    }

    /// Whether the dealt hand could have made the declaration.
    pub(crate) fn holds(&self, hand: CardSet) -> bool {
        self.count(hand | self.played) > 0
    }

    /// The cards `w` asks of the seat's hand beyond those it played.
    pub(crate) fn needs(&self, w: &Witness) -> CardSet {
        minus(w.cards, self.played)
    }
}

/// Calls `f` with every subset of `items` of `k` elements, in index order.
fn each_subset<T: Copy>(items: &[T], k: usize, chosen: &mut Vec<T>, from: usize, f: &mut impl FnMut(&[T])) {
    if chosen.len() == k {
        f(chosen);
        return;
    }
    for (i, &x) in items.iter().enumerate().skip(from) {
        chosen.push(x);
        each_subset(items, k, chosen, i + 1, f);
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use jass_engine::{CardSet, Seat, find_weis, validate_declaration};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::{Declared, shapes};

    /// The card conditions say exactly what the engine's rule says: on random
    /// nine-card hands, a Weis is validly declarable from the hand iff the hand holds
    /// its cards and none of its `away` cards (R6), with and without small Weis; and
    /// a hand's witnesses counted from its Weis match those listed from the shapes.
    #[test]
    fn weis_shapes_are_the_engines_rule() -> Result<(), String> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        for i in 0..20_000 {
            let mut hand = CardSet::EMPTY;
            while hand.len() < 9 {
                // Dense hands often: cards of two suits only.
                let c = rng.random_range(0..if i % 2 == 0 { 18 } else { 36 });
                hand = hand.with(jass_engine::Card::from_index(c).ok_or("card")?);
            }
            for small in [false, true] {
                for s in shapes(small) {
                    let rule = validate_declaration(hand, &[s.cards], small).is_ok();
                    let cond = hand.contains_all(s.cards) && (hand & s.away).is_empty();
                    if rule != cond {
                        return Err(format!("{hand:?} {:?}: rule {rule}, conditions {cond}", s.cards));
                    }
                }
                let held = find_weis(hand, small);
                if let Some(first) = held.first() {
                    let two: Vec<CardSet> = held.iter().take(2).map(|w| w.cards()).collect();
                    let points: Vec<u32> = held.iter().take(2).map(|w| w.points(small)).collect();
                    let valid = validate_declaration(hand, &two, small).is_ok();
                    let d = Declared::new(Seat::ALL[1], CardSet::EMPTY, points, small, None);
                    let listed = d
                        .witnesses(|_| true)
                        .iter()
                        .filter(|w| hand.contains_all(w.cards) && (hand & w.away).is_empty())
                        .count();
                    if listed as u32 != d.count(hand) || valid && d.count(hand) == 0 {
                        return Err(format!(
                            "{hand:?} ({first:?}): {listed} listed, {} counted",
                            d.count(hand)
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
