//! How generated structs read their fields: a key seed that turns a field's name into its
//! index, and the steps each field's read shares, defined once for every struct of every
//! generated module. serde's derive writes a field identifier, its visitor and the map visitor
//! for each struct, which made those impls the largest part of a generated module's compile
//! time (BENCHMARKS.md, "The generated module"); a generated struct now names its fields for
//! [`__toolc_deserialize_struct!`](crate::__toolc_deserialize_struct), which writes its one map
//! visitor, a `match` on the key's index.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

thread_local! {
    /// Whether a struct read on this thread since [`read_whole`] began passed over something
    /// of the text: a key no field has, or a required field the map did not give that was
    /// read as `None`.
    static PASSED_OVER: Cell<bool> = const { Cell::new(false) };
}

/// `P` read from JSON text by its own `Deserialize`, when the text holds exactly what `P` does:
/// `None` when the text is not one JSON value `P` reads, or when a generated struct on the way
/// skipped a key no field has or read an absent required field as `None` (both lost to the
/// value, so a check of the value cannot speak for the text).
#[doc(hidden)]
pub fn read_whole<P: de::DeserializeOwned>(text: &str) -> Option<P> {
    PASSED_OVER.set(false);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = P::deserialize(&mut de).ok()?;
    de.end().ok()?;
    (!PASSED_OVER.get()).then_some(value)
}

/// Reads a map key as the index of the field it names among `fields`: `None` for a key no
/// field has, or an error naming the fields when the struct denies unknown keys.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Keys {
    fields: &'static [&'static str],
    deny_unknown: bool,
}

impl Keys {
    /// The keys of a struct whose fields are named `fields` (in the order its visitor matches
    /// them); `deny_unknown`: any other key is an error instead of skipped.
    #[doc(hidden)]
    pub const fn new(fields: &'static [&'static str], deny_unknown: bool) -> Self {
        Keys {
            fields,
            deny_unknown,
        }
    }

    fn other<E: de::Error>(self, key: &str) -> Result<Option<usize>, E> {
        if self.deny_unknown {
            Err(E::unknown_field(key, self.fields))
        } else {
            Ok(None)
        }
    }
}

impl<'de> DeserializeSeed<'de> for Keys {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Keys {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        match self.fields.iter().position(|field| *field == v) {
            Some(i) => Ok(Some(i)),
            None => self.other(v),
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<usize>, E> {
        match self.fields.iter().position(|field| field.as_bytes() == v) {
            Some(i) => Ok(Some(i)),
            None => self.other(&String::from_utf8_lossy(v)),
        }
    }

    /// A field by its index, as formats that are not self-describing write keys.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<usize>, E> {
        match usize::try_from(v) {
            Ok(i) if i < self.fields.len() => Ok(Some(i)),
            _ if self.deny_unknown => Err(E::invalid_value(
                de::Unexpected::Unsigned(v),
                &FieldIndex(self.fields.len()),
            )),
            _ => Ok(None),
        }
    }
}

/// What a field index is expected to be, worded as serde's derive words it.
struct FieldIndex(usize);

impl de::Expected for FieldIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field index 0 <= i < {}", self.0)
    }
}

