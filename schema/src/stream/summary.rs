//! What the fast path asks of a schema at every value, worked out once per schema and kept in
//! a small per-thread cache keyed by the schema's address.
//!
//! A scalar is checked against every keyword that could refuse it (about fifteen fields, read
//! from several cache lines of the schema), and an object's `required` names are each looked
//! up among its properties, at every value written. Most schemas of a result have nothing but
//! `type` for a scalar, and list required properties that are among their first 64: the
//! [`Summary`] says so in a word, so those checks become a bit test. Schemas are `'static`
//! (generated statics, or compiled once and leaked), so an address names one schema for the
//! life of the process; a cache slot taken by another schema is only worked out again.

use std::cell::Cell;

use crate::tree::Schema;

/// Keywords that need the whole array or object before they can be decided.
pub(crate) fn needs_whole_value(s: &Schema) -> bool {
    !s.enum_values.is_empty()
        || s.const_value.is_some()
        || !s.any_of.is_empty()
        || !s.one_of.is_empty()
        || s.not.is_some()
        || s.if_.is_some()
}

/// What [`summary`] works out of one schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// No keyword but `type` can refuse a scalar here (no `enum`, `const`, bound, length,
    /// `pattern`, asserted `format`, `anyOf`, `oneOf`, `not` or `if`; `$ref` and `allOf` are
    /// checked as schemas of their own): a scalar is valid when its type is.
    pub plain_scalar: bool,
    /// The bits of the `required` properties among the first 64 `properties`, by index;
    /// `None` when one is not among them.
    pub required: Option<u64>,
    /// No `minProperties`, `maxProperties` or `dependentRequired`: an object's end checks
    /// nothing but `required`.
    pub plain_object: bool,
}

/// How many schemas the cache of each thread keeps (a power of two), two in each set that an
/// address picks: with one, two schemas of one result that share a slot took it from each
/// other at every value (3% more instructions for a call in one build of the bench, none in
/// another, as addresses fell).
const SLOTS: usize = 256;
const WAYS: usize = 2;

#[derive(Clone, Copy)]
struct Slot {
    /// The schema's address; 0 for an empty slot.
    key: usize,
    summary: Summary,
}

const EMPTY: Slot = Slot {
    key: 0,
    summary: Summary {
        plain_scalar: false,
        required: None,
        plain_object: false,
    },
};

thread_local! {
    static CACHE: [Cell<Slot>; SLOTS] = const { [const { Cell::new(EMPTY) }; SLOTS] };
}

/// The summary of `s`, from the cache or worked out and kept.
#[inline]
pub(crate) fn summary(s: &'static Schema) -> Summary {
    let key = std::ptr::from_ref(s).addr();
    // Fibonacci hashing of the address (its low bits are alignment, its high bits shared):
    // the top bits of the product pick the set.
    const GOLDEN: usize = 0x9E37_79B9_7F4A_7C15_u64 as usize;
    let set = key.wrapping_mul(GOLDEN) >> (usize::BITS - (SLOTS / WAYS).ilog2());
    CACHE.with(|cache| {
        let (first, second) = (&cache[set * WAYS % SLOTS], &cache[(set * WAYS + 1) % SLOTS]);
        let newest = first.get();
        if newest.key == key {
            return newest.summary;
        }
        let older = second.get();
        if older.key == key {
            return older.summary;
        }
        let summary = work_out(s);
        second.set(newest);
        first.set(Slot { key, summary });
        summary
    })
}

/// The summary of `s`, read from its keywords.
fn work_out(s: &Schema) -> Summary {
    let plain_scalar = s.enum_values.is_empty()
        && s.const_value.is_none()
        && s.minimum.is_none()
        && s.maximum.is_none()
        && s.exclusive_minimum.is_none()
        && s.exclusive_maximum.is_none()
        && s.multiple_of.is_none()
        && s.min_length.is_none()
        && s.max_length.is_none()
        && s.pattern.is_none()
        && s.format.is_none_or(|f| f.name().is_none())
        && !needs_whole_value(s);
    let mut required = Some(0u64);
    for r in s.required {
        let index = s.properties.iter().position(|(name, _)| name == r);
        required = match (required, index) {
            (Some(mask), Some(i)) if i < 64 => Some(mask | 1 << i),
            _ => None,
        };
    }
    let plain_object =
        s.min_properties.is_none() && s.max_properties.is_none() && s.dependent_required.is_empty();
    Summary {
        plain_scalar,
        required,
        plain_object,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile;
    use serde_json::json;

    fn of(v: serde_json::Value) -> Summary {
        summary(compile(&v).expect("schema"))
    }

    #[test]
    fn plain_scalars_have_nothing_but_a_type() {
        assert!(of(json!({"type": "string"})).plain_scalar);
        assert!(of(json!({"type": ["string", "null"], "description": "d"})).plain_scalar);
        assert!(of(json!({"type": "string", "format": "x-not-asserted"})).plain_scalar);
        for refusing in [
            json!({"type": "string", "maxLength": 3}),
            json!({"type": "string", "format": "uuid"}),
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string", "enum": ["a"]}),
            json!({"const": 1}),
            json!({"type": "integer", "minimum": 0}),
            json!({"type": "number", "multipleOf": 2}),
            json!({"anyOf": [{"type": "string"}]}),
            json!({"not": {}}),
            json!({"if": {}, "then": {}}),
        ] {
            assert!(!of(refusing.clone()).plain_scalar, "{refusing}");
        }
    }

    #[test]
    fn required_properties_are_bits_of_their_indexes() {
        let s = of(json!({
            "type": "object",
            "properties": {"a": {}, "b": {}, "c": {}},
            "required": ["c", "a"]
        }));
        assert_eq!(s.required, Some(0b101));
        assert!(s.plain_object);
        let missing = of(json!({"type": "object", "properties": {"a": {}}, "required": ["z"]}));
        assert_eq!(missing.required, None);
        let counted = of(json!({"type": "object", "minProperties": 1}));
        assert!(!counted.plain_object);
    }

    #[test]
    fn a_slot_taken_by_another_schema_is_worked_out_again() {
        // More schemas than slots: every one still gets its own summary.
        let schemas: Vec<&'static Schema> = (0..3 * SLOTS)
            .map(|i| {
                let v = if i % 2 == 0 {
                    json!({"type": "string"})
                } else {
                    json!({"type": "string", "maxLength": i})
                };
                compile(&v).expect("schema")
            })
            .collect();
        for _ in 0..2 {
            for (i, s) in schemas.iter().enumerate() {
                assert_eq!(summary(s).plain_scalar, i % 2 == 0);
            }
        }
    }
}
