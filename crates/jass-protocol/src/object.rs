//! [`ClientMsg`] and [`ServerMsg`] decode from a JSON object only. serde's derived
//! decoder of an internally tagged enum also takes a sequence (`["pong",5,null]` as a
//! `pong`, `["schiebe"]` as a push), a form nobody writes: refused as `bad_message`
//! rather than guessed at. The same holds for every struct a client sends as an
//! object ([`Timing`], the request bodies of creating and joining): derived, they
//! would take `[20, 0, 60]` for a timing.

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::http::{CreateTable, JoinTable, PracticeTable};
use crate::{ClientMsg, ServerMsg, Timing};

/// The trait impls around a `#[serde(remote = "Self")]` derive: encode as derived,
/// decode through [`ObjectOnly`].
macro_rules! object_only {
    ($ty:ident, $what:literal) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_map(ObjectOnly::<$ty>(std::marker::PhantomData))
            }
        }

        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // The derived (inherent) encoder: `type` first.
                Self::serialize(self, s)
            }
        }

        impl<'de> Visitor<'de> for ObjectOnly<$ty> {
            type Value = $ty;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($what)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$ty, A::Error> {
                $ty::deserialize(MapAccessDeserializer::new(map))
            }
        }
    };
}

/// Hands an object to the derived decoder and refuses anything else.
struct ObjectOnly<T>(std::marker::PhantomData<T>);

object_only!(ClientMsg, "a client message (an object with a `type`)");
object_only!(ServerMsg, "a server message (an object with a `type`)");
object_only!(Timing, "a timing (an object of `step_in`, `move_clock`, `reserve`)");
object_only!(CreateTable, "a new table (an object with a `name`)");
object_only!(JoinTable, "a player joining (an object with a `name`)");
object_only!(PracticeTable, "a practice table (an object with a `name` and a `round`)");
