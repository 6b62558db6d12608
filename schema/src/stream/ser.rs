//! Results validated while they are serialized: a `Serializer` that wraps serde_json's text
//! writer and checks each value against the returns schema as it is written, so what is
//! validated is exactly what the host receives.
//!
//! Anything it cannot vouch for (a violation, a case only the full walk decides, a duplicate
//! key, serde_json's own markers, a number it cannot read as the host will) stops it with an
//! error; the caller then serializes to a `Value` and runs the full walk.

use serde::ser::{
    self, Impossible, Serialize, SerializeMap, SerializeSeq, SerializeStruct,
    SerializeStructVariant, SerializeTuple, SerializeTupleStruct, SerializeTupleVariant,
    Serializer,
};
use serde_json::Number;

use super::walk::{Arr, Conj, Obj, Scalar, Stop};
use crate::Schema;

/// `value`, to be written by any `Serializer` (serde_json's text writer, say) and checked against
/// `schema` as it is written; `None` when the fast path cannot start on this schema.
///
/// Writing it fails (with an error of the serializer's own kind) whenever the fast path cannot
/// vouch for what is written: a violation, a case only the full walk decides, a duplicate key,
/// serde_json's own markers, a number it cannot read as the reader will. The caller then
/// writes the value unchecked, into a `Value`, and runs the full walk ([`Schema::validate`]).
pub fn checked<'a, R: Serialize + ?Sized>(
    schema: &'static Schema,
    value: &'a R,
) -> Option<impl Serialize + 'a> {
    let conj = Conj::root(schema, false).ok()?;
    Some(Root { value, conj })
}

struct Root<'a, R: ?Sized> {
    value: &'a R,
    conj: Conj,
}

impl<R: Serialize + ?Sized> Serialize for Root<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Checked {
            inner: s,
            conj: self.conj,
        })
    }
}

/// A value to be written at a position: what the compound serializers hand to the inner one.
struct At<'a, T: ?Sized> {
    value: &'a T,
    conj: Conj,
}

impl<T: Serialize + ?Sized> Serialize for At<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Checked {
            inner: s,
            conj: self.conj,
        })
    }
}

fn stop<E: ser::Error>(_: Stop) -> E {
    E::custom("stopped")
}

fn stopped<E: ser::Error>() -> E {
    E::custom("stopped")
}

/// serde_json's own markers (`RawValue`, arbitrary-precision numbers) write something else
/// than the struct they are shown as.
fn is_marker(name: &str) -> bool {
    name.starts_with("$serde_json::")
}

/// The serializer of one value at a position.
struct Checked<S> {
    inner: S,
    conj: Conj,
}

impl<S> Checked<S> {
    fn check<E: ser::Error>(&self, v: Scalar<'_>) -> Result<(), E> {
        self.conj.scalar(v).map_err(stop)
    }

    fn at<'a, T: ?Sized>(&self, value: &'a T, conj: Conj) -> At<'a, T> {
        At { value, conj }
    }

    fn float(&self, v: f64) -> Scalar<'static> {
        // serde_json writes a non-finite float as `null`.
        Number::from_f64(v).map_or(Scalar::Null, Scalar::Num)
    }
}

