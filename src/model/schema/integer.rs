//! The integers a schema's Rust type can hold: an integer schema becomes `i64`, or the type its
//! `format` names, and every form of the schema (the validation tables, each dialect's, the
//! values `toolc check` judges) carries that type's bounds where the schema's own bounds do not
//! already keep values within it.

use super::node::{JsonType, SchemaNode, is_integral};

/// The range of the Rust integer type an integer schema becomes, by its
/// `format`.
pub fn integer_range(node: &SchemaNode) -> (i128, i128) {
    match node.format.as_deref() {
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

/// The bounds the Rust integer type adds to an integer schema, inclusive:
/// on each side, the type's own limit when the schema's bounds do not
/// already keep values within it (`None` when they do, or when the schema
/// is not integer-only). Validation tables and every advertised form carry
/// them, so a value the type cannot hold is refused by the schema.
pub fn added_integer_bounds(node: &SchemaNode) -> (Option<i128>, Option<i128>) {
    if !node.has_type(JsonType::Integer) || node.has_type(JsonType::Number) {
        return (None, None);
    }
    let (lo, hi) = integer_range(node);
    // A closed set of values keeps within the type when each value does.
    let within = |v: &serde_json::Value| {
        v.as_number()
            .and_then(|n| as_i128(n, false))
            .is_none_or(|i| lo <= i && i <= hi)
    };
    let listed = node
        .enum_values
        .as_ref()
        .and_then(|e| e.value.as_array())
        .map(|l| l.iter().all(within))
        .or_else(|| node.const_value.as_ref().map(|c| within(&c.value)));
    if listed == Some(true) {
        return (None, None);
    }
    let (least, greatest) = integer_limits(node);
    (
        (least.is_none_or(|l| l < lo)).then_some(lo),
        (greatest.is_none_or(|g| g > hi)).then_some(hi),
    )
}

/// The least integer the schema's lower bounds (`minimum`, `exclusiveMinimum`) let through
/// and the greatest its upper bounds do, each `None` when there is no such bound (or it lies
/// beyond any integer type).
pub fn integer_limits(node: &SchemaNode) -> (Option<i128>, Option<i128>) {
    // The least integer a lower bound lets through, the greatest an upper one.
    let least_above = |n: &serde_json::Number, exclusive: bool| -> Option<i128> {
        let v = as_i128(n, true)?;
        Some(if exclusive && is_integral(n) {
            v + 1
        } else {
            v
        })
    };
    let greatest_below = |n: &serde_json::Number, exclusive: bool| -> Option<i128> {
        let v = as_i128(n, false)?;
        Some(if exclusive && is_integral(n) {
            v - 1
        } else {
            v
        })
    };
    let least = [
        node.minimum.as_ref().and_then(|n| least_above(n, false)),
        node.exclusive_minimum
            .as_ref()
            .and_then(|n| least_above(n, true)),
    ]
    .into_iter()
    .flatten()
    .max();
    let greatest = [
        node.maximum.as_ref().and_then(|n| greatest_below(n, false)),
        node.exclusive_maximum
            .as_ref()
            .and_then(|n| greatest_below(n, true)),
    ]
    .into_iter()
    .flatten()
    .min();
    (least, greatest)
}

/// A bound as an integer: rounded up (`up`) or down when it has a fraction;
/// `None` beyond any integer type.
fn as_i128(n: &serde_json::Number, up: bool) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    let r = if up { f.ceil() } else { f.floor() };
    (r.is_finite() && r.abs() < 1.0e38).then_some(r as i128)
}
