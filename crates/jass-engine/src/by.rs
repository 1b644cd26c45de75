//! One value per seat ([`BySeat`]) or per team ([`ByTeam`]), reached by [`Seat`] or
//! [`Team`].
//!
//! Why not plain arrays: `x[seat.index()]` compiles, but so does `x[3]` on a per-team
//! array, or a team's index on a per-seat one; indexing by the seat or team itself
//! makes a mix-up a type error, and since a `Seat` is always below four and a `Team`
//! below two, no lookup here can be out of range (no panic path, which the server's
//! "no indexing on what a client controls" rule relies on). The engine, the server,
//! the AI and the tools all share this one shape, so a value moves between them
//! without conversion.
//!
//! On the wire both are the plain JSON array they wrap (`#[serde(transparent)]`), so
//! protocol.md and stored records are unchanged by the wrapper.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::seat::{Seat, Team};

/// A value for each of the four seats, in seat order.
///
/// ```
/// use jass_engine::{BySeat, Seat};
///
/// let mut cards = BySeat([9u8; 4]);
/// cards[Seat::ALL[2]] -= 1;
/// assert_eq!(cards, [9, 9, 8, 9]);
/// assert_eq!(cards.iter().map(|(s, &n)| (s.index(), n)).last(), Some((3, 9)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>(pub [T; 4]);

/// A value for each of the two teams, team 0 first.
///
/// ```
/// use jass_engine::{ByTeam, Team};
///
/// let totals = ByTeam([157u32, 0]);
/// assert_eq!(totals[Team::Zero] + totals[Team::One], 157);
/// assert_eq!(serde_json::to_string(&totals).unwrap(), "[157,0]");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByTeam<T>(pub [T; 2]);

impl<T> BySeat<T> {
    /// Seats with their values, in seat order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.0.iter())
    }

    /// Seats with their values, mutably, in seat order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Seat, &mut T)> {
        Seat::ALL.into_iter().zip(self.0.iter_mut())
    }

    /// The value of each seat passed through `f`.
    #[must_use]
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(f))
    }

    /// Exchanges the values of two seats (seats swapped at a table).
    pub fn swap(&mut self, a: Seat, b: Seat) {
        // Masked like `Index`: both below four, so the bounds checks fold away.
        self.0.swap(a.index() & 3, b.index() & 3);
    }

    /// The plain array, in seat order.
    #[must_use]
    pub fn into_inner(self) -> [T; 4] {
        self.0
    }

    /// The value of `seat`, as `self[seat]` but usable in a `const fn`.
    ///
    /// The mask keeps the index below four for the compiler too, so there is no bounds
    /// check and no panic path: one indexed load. (A `match` on the seat, as the
    /// server's own per-seat type had, compiles to a jump table instead.)
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "masked to 0..4, the array's length")]
    pub const fn get(&self, seat: Seat) -> &T {
        &self.0[seat.index() & 3]
    }
}

impl<T> ByTeam<T> {
    /// Teams with their values, team 0 first.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Team, &T)> {
        Team::ALL.into_iter().zip(self.0.iter())
    }

    /// Teams with their values, mutably, team 0 first.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Team, &mut T)> {
        Team::ALL.into_iter().zip(self.0.iter_mut())
    }

    /// The value of each team passed through `f`.
    #[must_use]
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByTeam<U> {
        ByTeam(self.0.map(f))
    }

    /// The plain array, team 0 first.
    #[must_use]
    pub fn into_inner(self) -> [T; 2] {
        self.0
    }

    /// The value of `team`, as `self[team]` but usable in a `const fn`.
    #[inline]
    #[must_use]
    pub const fn get(&self, team: Team) -> &T {
        let [a, b] = &self.0;
        match team {
            Team::Zero => a,
            Team::One => b,
        }
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    /// As [`BySeat::get`]: one indexed load, no bounds check.
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        self.get(seat)
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    #[inline]
    #[expect(clippy::indexing_slicing, reason = "masked to 0..4, the array's length")]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index() & 3]
    }
}

impl<T> Index<Team> for ByTeam<T> {
    type Output = T;

    /// A `match` on the two teams: no bounds check, and it compiles to one indexed
    /// load all the same.
    #[inline]
    fn index(&self, team: Team) -> &T {
        self.get(team)
    }
}

impl<T> IndexMut<Team> for ByTeam<T> {
    #[inline]
    fn index_mut(&mut self, team: Team) -> &mut T {
        let [a, b] = &mut self.0;
        match team {
            Team::Zero => a,
            Team::One => b,
        }
    }
}

impl<T> From<[T; 4]> for BySeat<T> {
    fn from(values: [T; 4]) -> Self {
        Self(values)
    }
}

impl<T> From<BySeat<T>> for [T; 4] {
    fn from(values: BySeat<T>) -> Self {
        values.0
    }
}

