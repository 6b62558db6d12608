//! How generated string enums are read: one visitor over the enum's values, shared by every
//! enum of every generated module, instead of serde's derive, which writes an enum visitor, a
//! variant identifier and its visitor for each enum (a large part of a generated module's
//! compile time; BENCHMARKS.md, "The generated module").

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

/// The index in `values` of the string `deserializer` holds; an error naming the values
/// when it holds another string or no string.
#[doc(hidden)]
pub fn enum_value<'de, D: Deserializer<'de>>(
    deserializer: D,
    values: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_str(Values(values))
}

/// Reads a string as its index among an enum's values.
struct Values(&'static [&'static str]);

impl<'de> Visitor<'de> for Values {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("one of the enum's values")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|value| *value == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::enum_value;

    const VALUES: &[&str] = &["fast", "safe"];

    fn read(text: &str) -> Result<usize, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        enum_value(&mut de, VALUES)
    }

    #[test]
    fn a_value_reads_as_its_index_and_anything_else_is_refused() {
        assert_eq!(read(r#""fast""#).unwrap(), 0);
        assert_eq!(read(r#""safe""#).unwrap(), 1);
        // An escaped string is the same string.
        assert_eq!(read(r#""s\u0061fe""#).unwrap(), 1);
        let e = read(r#""slow""#).unwrap_err().to_string();
        assert!(
            e.contains("unknown variant `slow`, expected `fast` or `safe`"),
            "{e}"
        );
        assert!(read("1").is_err());
        assert!(read("null").is_err());
    }
}
