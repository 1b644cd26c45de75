//! Keeps protocol.md honest: the document is the contract client authors read, so every
//! example in it must be exactly what the server's types produce.
//!
//! - Every fenced ```` ```json ```` block must parse as exactly one of the wire types
//!   ([`ClientMsg`], [`ServerMsg`], the [`http`] bodies) or as an engine
//!   [`Record`] / [`Options`], and re-serializing it must give the **same JSON value**
//!   (key order and whitespace aside). There is deliberately no normalization (no
//!   dropping of nulls or defaults): a block shows the exact wire shape, including the
//!   `null`s the server sends and the optional fields a client may leave out (the
//!   client types skip those when absent, so an omitted field round-trips as omitted).
//!   "Exactly one" keeps examples unambiguous: a block that fits two types is refused.
//! - Every [`ErrorCode`] variant and every close code constant (read from the protocol
//!   crate's source, so a new one cannot be forgotten) is in protocol.md's tables, and
//!   every code in those tables exists.
//! - The golden shuffle vector of section 6.2 is recomputed twice, from the algorithm as
//!   the document states it and by the engine's `deal`, and must match the document.
//!
//! To regenerate the golden table: `PRINT_GOLDEN=1 cargo test -p jass-protocol --test
//! protocol_md -- --nocapture golden`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use jass_engine::{Card, CardSet, Options, Record, Seat, Seed, deal};
use jass_protocol::http::{
    ApiError, CreateTable, JoinTable, Joined, PracticeTable, Presets, Rounds, TableInfo,
};
use jass_protocol::review::RoundReview;
use jass_protocol::{ClientMsg, ErrorCode, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ServerMsg};
use rand::rngs::ChaCha20Rng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn read(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn protocol_md() -> String {
    read("../../protocol.md")
}

/// A fenced block: its info string, the 1-based line of its opening fence, its text.
struct Block {
    lang: String,
    line: usize,
    text: String,
}

/// Fenced code blocks, also inside list items (indented fences).
fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, raw) in md.lines().enumerate() {
        let line = raw.trim_start();
        match open.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some(Block { lang: info.trim().to_owned(), line: i + 1, text: String::new() });
                }
            }
            Some(b) => {
                if line.trim_end() == "```" {
                    out.extend(open.take());
                } else {
                    b.text.push_str(raw);
                    b.text.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "protocol.md: a code fence is never closed");
    out
}

/// Parses `value` as `T` and re-serializes it; `Ok` only if the JSON is unchanged.
fn round_trip<T: DeserializeOwned + Serialize>(value: &Value) -> Result<(), String> {
    let parsed: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    let again = serde_json::to_value(&parsed).map_err(|e| e.to_string())?;
    if &again == value { Ok(()) } else { Err(format!("parses, but re-serializes as {again}")) }
}

/// Checks that a JSON value is one wire type, unchanged by a round trip.
type Check = fn(&Value) -> Result<(), String>;

/// Every type a block may show, in the order a reader would guess them.
fn kinds() -> Vec<(&'static str, Check)> {
    vec![
        ("ClientMsg", round_trip::<ClientMsg>),
        ("ServerMsg", round_trip::<ServerMsg>),
        ("http::CreateTable", round_trip::<CreateTable>),
        ("http::JoinTable", round_trip::<JoinTable>),
        ("http::PracticeTable", round_trip::<PracticeTable>),
        ("http::Joined", round_trip::<Joined>),
        ("http::TableInfo", round_trip::<TableInfo>),
        ("http::ApiError", round_trip::<ApiError>),
        ("http::Rounds", round_trip::<Rounds>),
        ("http::Presets", round_trip::<Presets>),
        ("jass_engine::Record", round_trip::<Record>),
        ("jass_engine::Options", round_trip::<Options>),
        ("review::RoundReview", round_trip::<RoundReview>),
    ]
}

