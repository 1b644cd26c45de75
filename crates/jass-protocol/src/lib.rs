//! Wire types of the table protocol, the one source of truth for `protocol.md`
//! (a test parses every JSON example of that document against these types).
//!
//! # Layout
//! - [`ClientMsg`]: client → server WebSocket frames.
//! - [`ServerMsg`]: server → client WebSocket frames, with [`TableView`].
//! - [`http`]: the JSON bodies of the HTTP API (create, join, table info).
//! - [`name`]: what a player name may hold (protocol.md 1).
//! - [`review`]: the review of a finished round (protocol.md, "Round review").
//! - [`ErrorCode`] and [`close`]: stable error and close codes.
//! - `object`: [`ServerMsg`] decodes from a JSON object only.
//!
//! # Example
//! ```
//! use jass_protocol::ClientMsg;
//! let m: ClientMsg = serde_json::from_str(r#"{"type":"play","card":"HJ","version":41,"id":7}"#).unwrap();
//! assert!(matches!(m, ClientMsg::Play { .. }));
//! assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"play","card":"H1"}"#).is_err());
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod http;
pub mod name;
mod object;
pub mod review;

use jass_engine::{Action, BySeat, Card, CardSet, Contract, Options, Preset, Seat, SeatView};
use serde::{Deserialize, Serialize};

