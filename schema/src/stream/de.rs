//! Arguments validated while they are deserialized: a `Deserializer` that wraps serde_json's
//! and checks every event against the parameters schema, the way `serde_path_to_error` wraps
//! one to track the path.
//!
//! Besides the schema it keeps what [`parse_arguments`](crate::parse_arguments) asks of the
//! text: an object at the root, no duplicate key, nesting no deeper than
//! [`MAX_ARGUMENT_DEPTH`]. Values the parameters type ignores (unknown keys, a type that reads
//! no parameters) are walked and checked all the same. Anything it cannot vouch for stops it; the caller
//! then reads the arguments the slow way.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::Number;

use super::walk::{Arr, Conj, Obj, Scalar, Stop};
use crate::MAX_ARGUMENT_DEPTH;
use crate::Schema;

/// `P` read from argument text and checked against `schema` on the way, or `None` when the
/// fast path cannot vouch for it (invalid, malformed, or a case only the full walk decides).
pub fn from_str<P: de::DeserializeOwned>(schema: &'static Schema, text: &str) -> Option<P> {
    let conj = Conj::root(schema, true).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let checked = Checked {
        de: &mut de,
        conj,
        depth: 1,
        root: true,
    };
    let params = P::deserialize(checked).ok()?;
    de.end().ok()?;
    Some(params)
}

fn stop<E: de::Error>(_: Stop) -> E {
    E::custom("stopped")
}

fn stopped<E: de::Error>() -> E {
    E::custom("stopped")
}

/// A deserializer of one value at a position.
struct Checked<D> {
    de: D,
    conj: Conj,
    /// The container depth of this value (the root object is 1).
    depth: usize,
    root: bool,
}

impl<D> Checked<D> {
    fn wrap<V>(&self, visitor: V) -> Wrap<V> {
        Wrap {
            visitor,
            conj: self.conj,
            depth: self.depth,
            root: self.root,
        }
    }
}

macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            let w = self.wrap(visitor);
            self.de.$method(w)
        }
    )*};
}

macro_rules! refuse {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
            Err(stopped())
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier
    }

    // Read exactly in the text but through an `f64` in a `Value`, or raw bytes: the two
    // readings could differ, so the slow path decides.
    refuse! { deserialize_i128 deserialize_u128 deserialize_bytes deserialize_byte_buf }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let w = self.wrap(visitor);
        self.de.deserialize_unit_struct(name, w)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // serde_json's own markers (`RawValue`) read the text differently.
        if name.starts_with("$serde_json::") {
            return Err(stopped());
        }
        let w = self.wrap(visitor);
        self.de.deserialize_newtype_struct(name, w)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let w = self.wrap(visitor);
        self.de.deserialize_tuple(len, w)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let w = self.wrap(visitor);
        self.de.deserialize_tuple_struct(name, len, w)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let w = self.wrap(visitor);
        self.de.deserialize_struct(name, fields, w)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // Only the string form (a unit variant) is followed; it is read as a `Value`'s string
        // is.
        let w = Variant {
            visitor,
            conj: self.conj,
            root: self.root,
        };
        self.de.deserialize_any(w)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        // Ignored by the type, but still the host's arguments: walked and checked.
        let w = self.wrap(IgnoredAny);
        self.de.deserialize_any(w)?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// The visitor of one value at a position: checks each event, then hands it on.
struct Wrap<V> {
    visitor: V,
    conj: Conj,
    depth: usize,
    root: bool,
}

impl<V> Wrap<V> {
    fn check<E: de::Error>(&self, v: Scalar<'_>) -> Result<(), E> {
        if self.root {
            return Err(stopped());
        }
        self.conj.scalar(v).map_err(stop)
    }

    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth > MAX_ARGUMENT_DEPTH {
            return Err(stopped());
        }
        Ok(())
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.check(Scalar::Bool(v))?;
        self.visitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.visitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.visitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        let n = Number::from_f64(v).ok_or_else(stopped)?;
        self.check(Scalar::Num(n))?;
        self.visitor.visit_f64(v)
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_char<E: de::Error>(self, _: char) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(Scalar::Str(v))?;
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(Scalar::Str(v))?;
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check(Scalar::Str(&v))?;
        self.visitor.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Scalar::Null)?;
        self.visitor.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let checked = Checked {
            de: d,
            conj: self.conj,
            depth: self.depth,
            root: self.root,
        };
        self.visitor.visit_some(checked)
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.check(Scalar::Null)?;
        self.visitor.visit_unit()
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let checked = Checked {
            de: d,
            conj: self.conj,
            depth: self.depth,
            root: self.root,
        };
        self.visitor.visit_newtype_struct(checked)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.root {
            return Err(stopped());
        }
        self.enter()?;
        let mut access = Items {
            inner: seq,
            arr: self.conj.array().map_err(stop)?,
            depth: self.depth + 1,
            ended: false,
        };
        let out = self.visitor.visit_seq(&mut access)?;
        if !access.ended {
            return Err(stopped());
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.enter()?;
        let mut access = Entries {
            inner: map,
            obj: self.conj.object().map_err(stop)?,
            pending: None,
            depth: self.depth + 1,
            ended: false,
        };
        let out = self.visitor.visit_map(&mut access)?;
        if !access.ended {
            return Err(stopped());
        }
        Ok(out)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(stopped())
    }
}

