//! Decoding [`ServerMsg`] without serde's buffering of internally tagged enums.
//!
//! A derived `#[serde(tag = "type")]` enum first copies the whole message into an
//! intermediate tree and then decodes that: for `state`, the full table view twice
//! over. That was about a quarter of a bot's CPU in the load bench. The server writes
//! `type` first, so a `state` is decoded straight from the stream here; any other
//! message, or a `type` that comes later, goes through the derived decoder unchanged
//! (the keys already read are replayed to it), so both accept exactly the same input.

use serde::de::value::{MapAccessDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::{ServerMsg, TableView};

/// The fields of [`ServerMsg::State`] after its tag.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateBody {
    version: u64,
    view: Box<TableView>,
}

impl<'de> Deserialize<'de> for ServerMsg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ServerMsgVisitor)
    }
}

impl Serialize for ServerMsg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The derived (inherent) encoder: `type` first.
        Self::serialize(self, s)
    }
}

struct ServerMsgVisitor;

impl<'de> Visitor<'de> for ServerMsgVisitor {
    type Value = ServerMsg;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a server message (an object with a `type`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ServerMsg, A::Error> {
        let mut head = Vec::with_capacity(1);
        if let Some(key) = map.next_key::<String>()? {
            let value: serde_json::Value = map.next_value()?;
            if key == "type" && value == "state" {
                let StateBody { version, view } = StateBody::deserialize(MapAccessDeserializer::new(map))?;
                return Ok(ServerMsg::State { version, view });
            }
            head.push((key, value));
        }
        ServerMsg::deserialize(MapAccessDeserializer::new(Replay {
            head: head.into_iter(),
            value: None,
            rest: map,
        }))
    }
}

/// A map whose first entries were already read: yields them again, then the rest.
struct Replay<A> {
    head: std::vec::IntoIter<(String, serde_json::Value)>,
    value: Option<serde_json::Value>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.head.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(StringDeserializer::<A::Error>::new(key)).map(Some)
            }
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value).map_err(de::Error::custom),
            None => self.rest.next_value_seed(seed),
        }
    }
}