/// The protocol version a client names in its `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest text frame the server accepts, in bytes; larger ones close with 1009.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// A client → server frame. Unknown types and unknown fields are refused
/// (`bad_message`), so a typo never does something else.
///
/// One rule for all (protocol.md 2.4): every message may carry an `id`, and the one
/// answer to it (`welcome` for `hello`, `pong` for `ping`, else `ack` or `error`)
/// echoes it; every game action (`schiebe`, `choose`, `play`, `stoeck`, `bedanke`)
/// may carry a `version`. Lobby controls, `rematch`, `hello` and `ping` act on no
/// game state a client could have decided on, and take no `version`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// First frame on every connection. Without a token the connection is a spectator.
    Hello {
        /// Must be [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The seat token from create or join; never put it in a URL.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// Echoed in the `welcome` (or the `error` refusing the hello).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Push the choice of contract to the partner (R3).
    Schiebe {
        /// The `version` of the state this was decided on; a stale one is refused.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// Echoed in the `ack` or `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Choose the contract (R3).
    Choose {
        /// The contract.
        contract: Contract,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Play a card (R5), with the first card optionally declaring Weis (R6) and with
    /// any card optionally announcing Stöck (R7).
    Play {
        /// The card.
        card: Card,
        /// Declared Weis, each as its cards.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        weis: Vec<CardSet>,
        /// Announce Stöck with this card.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stoeck: bool,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Announce Stöck without playing (R7).
    Stoeck {
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Claim the win (R10). Without a `version` it is a claim about "now" (the order
    /// in which the table receives claims decides races); with one, it is refused
    /// `stale` if the table has moved on, like any other game action.
    Bedanke {
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host: start the game once four are seated.
    Start {
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host, before the start: exchange the occupants of two seats (either may be free).
    SwapSeats {
        /// One seat.
        a: Seat,
        /// The other seat.
        b: Seat,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host: free a seat and revoke its token (before the start, or to replace a
    /// player who left).
    FreeSeat {
        /// The seat.
        seat: Seat,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host: put a computer player in a free seat (before the start, or during a game
    /// to fill a seat freed for a player who left). `free_seat` removes it again.
    AddComputer {
        /// The seat.
        seat: Seat,
        /// How strong it plays; default `normal`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<Level>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host, during a game: the computer plays a human's seat from now on. The player
    /// keeps the seat and its token and watches (no hand) until `give_back`.
    GiveToComputer {
        /// The seat.
        seat: Seat,
        /// How strong the computer plays it; default `normal`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<Level>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host: give a seat the computer plays since `give_to_computer` back to its player.
    GiveBack {
        /// The seat.
        seat: Seat,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host, before the start: change the options (a preset, then overrides).
    SetOptions {
        /// Base preset (R11); default `swisslos`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        preset: Option<Preset>,
        /// Option overrides: any subset of the fields of `options`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<serde_json::Map<String, serde_json::Value>>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Host, before the start: change the timing (step-in and move clock). Fields left
    /// out keep their value.
    SetTiming {
        /// Seconds before the computer plays for an absent player; 0: never.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step_in: Option<u32>,
        /// Seconds per decision; 0: no move clock.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_clock: Option<u32>,
        /// Reserve seconds per player per game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reserve: Option<u32>,
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// After the game: vote for a rematch; when all four have voted a new game starts
    /// with the same seats and options.
    Rematch {
        /// As for `schiebe`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// Application-level ping; answered with `pong` carrying the same `t`.
    Ping {
        /// Any number, echoed.
        t: u64,
        /// Echoed in the `pong`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

impl ClientMsg {
    /// Every message's `type` on the wire, in the order of [`ClientMsg::type_index`].
    pub const TYPES: [&'static str; 16] = [
        "hello",
        "schiebe",
        "choose",
        "play",
        "stoeck",
        "bedanke",
        "start",
        "swap_seats",
        "free_seat",
        "set_options",
        "rematch",
        "ping",
        "add_computer",
        "set_timing",
        "give_to_computer",
        "give_back",
    ];

    /// This message's place in [`ClientMsg::TYPES`] (per-type counters index by it).
    #[must_use]
    pub const fn type_index(&self) -> usize {
        match self {
            Self::Hello { .. } => 0,
            Self::Schiebe { .. } => 1,
            Self::Choose { .. } => 2,
            Self::Play { .. } => 3,
            Self::Stoeck { .. } => 4,
            Self::Bedanke { .. } => 5,
            Self::Start { .. } => 6,
            Self::SwapSeats { .. } => 7,
            Self::FreeSeat { .. } => 8,
            Self::SetOptions { .. } => 9,
            Self::Rematch { .. } => 10,
            Self::Ping { .. } => 11,
            Self::AddComputer { .. } => 12,
            Self::SetTiming { .. } => 13,
            Self::GiveToComputer { .. } => 14,
            Self::GiveBack { .. } => 15,
        }
    }

    /// This message's `type` on the wire.
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "`type_index` is one of 0..16, and `TYPES` has 16 names")]
    pub const fn type_name(&self) -> &'static str {
        Self::TYPES[self.type_index()]
    }

    /// The request id, echoed in the reply.
    #[must_use]
    pub const fn id(&self) -> Option<u64> {
        match self {
            Self::Schiebe { id, .. }
            | Self::Choose { id, .. }
            | Self::Play { id, .. }
            | Self::Stoeck { id, .. }
            | Self::Bedanke { id, .. }
            | Self::Start { id }
            | Self::SwapSeats { id, .. }
            | Self::FreeSeat { id, .. }
            | Self::AddComputer { id, .. }
            | Self::GiveToComputer { id, .. }
            | Self::GiveBack { id, .. }
            | Self::SetTiming { id, .. }
            | Self::SetOptions { id, .. }
            | Self::Rematch { id }
            | Self::Hello { id, .. }
            | Self::Ping { id, .. } => *id,
        }
    }

    /// The state version the client decided on, for the stale check.
    #[must_use]
    pub const fn version(&self) -> Option<u64> {
        match self {
            Self::Schiebe { version, .. }
            | Self::Choose { version, .. }
            | Self::Play { version, .. }
            | Self::Stoeck { version, .. }
            | Self::Bedanke { version, .. } => *version,
            _ => None,
        }
    }

    /// The game action this message carries, if it is one.
    #[must_use]
    pub fn game_action(&self) -> Option<Action> {
        Some(match self {
            Self::Schiebe { .. } => Action::Schiebe,
            Self::Choose { contract, .. } => Action::Choose { contract: *contract },
            Self::Play { card, weis, stoeck, .. } => {
                Action::Play { card: *card, weis: weis.clone(), stoeck: *stoeck }
            }
            Self::Stoeck { .. } => Action::Stoeck,
            Self::Bedanke { .. } => Action::Bedanke,
            _ => return None,
        })
    }
}

/// A server → client frame. `type` is written first; a client that decodes many
/// `state`s can read them straight from the text on that basis (as `jass-bot` does)
/// instead of through this derived decoder, which buffers a tagged enum first.
/// (`remote = "Self"`: the derived code is wrapped by the trait impls in `object`,
/// which accept only a JSON object, as protocol.md writes every frame.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMsg {
    /// Reply to `hello`.
    Welcome {
        /// The server's protocol version.
        protocol: u32,
        /// The table id.
        table: String,
        /// The seat this connection plays; `null` for a spectator.
        seat: Option<Seat>,
        /// Server name and version.
        server: String,
        /// The `hello`'s `id`, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
    /// The full state as this connection may see it; sent after `welcome` and after
    /// every change. Replace the previous one entirely.
    State {
        /// Increases with every change; send it back as `version` with actions.
        version: u64,
        /// The view.
        view: Box<TableView>,
    },
    /// A request was accepted.
    Ack {
        /// The request's `id`.
        id: Option<u64>,
    },
    /// A request was refused; nothing changed.
    Error {
        /// The request's `id`, if it had one.
        id: Option<u64>,
        /// Stable code.
        code: ErrorCode,
        /// Human-readable detail; do not parse.
        message: String,
    },
    /// Reply to `ping`.
    Pong {
        /// The ping's `t`.
        t: u64,
        /// The ping's `id`, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
    },
}

/// A seat at the table as everybody sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInfo {
    /// The player's name, `null` while the seat is free.
    pub name: Option<String>,
    /// A computer player holds the seat (its name is then the server's, e.g.
    /// "Ueli"); absent (false) for a human or a free seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computer: bool,
    /// The level of a computer seat's player; omitted for `normal`, for a human and
    /// for a free seat (a stand-in plays at `normal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    /// Whether the player has a live connection whose peer was heard from lately
    /// (a seat is shown away after a short silence, protocol.md 2.5).
    pub connected: bool,
    /// The computer is playing this seat for now, although no computer holds it: its
    /// player is away (step-in), ran out of time (move clock), the seat was freed
    /// during the game, or its new player takes over at the next deal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
    /// The seat's player joined during a round and takes over at the next deal; until
    /// then they see no hand and the computer plays the seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub waiting: bool,
    /// The host gave the seat to the computer (`give_to_computer`): the computer plays
    /// it, its player (`name`) watches without a hand until the host gives it back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub benched: bool,
}

/// What one connection sees of the table: the lobby, and the engine's seat view once
/// the game has started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableView {
    /// The table id.
    pub table: String,
    /// This connection's seat; `null` for a spectator.
    pub you: Option<Seat>,
    /// The host's seat (may move players and start).
    pub host: Seat,
    /// The four seats in playing order (R1).
    pub seats: [SeatInfo; 4],
    /// Spectators connected.
    pub spectators: u32,
    /// The options in force.
    pub options: Options,
    /// Number of games started at this table (rematches count).
    pub games: u32,
    /// Rematch votes by seat, after a game.
    pub rematch: BySeat<bool>,
    /// The table's timing: step-in for absent players and the move clock.
    #[serde(default)]
    pub timing: Timing,
    /// The running deadline of the seat to act, while a game is on and it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TurnClock>,
    /// Each seat's move-clock reserve left in this game, in milliseconds (only while
    /// the move clock is on and a game has started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve: Option<BySeat<u32>>,
    /// The game, once started: the engine's allow-list view for this connection.
    pub game: Option<SeatView>,
    /// The latest round (from 0) of the current game whose review is ready
    /// (protocol.md, "Round review"); left out until one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_ready: Option<u32>,
}

/// How strong a computer seat plays, as the host chose it (protocol.md 3, "Computer
/// levels"); one type with the records' and the computer player's.
pub use jass_engine::Level;

/// How long the table waits for a player before the computer plays for them
/// (protocol.md 3, "Step-in and move clock"). All in whole seconds; 0 turns a part off.
/// (`remote = "Self"`: decoded from a JSON object only, see `object`; an array of the
/// three numbers is refused as malformed.)
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", default, deny_unknown_fields)]
pub struct Timing {
    /// The computer plays for a player who is disconnected or away after this long
    /// on their turn, and at once for as long as they stay away. 0: never.
    pub step_in: u32,
    /// Move clock: seconds per decision. 0: no clock (a present player may take as
    /// long as they like).
    pub move_clock: u32,
    /// Move clock: extra seconds per player per game, used up after `move_clock`.
    pub reserve: u32,
}

impl Default for Timing {
    fn default() -> Self {
        Self { step_in: 20, move_clock: 0, reserve: 60 }
    }
}

impl Timing {
    /// Accepted ranges: step-in 0 or 5–600 s, move clock 0 or 5–300 s, reserve
    /// 0–3600 s.
    ///
    /// # Errors
    /// A value out of range, named.
    pub fn validate(&self) -> Result<(), String> {
        if self.step_in != 0 && !(5..=600).contains(&self.step_in) {
            return Err(format!("step_in must be 0 or 5–600 seconds, not {}", self.step_in));
        }
        if self.move_clock != 0 && !(5..=300).contains(&self.move_clock) {
            return Err(format!("move_clock must be 0 or 5–300 seconds, not {}", self.move_clock));
        }
        if self.reserve > 3600 {
            return Err(format!("reserve must be 0–3600 seconds, not {}", self.reserve));
        }
        Ok(())
    }
}

/// Why the seat to act has a deadline.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deadline {
    /// The move clock: its seconds per decision and then the seat's reserve.
    MoveClock,
    /// The player is away: the computer steps in then.
    StepIn,
}

/// The countdown of the seat to act.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnClock {
    /// The seat whose decision it is.
    pub seat: Seat,
    /// Why it has a deadline.
    pub kind: Deadline,
    /// When the computer moves for it, in the server's Unix milliseconds.
    pub deadline: u64,
    /// The server's Unix milliseconds when this state was made: draw `deadline − now`
    /// from the moment the state arrived, whatever the client's own clock says.
    pub now: u64,
}

/// Stable error codes (snake_case on the wire).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, an unknown type, a missing or unknown field, a wrong type, a binary frame.
    BadMessage,
    /// The first message must be `hello`; or a second `hello`.
    HelloExpected,
    /// `hello` named another protocol version.
    UnsupportedProtocol,
    /// No such table.
    UnknownTable,
    /// The token matches no seat of this table.
    BadToken,
    /// A spectator tried to act.
    NotSeated,
    /// Only the host may do that.
    NotHost,
    /// The action was decided on an older state version.
    Stale,
    /// Too many messages; the connection closes if it goes on.
    RateLimited,
    /// The seat asked for is taken.
    SeatTaken,
    /// No seat is free.
    TableFull,
    /// Options out of range or unknown.
    BadOptions,
    /// The game has already started (lobby actions).
    AlreadyStarted,
    /// No game is running (game actions before the start).
    NotStarted,
    /// Start needs four seated players.
    NotEnoughPlayers,
    /// Rematch before the game is over.
    GameNotOver,
    /// The server is at its limit of tables or connections (or this address is at its own).
    Busy,
    /// The WebSocket's `Origin` is neither the server's own nor an allowed one; a
    /// browser page on another site must not play with a visitor's stored token.
    BadOrigin,
    /// Names must be 1–24 characters.
    BadName,
    /// The seat's player joined during a round and takes over at the next deal.
    WaitingForDeal,
    /// The host gave the seat to the computer; its player watches until given it back.
    Benched,
    /// Timing out of range (`set_timing`).
    BadTiming,
    /// Engine: the game is over.
    GameOver,
    /// Engine: another seat must act.
    NotYourTurn,
    /// Engine: the action does not fit the phase.
    WrongPhase,
    /// Engine: cannot push (again).
    CannotPush,
    /// Engine: the card is not in the hand.
    CardNotHeld,
    /// Engine: the card is not legal (R5).
    IllegalCard,
    /// Engine: Weis only with the first card (R6).
    WeisTooLate,
    /// Engine: an invalid Weis declaration (R6).
    InvalidWeis,
    /// Engine: no Weis or Stöck with fixed rounds.
    NotInFixedRounds,
    /// Engine: Stöck not held.
    StoeckNotHeld,
    /// Engine: Stöck already announced.
    StoeckAlreadyAnnounced,
    /// Engine: too late for Stöck (R7).
    StoeckTooLate,
    /// Engine: bedanken is off at this table.
    BedankeNotAllowed,
    /// The server failed; the state is unchanged.
    Internal,
    /// No finished game of that number is kept at this table (`GET .../record?game=N`).
    UnknownGame,
    /// The round asked for is not over (or not played yet): nothing of a round is
    /// reviewed before it ends (`GET .../rounds/N/review`).
    RoundNotOver,
    /// The operator's counters (`/api/stats`) answer only the server's own machine
    /// or a request with the configured token.
    OperatorOnly,
}

impl ErrorCode {
    /// The code for an engine refusal.
    #[must_use]
    pub const fn from_rule(e: &jass_engine::RuleError) -> Self {
        use jass_engine::RuleError as R;
        match e {
            R::GameOver => Self::GameOver,
            R::NotYourTurn { .. } => Self::NotYourTurn,
            R::WrongPhase(_) => Self::WrongPhase,
            R::CannotPush(_) => Self::CannotPush,
            R::CardNotHeld(_) => Self::CardNotHeld,
            R::IllegalCard { .. } => Self::IllegalCard,
            R::WeisTooLate => Self::WeisTooLate,
            R::InvalidWeis(_) => Self::InvalidWeis,
            R::NoExtras => Self::NotInFixedRounds,
            R::StoeckNotHeld => Self::StoeckNotHeld,
            R::StoeckAlreadyAnnounced => Self::StoeckAlreadyAnnounced,
            R::StoeckTooLate => Self::StoeckTooLate,
            R::BedankeNotAllowed => Self::BedankeNotAllowed,
        }
    }

    /// The wire string.
    #[must_use]
    pub fn as_str(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }
}

/// WebSocket close codes the server uses.
pub mod close {
    /// The client closed, or the game table was deleted.
    pub const NORMAL: u16 = 1000;
    /// A WebSocket protocol violation (e.g. a bad frame or a continuation out of order).
    pub const PROTOCOL_ERROR: u16 = 1002;
    /// A frame was not valid UTF-8.
    pub const INVALID_UTF8: u16 = 1007;
    /// Rate limit exceeded (a flood).
    pub const RATE_LIMITED: u16 = 1008;
    /// A frame over [`MAX_MESSAGE_BYTES`](crate::MAX_MESSAGE_BYTES).
    pub const TOO_BIG: u16 = 1009;
    /// The server is restarting; reconnect with the same token.
    pub const SERVICE_RESTART: u16 = 1012;
    /// A limit is reached for now (this table's spectators); try again later.
    pub const TRY_AGAIN_LATER: u16 = 1013;
    /// Another connection took this seat (same token).
    pub const REPLACED: u16 = 4001;
    /// The token matches no seat (or was revoked by the host).
    pub const BAD_TOKEN: u16 = 4003;
    /// No such table.
    pub const UNKNOWN_TABLE: u16 = 4004;
    /// No `hello` in time, or `hello` with an unsupported protocol.
    pub const HELLO_TIMEOUT: u16 = 4008;
    /// Too many malformed messages.
    pub const TOO_MANY_ERRORS: u16 = 4009;
}

/// Why a preset with overrides gives no options (`bad_options` on the wire).
#[derive(Debug, thiserror::Error)]
pub enum OptionsFromError {
    /// An unknown field or a value of the wrong type.
    #[error("{0}")]
    Shape(#[from] serde_json::Error),
    /// Values the engine refuses (out of range).
    #[error("{0}")]
    Range(#[from] jass_engine::OptionsError),
}

/// Options from a preset with overrides: any subset of the option fields, and of the
/// fields of a nested option (`{"multipliers": {"spades": 4}}` changes one multiplier
/// and keeps the preset's others).
///
/// # Errors
/// An unknown field, a wrong type, or a value out of range.
pub fn options_from(
    preset: Option<Preset>,
    overrides: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Result<Options, OptionsFromError> {
    let base = Options::preset(preset.unwrap_or_default());
    let mut value = serde_json::to_value(base)?;
    if let (Some(obj), Some(over)) = (value.as_object_mut(), overrides) {
        merge(obj, over);
    }
    let options: Options = serde_json::from_value(value)?;
    options.validate()?;
    Ok(options)
}

/// Lays `over` onto `base`: an object onto an object merges field by field, anything
/// else replaces. Unknown fields are kept, so the decoder after it refuses them.
fn merge(
    base: &mut serde_json::Map<String, serde_json::Value>,
    over: &serde_json::Map<String, serde_json::Value>,
) {
    for (k, v) in over {
        match (base.get_mut(k), v) {
            (Some(serde_json::Value::Object(inner)), serde_json::Value::Object(sub)) => merge(inner, sub),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}
