//! Seats in playing order and the two partnerships (R1).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat 0..=3 in playing order: seat s+1 sits at the right of seat s and plays
/// after it; partners sit opposite (R1). On the wire, its number.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(SeatNo);

/// A seat number as an enum rather than a `u8`: the compiler then knows it is below
/// four, so indexing the per-seat arrays needs no bounds check, and an `Option<Seat>`
/// (views and rounds hold several) is one byte instead of two.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
#[repr(u8)]
enum SeatNo {
    S0,
    S1,
    S2,
    S3,
}

impl SeatNo {
    /// The seat number `n mod 4`.
    const fn wrapping(n: usize) -> Self {
        match n & 3 {
            0 => Self::S0,
            1 => Self::S1,
            2 => Self::S2,
            _ => Self::S3,
        }
    }
}

impl Seat {
    /// The four seats in playing order from seat 0.
    pub const ALL: [Self; 4] = [Self(SeatNo::S0), Self(SeatNo::S1), Self(SeatNo::S2), Self(SeatNo::S3)];

    /// The seat with number `n`, if `n < 4`.
    #[must_use]
    pub const fn new(n: u8) -> Option<Self> {
        if n < 4 { Some(Self(SeatNo::wrapping(n as usize))) } else { None }
    }

    /// The seat with number `n mod 4`.
    #[must_use]
    pub const fn wrapping(n: usize) -> Self {
        Self(SeatNo::wrapping(n))
    }

    /// The seat number 0..=3.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This seat's entry of a plain per-seat array (as [`BySeat`](crate::BySeat)
    /// indexes its own: one load, no bounds check).
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "masked to 0..4, the array's length")]
    pub const fn of<T>(self, values: &[T; 4]) -> &T {
        &values[self.index() & 3]
    }

    /// This seat's entry of a plain per-seat array, mutably.
    #[inline]
    #[expect(clippy::indexing_slicing, reason = "masked to 0..4, the array's length")]
    pub const fn of_mut<T>(self, values: &mut [T; 4]) -> &mut T {
        &mut values[self.index() & 3]
    }

    /// The seat that plays next (the right-hand neighbour).
    #[must_use]
    pub const fn next(self) -> Self {
        self.plus(1)
    }

    /// The seat `n` places later in playing order.
    #[must_use]
    pub const fn plus(self, n: usize) -> Self {
        Self(SeatNo::wrapping(self.index().wrapping_add(n)))
    }

    /// How many places after `from` this seat plays (0..=3).
    #[must_use]
    pub const fn distance_from(self, from: Self) -> usize {
        (self.index() + 4 - from.index()) & 3
    }

    /// The partner across the table.
    #[must_use]
    pub const fn partner(self) -> Self {
        self.plus(2)
    }

    /// The seat's team: seats 0+2 are team 0, seats 1+3 team 1.
    #[must_use]
    pub const fn team(self) -> Team {
        if self.index() & 1 == 0 { Team::Zero } else { Team::One }
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat({})", self.index())
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index())
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> Self {
        s.0 as Self
    }
}

/// A number that is no seat.
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
#[error("seat must be 0, 1, 2 or 3, not {0}")]
pub struct NoSeat(pub u8);

impl TryFrom<u8> for Seat {
    type Error = NoSeat;

    fn try_from(n: u8) -> Result<Self, NoSeat> {
        Self::new(n).ok_or(NoSeat(n))
    }
}

/// A partnership: team 0 = seats 0 and 2, team 1 = seats 1 and 3. On the wire, its
/// number.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Team {
    /// Seats 0 and 2.
    Zero,
    /// Seats 1 and 3.
    One,
}

impl Team {
    /// Both teams.
    pub const ALL: [Self; 2] = [Self::Zero, Self::One];

    /// 0 or 1.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other team.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::Zero => Self::One,
            Self::One => Self::Zero,
        }
    }

    /// The team's two seats.
    #[must_use]
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Self::Zero => [Seat::ALL[0], Seat::ALL[2]],
            Self::One => [Seat::ALL[1], Seat::ALL[3]],
        }
    }
}

impl From<Team> for u8 {
    fn from(t: Team) -> Self {
        t as Self
    }
}

/// A number that is no team.
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
#[error("team must be 0 or 1, not {0}")]
pub struct NoTeam(pub u8);

impl TryFrom<u8> for Team {
    type Error = NoTeam;

    fn try_from(n: u8) -> Result<Self, NoTeam> {
        match n {
            0 => Ok(Self::Zero),
            1 => Ok(Self::One),
            _ => Err(NoTeam(n)),
        }
    }
}
