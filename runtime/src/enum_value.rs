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

/// `Deserialize` for a generated string enum: [`enum_value`] finds the string among the enum's
/// values, and the variant at that index is the value. A generated file writes
/// `codegen::deserialize_enum!(Mode, Fast = "fast", Safe = "safe");`, in the order of the
/// enum's variants: a line per enum where the impl written out took fifteen, each parsed and
/// printed by `toolc build` and parsed again by rustc.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolc_deserialize_enum {
    ($ty:ident $(, $variant:ident = $value:literal)+ $(,)?) => {
        impl<'de> $crate::codegen::serde::Deserialize<'de> for $ty {
            // `__D`, not `D`: a generated enum may be called `D`.
            fn deserialize<__D: $crate::codegen::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                const VALUES: &[&str] = &[$($value),*];
                // The variants' indexes in `VALUES`.
                #[allow(non_camel_case_types, clippy::enum_variant_names)]
                enum __Variant { $($variant),* }
                match $crate::codegen::enum_value(deserializer, VALUES)? {
                    $(i if i == __Variant::$variant as usize => ::core::result::Result::Ok($ty::$variant),)+
                    // `enum_value` answers an index into `VALUES` or an error.
                    i => ::core::result::Result::Err(
                        <__D::Error as $crate::codegen::serde::de::Error>::invalid_value(
                            $crate::codegen::serde::de::Unexpected::Unsigned(i as u64),
                            &::core::stringify!($ty),
                        ),
                    ),
                }
            }
        }
    };
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

    /// An enum read the way generated code reads one, with a variant named as the macro's own
    /// names are.
    #[derive(Debug, PartialEq)]
    enum Mode {
        Fast,
        Safe,
        Deserializer,
    }

    crate::codegen::deserialize_enum!(Mode, Fast = "fast", Safe = "safe", Deserializer = "de");

    #[derive(Debug, PartialEq)]
    enum One {
        Only,
    }

    crate::codegen::deserialize_enum!(One, Only = "only");

    #[test]
    fn a_generated_enum_reads_each_value_as_its_variant_and_refuses_the_rest() {
        let mode = |text: &str| serde_json::from_str::<Mode>(text);
        assert_eq!(mode(r#""fast""#).unwrap(), Mode::Fast);
        assert_eq!(mode(r#""safe""#).unwrap(), Mode::Safe);
        assert_eq!(mode(r#""de""#).unwrap(), Mode::Deserializer);
        let e = mode(r#""Fast""#).unwrap_err().to_string();
        assert!(
            e.contains("unknown variant `Fast`, expected one of `fast`, `safe`, `de`"),
            "{e}"
        );
        assert!(mode("0").is_err());
        assert_eq!(serde_json::from_str::<One>(r#""only""#).unwrap(), One::Only);
        assert!(serde_json::from_str::<One>(r#""other""#).is_err());
        // In a struct, through serde_json's `Value` too.
        let value = serde_json::json!(["safe", "fast"]);
        let modes: Vec<Mode> = serde_json::from_value(value).unwrap();
        assert_eq!(modes, [Mode::Safe, Mode::Fast]);
    }
}
