//! What one seat has learnt this round from the views it was shown.
//!
//! A single [`SeatView`] shows only the trick on the table and the one before it, so
//! the computer keeps what it has seen: every card played, the suits a player could
//! not follow, revealed Weis and who announced Stöck. Every inference here is
//! monotone and depends only on the card, its place in its trick and the cards before
//! it, so feeding the same view twice (or a view of every state instead of only the
//! seat's own turns) changes nothing.

use jass_engine::{Card, CardSet, Contract, PlayedCard, Rank, Seat, SeatView, Team, Weis, tables};

/// The deck less `cards`.
pub(crate) fn complement(cards: CardSet) -> CardSet {
    CardSet::from_bits(CardSet::DECK.bits() & !cards.bits())
}

/// `a` less `b`.
pub(crate) fn minus(a: CardSet, b: CardSet) -> CardSet {
    CardSet::from_bits(a.bits() & !b.bits())
}

/// One seat's knowledge of the current round.
#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    /// The round this memory is about (a new round starts afresh).
    round: Option<u32>,
    /// Every card seen played this round.
    pub(crate) played: CardSet,
    /// Per seat: cards it cannot hold (suits it did not follow, R5).
    pub(crate) cannot_hold: [CardSet; 4],
    /// Per seat: cards it is known to have been dealt (revealed Weis, R6; Stöck, R7).
    pub(crate) dealt_with: [CardSet; 4],
    /// Per trick number: who took it, where seen.
    pub(crate) trick_winners: [Option<Seat>; 9],
    /// Per seat: the cards it was seen to play.
    pub(crate) played_by: [CardSet; 4],
    /// Per seat: the points of Weis it declared whose cards this seat was not shown
    /// (R6: the points are public at once, the cards only if they win).
    pub(crate) hidden_weis: [Vec<u32>; 4],
    /// After the first trick, when some Weis won: the winning team's Weis (shown to
    /// all, R6), the forehand and the contract, which rank every Weis declared. The
    /// other team's hidden Weis each ranked below the best of them.
    pub(crate) weis_won: Option<WeisWon>,
    /// Per trick number: its leader and its cards in the order played, where seen
    /// (the play likelihood replays them).
    pub(crate) tricks: [(Option<Seat>, [Option<Card>; 4]); 9],
}

/// The Weis that won the comparison (R6), with what ranks them.
#[derive(Clone, Debug)]
pub(crate) struct WeisWon {
    pub(crate) team: Team,
    pub(crate) weis: Vec<(Seat, Weis)>,
    pub(crate) forehand: Seat,
    pub(crate) contract: Contract,
}

impl Memory {
    /// Takes in what `view` shows.
    pub(crate) fn observe(&mut self, view: &SeatView) {
        if self.round != Some(view.round) {
            *self = Self { round: Some(view.round), ..Self::default() };
        }
        let Some(contract) = view.contract else { return };
        if let Some(last) = &view.last_trick {
            self.trick(last.trick, &last.cards, contract);
            if let Some(slot) = self.trick_winners.get_mut(usize::from(last.trick)) {
                *slot = Some(last.winner);
            }
        }
        self.trick(view.trick.number, &view.trick.cards, contract);
        for w in view.weis.iter() {
            let hidden = w.seat.of_mut(&mut self.hidden_weis);
            if w.cards.is_none() {
                *hidden = w.points.iter().copied().collect();
            } else {
                hidden.clear();
            }
            if let Some(list) = &w.cards {
                let dealt_with = w.seat.of_mut(&mut self.dealt_with);
                for weis in list.iter() {
                    *dealt_with = *dealt_with | weis.cards();
                }
            }
        }
        if let Some(team) = view.weis_result.and_then(|r| r.team) {
            let weis = view
                .weis
                .iter()
                .filter(|w| w.seat.team() == team)
                .flat_map(|w| w.cards.iter().flat_map(|l| l.iter().map(|&x| (w.seat, x))))
                .collect();
            self.weis_won = Some(WeisWon { team, weis, forehand: view.forehand, contract });
        }
        if let (Some(seat), Some(trump)) = (view.stoeck, contract.trump()) {
            let kq = CardSet::single(jass_engine::Card::new(trump, Rank::King))
                .with(jass_engine::Card::new(trump, Rank::Queen));
            let dealt_with = seat.of_mut(&mut self.dealt_with);
            *dealt_with = *dealt_with | kq;
        }
    }

