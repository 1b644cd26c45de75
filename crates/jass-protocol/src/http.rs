//! JSON bodies of the HTTP API (protocol.md, "HTTP API").

use jass_engine::{Options, Preset, Seat};
use serde::{Deserialize, Serialize};

use crate::SeatInfo;

/// `POST /api/tables`: create a private table; the creator sits at seat 0 and hosts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct CreateTable {
    /// The host's name (1–24 characters).
    pub name: String,
    /// Base preset (R11); default `swisslos`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Overrides: any subset of the option fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Map<String, serde_json::Value>>,
    /// Step-in and move clock; default [`Timing::default`](crate::Timing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<crate::Timing>,
    /// "Play with computers": seat computer players in the three other seats and
    /// start the game at once (the host's partner is a computer too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computers: bool,
    /// With `computers`: the level of the three computers; default `normal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer_level: Option<crate::Level>,
}

/// "Replay this deal": a new table whose first round is a finished round dealt again
/// (R2 `first_dealer`), the caller in `seat` and computers in the three others, from
/// the deal or from any trick. `POST /api/tables/{table}/practice` deals a round of
/// that table (of its game `game`, default the latest; no `record`), so a balancer
/// sends it to the node that holds the table; `POST /api/practice` a round of the
/// record sent along (protocol.md 6.3; no `game`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct PracticeTable {
    /// The player's name (1–24 characters).
    pub name: String,
    /// The player's seat; default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// For a table's round: a kept game's number; default the table's latest game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<u32>,
    /// For `POST /api/practice`: the game's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<jass_engine::Record>,
    /// The round (0-based), which must be over.
    pub round: u32,
    /// Start at the first card of this trick (0–8), the contract and the tricks before
    /// it played as they were; absent: from the deal, the contract chosen anew.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trick: Option<u8>,
    /// The three computers' level; default `normal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer_level: Option<crate::Level>,
}

/// `POST /api/tables/{table}/seats`: take a free seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub struct JoinTable {
    /// The player's name (1–24 characters).
    pub name: String,
    /// The seat wanted; default the first free one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
}

/// Answer to create and join. The token is shown once: keep it to reconnect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joined {
    /// The table id.
    pub table: String,
    /// Your seat.
    pub seat: Seat,
    /// Your secret seat token; send it in `hello`.
    pub token: String,
    /// The share link path, e.g. `/t/{table}`.
    pub link: String,
}

/// `GET /api/tables/{table}`: what anyone with the link may see before joining.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableInfo {
    /// The table id.
    pub table: String,
    /// The seats.
    pub seats: [SeatInfo; 4],
    /// The options in force.
    pub options: Options,
    /// The timing in force.
    #[serde(default)]
    pub timing: crate::Timing,
    /// Whether a game has started.
    pub started: bool,
    /// Spectators connected.
    pub spectators: u32,
}

/// `GET /api/tables/{table}/rounds`: the scores of the rounds of the table's latest
/// game so far, for a client that joined or reloaded mid-game (every figure was shown
/// to the whole table as its round ended).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rounds {
    /// The table id.
    pub table: String,
    /// The game's number at this table (rematches count).
    pub game: u32,
    /// Every round scored so far, in order.
    pub rounds: Vec<jass_engine::RoundSummary>,
    /// The tricks of the last round in `rounds`, in order, to browse from its summary
    /// (views carry only its last trick, to stay small); omitted before the first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_round_tricks: Vec<jass_engine::CompletedTrick>,
}

/// `GET /api/presets`: the presets of R11 with every option they fill, so a client
/// offers them (and shows each option's default) without a copy of the engine's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Presets {
    /// The preset a table gets when none is asked for.
    pub default: Preset,
    /// Every preset, the default first.
    pub presets: Vec<PresetOptions>,
}

/// One preset and the whole set of options it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetOptions {
    /// Its name, as `preset` in a create or `set_options` takes it.
    pub name: Preset,
    /// The options it gives, before any override.
    pub options: Options,
}

impl Presets {
    /// The engine's presets.
    #[must_use]
    pub fn all() -> Self {
        let presets =
            Preset::ALL.iter().map(|&name| PresetOptions { name, options: Options::preset(name) }).collect();
        Self { default: Preset::default(), presets }
    }
}

/// Error body of every non-2xx API answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiError {
    /// Stable code, as on the WebSocket.
    pub code: crate::ErrorCode,
    /// Human-readable detail.
    pub message: String,
}