/// The visitor of an enum: its string form, checked, read as a unit variant.
struct Variant<V> {
    visitor: V,
    conj: Conj,
    root: bool,
}

impl<V> Variant<V> {
    fn check<E: de::Error>(&self, v: &str) -> Result<(), E> {
        if self.root {
            return Err(stopped());
        }
        self.conj.scalar(Scalar::Str(v)).map_err(stop)
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Variant<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(v)?;
        self.visitor
            .visit_enum(de::value::StrDeserializer::<E>::new(v))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(v)?;
        self.visitor
            .visit_enum(de::value::BorrowedStrDeserializer::<E>::new(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.visit_str(&v)
    }

    // Every other form (an object naming the variant above all) is left to the slow path.
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(stopped())
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        Err(stopped())
    }
}

/// The items of an array, each checked at its position.
struct Items<A> {
    inner: A,
    arr: Arr,
    depth: usize,
    ended: bool,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        if self.ended {
            return Ok(None);
        }
        let conj = self.arr.item().map_err(stop)?;
        let seed = At {
            seed,
            conj,
            depth: self.depth,
        };
        match self.inner.next_element_seed(seed)? {
            Some(v) => Ok(Some(v)),
            None => {
                self.arr.none();
                self.arr.end().map_err(stop)?;
                self.ended = true;
                Ok(None)
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// The entries of an object: each key checked (allowed, not a duplicate), each value at its
/// key's position, and the object's own keywords at its end.
struct Entries<A> {
    inner: A,
    obj: Obj,
    pending: Option<Conj>,
    depth: usize,
    ended: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.ended {
            return Ok(None);
        }
        let key = Key {
            seed,
            obj: &mut self.obj,
            pending: &mut self.pending,
        };
        match self.inner.next_key_seed(key)? {
            Some(k) => Ok(Some(k)),
            None => {
                self.obj.end().map_err(stop)?;
                self.ended = true;
                Ok(None)
            }
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let conj = self.pending.take().ok_or_else(stopped)?;
        self.inner.next_value_seed(At {
            seed,
            conj,
            depth: self.depth,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// A value's seed at its position.
struct At<T> {
    seed: T,
    conj: Conj,
    depth: usize,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for At<T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(Checked {
            de: d,
            conj: self.conj,
            depth: self.depth,
            root: false,
        })
    }
}

/// A key's seed: the key's text is seen on its way to the parameters type.
struct Key<'a, K> {
    seed: K,
    obj: &'a mut Obj,
    pending: &'a mut Option<Conj>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Key<'_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            de: d,
            obj: self.obj,
            pending: self.pending,
        })
    }
}

/// serde_json's key deserializer, seen through.
struct KeyDe<'a, D> {
    de: D,
    obj: &'a mut Obj,
    pending: &'a mut Option<Conj>,
}

impl<'a, D> KeyDe<'a, D> {
    fn wrap<V>(self, visitor: V) -> (KeyWrap<'a, V>, D) {
        (
            KeyWrap {
                visitor,
                obj: self.obj,
                pending: self.pending,
            },
            self.de,
        )
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDe<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (w, de) = self.wrap(visitor);
        de.deserialize_any(w)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (w, de) = self.wrap(visitor);
        de.deserialize_str(w)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (w, de) = self.wrap(visitor);
        de.deserialize_string(w)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (w, de) = self.wrap(visitor);
        de.deserialize_identifier(w)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (w, de) = self.wrap(visitor);
        de.deserialize_str(w)
    }

    // Keys read as numbers, booleans, enums or bytes hide their text: left to the slow path.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, D::Error> {
        Err(stopped())
    }

    refuse! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes
        deserialize_byte_buf deserialize_option deserialize_unit deserialize_seq deserialize_map
    }
}

/// The visitor of a key: checks it against the object, then hands it on.
struct KeyWrap<'a, V> {
    visitor: V,
    obj: &'a mut Obj,
    pending: &'a mut Option<Conj>,
}

impl<V> KeyWrap<'_, V> {
    fn see<E: de::Error>(&mut self, key: &str) -> Result<(), E> {
        *self.pending = Some(self.obj.key(key).map_err(stop)?);
        Ok(())
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyWrap<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<V::Value, E> {
        self.see(v)?;
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<V::Value, E> {
        self.see(v)?;
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(mut self, v: String) -> Result<V::Value, E> {
        self.see(&v)?;
        self.visitor.visit_string(v)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<V::Value, E> {
        Err(stopped())
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        Err(stopped())
    }
}