/// Reads the value of the field named `name` into `slot`; a field given twice is an error.
#[doc(hidden)]
pub fn field<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(<A::Error as de::Error>::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// Reads past the value of a key no field has.
#[doc(hidden)]
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    PASSED_OVER.set(true);
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// The value of a required field the map gave; for one it did not, what the field's type
/// reads from nothing: `None` for an `Option` (or a type that reads as one, such as a
/// transparent newtype of an `Option`), else an error naming the field. serde's derive reads
/// absent fields the same way.
#[doc(hidden)]
pub fn required<'de, T: de::Deserialize<'de>, E: de::Error>(
    slot: Option<T>,
    name: &'static str,
) -> Result<T, E> {
    match slot {
        Some(value) => Ok(value),
        None => T::deserialize(Missing(name, std::marker::PhantomData)),
    }
}

/// The value of an absent field: `None` to a type that asks for an `Option`, and the
/// `missing field` error to any other.
struct Missing<E>(&'static str, std::marker::PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        PASSED_OVER.set(true);
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// `Deserialize` for a generated struct of named fields, the struct's own part of it: one map
/// visitor that reads each key as its field's index ([`Keys`]), each field's value into a slot
/// ([`field`]), skips other keys (or, after `deny_unknown`, refuses them), and fills each
/// field the map did not give as its kind says:
///
/// - `required("name")`: a `missing field` error (`None` for a type that reads as an `Option`);
/// - `default("name", path)`: the value the function at `path` returns;
/// - `optional("name")`: the type's `Default` (`None`, or `null` for a JSON value).
///
/// A generated file writes `codegen::deserialize_struct!(Name, id = required("id"), limit =
/// default("limit", Name::__default_limit), mode = optional("mode"));`, in the order of the
/// struct's fields.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolc_deserialize_struct {
    (@impl $ty:ident, $deny:literal, $($field:ident = $kind:ident($name:literal $(, $default:path)?)),*) => {
        #[allow(deprecated)]
        impl<'de> $crate::codegen::serde::Deserialize<'de> for $ty {
            // `__D` and `__A`, not `D` and `A`: a generated struct may be called either.
            fn deserialize<__D: $crate::codegen::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                const __FIELDS: &[&str] = &[$($name),*];
                // The fields' indexes in `__FIELDS`.
                #[allow(non_camel_case_types, clippy::enum_variant_names)]
                enum __Field { $($field),* }
                struct __Visitor;
                impl<'de> $crate::codegen::serde::de::Visitor<'de> for __Visitor {
                    type Value = $ty;

                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(::core::concat!("struct ", ::core::stringify!($ty)))
                    }

                    fn visit_map<__A: $crate::codegen::serde::de::MapAccess<'de>>(
                        self,
                        mut map: __A,
                    ) -> ::core::result::Result<$ty, __A::Error> {
                        $(let mut $field = ::core::option::Option::None;)*
                        while let ::core::option::Option::Some(key) =
                            map.next_key_seed($crate::codegen::Keys::new(__FIELDS, $deny))?
                        {
                            match key {
                                $(::core::option::Option::Some(i) if i == __Field::$field as usize => {
                                    $crate::codegen::field(&mut map, &mut $field, $name)?
                                })*
                                _ => $crate::codegen::skip(&mut map)?,
                            }
                        }
                        ::core::result::Result::Ok($ty {
                            $($field: $crate::__toolc_deserialize_struct!(@fill $kind $field, $name $(, $default)?),)*
                        })
                    }
                }
                deserializer.deserialize_struct(::core::stringify!($ty), __FIELDS, __Visitor)
            }
        }
    };
    (@fill required $field:ident, $name:literal) => {
        $crate::codegen::required($field, $name)?
    };
    (@fill default $field:ident, $name:literal, $default:path) => {
        $field.unwrap_or_else($default)
    };
    (@fill optional $field:ident, $name:literal) => {
        $field.unwrap_or_default()
    };
    ($ty:ident, deny_unknown $(, $field:ident = $kind:ident($($how:tt)*))* $(,)?) => {
        $crate::__toolc_deserialize_struct!(@impl $ty, true, $($field = $kind($($how)*)),*);
    };
    ($ty:ident $(, $field:ident = $kind:ident($($how:tt)*))* $(,)?) => {
        $crate::__toolc_deserialize_struct!(@impl $ty, false, $($field = $kind($($how)*)),*);
    };
}

#[cfg(test)]
mod tests {
    use super::Keys;
    use serde::de::{self, Visitor};

    const FIELDS: &[&str] = &["id", "type"];

    /// A struct read the way generated code reads one: `id` required, `type` optional,
    /// `limit` with a default.
    #[derive(Debug, PartialEq)]
    struct Read {
        id: u32,
        r#type: Option<String>,
        limit: u32,
    }

    impl Read {
        fn ten() -> u32 {
            10
        }
    }

    crate::codegen::deserialize_struct!(
        Read,
        id = required("id"),
        r#type = optional("type"),
        limit = default("limit", Read::ten),
    );

    /// The same fields, no others allowed.
    #[derive(Debug, PartialEq)]
    struct Strict {
        id: u32,
    }

    crate::codegen::deserialize_struct!(Strict, deny_unknown, id = required("id"));

    /// No fields at all.
    #[derive(Debug, PartialEq)]
    struct Empty {}

    crate::codegen::deserialize_struct!(Empty);

    /// Structs named as the generic parameters of serde's traits are.
    #[derive(Debug, PartialEq)]
    struct D {
        a: Option<u32>,
    }

    crate::codegen::deserialize_struct!(D, a = optional("a"));

    #[derive(Debug, PartialEq)]
    struct A {
        d: Option<D>,
    }

    crate::codegen::deserialize_struct!(A, d = optional("d"));

    fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    fn bug(id: u32, limit: u32) -> Read {
        Read {
            id,
            r#type: Some("bug".into()),
            limit,
        }
    }

