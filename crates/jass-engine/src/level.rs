//! How strong a computer seat plays, as the host of a table chooses it (protocol.md 3,
//! "Computer levels"). It lives with the records because a record says who played: the
//! wire (`jass_protocol`) and the computer player (`jass_ai`, where a level becomes
//! settings) use this one type.

use serde::{Deserialize, Serialize};

/// A computer seat's level.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// For beginners: few playouts and no exact solving, so it misses what a longer
    /// look would find, but it still plays legal and sensible cards.
    Easy,
    /// The table's usual computer (the load bench's targets were measured with it).
    #[default]
    Normal,
    /// Normal, plus each sampled deal solved exactly late in the round.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Self; 3] = [Self::Easy, Self::Normal, Self::Strong];

    /// The level as views and records show it: `None` for `normal`, the default, so
    /// what was written before levels existed reads the same.
    #[must_use]
    pub const fn shown(self) -> Option<Self> {
        match self {
            Self::Normal => None,
            other => Some(other),
        }
    }
}