#[test]
fn every_json_block_is_exactly_one_wire_type() {
    let md = protocol_md();
    let json: Vec<Block> = blocks(&md).into_iter().filter(|b| b.lang == "json").collect();
    assert!(json.len() >= 20, "expected the document's examples, found only {} json blocks", json.len());
    let mut failures = Vec::new();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for b in &json {
        let value: Value = match serde_json::from_str(&b.text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("protocol.md:{}: not JSON: {e}", b.line));
                continue;
            }
        };
        let mut matched = Vec::new();
        let mut errors = Vec::new();
        for (name, check) in kinds() {
            match check(&value) {
                Ok(()) => matched.push(name),
                Err(e) => errors.push(format!("    as {name}: {e}")),
            }
        }
        match matched.as_slice() {
            [one] => *seen.entry(one).or_default() += 1,
            [] => failures.push(format!(
                "protocol.md:{}: the block is none of the wire types:\n{}",
                b.line,
                errors.join("\n")
            )),
            many => failures.push(format!("protocol.md:{}: ambiguous, parses as {many:?}", b.line)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The document must show at least the basic shapes of both directions.
    for needed in ["ClientMsg", "ServerMsg", "http::Joined", "http::ApiError", "jass_engine::Options"] {
        assert!(seen.contains_key(needed), "protocol.md has no example of {needed}");
    }
}

/// Non-json fences are allowed only for text a test does not need to check.
#[test]
fn no_unlabelled_json_blocks() {
    for b in blocks(&protocol_md()) {
        if b.lang.is_empty() && b.text.trim_start().starts_with('{') {
            panic!("protocol.md:{}: a JSON-looking block without the json label escapes the check", b.line);
        }
    }
}

/// The body of the enum or module named by `header` in the protocol crate's source.
fn source_section<'a>(src: &'a str, header: &str) -> &'a str {
    let start =
        src.find(header).unwrap_or_else(|| panic!("`{header}` not found in jass-protocol/src/lib.rs"));
    let rest = &src[start..];
    let end = rest.find("\n}").unwrap_or(rest.len());
    &rest[..end]
}

fn snake_case(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The rows `| a | b | …` of the markdown table that follows `heading`.
fn table_rows(md: &str, heading: &str) -> Vec<Vec<String>> {
    let start = md.find(heading).unwrap_or_else(|| panic!("protocol.md has no heading {heading:?}"));
    md[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("|---"))
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_owned()).collect())
        .collect()
}

/// Backticked words in a table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn every_error_code_is_documented_and_every_documented_code_exists() {
    let src = read("src/lib.rs");
    let body = source_section(&src, "pub enum ErrorCode {");
    let variants: Vec<String> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with('#') && l.ends_with(','))
        .map(|l| l.trim_end_matches(',').to_owned())
        .collect();
    assert!(variants.len() >= 30, "found only {} ErrorCode variants in the source", variants.len());
    let md = protocol_md();
    let rows = table_rows(&md, "## 7. Error codes");
    let documented: Vec<String> = rows.iter().skip(1).flat_map(|r| ticked(&r[0])).collect();
    for v in &variants {
        let wire = snake_case(v);
        let code: ErrorCode = serde_json::from_value(Value::String(wire.clone()))
            .unwrap_or_else(|e| panic!("variant {v} is not spelled {wire:?} on the wire: {e}"));
        assert_eq!(code.as_str(), wire);
        assert!(documented.contains(&wire), "error code `{wire}` is missing from protocol.md section 7");
    }
    for d in &documented {
        assert!(
            serde_json::from_value::<ErrorCode>(Value::String(d.clone())).is_ok(),
            "protocol.md section 7 documents `{d}`, which is no ErrorCode"
        );
    }
    assert_eq!(documented.len(), variants.len(), "section 7 lists a code twice");
}

#[test]
fn every_close_code_is_documented_and_every_documented_code_exists() {
    let src = read("src/lib.rs");
    let body = source_section(&src, "pub mod close {");
    let consts: Vec<(String, u16)> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter_map(|l| {
            let (name, rest) = l.split_once(':')?;
            let value = rest.split('=').nth(1)?.trim().trim_end_matches(';').parse().ok()?;
            Some((name.to_owned(), value))
        })
        .collect();
    assert!(consts.len() >= 10, "found only {} close codes in the source", consts.len());
    // The source scan must agree with the compiled constants.
    use jass_protocol::close;
    for (name, value) in [
        ("NORMAL", close::NORMAL),
        ("INVALID_UTF8", close::INVALID_UTF8),
        ("RATE_LIMITED", close::RATE_LIMITED),
        ("TOO_BIG", close::TOO_BIG),
        ("SERVICE_RESTART", close::SERVICE_RESTART),
        ("REPLACED", close::REPLACED),
        ("BAD_TOKEN", close::BAD_TOKEN),
        ("UNKNOWN_TABLE", close::UNKNOWN_TABLE),
        ("HELLO_TIMEOUT", close::HELLO_TIMEOUT),
        ("TOO_MANY_ERRORS", close::TOO_MANY_ERRORS),
    ] {
        assert!(consts.contains(&(name.to_owned(), value)), "close::{name} = {value} not found by the scan");
    }
    let md = protocol_md();
    let documented: Vec<u16> = table_rows(&md, "## 8. Close codes")
        .iter()
        .skip(1)
        .map(|r| r[0].parse().unwrap_or_else(|_| panic!("section 8: {:?} is not a close code", r[0])))
        .collect();
    for (name, value) in &consts {
        assert!(documented.contains(value), "close::{name} ({value}) is missing from protocol.md section 8");
    }
    for d in &documented {
        assert!(
            consts.iter().any(|(_, v)| v == d),
            "protocol.md section 8 documents {d}, which is no constant"
        );
    }
}