impl<S: Serializer> Serializer for Checked<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Items<S::SerializeSeq>;
    type SerializeTuple = Items<S::SerializeTuple>;
    type SerializeTupleStruct = Items<S::SerializeTupleStruct>;
    type SerializeTupleVariant = VariantItems<S::SerializeTupleVariant>;
    type SerializeMap = Entries<S::SerializeMap>;
    type SerializeStruct = Fields<S::SerializeStruct>;
    type SerializeStructVariant = VariantFields<S::SerializeStructVariant>;

    fn serialize_bool(self, v: bool) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Bool(v))?;
        self.inner.serialize_bool(v)
    }

    fn serialize_i8(self, v: i8) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_i8(v)
    }

    fn serialize_i16(self, v: i16) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_i16(v)
    }

    fn serialize_i32(self, v: i32) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_i32(v)
    }

    fn serialize_i64(self, v: i64) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_i64(v)
    }

    fn serialize_i128(self, v: i128) -> Result<S::Ok, S::Error> {
        let n = if let Ok(u) = u64::try_from(v) {
            Number::from(u)
        } else if let Ok(i) = i64::try_from(v) {
            Number::from(i)
        } else {
            return Err(stopped());
        };
        self.check(Scalar::Num(n))?;
        self.inner.serialize_i128(v)
    }

    fn serialize_u8(self, v: u8) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_u8(v)
    }

    fn serialize_u16(self, v: u16) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_u16(v)
    }

    fn serialize_u32(self, v: u32) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_u32(v)
    }

    fn serialize_u64(self, v: u64) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Num(Number::from(v)))?;
        self.inner.serialize_u64(v)
    }

    fn serialize_u128(self, v: u128) -> Result<S::Ok, S::Error> {
        let n = u64::try_from(v).map_err(|_| stopped())?;
        self.check(Scalar::Num(Number::from(n)))?;
        self.inner.serialize_u128(v)
    }

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        let read = if v.is_finite() {
            // The host reads the shortest decimal that is this f32, not the f32 widened.
            v.to_string().parse::<f64>().map_err(|_| stopped())?
        } else {
            f64::from(v)
        };
        self.check(self.float(read))?;
        self.inner.serialize_f32(v)
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        self.check(self.float(v))?;
        self.inner.serialize_f64(v)
    }

    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        self.check(Scalar::Str(v.encode_utf8(&mut buf)))?;
        self.inner.serialize_char(v)
    }

    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Str(v))?;
        self.inner.serialize_str(v)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        // Written as an array of numbers.
        let mut arr = self.conj.array().map_err(stop)?;
        for b in v {
            arr.item()
                .and_then(|c| c.scalar(Scalar::Num(Number::from(*b))))
                .map_err(stop)?;
        }
        arr.end().map_err(stop)?;
        self.inner.serialize_bytes(v)
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Null)?;
        self.inner.serialize_none()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let at = self.at(value, self.conj);
        self.inner.serialize_some(&at)
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Null)?;
        self.inner.serialize_unit()
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Null)?;
        self.inner.serialize_unit_struct(name)
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.check(Scalar::Str(variant))?;
        self.inner.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if is_marker(name) {
            return Err(stopped());
        }
        let at = self.at(value, self.conj);
        self.inner.serialize_newtype_struct(name, &at)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        // `{ variant: value }`
        let mut obj = self.conj.object().map_err(stop)?;
        let conj = obj.key(variant).map_err(stop)?;
        obj.end().map_err(stop)?;
        let at = self.at(value, conj);
        self.inner
            .serialize_newtype_variant(name, index, variant, &at)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Items<S::SerializeSeq>, S::Error> {
        let arr = self.conj.array().map_err(stop)?;
        Ok(Items {
            inner: self.inner.serialize_seq(len)?,
            arr,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Items<S::SerializeTuple>, S::Error> {
        let arr = self.conj.array().map_err(stop)?;
        Ok(Items {
            inner: self.inner.serialize_tuple(len)?,
            arr,
        })
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Items<S::SerializeTupleStruct>, S::Error> {
        let arr = self.conj.array().map_err(stop)?;
        Ok(Items {
            inner: self.inner.serialize_tuple_struct(name, len)?,
            arr,
        })
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantItems<S::SerializeTupleVariant>, S::Error> {
        // `{ variant: [...] }`
        let mut obj = self.conj.object().map_err(stop)?;
        let arr = obj.key(variant).and_then(|c| c.array()).map_err(stop)?;
        Ok(VariantItems {
            inner: self
                .inner
                .serialize_tuple_variant(name, index, variant, len)?,
            obj,
            arr,
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Entries<S::SerializeMap>, S::Error> {
        let obj = self.conj.object().map_err(stop)?;
        Ok(Entries {
            inner: self.inner.serialize_map(len)?,
            obj,
            pending: None,
        })
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Fields<S::SerializeStruct>, S::Error> {
        if is_marker(name) {
            return Err(stopped());
        }
        let obj = self.conj.object().map_err(stop)?;
        Ok(Fields {
            inner: self.inner.serialize_struct(name, len)?,
            obj,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantFields<S::SerializeStructVariant>, S::Error> {
        // `{ variant: { ... } }`
        let mut outer = self.conj.object().map_err(stop)?;
        let obj = outer.key(variant).and_then(|c| c.object()).map_err(stop)?;
        Ok(VariantFields {
            inner: self
                .inner
                .serialize_struct_variant(name, index, variant, len)?,
            outer,
            obj,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The items of an array, each checked at its position.
pub(crate) struct Items<I> {
    inner: I,
    arr: Arr,
}

impl<I> Items<I> {
    fn at<'a, T: ?Sized, E: ser::Error>(&mut self, value: &'a T) -> Result<At<'a, T>, E> {
        Ok(At {
            value,
            conj: self.arr.item().map_err(stop)?,
        })
    }
}

impl<I: SerializeSeq> SerializeSeq for Items<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), I::Error> {
        let at = self.at(value)?;
        self.inner.serialize_element(&at)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.arr.end().map_err(stop)?;
        self.inner.end()
    }
}

impl<I: SerializeTuple> SerializeTuple for Items<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), I::Error> {
        let at = self.at(value)?;
        self.inner.serialize_element(&at)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.arr.end().map_err(stop)?;
        self.inner.end()
    }
}

impl<I: SerializeTupleStruct> SerializeTupleStruct for Items<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), I::Error> {
        let at = self.at(value)?;
        self.inner.serialize_field(&at)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.arr.end().map_err(stop)?;
        self.inner.end()
    }
}

/// `{ variant: [...] }`.
pub(crate) struct VariantItems<I> {
    inner: I,
    obj: Obj,
    arr: Arr,
}

impl<I: SerializeTupleVariant> SerializeTupleVariant for VariantItems<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), I::Error> {
        let at = At {
            value,
            conj: self.arr.item().map_err(stop)?,
        };
        self.inner.serialize_field(&at)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.arr.end().map_err(stop)?;
        self.obj.end().map_err(stop)?;
        self.inner.end()
    }
}

/// The fields of a struct: each name checked (allowed, not a duplicate), each value at its
/// name's position, and the object's own keywords at its end.
pub(crate) struct Fields<I> {
    inner: I,
    obj: Obj,
}

impl<I: SerializeStruct> SerializeStruct for Fields<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), I::Error> {
        let at = At {
            value,
            conj: self.obj.key(key).map_err(stop)?,
        };
        self.inner.serialize_field(key, &at)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), I::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.obj.end().map_err(stop)?;
        self.inner.end()
    }
}

/// `{ variant: { ... } }`.
pub(crate) struct VariantFields<I> {
    inner: I,
    outer: Obj,
    obj: Obj,
}

impl<I: SerializeStructVariant> SerializeStructVariant for VariantFields<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), I::Error> {
        let at = At {
            value,
            conj: self.obj.key(key).map_err(stop)?,
        };
        self.inner.serialize_field(key, &at)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), I::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        self.obj.end().map_err(stop)?;
        self.outer.end().map_err(stop)?;
        self.inner.end()
    }
}