    #[test]
    fn fields_are_read_by_name_and_unknown_keys_skipped_unless_denied() {
        assert_eq!(read(r#"{"type":"bug","id":7,"limit":3}"#), Ok(bug(7, 3)));
        // An escaped key is the same key; an unknown key's value is skipped whatever it holds;
        // absent fields take their default.
        assert_eq!(
            read(r#"{"\u0069d":7,"x":{"y":[1,2]}}"#),
            Ok(Read {
                id: 7,
                r#type: None,
                limit: 10
            })
        );
        assert_eq!(
            read::<Read>(r#"{"id":7,"type":null}"#).map(|r| r.r#type),
            Ok(None)
        );
        assert_eq!(read(r#"{"id":7}"#), Ok(Strict { id: 7 }));
        let e = read::<Strict>(r#"{"id":7,"x":1}"#).unwrap_err();
        assert!(e.contains("unknown field `x`, expected `id`"), "{e}");
        assert_eq!(read(r#"{"x":1}"#), Ok(Empty {}));
        assert_eq!(
            read(r#"{"d":{"a":1}}"#),
            Ok(A {
                d: Some(D { a: Some(1) })
            })
        );
        // Read from a `Value` too, whose keys are owned strings.
        let value = serde_json::json!({"id": 7, "type": "bug", "limit": 3});
        assert_eq!(serde_json::from_value::<Read>(value).ok(), Some(bug(7, 3)));
    }

    #[test]
    fn a_missing_required_field_a_repeated_field_and_a_wrong_type_are_refused() {
        let e = read::<Read>(r#"{"type":"bug"}"#).unwrap_err();
        assert!(e.contains("missing field `id`"), "{e}");
        let e = read::<Read>(r#"{"id":7,"id":8}"#).unwrap_err();
        assert!(e.contains("duplicate field `id`"), "{e}");
        let e = read::<Read>(r#"[7]"#).unwrap_err();
        assert!(e.contains("expected struct Read"), "{e}");
        let e = read::<Read>(r#"{"id":"7"}"#).unwrap_err();
        assert!(
            e.contains("invalid type: string \"7\", expected u32"),
            "{e}"
        );
    }

    /// What serde's derive makes of the fields `Read` reads, as the emitter declared them
    /// before it used `deserialize_struct!`: no attribute on a required field (an absent
    /// `Option` is `None` all the same), `default` on an optional one, `default = path` where a
    /// default is given.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Derived {
        id: u32,
        #[serde(default)]
        r#type: Option<String>,
        #[serde(default = "Read::ten")]
        limit: u32,
        #[serde(default)]
        extra: serde_json::Value,
        note: Option<bool>,
        wrapped: Wrapped,
    }

    /// A nullable named type, as generated: a transparent newtype of an `Option`.
    #[derive(Debug, Clone, PartialEq, serde::Deserialize)]
    #[serde(transparent)]
    struct Wrapped(Option<u8>);

    /// The same fields read by the runtime's macro.
    #[derive(Debug, PartialEq)]
    struct Twin {
        id: u32,
        r#type: Option<String>,
        limit: u32,
        extra: serde_json::Value,
        note: Option<bool>,
        wrapped: Wrapped,
    }

    crate::codegen::deserialize_struct!(
        Twin,
        id = required("id"),
        r#type = optional("type"),
        limit = default("limit", Read::ten),
        extra = optional("extra"),
        note = optional("note"),
        wrapped = required("wrapped"),
    );

    /// `Derived` and `Twin` with no other keys allowed.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct DerivedStrict {
        id: u32,
        #[serde(default)]
        r#type: Option<String>,
    }

    #[derive(Debug, PartialEq)]
    struct TwinStrict {
        id: u32,
        r#type: Option<String>,
    }

    crate::codegen::deserialize_struct!(
        TwinStrict,
        deny_unknown,
        id = required("id"),
        r#type = optional("type"),
    );

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        use serde_json::{Value, json};
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            prop_oneof![Just(0i64), Just(7), Just(-1), Just(1 << 33), any::<i64>()]
                .prop_map(|n| json!(n)),
            Just(json!(2.5)),
            prop_oneof![Just("bug"), Just(""), Just("é\n")].prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec(("[a-c]", inner), 0..3)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// A member of an object: a key among the fields' and others, with a value mostly of the
    /// field's type, else any value.
    fn member() -> impl proptest::strategy::Strategy<Value = (&'static str, serde_json::Value)> {
        use proptest::prelude::*;
        use serde_json::{Value, json};
        let typed = prop_oneof![
            (0u32..100).prop_map(|n| ("id", json!(n))),
            prop_oneof![Just(json!("bug")), Just(Value::Null)].prop_map(|v| ("type", v)),
            (0u32..100).prop_map(|n| ("limit", json!(n))),
            prop_oneof![any::<bool>().prop_map(Value::Bool), Just(Value::Null)]
                .prop_map(|v| ("note", v)),
            prop_oneof![(0u8..9).prop_map(|n| json!(n)), Just(Value::Null)]
                .prop_map(|v| ("wrapped", v)),
        ];
        let key = prop_oneof![
            Just("id"),
            Just("type"),
            Just("limit"),
            Just("extra"),
            Just("note"),
            Just("wrapped"),
            Just("other"),
            Just("ID"),
        ];
        prop_oneof![3 => typed, 1 => (key, json_value())]
    }

    /// An object's text with members of [`member`], maybe repeated, in any order.
    fn object_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::collection::vec(member(), 0..7).prop_map(|entries| {
            let members: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(*k)))
                .collect();
            format!("{{{}}}", members.join(","))
        })
    }

    /// The two readings of `text` agree: the same values, or the same error (the derive names
    /// its struct, `names.0`, where the macro names its own, `names.1`).
    fn alike<T: PartialEq + std::fmt::Debug>(
        text: &str,
        derived: serde_json::Result<T>,
        twin: serde_json::Result<T>,
        (derive_name, macro_name): (&str, &str),
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        match (derived, twin) {
            (Ok(d), Ok(t)) => proptest::prop_assert_eq!(d, t),
            (Err(d), Err(t)) => proptest::prop_assert_eq!(
                d.to_string().replace(
                    &format!("struct {derive_name}"),
                    &format!("struct {macro_name}")
                ),
                t.to_string()
            ),
            (d, t) => proptest::prop_assert!(false, "{text}: derive {d:?}, macro {t:?}"),
        }
        Ok(())
    }

    proptest::proptest! {
        /// Whatever the object, the macro's impl reads what serde's derive reads, or fails
        /// with the same message at the same place (the derive names its struct, as the macro
        /// does).
        #[test]
        fn the_macro_reads_objects_as_serde_derive_does(text in object_text()) {
            let derived = serde_json::from_str::<Derived>(&text).map(|d| {
                (d.id, d.r#type, d.limit, d.extra, d.note, d.wrapped)
            });
            let twin = serde_json::from_str::<Twin>(&text)
                .map(|t| (t.id, t.r#type, t.limit, t.extra, t.note, t.wrapped));
            alike(&text, derived, twin, ("Derived", "Twin"))?;
            let derived = serde_json::from_str::<DerivedStrict>(&text)
                .map(|d| (d.id, d.r#type));
            let twin = serde_json::from_str::<TwinStrict>(&text).map(|t| (t.id, t.r#type));
            alike(&text, derived, twin, ("DerivedStrict", "TwinStrict"))?;
        }

        /// Any other JSON value: both refuse it, except an array, which serde's derive reads
        /// as the fields in order and the macro refuses (no object schema accepts an array).
        #[test]
        fn values_that_are_not_objects_are_refused(value in json_value()) {
            let text = value.to_string();
            let twin = serde_json::from_str::<Twin>(&text);
            match value {
                serde_json::Value::Object(_) => {}
                serde_json::Value::Array(_) => {
                    let e = twin.err().map(|e| e.to_string()).unwrap_or_default();
                    proptest::prop_assert!(e.contains("expected struct Twin"), "{e}");
                }
                _ => {
                    let d = serde_json::from_str::<Derived>(&text).map(|_| ());
                    let e = twin.map(|_| ()).map_err(|e| e.to_string());
                    proptest::prop_assert_eq!(
                        d.map_err(|e| e.to_string().replace("struct Derived", "struct Twin")),
                        e
                    );
                }
            }
        }
    }

    #[test]
    fn keys_given_as_bytes_or_indexes_name_the_same_fields() {
        let keys = Keys::new(FIELDS, false);
        let bytes: Result<_, de::value::Error> = Visitor::visit_bytes(keys, b"type");
        assert_eq!(bytes, Ok(Some(1)));
        let index: Result<_, de::value::Error> = Visitor::visit_u64(keys, 0);
        assert_eq!(index, Ok(Some(0)));
        let beyond: Result<_, de::value::Error> = Visitor::visit_u64(keys, 2);
        assert_eq!(beyond, Ok(None));
        let denied: Result<_, de::value::Error> = Visitor::visit_u64(Keys::new(FIELDS, true), 2);
        let e = denied.unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid value: integer `2`, expected field index 0 <= i < 2"
        );
        let unknown: Result<_, de::value::Error> =
            Visitor::visit_bytes(Keys::new(FIELDS, true), b"x");
        assert!(unknown.is_err());
    }
}
