//! JSON Schema equality (`1 == 1.0`, object key order ignored), without recursion.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use crate::number;
use crate::tree::Json;

impl Json {
    /// Whether `value` equals this constant under JSON Schema equality (`1 == 1.0`, object
    /// key order ignored).
    pub fn matches(&self, value: &Value) -> bool {
        match (*self, value) {
            (Json::Null, Value::Null) => true,
            (Json::Bool(a), Value::Bool(b)) => a == *b,
            (Json::Int(a), Value::Number(n)) => number::eq_i128(n, i128::from(a)),
            (Json::UInt(a), Value::Number(n)) => number::eq_i128(n, i128::from(a)),
            (Json::Float(a), Value::Number(n)) => number::eq_f64(n, a),
            (Json::Str(a), Value::String(b)) => a == b,
            (Json::Raw(text), Value::Array(_) | Value::Object(_)) => {
                match serde_json::from_str::<Value>(text) {
                    Ok(expected) => json_eq(&expected, value),
                    Err(_) => false,
                }
            }
            _ => false,
        }
    }
}

/// Whether two values are equal as JSON Schema defines it. Iterative: any depth is safe.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    let mut stack: Vec<(&Value, &Value)> = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if number::num_eq(x, y) => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                stack.extend(x.iter().zip(y.iter()));
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (k, xv) in x {
                    match y.get(k) {
                        Some(yv) => stack.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// A hash consistent with [`json_eq`]; looks at most a few levels down.
fn json_hash(v: &Value, depth: u32) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    if depth > 8 {
        return 0;
    }
    match v {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, *b).hash(&mut h),
        Value::Number(n) => {
            2u8.hash(&mut h);
            // Equal numbers convert to the same float.
            let f = n.as_f64().unwrap_or(0.0);
            let f = if f == 0.0 { 0.0 } else { f };
            f.to_bits().hash(&mut h);
        }
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(a) => {
            (4u8, a.len()).hash(&mut h);
            for item in a.iter().take(16) {
                json_hash(item, depth + 1).hash(&mut h);
            }
        }
        Value::Object(o) => {
            (5u8, o.len()).hash(&mut h);
            let mut sum: u64 = 0;
            for (k, item) in o {
                let mut kh = std::collections::hash_map::DefaultHasher::new();
                k.hash(&mut kh);
                json_hash(item, depth + 1).hash(&mut kh);
                sum = sum.wrapping_add(kh.finish());
            }
            sum.hash(&mut h);
        }
    }
    h.finish()
}

/// The first pair of equal items, if any.
pub(crate) fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() < 2 {
        return None;
    }
    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let bucket = buckets.entry(json_hash(item, 0)).or_default();
        for &i in bucket.iter() {
            if json_eq(&items[i], item) {
                return Some((i, j));
            }
        }
        bucket.push(j);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_and_key_order() {
        assert!(json_eq(
            &json!([1, {"a": 1, "b": 2.0}]),
            &json!([1.0, {"b": 2, "a": 1}])
        ));
        assert!(!json_eq(&json!([1]), &json!([true])));
        assert_eq!(
            first_duplicate(&[json!(1), json!("1"), json!(1.0)]),
            Some((0, 2))
        );
        assert_eq!(
            first_duplicate(&[json!(0), json!(false), json!(null)]),
            None
        );
    }

    #[test]
    fn deep_values_do_not_overflow() {
        let mut a = json!(1);
        let mut b = json!(1);
        for _ in 0..100_000 {
            a = Value::Array(vec![a]);
            b = Value::Array(vec![b]);
        }
        assert!(json_eq(&a, &b));
        // Dropping deep values recursively is serde_json's business; leak them here.
        std::mem::forget(a);
        std::mem::forget(b);
    }
}
