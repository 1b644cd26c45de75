//! The challenge player's memory of the round, and what it infers from it: the
//! original's card counter with its flags and "likelihoods" (see the module above for
//! the quirks kept).

use jass_engine::{BySeat, Card, CardSet, Contract, Seat, Suit, Trick};

use super::rank::{Ranks, SUITS};

/// What the original notes about one seat while the round is played.
#[derive(Clone, Debug, Default)]
pub(super) struct Flags {
    /// Suits led that the seat did not follow, in the order seen (repeats kept).
    pub(super) failed: Vec<Suit>,
    /// Suits the seat discarded from when not following, in the order seen.
    pub(super) discarded: Vec<Suit>,
    /// Cards the seat is taken not to hold.
    pub(super) lacks: CardSet,
    /// Whether the seat has led a trick ("previously had a trick").
    pub(super) led: bool,
}

/// The card counter of one seat for one round.
#[derive(Clone, Debug)]
pub(super) struct Counter {
    pub(super) me: Seat,
    pub(super) ranks: Ranks,
    /// Whether the forehand pushed (the original's `geschoben`).
    pushed: bool,
    /// Every card played this round, in order.
    pub(super) count: usize,
    /// Cards played (all tricks, the one on the table too).
    pub(super) played: CardSet,
    /// Cards of completed tricks.
    pub(super) dead: CardSet,
    /// The first card each seat played this round.
    firsts: CardSet,
    /// The trick being played, as the counter saw it.
    pub(super) current: Vec<(Seat, Card)>,
    pub(super) flags: BySeat<Flags>,
    /// The seat's hand as the counter last saw it.
    pub(super) hand: CardSet,
}

impl Counter {
    pub(super) fn new(me: Seat, contract: Contract, pushed: bool) -> Self {
        Self {
            me,
            ranks: Ranks(contract),
            pushed,
            count: 0,
            played: CardSet::EMPTY,
            dead: CardSet::EMPTY,
            firsts: CardSet::EMPTY,
            current: Vec::new(),
            flags: Default::default(),
            hand: CardSet::EMPTY,
        }
    }

    pub(super) fn partner(&self) -> Seat {
        self.me.partner()
    }

    /// The opponent who plays right after this seat.
    pub(super) fn next_opponent(&self) -> Seat {
        self.me.plus(1)
    }

    /// The opponent who plays right before this seat.
    pub(super) fn prev_opponent(&self) -> Seat {
        self.me.plus(3)
    }

    /// Cards neither played nor in the hand.
    pub(super) fn unknown(&self) -> CardSet {
        CardSet::DECK ^ (self.played | self.hand)
    }

    /// Cards not in a completed trick (the hand and the trick on the table included).
    pub(super) fn alive(&self) -> CardSet {
        CardSet::DECK ^ self.dead
    }

    /// Who wins the trick on the table so far (the original's `round_leader`).
    pub(super) fn winning(&self) -> Option<(Seat, Card)> {
        let (leader, _) = *self.current.first()?;
        let cards: Vec<Card> = self.current.iter().map(|&(_, c)| c).collect();
        let seat = Trick::from_cards(leader, &cards).winner(self.ranks.0)?;
        self.current.iter().copied().find(|&(s, _)| s == seat)
    }

    /// The original's `get_current_bock`: the card of lowest score among the cards of
    /// `suit` not yet played (the hand's included) and every card on the table, of any
    /// suit. In a trump suit's side suits and Obenabe that is the lowest card, not the
    /// boss: kept as the original has it.
    pub(super) fn current_bock(&self, suit: Suit) -> Option<Card> {
        let mut best: Option<Card> = None;
        let of_suit = (CardSet::DECK ^ self.played) & CardSet::suit(suit);
        for c in of_suit.iter().chain(self.current.iter().map(|&(_, c)| c)) {
            if best.is_none_or(|b| self.ranks.score(c) < self.ranks.score(b)) {
                best = Some(c);
            }
        }
        best
    }

