//! The original's card choice: `get_card_to_play` of its trump and no-trump modes and
//! the helpers they share (taking a trick, discarding, passing the lead, leading a
//! "value" card). `None` is the original returning no card.

use jass_engine::{Card, CardSet, Seat, Suit};

use super::counter::Counter;
use super::rank::{Ranks, SUITS};

/// The original's roles, fixed in the first trick.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) enum Role {
    /// This seat chose the contract.
    Trumpf,
    /// Its partner chose.
    Partner,
    /// An opponent chose.
    Off,
}

/// One decision: the counter, the legal cards in the original's hand order, the
/// cards on the table.
pub(super) struct Turn<'a> {
    pub(super) k: &'a Counter,
    /// The legal cards, in hand order (the original's `allowed_cards`).
    pub(super) legal: Vec<Card>,
    pub(super) table: Vec<(Seat, Card)>,
    pub(super) role: Role,
}

impl Turn<'_> {
    fn of_suit(&self, s: Suit) -> Vec<Card> {
        self.legal.iter().copied().filter(|c| c.suit() == s).collect()
    }

    fn led(&self) -> Option<Suit> {
        self.table.first().map(|&(_, c)| c.suit())
    }

    fn partner_winning(&self) -> bool {
        self.k.winning().is_some_and(|(s, _)| s == self.k.partner())
    }

    /// The original's `cards_beating_current_stich`: those of `cards` that beat the
    /// card winning the trick (all of them on an empty table), by score upwards.
    fn beating(&self, cards: &[Card]) -> Vec<Card> {
        let r = self.k.ranks;
        let mut out: Vec<Card> = match self.k.winning() {
            Some((_, w)) if !self.table.is_empty() => {
                let stronger = r.stronger_alive(w, self.k.alive());
                cards.iter().copied().filter(|&c| stronger.contains(c)).collect()
            }
            _ => cards.to_vec(),
        };
        out.sort_by_key(|&c| r.score(c));
        out
    }

    /// Whether the next opponent may hold a card beating the trick.
    fn beatable(&self) -> bool {
        let unknown: Vec<Card> = self.k.unknown().iter().collect();
        self.k.has_any(self.k.next_opponent(), self.beating(&unknown)) != 0.0
    }

    /// The original's `get_stich_card`: a card that wins the trick and that the next
    /// opponent cannot beat (any winner when last); of those the 10 (or Obenabe's
    /// 8), else the strongest.
    fn stich(&self) -> Option<Card> {
        let led = self.led()?;
        let r = self.k.ranks;
        let mine: Vec<Card> = SUITS
            .iter()
            .filter(|&&s| s == led || Some(s) == r.trump())
            .flat_map(|&s| self.of_suit(s))
            .collect();
        let cards = self.beating(&mine);
        let mut takers: Vec<Card> = if self.table.len() == 3 {
            cards
        } else {
            let unknown = self.k.unknown();
            cards
                .into_iter()
                .filter(|&c| {
                    let stronger = r.stronger_alive(c, unknown);
                    stronger.is_empty() || self.k.has_any(self.k.next_opponent(), stronger.iter()) == 0.0
                })
                .collect()
        };
        r.strongest_first(&mut takers);
        takers.iter().copied().find(|&c| r.is_fat(c)).or_else(|| takers.first().copied())
    }

    /// The original's `get_tossable_card`: follow with the weakest card, or the 10
    /// (Obenabe: 10 or 8) when the partner wins and keeps the trick; not following,
    /// the weakest card of the suit to discard from.
    fn toss(&self) -> Option<Card> {
        let r = self.k.ranks;
        let led = self.led();
        let serve = led.filter(|&s| !self.of_suit(s).is_empty());
        let serve = match (serve, r.trump()) {
            // With the trump jack as its only trump, trump led: not served here.
            (Some(s), Some(t)) if s == t && self.only_trump_jack() => None,
            (s, _) => s,
        };
        let mut weak = match serve {
            Some(s) => self.of_suit(s),
            None => match self.suit_to_toss() {
                Some(s) => self.of_suit(s),
                None => {
                    // The suit with the fewest unknown cards (first on ties), even
                    // one this hand has none of.
                    let unknown = self.k.unknown();
                    let fewest = SUITS.iter().min_by_key(|&&s| (unknown & CardSet::suit(s)).len());
                    fewest.map(|&s| self.of_suit(s)).unwrap_or_default()
                }
            },
        };
        r.strongest_first(&mut weak);
        let weakest = *weak.last()?;
        if self.partner_winning() && (self.table.len() == 3 || !self.beatable()) {
            return Some(weak.iter().copied().find(|&c| r.is_fat(c)).unwrap_or(weakest));
        }
        Some(weakest)
    }

    fn only_trump_jack(&self) -> bool {
        let Some(t) = self.k.ranks.trump() else { return false };
        let trumps = self.of_suit(t);
        !trumps.is_empty() && trumps.iter().all(|c| c.rank() == jass_engine::Rank::Jack)
    }

    /// The original's `get_suit_to_toss`: a suit discarded from before with a card
    /// not yet the boss; else the (non-trump) suit whose best card is furthest from
    /// the boss, counting a suit the hand lacks as 0.
    fn suit_to_toss(&self) -> Option<Suit> {
        let r = self.k.ranks;
        let unknown = self.k.unknown();
        let tossed = &self.k.flags[self.k.me].discarded;
        for &s in &SUITS {
            if tossed.contains(&s) && self.of_suit(s).iter().any(|&c| r.bock_distance(c, unknown) != 0) {
                return Some(s);
            }
        }
        let mut best: Option<(Suit, usize)> = None;
        for &s in SUITS.iter().filter(|&&s| Some(s) != r.trump() && !tossed.contains(&s)) {
            let d = self.of_suit(s).iter().map(|&c| r.bock_distance(c, unknown)).min().unwrap_or(0);
            if best.is_none_or(|(_, b)| d > b) {
                best = Some((s, d));
            }
        }
        best.map(|(s, _)| s)
    }

    /// The original's `get_passing_card`: the weakest card of a suit whose lowest
    /// unplayed card ("current bock") the partner surely holds (no-trump: or no
    /// opponent can follow); else of the partner's strongest suit.
    fn passing(&self) -> Option<Card> {
        let k = self.k;
        let r = k.ranks;
        for &s in &SUITS {
            let mut cards = self.of_suit(s);
            if cards.is_empty() {
                continue;
            }
            let Some(bock) = k.current_bock(s) else { continue };
            let partner_has = k.has_card(k.partner(), bock) == 1.0;
            let void = r.trump().is_none()
                && k.has_suit(k.next_opponent(), s) == 0.0
                && k.has_suit(k.prev_opponent(), s) == 0.0;
            if partner_has || void {
                r.strongest_first(&mut cards);
                return cards.last().copied();
            }
        }
        for s in k.suits_by_strength(k.partner()) {
            let mut cards = self.of_suit(s);
            r.strongest_first(&mut cards);
            if let Some(&c) = cards.last() {
                return Some(c);
            }
        }
        None
    }

    /// The original's `get_value_card`: it weighs each card by the chance the
    /// opponents hold that very card, which is 0 for a card in the hand, so it is the
    /// first card in suit order.
    fn value(&self) -> Option<Card> {
        if !self.table.is_empty() {
            return None;
        }
        SUITS.iter().flat_map(|&s| self.of_suit(s)).next()
    }

    fn stich_or_toss(&self) -> Option<Card> {
        self.stich().or_else(|| self.toss())
    }

    /// The card the original would play (`None` where it returns none). Its
    /// `want_stich` is always true (it asks whether the opponents hold a card of
    /// this hand), so every "want the trick?" branch takes its yes side.
    pub(super) fn choose(&self) -> Option<Card> {
        match self.k.ranks.trump() {
            Some(t) => self.trump_contract(t),
            None => self.no_trump(),
        }
    }

    fn no_trump(&self) -> Option<Card> {
        if !self.table.is_empty() {
            return self.stich_or_toss();
        }
        let k = self.k;
        let alive = k.alive();
        let boss = self.legal.iter().copied().find(|&c| k.ranks.stronger_alive(c, alive).is_empty());
        if boss.is_some() {
            return boss;
        }
        if k.flags[k.partner()].led { self.value() } else { self.passing() }
    }

    fn trump_contract(&self, t: Suit) -> Option<Card> {
        let k = self.k;
        let r = k.ranks;
        match self.table.len() {
            0 => {}
            2 if self.role == Role::Trumpf && k.flags[k.me].led => return self.stich(),
            _ => return self.stich_or_toss(),
        }
        let mut trumps = self.of_suit(t);
        r.strongest_first(&mut trumps);
        let alive = k.alive();
        let side_bosses: Vec<Card> = self
            .legal
            .iter()
            .copied()
            .filter(|&c| {
                c.suit() != t
                    && (alive & CardSet::suit(c.suit())).iter().all(|x| Ranks::value(x) <= Ranks::value(c))
            })
            .collect();
        let out = k.has_suit(k.next_opponent(), t) == 0.0 && k.has_suit(k.prev_opponent(), t) == 0.0;
        let partner_led = k.flags[k.partner()].led;
        match self.role {
            Role::Trumpf | Role::Off => {
                if !out && let Some(&c) = trumps.first() {
                    Some(c)
                } else if out && let Some(&c) = side_bosses.first() {
                    Some(c)
                } else if !out && trumps.is_empty() {
                    self.toss()
                } else if partner_led {
                    self.value()
                } else {
                    self.passing()
                }
            }
            Role::Partner if !partner_led => trumps
                .iter()
                .copied()
                .find(|c| c.rank() != jass_engine::Rank::Jack)
                .or_else(|| self.passing()),
            // The original computes a value card here and forgets to return it.
            Role::Partner => {
                if !out && let Some(&c) = trumps.first() {
                    Some(c)
                } else {
                    side_bosses.first().copied()
                }
            }
        }
    }
}
