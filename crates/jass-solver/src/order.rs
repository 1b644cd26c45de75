//! Which cards to search, and in which order.
//!
//! Equivalent cards are searched once: two cards of one hand and one suit with equal
//! points, with no card still in play (in a hand or on the table) between them in the
//! contract's order, take and lose exactly the same tricks in every continuation, so
//! they have the same value. The order puts likely best cards first, so alpha-beta
//! cuts off early; it changes the speed, never the value.

use arrayvec::ArrayVec;
use jass_engine::{Card, CardSet, Contract, Suit, Trick, tables};

/// The cards of each suit from lowest to highest in each contract's order (the
/// contract's rank order does not depend on the undenufe reading, only its points).
static ORDERED: std::sync::LazyLock<[[[Card; 9]; 4]; 6]> = std::sync::LazyLock::new(|| {
    Contract::ALL.map(|contract| {
        let order = &tables(contract, false).order;
        Suit::ALL.map(|suit| {
            let mut cards = jass_engine::Rank::ALL.map(|r| Card::new(suit, r));
            cards.sort_by_key(|c| order[c.index()]);
            cards
        })
    })
});

fn ordered(contract: Contract, suit: Suit) -> &'static [Card; 9] {
    &ORDERED[contract.index()][suit.index()]
}

/// The legal cards worth searching, best guess first.
pub(crate) fn moves(
    contract: Contract,
    points: &[u8; 36],
    hand: CardSet,
    legal: CardSet,
    live: CardSet,
    trick: &Trick,
) -> ArrayVec<Card, 9> {
    let mut reps: ArrayVec<(i32, Card), 9> = ArrayVec::new();
    for suit in Suit::ALL {
        if legal.bits() & CardSet::suit(suit).bits() == 0 {
            continue;
        }
        let mut run: Option<u8> = None;
        for &card in ordered(contract, suit) {
            if !live.contains(card) {
                continue;
            }
            if !legal.contains(card) {
                run = None;
                continue;
            }
            let p = points[card.index()];
            if run == Some(p) && hand.contains(card) {
                // Equivalent to the card below it: already searched.
                continue;
            }
            run = Some(p);
            reps.push((score(contract, points, card, trick), card));
        }
    }
    reps.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
    reps.into_iter().map(|(_, c)| c).collect()
}

/// A guess at how good `card` is for the seat playing it: taking the trick is good
/// (cheaply if the partner's card is not already taking it), giving points to a
/// trick the partner takes is good, throwing points to the other side is bad.
fn score(contract: Contract, points: &[u8; 36], card: Card, trick: &Trick) -> i32 {
    let p = i32::from(points[card.index()]);
    let strength = i32::from(tables(contract, false).order[card.index()]);
    if trick.is_empty() {
        // Lead high: a card that takes tricks sets up the search's best lines first.
        return strength * 4 + p;
    }
    let seat = trick.next_seat();
    let partner_has_it = trick.winner(contract).is_some_and(|w| w.team() == seat.team());
    let mut after = *trick;
    after.push(card);
    let takes = after.winner(contract) == Some(seat);
    match (takes, partner_has_it) {
        (true, _) => 200 - strength * 2 + p,
        (false, true) => 100 + p,
        (false, false) => -p * 4 - strength,
    }
}