/// The entries of a map: each key's text checked as serde_json writes it.
pub(crate) struct Entries<I> {
    inner: I,
    obj: Obj,
    pending: Option<Conj>,
}

impl<I: SerializeMap> SerializeMap for Entries<I> {
    type Ok = I::Ok;
    type Error = I::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), I::Error> {
        let conj = key
            .serialize(KeyText { obj: &mut self.obj })
            .map_err(|KeyStop| stopped::<I::Error>())?;
        self.pending = Some(conj);
        self.inner.serialize_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), I::Error> {
        let conj = self.pending.take().ok_or_else(stopped)?;
        let at = At { value, conj };
        self.inner.serialize_value(&at)
    }

    fn end(self) -> Result<I::Ok, I::Error> {
        if self.pending.is_some() {
            return Err(stopped());
        }
        self.obj.end().map_err(stop)?;
        self.inner.end()
    }
}

/// A map key the fast path cannot read as serde_json writes it.
#[derive(Debug)]
struct KeyStop;

impl std::fmt::Display for KeyStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped")
    }
}

impl std::error::Error for KeyStop {}

impl ser::Error for KeyStop {
    fn custom<T: std::fmt::Display>(_: T) -> KeyStop {
        KeyStop
    }
}

/// Reads a map key as the text serde_json writes for it (strings, and integers, booleans and
/// characters as their text) and checks it against the object.
struct KeyText<'a> {
    obj: &'a mut Obj,
}

impl KeyText<'_> {
    fn key(self, text: &str) -> Result<Conj, KeyStop> {
        self.obj.key(text).map_err(|Stop| KeyStop)
    }
}

macro_rules! key_display {
    ($($method:ident: $t:ty)*) => {$(
        fn $method(self, v: $t) -> Result<Conj, KeyStop> {
            self.key(&v.to_string())
        }
    )*};
}

macro_rules! key_refuse {
    ($($method:ident: $t:ty)*) => {$(
        fn $method(self, _: $t) -> Result<Conj, KeyStop> {
            Err(KeyStop)
        }
    )*};
}

impl Serializer for KeyText<'_> {
    type Ok = Conj;
    type Error = KeyStop;
    type SerializeSeq = Impossible<Conj, KeyStop>;
    type SerializeTuple = Impossible<Conj, KeyStop>;
    type SerializeTupleStruct = Impossible<Conj, KeyStop>;
    type SerializeTupleVariant = Impossible<Conj, KeyStop>;
    type SerializeMap = Impossible<Conj, KeyStop>;
    type SerializeStruct = Impossible<Conj, KeyStop>;
    type SerializeStructVariant = Impossible<Conj, KeyStop>;

    fn serialize_str(self, v: &str) -> Result<Conj, KeyStop> {
        self.key(v)
    }

    fn serialize_char(self, v: char) -> Result<Conj, KeyStop> {
        let mut buf = [0u8; 4];
        self.key(v.encode_utf8(&mut buf))
    }

    key_display! {
        serialize_bool: bool serialize_i8: i8 serialize_i16: i16 serialize_i32: i32
        serialize_i64: i64 serialize_i128: i128 serialize_u8: u8 serialize_u16: u16
        serialize_u32: u32 serialize_u64: u64 serialize_u128: u128
    }

    key_refuse! { serialize_f32: f32 serialize_f64: f64 serialize_bytes: &[u8] }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Conj, KeyStop> {
        self.key(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Conj, KeyStop> {
        if is_marker(name) {
            return Err(KeyStop);
        }
        value.serialize(self)
    }

    fn serialize_none(self) -> Result<Conj, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Conj, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_unit(self) -> Result<Conj, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<Conj, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Conj, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, KeyStop> {
        Err(KeyStop)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, KeyStop> {
        Err(KeyStop)
    }
}
