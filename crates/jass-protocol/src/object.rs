//! [`ServerMsg`] decodes from a JSON object only. serde's derived decoder of an
//! internally tagged enum also takes a sequence (`["pong",5,null]` as a `pong`), a
//! form no server writes; a client decoding frames should refuse it rather than guess.

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::ServerMsg;

impl<'de> Deserialize<'de> for ServerMsg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ObjectOnly)
    }
}

impl Serialize for ServerMsg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The derived (inherent) encoder: `type` first.
        Self::serialize(self, s)
    }
}

/// Hands an object to the derived decoder and refuses anything else.
struct ObjectOnly;

impl<'de> Visitor<'de> for ObjectOnly {
    type Value = ServerMsg;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a server message (an object with a `type`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ServerMsg, A::Error> {
        ServerMsg::deserialize(MapAccessDeserializer::new(map))
    }
}
