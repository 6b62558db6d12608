//! Instances generated from a schema, for the tests that hold compiled checks to the
//! validator: each value at or within its bounds, or now and then just past one or not listed,
//! optional properties present and absent, from a seeded generator (the same instances on every
//! run).

use serde_json::{Map, Value, json};

/// A seeded xorshift generator: the same instances on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// An instance of `s` (within the schema `root`, whose `$defs` references name): each value
/// at or within its bounds, or now and then just past one, or of a value not listed.
pub fn generate(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return generate(root, &root["$defs"][name], rng, depth + 1);
    }
    // Past a bound, or unlisted: one value in thirty, so that a result of twenty values is
    // about as often valid as not.
    let wrong = rng.chance(30);
    let nullable = s
        .get("type")
        .and_then(Value::as_array)
        .is_some_and(|ts| ts.contains(&json!("null")));
    if let Some(listed) = s.get("enum").and_then(Value::as_array) {
        return if nullable && rng.chance(10) {
            Value::Null
        } else if wrong {
            json!("unlisted")
        } else {
            rng.pick(listed).clone()
        };
    }
    if let Some([only]) = s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        return generate(root, only, rng, depth + 1);
    }
    if let Some(branches) = s.get("anyOf").and_then(Value::as_array) {
        return generate(root, rng.pick(branches), rng, depth + 1);
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["string", "integer", "boolean"],
    };
    match *rng.pick(&types) {
        "null" => Value::Null,
        "boolean" => json!(rng.chance(2)),
        "string" => string(s, rng, wrong),
        "integer" => json!(integer(s, rng, wrong)),
        "number" => number(s, rng, wrong),
        "array" => {
            let max = s.get("maxItems").and_then(Value::as_u64).unwrap_or(3);
            let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let len = if depth > 4 {
                min
            } else {
                *rng.pick(&around(min, max, wrong))
            };
            let items = s.get("items").cloned().unwrap_or(json!({}));
            (0..len)
                .map(|_| generate(root, &items, rng, depth + 1))
                .collect()
        }
        "object" => object(root, s, rng, depth),
        _ => Value::Null,
    }
}

/// Counts at the edges of `min..=max` and between, or just past them when `wrong` (when
/// there is a past: nothing is below zero).
fn around(min: u64, max: u64, wrong: bool) -> Vec<u64> {
    let past: Vec<u64> = [min.checked_sub(1), Some(max + 1)]
        .into_iter()
        .flatten()
        .collect();
    if wrong {
        past
    } else {
        vec![min, max, min.midpoint(max)]
    }
}

fn object(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    let empty = Map::new();
    let props = s
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    for (name, p) in props {
        let keep = if required.contains(&name.as_str()) {
            !rng.chance(60)
        } else {
            rng.chance(2)
        };
        if keep {
            out.insert(name.clone(), generate(root, p, rng, depth + 1));
        }
    }
    if let Some(extra) = s.get("additionalProperties").filter(|a| a.is_object()) {
        for i in 0..rng.below(3) {
            out.insert(format!("k{i}"), generate(root, extra, rng, depth + 1));
        }
    }
    Value::Object(out)
}

fn string(s: &Value, rng: &mut Rng, wrong: bool) -> Value {
    if let Some(format) = s.get("format").and_then(Value::as_str) {
        if wrong {
            return json!(*rng.pick(&["not one", "2024-02-30T00:00:00Z", "@", "123e4567"]));
        }
        return match format {
            "uuid" => {
                let hex: String = (0..32)
                    .map(|_| char::from(*rng.pick(b"0123456789abcdef")))
                    .collect();
                let parts = [
                    &hex[..8],
                    &hex[8..12],
                    &hex[12..16],
                    &hex[16..20],
                    &hex[20..],
                ];
                json!(parts.join("-"))
            }
            "date-time" => {
                json!(*rng.pick(&["2024-02-29T12:00:00Z", "1999-12-31T23:59:59.5+01:00"]))
            }
            _ => json!(*rng.pick(&["a@b.co", "x.y@z.org"])),
        };
    }
    if s.get("pattern").is_some() {
        return json!(*rng.pick(&["abc", "ABC", "a1"]));
    }
    let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let max = s.get("maxLength").and_then(Value::as_u64).unwrap_or(8);
    let len = *rng.pick(&around(min, max, wrong));
    // Characters of one to four bytes, so that bytes and characters differ.
    let text: String = (0..len)
        .map(|_| *rng.pick(&['a', 'b', 'é', '日', '🎉']))
        .collect();
    json!(text)
}

/// The least and greatest integers `s` allows, by its bounds.
fn integer_range(s: &Value) -> (i64, i64) {
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    let mut lo = -100_i64;
    let mut hi = 100_i64;
    if let Some(b) = bound("minimum") {
        lo = b.ceil() as i64;
        hi = hi.max(lo);
    }
    if let Some(b) = bound("exclusiveMinimum") {
        lo = lo.max(b.floor() as i64 + 1);
    }
    if let Some(b) = bound("maximum") {
        hi = b.floor() as i64;
        lo = lo.min(hi);
    }
    if let Some(b) = bound("exclusiveMaximum") {
        hi = hi.min(b.ceil() as i64 - 1);
    }
    (lo, hi)
}

fn integer(s: &Value, rng: &mut Rng, wrong: bool) -> i64 {
    let (lo, hi) = integer_range(s);
    if wrong {
        *rng.pick(&[lo.saturating_sub(1), hi.saturating_add(1)])
    } else {
        *rng.pick(&[lo, hi, lo.midpoint(hi)])
    }
}

fn number(s: &Value, rng: &mut Rng, wrong: bool) -> Value {
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    let lo = bound("minimum").unwrap_or(-1e300);
    let hi = bound("maximum").unwrap_or(1e300);
    let (above, below) = (bound("exclusiveMinimum"), bound("exclusiveMaximum"));
    let candidates = if wrong {
        vec![
            lo - 0.25,
            hi + 0.25,
            above.unwrap_or(lo - 1.0),
            below.unwrap_or(hi + 1.0),
        ]
    } else {
        let lo = above.map_or(lo, |a| a + 0.25);
        let hi = below.map_or(hi, |b| b - 0.25);
        vec![lo, hi, lo / 2.0 + hi / 2.0]
    };
    json!(*rng.pick(&candidates))
}