impl<T> From<[T; 2]> for ByTeam<T> {
    fn from(values: [T; 2]) -> Self {
        Self(values)
    }
}

impl<T> From<ByTeam<T>> for [T; 2] {
    fn from(values: ByTeam<T>) -> Self {
        values.0
    }
}

/// So `assert_eq!(view.hand_counts, [9, 9, 9, 9])` reads as before the wrapper.
impl<T: PartialEq> PartialEq<[T; 4]> for BySeat<T> {
    fn eq(&self, other: &[T; 4]) -> bool {
        self.0 == *other
    }
}

/// The other way round: `assert_eq!([9, 9, 9, 9], view.hand_counts)`.
impl<T: PartialEq> PartialEq<BySeat<T>> for [T; 4] {
    fn eq(&self, other: &BySeat<T>) -> bool {
        *self == other.0
    }
}

/// So `assert_eq!(game.totals(), [0, 0])` reads as before the wrapper.
impl<T: PartialEq> PartialEq<[T; 2]> for ByTeam<T> {
    fn eq(&self, other: &[T; 2]) -> bool {
        self.0 == *other
    }
}

/// The other way round: `assert_eq!([0, 0], game.totals())`.
impl<T: PartialEq> PartialEq<ByTeam<T>> for [T; 2] {
    fn eq(&self, other: &ByTeam<T>) -> bool {
        *self == other.0
    }
}

impl<'a, T> IntoIterator for &'a BySeat<T> {
    type Item = (Seat, &'a T);
    type IntoIter = std::iter::Zip<std::array::IntoIter<Seat, 4>, std::slice::Iter<'a, T>>;

    fn into_iter(self) -> Self::IntoIter {
        Seat::ALL.into_iter().zip(self.0.iter())
    }
}

impl<'a, T> IntoIterator for &'a ByTeam<T> {
    type Item = (Team, &'a T);
    type IntoIter = std::iter::Zip<std::array::IntoIter<Team, 2>, std::slice::Iter<'a, T>>;

    fn into_iter(self) -> Self::IntoIter {
        Team::ALL.into_iter().zip(self.0.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::{BySeat, ByTeam};
    use crate::seat::{Seat, Team};

    #[test]
    fn serde_is_the_plain_array() {
        let seats = BySeat([9u8, 8, 7, 6]);
        let json = serde_json::to_string(&seats).unwrap();
        assert_eq!(json, "[9,8,7,6]");
        assert_eq!(serde_json::from_str::<BySeat<u8>>(&json).unwrap(), seats);
        let teams = ByTeam([157u32, 100]);
        let json = serde_json::to_string(&teams).unwrap();
        assert_eq!(json, "[157,100]");
        assert_eq!(serde_json::from_str::<ByTeam<u32>>(&json).unwrap(), teams);
        // The lengths are part of the shape: a wrong one is refused.
        assert!(serde_json::from_str::<BySeat<u8>>("[1,2,3]").is_err());
        assert!(serde_json::from_str::<ByTeam<u32>>("[1,2,3]").is_err());
    }

    #[test]
    fn every_seat_and_team_reaches_its_own_slot() {
        let mut seats = BySeat([10, 11, 12, 13]);
        for s in Seat::ALL {
            assert_eq!(seats[s], 10 + s.index());
            seats[s] += 10;
        }
        assert_eq!(seats, [20, 21, 22, 23]);
        let mut teams = ByTeam([5, 6]);
        for t in Team::ALL {
            assert_eq!(teams[t], 5 + t.index());
            teams[t] *= 2;
        }
        assert_eq!([10, 12], teams);
    }

    #[test]
    fn iteration_is_in_seat_and_team_order() {
        let seats = BySeat(['a', 'b', 'c', 'd']);
        let order: Vec<(usize, char)> = seats.iter().map(|(s, &c)| (s.index(), c)).collect();
        assert_eq!(order, [(0, 'a'), (1, 'b'), (2, 'c'), (3, 'd')]);
        let teams = ByTeam(["zero", "one"]);
        let order: Vec<(Team, &str)> = (&teams).into_iter().map(|(t, &n)| (t, n)).collect();
        assert_eq!(order, [(Team::Zero, "zero"), (Team::One, "one")]);
        assert_eq!(seats.map(|c| c.to_ascii_uppercase()).into_inner(), ['A', 'B', 'C', 'D']);
    }

    #[test]
    fn swap_exchanges_two_seats_in_any_order() {
        for a in Seat::ALL {
            for b in Seat::ALL {
                let mut seats = BySeat([0, 1, 2, 3]);
                seats.swap(a, b);
                let mut want = [0, 1, 2, 3];
                want.swap(a.index(), b.index());
                assert_eq!(seats, want, "{a} {b}");
            }
        }
    }
}