    /// The original's `has_card_likelihood`. Only the first card each seat played
    /// counts as gone, besides the hand; the 1/3 for the trump jack never applies (the
    /// original compares a suit with a name); a seat's "does not have" flags make it
    /// 0, and the others' flags lower the holders only where they failed to follow.
    pub(super) fn has_card(&self, seat: Seat, card: Card) -> f64 {
        if self.hand.contains(card) || self.firsts.contains(card) {
            return 0.0;
        }
        let f = &self.flags[seat];
        if f.failed.contains(&card.suit()) || f.lacks.contains(card) {
            return 0.0;
        }
        let others = Seat::ALL.iter().filter(|&&q| q != self.me && q != seat);
        let out = others.filter(|q| self.flags[**q].failed.contains(&card.suit())).count();
        let holders = 3 - out;
        if holders > 0 { 1.0 / holders as f64 } else { 0.0 }
    }

    /// The original's `has_cards_likelihood`: one minus the chance of holding none.
    pub(super) fn has_any(&self, seat: Seat, cards: impl IntoIterator<Item = Card>) -> f64 {
        1.0 - cards.into_iter().map(|c| 1.0 - self.has_card(seat, c)).product::<f64>()
    }

    /// The original's `has_suit_likelihood`, over the suit's unknown cards.
    pub(super) fn has_suit(&self, seat: Seat, suit: Suit) -> f64 {
        self.has_any(seat, (self.unknown() & CardSet::suit(suit)).iter())
    }

    /// The original's `get_suits_by_strength` for `seat`: suits it never failed to
    /// follow nor discarded from first (the last suits first), then those.
    pub(super) fn suits_by_strength(&self, seat: Seat) -> Vec<Suit> {
        let f = &self.flags[seat];
        let mut weak: Vec<Suit> = Vec::new();
        for &s in f.failed.iter().chain(&f.discarded).chain(&SUITS) {
            if !weak.contains(&s) {
                weak.push(s);
            }
        }
        weak.reverse();
        weak
    }

    /// One card played, as the original's `card_played` sees it: its flags.
    pub(super) fn record(&mut self, seat: Seat, card: Card) {
        let led = self.current.first().map(|&(_, c)| c.suit());
        // Each seat's first card is its card of the first trick.
        if self.count < 4 {
            self.firsts = self.firsts.with(card);
        }
        self.played = self.played.with(card);
        self.count += 1;
        self.current.push((seat, card));
        let n = self.current.len();
        if n == 4 {
            self.dead = self.current.iter().fold(self.dead, |d, &(_, c)| d.with(c));
            // The partner played last and let the opponents keep the trick: taken
            // not to hold anything that would still beat the winning card.
            if seat == self.partner()
                && let Some((w, wc)) = self.winning()
                && w != self.me
                && w != self.partner()
            {
                let stronger = self.ranks.stronger_alive(wc, self.alive());
                self.flags[seat].lacks = self.flags[seat].lacks | stronger;
            }
        }
        if n == 1 {
            let trump = self.ranks.0.trump();
            // No trump, the partner leads a card that is not the boss: taken not to
            // hold the "current bock" of any suit.
            if trump.is_none()
                && seat == self.partner()
                && !self.ranks.stronger_alive(card, self.alive()).is_empty()
            {
                // The original also flags a `None` boss of an empty suit, which its
                // comparisons would choke on; that flag is skipped here.
                let bosses: Vec<Card> = SUITS.iter().filter_map(|&s| self.current_bock(s)).collect();
                let f = &mut self.flags[seat];
                f.lacks = bosses.into_iter().fold(f.lacks, CardSet::with);
            }
            // Except the first lead after a push to a trump suit.
            let pushed_lead = self.count <= 4 && self.pushed && trump.is_some();
            if !pushed_lead {
                self.flags[seat].led = true;
            }
            // A trump suit, the partner leads its suit's "current bock" (the lowest
            // card, see there): both opponents taken to hold no unknown trump.
            if let Some(t) = trump
                && seat == self.partner()
                && self.current_bock(card.suit()) == Some(card)
            {
                let trumps = self.unknown() & CardSet::suit(t);
                for o in [self.next_opponent(), self.prev_opponent()] {
                    self.flags[o].lacks = self.flags[o].lacks | trumps;
                }
            }
        }
        // Not following: out of the suit led, discarding from the suit played; the
        // original counts trumping in too (it compares a suit with a name).
        if n > 1
            && let Some(led) = led
            && card.suit() != led
        {
            let f = &mut self.flags[seat];
            f.failed.push(led);
            f.discarded.push(card.suit());
        }
        if self.count.is_multiple_of(4) {
            self.current.clear();
        }
    }
}