#[test]
fn limits_and_version_match_the_crate() {
    let md = protocol_md();
    assert!(md.contains(&format!("frames up to {MAX_MESSAGE_BYTES} bytes")));
    assert!(md.contains(&format!("a frame over {MAX_MESSAGE_BYTES} bytes")));
    assert!(md.contains(&format!("# The Schieber table protocol, version {PROTOCOL_VERSION}")));
    assert!(md.contains(&format!("\"protocol\": {PROTOCOL_VERSION}")));
}

/// The seed of the golden vector: bytes 00 01 02 … 1f.
const GOLDEN_SEED: [u8; 32] = {
    let mut s = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        s[i] = i as u8;
        i += 1;
    }
    s
};

/// Step 2 of protocol.md 6.2, written from the document's text (not the engine's code).
fn uniform(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let zone = (4_294_967_295u64 - (4_294_967_296u64 % u64::from(n))) as u32;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % n;
        }
    }
}

/// The golden rows as protocol.md 6.2 shows them, computed from the document's steps
/// 1–7, and cross-checked against the engine's `deal`.
fn golden_rows() -> Vec<(String, String)> {
    let seed = Seed(GOLDEN_SEED);
    let mut rng = ChaCha20Rng::from_seed(GOLDEN_SEED);
    let first8: Vec<String> = (0..8).map(|_| rng.next_u32().to_string()).collect();

    let mut rng = ChaCha20Rng::from_seed(GOLDEN_SEED);
    let mut deck: Vec<u32> = (0..36).collect();
    for i in (1..36usize).rev() {
        let j = uniform(&mut rng, i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    let drawn = uniform(&mut rng, 4) as usize;
    let card = |i: u32| Card::from_index(i as u8).expect("index < 36");
    let mut hands = [CardSet::EMPTY; 4];
    for (p, &c) in deck.iter().enumerate() {
        let seat = (drawn + 1 + (p / 3) % 4) % 4;
        hands[seat] = hands[seat].with(card(c));
    }
    let h7: Card = "H7".parse().expect("a card");
    let forehand = hands.iter().position(|h| h.contains(h7)).expect("someone holds H7");

    // The engine must deal exactly what the document's algorithm deals.
    let engine = deal(seed, None);
    assert_eq!(engine.dealer, Seat::ALL[drawn], "engine and protocol.md 6.2 draw different dealers");
    assert_eq!(engine.hands, hands, "engine and protocol.md 6.2 deal different hands");
    assert_eq!(deal(seed, Some(Seat::ALL[drawn])), engine);

    let mut rows = vec![
        ("seed".to_owned(), seed.to_string()),
        ("commitment".to_owned(), seed.commitment().to_string()),
        ("first 8 next_u32()".to_owned(), first8.join(" ")),
        (
            "deck after step 4".to_owned(),
            deck.iter().map(|&c| card(c).to_string()).collect::<Vec<_>>().join(" "),
        ),
        ("drawn dealer".to_owned(), drawn.to_string()),
    ];
    for (s, h) in hands.iter().enumerate() {
        rows.push((format!("hand of seat {s}"), h.to_string()));
    }
    rows.push(("forehand (seven_of_hearts)".to_owned(), forehand.to_string()));
    rows
}

#[test]
fn golden_vector_matches_the_engine() {
    let rows = golden_rows();
    if std::env::var_os("PRINT_GOLDEN").is_some() {
        println!("| what | value |\n|---|---|");
        for (k, v) in &rows {
            println!("| {k} | `{v}` |");
        }
    }
    let md = protocol_md();
    let documented: BTreeMap<String, String> = table_rows(&md, "Golden vector")
        .into_iter()
        .skip(1)
        .map(|r| (r[0].clone(), r[1].trim_matches('`').to_owned()))
        .collect();
    for (k, v) in &rows {
        assert_eq!(documented.get(k), Some(v), "protocol.md 6.2 golden vector, row {k:?}");
    }
    assert_eq!(documented.len(), rows.len(), "protocol.md 6.2 golden vector has extra rows");
}

/// The presets example is what the server serves, to the last option.
#[test]
fn the_presets_example_is_the_engines_presets() {
    let md = protocol_md();
    let shown: Vec<Presets> = blocks(&md)
        .into_iter()
        .filter(|b| b.lang == "json")
        .filter_map(|b| serde_json::from_str::<Presets>(&b.text).ok())
        .collect();
    assert_eq!(shown, vec![Presets::all()]);
}