    /// The cards of one trick, in order: what each play proves about its player's hand.
    fn trick(&mut self, number: u8, cards: &[PlayedCard], contract: Contract) {
        let Some(first) = cards.first() else { return };
        if let Some((leader, order)) = self.tricks.get_mut(usize::from(number)) {
            *leader = Some(first.seat);
            for (slot, p) in order.iter_mut().zip(cards) {
                *slot = Some(p.card);
            }
        }
        let led = first.card.suit();
        let trump = contract.trump();
        let tables = tables(contract, false);
        let mut highest_trump: Option<u8> = None;
        for (i, p) in cards.iter().enumerate() {
            self.played = self.played.with(p.card);
            let played_by = p.seat.of_mut(&mut self.played_by);
            *played_by = played_by.with(p.card);
            let suit = p.card.suit();
            if i > 0 && suit != led {
                let proof = if Some(led) == trump {
                    // Trump led and not followed: no trump but perhaps the Puur (R5).
                    trump.map_or(CardSet::EMPTY, |t| {
                        CardSet::suit(t).without(jass_engine::Card::new(t, Rank::Jack))
                    })
                } else if Some(suit) == trump {
                    // Trumping is always allowed; an undertrump proves a hand of
                    // trumps only (R5.4).
                    match highest_trump {
                        Some(h) if tables.order_of(p.card) < h => {
                            trump.map_or(CardSet::EMPTY, |t| complement(CardSet::suit(t)))
                        }
                        _ => CardSet::EMPTY,
                    }
                } else {
                    CardSet::suit(led)
                };
                let cannot_hold = p.seat.of_mut(&mut self.cannot_hold);
                *cannot_hold = *cannot_hold | proof;
            }
            if Some(suit) == trump {
                let o = tables.order_of(p.card);
                highest_trump = Some(highest_trump.map_or(o, |h| h.max(o)));
            }
        }
    }

    /// Whether `team` has lost a trick this round (so it cannot take the match).
    pub(crate) fn has_lost_a_trick(&self, team: Team, view: &SeatView) -> bool {
        view.round_points[team.other()] > 0 || self.trick_winners.iter().flatten().any(|s| s.team() != team)
    }
}

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Suit, Viewer};

    use super::Memory;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// R5: trump led and not followed proves no trump but perhaps the Puur; another
    /// suit not followed proves none of it.
    #[test]
    fn a_trump_lead_not_followed_leaves_the_puur_possible() {
        let hands = [
            set("H6 H7 H8 H9 HT HQ HK HA D6"),
            set("HJ D7 D8 D9 DT DJ DQ DK DA"),
            set("C6 C7 C8 C9 CT CJ CQ CK CA"),
            set("S6 S7 S8 S9 ST SJ SQ SK SA"),
        ];
        let [s0, s1, s2, s3] = Seat::ALL;
        let no_trump_but_the_puur = set("H6 H7 H8 H9 HT HQ HK HA");
        for (contract, lead, seat1_void, seat2_void) in [
            (Contract::Hearts, "H6", no_trump_but_the_puur, no_trump_but_the_puur),
            (Contract::Obenabe, "D6", CardSet::EMPTY, CardSet::suit(Suit::Diamonds)),
        ] {
            let Ok(mut game) = Game::with_hands(Options::default(), s3, hands, s0, [0, 0]) else {
                panic!("options")
            };
            let mut memory = Memory::default();
            for (seat, action) in [
                (s0, Action::Choose { contract }),
                (s0, Action::play(lead.parse().unwrap_or_else(|e| panic!("{e:?}")))),
                (s1, Action::play("D7".parse().unwrap_or_else(|e| panic!("{e:?}")))),
                (s2, Action::play("C6".parse().unwrap_or_else(|e| panic!("{e:?}")))),
            ] {
                game.apply(seat, action, || Seed([0; 32])).unwrap_or_else(|e| panic!("{e}"));
                memory.observe(&game.view(Viewer::Seat(s3)));
            }
            assert_eq!(memory.cannot_hold[1], seat1_void, "{contract:?}");
            assert_eq!(memory.cannot_hold[2], seat2_void, "{contract:?}");
            assert_eq!(memory.played, set(&format!("{lead} D7 C6")));
        }
    }
}
