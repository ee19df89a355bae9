//! A seat's view read with serde: each game's `view.rs` holds a `#[derive(Deserialize)]`
//! struct of the view `state.view(seat)` writes, every field named, none unknown; [`read`]
//! reads one, naming the path of what is wrong, and [`check`] reads only its shape. The
//! helpers here sit below the games and name none of them: which struct is which game's is
//! said by the Python bindings (`view_fields`, `check_view`), which stand above them all.
//!
//! [`fields_of`]: the field names a view's `Deserialize` knows, asked of serde itself: a probing
//! deserializer records the `fields` that serde's derived code passes to
//! `deserialize_struct` (the very list `deny_unknown_fields` checks against), then feeds
//! each field a placeholder value so that the nested structs are asked too.
//!
//! Paths name where a struct sits in the view: `""` the view itself, `"tricks[]"` each item
//! of its `tricks` list, `"previous_hand.tricks[]"` each of those inside `previous_hand`.
//! An optional field adds nothing to the path. Python holds its `TypedDict`s to these
//! names (tests/rules/test_view_schema.py), so that the two descriptions of a view cannot part.

use std::collections::BTreeMap;

use serde::de::value::{Error, StrDeserializer};
use serde::de::{
    DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};
use serde::ser::SerializeSeq;
use serde::{forward_to_deserialize_any, Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::cards::{card_text, cards, CardSet};
use crate::game::{actions_of, Game};

/// A seat's own hand and legal actions as its view writes them (`None`, a spectator's
/// view: neither): the cards' texts, and the actions' texts while it is to move, else none.
pub(crate) fn own_part<G: Game>(
    state: &G,
    seat: Option<usize>,
    hand: impl Fn(usize) -> CardSet,
) -> (Option<Vec<String>>, Option<Vec<String>>) {
    let Some(seat) = seat else {
        return (None, None);
    };
    let legal = if state.to_move() == Some(seat) {
        actions_of(state.legal_mask())
    } else {
        Vec::new()
    };
    (
        Some(cards(hand(seat)).map(card_text).collect()),
        Some(legal.into_iter().map(G::action_text).collect()),
    )
}

/// Each seat's count of cards in hand, as every game's view writes `hand_sizes`.
pub(crate) fn hand_sizes(hands: &[CardSet]) -> Vec<i64> {
    hands.iter().map(|h| i64::from(h.count_ones())).collect()
}

/// Two values a view writes as a list of two (a play `[seat, "7D"]`, an exchange
/// `[seat, "keep"]`), as the Python engine writes them: written as a sequence, so that it
/// becomes a Python list, where a Rust tuple would become a tuple. Read as a pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair<A, B>(pub A, pub B);

impl<A: Serialize, B: Serialize> Serialize for Pair<A, B> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(2))?;
        seq.serialize_element(&self.0)?;
        seq.serialize_element(&self.1)?;
        seq.end()
    }
}

impl<'de, A: Deserialize<'de>, B: Deserialize<'de>> Deserialize<'de> for Pair<A, B> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (a, b) = <(A, B)>::deserialize(deserializer)?;
        Ok(Pair(a, b))
    }
}

/// A view read into its struct; the error names the path to what is wrong
/// (`tricks[2].plays[0]: invalid type: ...`, `missing field `dealer``).
pub(crate) fn read<'v, T: Deserialize<'v>>(view: &'v Value) -> Result<T, String> {
    serde_path_to_error::deserialize(view).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.inner().to_string()
        } else {
            format!("{path}: {}", e.inner())
        }
    })
}

/// A field that must be present though it may be `null`: serde takes a missing `Option`
/// field for `None`, and a view missing one is not a view `state.view` writes.
pub(crate) fn nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// A field a spectator's view lacks: absent or a value, never `null`.
pub(crate) fn absent_or<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// Reads `view` into the view struct `T` and no further: its shape (every field there, none
/// unknown, each of its type), not what the values mean, which each game's
/// `Determinize::knowledge` checks. `Err` names what is wrong. Which struct is which game's
/// is said above the games (the Python bindings' `check_view`), not here: this module sits
/// below them.
pub fn check<T: DeserializeOwned>(view: &Value) -> Result<(), String> {
    read::<T>(view).map(drop)
}

/// Each struct's path in the view and its field names, in declaration order.
pub type Fields = BTreeMap<String, Vec<String>>;

/// The fields of `T` and of every struct nested in it.
///
/// # Panics
///
/// When `T` holds something the probe cannot stand in for (an enum, a map, a type that
/// refuses every placeholder): the view structs hold none.
pub fn fields_of<'de, T: Deserialize<'de>>() -> Fields {
    let mut out = Fields::new();
    let probe = Probe {
        path: String::new(),
        out: &mut out,
    };
    if let Err(e) = T::deserialize(probe) {
        panic!("a view struct the field probe cannot read: {e}");
    }
    out
}

struct Probe<'a> {
    path: String,
    out: &'a mut Fields,
}

fn joined(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_bool(false)
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u64(0)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(0.0)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(0.0)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str("")
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str("")
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // One item, so that a list of structs has its struct asked.
        visitor.visit_seq(Items {
            path: format!("{}[]", self.path),
            out: self.out,
            left: 1,
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(Items {
            path: format!("{}[]", self.path),
            out: self.out,
            left: len,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let names = fields.iter().map(|f| f.to_string()).collect();
        self.out.insert(self.path.clone(), names);
        visitor.visit_map(StructFields {
            path: self.path,
            out: self.out,
            fields,
            at: 0,
        })
    }

    forward_to_deserialize_any! {
        char bytes byte_buf unit unit_struct tuple_struct map enum identifier ignored_any
    }
}

/// A list's or tuple's items, each a probe.
struct Items<'a> {
    path: String,
    out: &'a mut Fields,
    left: usize,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let probe = Probe {
            path: self.path.clone(),
            out: &mut *self.out,
        };
        seed.deserialize(probe).map(Some)
    }
}

/// A struct's fields as a map: each name, then a probe for its value.
struct StructFields<'a> {
    path: String,
    out: &'a mut Fields,
    fields: &'static [&'static str],
    at: usize,
}

impl<'de> MapAccess<'de> for StructFields<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(&name) = self.fields.get(self.at) else {
            return Ok(None);
        };
        let key: StrDeserializer<'_, Error> = name.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let name = self.fields[self.at];
        self.at += 1;
        let probe = Probe {
            path: joined(&self.path, name),
            out: &mut *self.out,
        };
        seed.deserialize(probe)
    }
}
