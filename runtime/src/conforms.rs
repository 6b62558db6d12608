//! Results and arguments vouched for by checks compiled per type: what generated code calls to
//! tell the contract that a result's text, as its `Serialize` writes it, is valid against the
//! tool's returns schema, without writing it first; and that arguments a parameters type read
//! in full ([`crate::struct_fields::read_whole`]) are valid against its parameters schema,
//! without validating them on the way.
//!
//! The compiler emits [`Conforms`] for each generated type a tool's result reaches, and one
//! check per tool over its result type. Each is a sufficient condition: it answers `true` only
//! for values whose text the returns schema accepts (the structure holds by the type's
//! construction; the bounds, lengths and formats are checked on the typed value), and
//! `false` for everything it cannot vouch for, which the contract then writes and validates as
//! before, listing every violation. Debug builds check every vouched result against the full
//! validator as well (`dispatch::operation`), so a check that vouched wrongly fails the call
//! there.

/// A generated type whose values can be vouched for without writing them.
pub trait Conforms {
    /// `true` only when this value's JSON text, as its `Serialize` writes it, is valid against
    /// the schema the type was generated from; `false` when that cannot be told from the value.
    fn conforms(&self) -> bool;
}

/// The check of a result nothing vouches for: the contract writes and validates it.
pub fn unvouched<R>(_: &R) -> bool {
    false
}

/// Whether `s` has between `min` and `max` characters (Unicode scalar values, as the
/// validator counts them), both inclusive; without counting when its length in bytes settles
/// it (a character takes one to four bytes).
pub fn chars_within(s: &str, min: u64, max: u64) -> bool {
    let bytes = s.len() as u64;
    if bytes <= max && bytes.div_ceil(4) >= min {
        return true;
    }
    let chars = s.chars().count() as u64;
    min <= chars && chars <= max
}

#[cfg(test)]
mod tests {
    use super::chars_within;

    #[test]
    fn characters_are_counted_as_the_validator_counts_them() {
        for s in ["", "a", "abcd", "é", "éé", "日本語", "🎉🎉", "a🎉b"] {
            let n = s.chars().count() as u64;
            for min in 0..6 {
                for max in 0..10 {
                    assert_eq!(
                        chars_within(s, min, max),
                        min <= n && n <= max,
                        "{s:?} within {min}..={max}"
                    );
                }
            }
        }
    }
}
