//! How generated structs read their fields: a key seed that turns a field's name into its
//! index, and the steps each field's read shares, defined once for every struct of every
//! generated module. serde's derive writes a field identifier, its visitor and the map visitor
//! for each struct, which made those impls the largest part of a generated module's compile
//! time (BENCHMARKS.md, "The generated module"); a generated struct now writes only its map
//! visitor, a `match` on the key's index.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

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
                &"the index of a field",
            )),
            _ => Ok(None),
        }
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
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// The value of a required field the map gave, or an error naming the field.
#[doc(hidden)]
pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

#[cfg(test)]
mod tests {
    use super::{Keys, field, required, skip};
    use serde::de::{self, Deserializer, MapAccess, Visitor};
    use std::fmt;

    const FIELDS: &[&str] = &["id", "type"];

    /// A struct read the way generated code reads one: `id` required, `type` optional.
    #[derive(Debug, PartialEq)]
    struct Read {
        id: u32,
        kind: Option<String>,
    }

    struct V(bool);

    impl<'de> Visitor<'de> for V {
        type Value = Read;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("struct Read")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
            let mut id = None;
            let mut kind = None;
            while let Some(key) = map.next_key_seed(Keys::new(FIELDS, self.0))? {
                match key {
                    Some(0) => field(&mut map, &mut id, "id")?,
                    Some(1) => field(&mut map, &mut kind, "type")?,
                    _ => skip(&mut map)?,
                }
            }
            Ok(Read {
                id: required(id, "id")?,
                kind: kind.flatten(),
            })
        }
    }

    fn read(text: &str, deny_unknown: bool) -> Result<Read, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        de.deserialize_struct("Read", FIELDS, V(deny_unknown))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn fields_are_read_by_name_and_unknown_keys_skipped_unless_denied() {
        let want = Read {
            id: 7,
            kind: Some("bug".into()),
        };
        assert_eq!(read(r#"{"type":"bug","id":7}"#, false), Ok(want));
        // An escaped key is the same key; an unknown key's value is skipped whatever it holds.
        assert_eq!(
            read(r#"{"\u0069d":7,"x":{"y":[1,2]}}"#, false),
            Ok(Read { id: 7, kind: None })
        );
        assert_eq!(
            read(r#"{"id":7,"type":null}"#, false),
            Ok(Read { id: 7, kind: None })
        );
        let e = read(r#"{"id":7,"x":1}"#, true).unwrap_err();
        assert!(
            e.contains("unknown field `x`, expected `id` or `type`"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_required_field_a_repeated_field_and_a_wrong_type_are_refused() {
        let e = read(r#"{"type":"bug"}"#, false).unwrap_err();
        assert!(e.contains("missing field `id`"), "{e}");
        let e = read(r#"{"id":7,"id":8}"#, false).unwrap_err();
        assert!(e.contains("duplicate field `id`"), "{e}");
        let e = read(r#"[7]"#, false).unwrap_err();
        assert!(e.contains("expected struct Read"), "{e}");
        let e = read(r#"{"id":"7"}"#, false).unwrap_err();
        assert!(
            e.contains("invalid type: string \"7\", expected u32"),
            "{e}"
        );
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
        assert!(denied.is_err());
        let unknown: Result<_, de::value::Error> =
            Visitor::visit_bytes(Keys::new(FIELDS, true), b"x");
        assert!(unknown.is_err());
    }
}
