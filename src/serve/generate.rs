//! Values generated from a JSON Schema: what a `mock` backend answers when a tool has no
//! example result. The schema is the one the dispatcher validates against (named types under
//! `$defs`), with its annotations (`examples`, `default`) as hints; every candidate is
//! validated by the dispatcher's own validator, and the first valid one is answered. A schema
//! that admits no value the generator finds within its attempts says so, with why its last
//! candidate was refused.

use super::pattern;
use super::rng::Rng;
use serde_json::{Map, Number, Value, json};
use toolc_schema::{Schema, Violation};

/// How many candidates are tried before giving up.
const ATTEMPTS: u32 = 48;
/// Past this depth of nested values, optional properties are left out and arrays kept at
/// their least length, so recursive schemas end.
const SHALLOW: usize = 6;
/// Past this depth no value is generated: the schema needs values deeper than any mock
/// should be.
const DEEPEST: usize = 48;
/// How many `$ref`s are followed in a row without a value in between (`A: {$ref: B}`).
const REF_CHAIN: usize = 32;

/// Why no value was found.
#[derive(Debug, Clone, PartialEq)]
pub struct NoValue {
    /// The violations of the last candidate, or why none could be made.
    pub why: String,
}

/// A value of `schema` (a bundle: `$ref`s point into its own `$defs`) that `validator` (the
/// same schema, compiled) accepts, drawn from `seed`.
pub fn generate(schema: &Value, validator: &Schema, seed: u64) -> Result<Value, NoValue> {
    let mut last: Option<Vec<Violation>> = None;
    let mut stuck: Option<String> = None;
    for attempt in 0..ATTEMPTS {
        let mut g = Generator {
            root: schema,
            rng: Rng::new(seed ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            // Half the attempts draw freely; the others keep to the least the schema asks,
            // which succeeds where free draws keep breaking a bound.
            minimal: attempt % 2 == 1,
            stuck: None,
        };
        let Some(candidate) = g.value(schema, 0, 0) else {
            stuck = g.stuck.or(stuck);
            continue;
        };
        let violations = validator.validate(&candidate);
        if violations.is_empty() {
            return Ok(candidate);
        }
        last = Some(violations);
    }
    Err(NoValue {
        why: match last {
            Some(v) => v
                .iter()
                .take(3)
                .map(|v| {
                    if v.pointer.is_empty() {
                        v.message.clone()
                    } else {
                        format!("{}: {}", v.pointer, v.message)
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            None => stuck.unwrap_or_else(|| "no candidate could be made".to_string()),
        },
    })
}

struct Generator<'a> {
    root: &'a Value,
    rng: Rng,
    minimal: bool,
    /// Why the last value that could not be made could not.
    stuck: Option<String>,
}

/// The JSON types, in the order tried when a schema names none.
const ANY_TYPES: [&str; 5] = ["string", "integer", "boolean", "object", "null"];

impl Generator<'_> {
    /// Whether values at `depth` are kept small.
    fn shallow(&self, depth: usize) -> bool {
        self.minimal || depth >= SHALLOW
    }

    /// A value of `schema` at `depth` of nesting, after `refs` `$ref`s in a row.
    /// Gives up, saying why.
    fn stuck<T>(&mut self, why: impl Into<String>) -> Option<T> {
        self.stuck = Some(why.into());
        None
    }

    fn value(&mut self, schema: &Value, depth: usize, refs: usize) -> Option<Value> {
        if depth > DEEPEST {
            return self.stuck(format!(
                "it asks for values nested deeper than {DEEPEST} levels"
            ));
        }
        let s = match schema {
            Value::Bool(true) => return Some(self.any(depth)),
            Value::Object(s) => s,
            _ => return self.stuck("a part of it is the schema `false`, which admits nothing"),
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            if refs > REF_CHAIN {
                return self.stuck(format!(
                    "`$ref`s lead to `$ref`s more than {REF_CHAIN} times"
                ));
            }
            let target = self.lookup(r)?;
            let merged = merge(&without(s, &["$ref"]), target);
            return self.value(&Value::Object(merged), depth, refs + 1);
        }
        if let Some(c) = s.get("const") {
            return Some(c.clone());
        }
        if let Some(Value::Array(options)) = s.get("enum") {
            return self.pick(options).cloned();
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            let mut merged = without(s, &["allOf"]);
            for part in all {
                let part = self.deref(part)?;
                merged = merge(&merged, part);
            }
            return self.value(&Value::Object(merged), depth, refs);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = s.get(key) {
                let branch = self.branch(branches, depth)?;
                let merged = merge(&without(s, &[key]), self.deref(branch)?);
                return self.value(&Value::Object(merged), depth, refs);
            }
        }
        // Examples the schema gives (they are checked against it when the manifest is), and
        // its default, now and then.
        if !self.minimal {
            if let Some(Value::Array(examples)) = s.get("examples")
                && !examples.is_empty()
                && self.rng.chance(2)
            {
                return self.pick(examples).cloned();
            }
            if let Some(d) = s.get("default")
                && self.rng.chance(4)
            {
                return Some(d.clone());
            }
        }
        let ty = self.type_of(s)?;
        match ty {
            "null" => Some(Value::Null),
            "boolean" => Some(Value::Bool(!self.minimal && self.rng.chance(2))),
            "integer" => self.integer(s),
            "number" => self.number(s),
            "string" => Some(Value::String(self.string(s))),
            "array" => self.array(s, depth),
            _ => self.object(s, depth),
        }
    }

    /// A value of any type (`true`, or a schema of no type and no keyword that implies one).
    fn any(&mut self, depth: usize) -> Value {
        if self.shallow(depth) {
            return json!("value");
        }
        match self.rng.below(4) {
            0 => json!(self.rng.below(100)),
            1 => json!(true),
            2 => json!({}),
            _ => json!(self.word()),
        }
    }

    /// The schema a `$ref` points at: `#` (the root) or `#/$defs/Name` (any JSON pointer into
    /// the bundle).
    fn lookup(&self, r: &str) -> Option<&Value> {
        let pointer = r.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        let unescaped: String = pointer.to_string();
        self.root.pointer(&unescaped)
    }

    /// `schema`, or what its `$ref` points at (its own keywords beside the `$ref` kept).
    fn deref<'v>(&'v self, schema: &'v Value) -> Option<&'v Value> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) if schema.as_object().is_some_and(|m| m.len() == 1) => self.lookup(r),
            _ => Some(schema),
        }
    }

    /// A branch of a union: any, drawn; when kept small, the first that does not refer
    /// back into a named type (so recursion through a union ends).
    fn branch<'v>(&mut self, branches: &'v [Value], depth: usize) -> Option<&'v Value> {
        if branches.is_empty() {
            return None;
        }
        if self.shallow(depth) {
            let plain = branches.iter().find(|b| !mentions_ref(b));
            if let Some(p) = plain {
                return Some(p);
            }
        }
        self.pick(branches)
    }

    fn pick<'v>(&mut self, options: &'v [Value]) -> Option<&'v Value> {
        if options.is_empty() {
            return None;
        }
        if self.minimal {
            return options.first();
        }
        let i = self.rng.below(options.len() as u64) as usize;
        options.get(i)
    }

    /// The type to generate: one of those `type` lists (not `null` when another is there,
    /// unless drawn now and then), or the one the keywords imply.
    fn type_of(&mut self, s: &Map<String, Value>) -> Option<&'static str> {
        let named: Vec<&'static str> = match s.get("type") {
            Some(Value::String(t)) => vec![canonical(t)?],
            Some(Value::Array(ts)) => ts.iter().filter_map(|t| canonical(t.as_str()?)).collect(),
            _ => Vec::new(),
        };
        let nullable = s.get("nullable") == Some(&Value::Bool(true));
        if named.is_empty() {
            let implied = if s.contains_key("properties")
                || s.contains_key("additionalProperties")
                || s.contains_key("required")
                || s.contains_key("propertyNames")
            {
                "object"
            } else if s.contains_key("items") || s.contains_key("prefixItems") {
                "array"
            } else if ["minLength", "maxLength", "pattern", "format"]
                .iter()
                .any(|k| s.contains_key(*k))
            {
                "string"
            } else if [
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ]
            .iter()
            .any(|k| s.contains_key(*k))
            {
                "number"
            } else {
                let i = if self.minimal {
                    0
                } else {
                    self.rng.below(ANY_TYPES.len() as u64) as usize
                };
                ANY_TYPES[i]
            };
            return Some(implied);
        }
        let non_null: Vec<&'static str> = named.iter().copied().filter(|t| *t != "null").collect();
        if non_null.is_empty() || ((nullable || named.contains(&"null")) && self.rng.chance(8)) {
            return Some("null");
        }
        if self.minimal {
            return non_null.first().copied();
        }
        let i = self.rng.below(non_null.len() as u64) as usize;
        Some(non_null[i])
    }

    fn integer(&mut self, s: &Map<String, Value>) -> Option<Value> {
        let Some((lo, hi)) = int_bounds(s) else {
            return self.stuck("no integer lies within its bounds");
        };
        let step = s
            .get("multipleOf")
            .and_then(Value::as_f64)
            .filter(|m| *m >= 1.0 && m.fract() == 0.0)
            .map(|m| m as i128)
            .unwrap_or(1);
        // The multiples of `step` within [lo, hi].
        let first = ceil_div(lo, step);
        let last = floor_div(hi, step);
        if first > last {
            return self.stuck(format!("no multiple of {step} lies from {lo} to {hi}"));
        }
        let k = if self.minimal {
            // The multiple nearest zero.
            0i128.clamp(first, last)
        } else {
            // Mostly small numbers near the bounds' middle or zero: a wide range drawn
            // uniformly gives numbers nobody writes.
            let near = 0i128.clamp(first, last);
            let span = (last - first).min(1000);
            let from = (near - span / 2).max(first);
            from + i128::from(self.rng.below((span + 1) as u64) as i64).min(last - from)
        };
        let n = k * step;
        i64::try_from(n)
            .map(|n| json!(n))
            .or_else(|_| u64::try_from(n).map(|n| json!(n)))
            .ok()
    }

    fn number(&mut self, s: &Map<String, Value>) -> Option<Value> {
        let get = |k: &str| s.get(k).and_then(Value::as_f64);
        if let Some(m) = get("multipleOf").filter(|m| *m > 0.0) {
            let lo = get("minimum")
                .or(get("exclusiveMinimum").map(|x| x + m / 2.0))
                .unwrap_or(-1e6);
            let hi = get("maximum")
                .or(get("exclusiveMaximum").map(|x| x - m / 2.0))
                .unwrap_or(1e6);
            let first = (lo / m).ceil();
            let last = (hi / m).floor();
            if first > last {
                return self.stuck(format!("no multiple of {m} lies from {lo} to {hi}"));
            }
            let k = if self.minimal {
                0f64.clamp(first, last)
            } else {
                first + (self.rng.below(((last - first).min(100.0)) as u64 + 1)) as f64
            };
            return Number::from_f64(k * m).map(Value::Number);
        }
        let lo = get("minimum");
        let hi = get("maximum");
        let xlo = get("exclusiveMinimum");
        let xhi = get("exclusiveMaximum");
        let low = lo.or(xlo).unwrap_or(f64::MIN);
        let high = hi.or(xhi).unwrap_or(f64::MAX);
        if low.is_nan() || high.is_nan() || low > high {
            return self.stuck("no number lies within its bounds");
        }
        let mut x = if self.minimal {
            0f64.clamp(low, high)
        } else {
            let base = 0f64.clamp(low, high);
            let spread = ((high - low) / 2.0).min(100.0);
            let draw = self.rng.below(1000) as f64 / 1000.0;
            (base + spread * draw).clamp(low, high)
        };
        // Off the exclusive bounds.
        if let Some(b) = xlo
            && x <= b
        {
            x = b + ((high.min(b + 2.0) - b) / 2.0);
        }
        if let Some(b) = xhi
            && x >= b
        {
            x = b - ((b - low.max(b - 2.0)) / 2.0);
        }
        if !x.is_finite() || x < low || x > high {
            return self.stuck("no number lies within its bounds");
        }
        Number::from_f64(if self.minimal {
            x
        } else {
            (x * 100.0).round() / 100.0
        })
        .map(Value::Number)
    }

    fn string(&mut self, s: &Map<String, Value>) -> String {
        let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let text = if let Some(p) = s.get("pattern").and_then(Value::as_str) {
            match pattern::generate(p, &mut self.rng, self.minimal) {
                Some(t) => return t,
                None => self.word(),
            }
        } else if let Some(f) = s.get("format").and_then(Value::as_str) {
            match self.formatted(f) {
                Some(t) => return t,
                None => self.word(),
            }
        } else if s.get("contentEncoding").and_then(Value::as_str) == Some("base64") {
            "aGVsbG8=".to_string()
        } else if self.minimal {
            "a".repeat(min.max(1))
        } else {
            self.words()
        };
        fit(text, min, max)
    }

    /// A sample of a format the validator asserts (and a few it does not); `None` for
    /// formats it knows nothing of.
    fn formatted(&mut self, format: &str) -> Option<String> {
        let n = self.rng.below(28) + 1;
        Some(match format {
            "date" => format!("2024-05-{n:02}"),
            "date-time" => format!("2024-05-{n:02}T09:30:00Z"),
            "time" => format!("09:{:02}:00Z", n * 2),
            "duration" => format!("P{n}D"),
            "uuid" => {
                let a = self.rng.next();
                let b = self.rng.next();
                format!(
                    "{:08x}-{:04x}-4{:03x}-{:x}{:03x}-{:012x}",
                    a >> 32,
                    (a >> 16) & 0xffff,
                    a & 0xfff,
                    8 + (b >> 62),
                    (b >> 48) & 0xfff,
                    b & 0xffff_ffff_ffff
                )
            }
            "email" => format!("user{n}@example.com"),
            "uri" | "url" | "iri" => format!("https://example.com/items/{n}"),
            "uri-reference" | "iri-reference" => format!("/items/{n}"),
            "ipv4" => format!("192.0.2.{n}"),
            "ipv6" => format!("2001:db8::{n:x}"),
            "hostname" | "idn-hostname" => format!("host{n}.example.com"),
            "byte" => "aGVsbG8=".to_string(),
            "json-pointer" => format!("/items/{n}"),
            "regex" => "^[a-z]+$".to_string(),
            _ => return None,
        })
    }

    fn word(&mut self) -> String {
        const WORDS: [&str; 16] = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
            "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
        ];
        WORDS[self.rng.below(WORDS.len() as u64) as usize].to_string()
    }

    fn words(&mut self) -> String {
        let n = self.rng.below(3) + 1;
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    fn array(&mut self, s: &Map<String, Value>, depth: usize) -> Option<Value> {
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxItems")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let prefix: &[Value] = match s.get("prefixItems") {
            Some(Value::Array(p)) => p,
            _ => &[],
        };
        let items = s.get("items");
        let closed = items == Some(&Value::Bool(false));
        let mut count = if self.shallow(depth) {
            min.max(if self.minimal { 0 } else { prefix.len() })
        } else {
            min.max(prefix.len()) + self.rng.below(3) as usize
        };
        if closed {
            count = count.min(prefix.len());
        }
        if let Some(max) = max {
            count = count.min(max);
        }
        let unique = s.get("uniqueItems") == Some(&Value::Bool(true));
        let mut out: Vec<Value> = Vec::with_capacity(count);
        let mut tries = 0;
        while out.len() < count {
            let i = out.len();
            let schema = match prefix.get(i) {
                Some(p) => p,
                None => items.unwrap_or(&Value::Bool(true)),
            };
            let v = self.value(schema, depth + 1, 0)?;
            if unique && out.contains(&v) {
                tries += 1;
                if tries > 16 {
                    return self.stuck(format!(
                        "{count} different items could not be found for `uniqueItems`"
                    ));
                }
                continue;
            }
            out.push(v);
        }
        Some(Value::Array(out))
    }

    fn object(&mut self, s: &Map<String, Value>, depth: usize) -> Option<Value> {
        let empty = Map::new();
        let properties = s
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        let shallow = self.shallow(depth);
        for (name, schema) in properties {
            let wanted = required.contains(&name.as_str()) || (!shallow && self.rng.chance(2));
            if wanted {
                out.insert(name.clone(), self.value(schema, depth + 1, 0)?);
            }
        }
        // Other keys: a map's entries, and required keys no property declares.
        let additional = s.get("additionalProperties");
        let open_schema = match additional {
            Some(Value::Bool(false)) => None,
            Some(a) => Some(a.clone()),
            None => Some(Value::Bool(true)),
        };
        let names = s.get("propertyNames");
        if let Some(extra) = &open_schema {
            let map_like = properties.is_empty() && additional.is_some_and(Value::is_object);
            let count = if map_like && !shallow {
                self.rng.below(3) as usize
            } else {
                0
            };
            for _ in 0..count {
                let key = self.key(names);
                if !out.contains_key(&key) {
                    out.insert(key, self.value(extra, depth + 1, 0)?);
                }
            }
        }
        // `dependentRequired`: a key present asks for others.
        if let Some(Value::Object(dependent)) = s.get("dependentRequired") {
            for (key, needs) in dependent {
                if out.contains_key(key)
                    && let Value::Array(needs) = needs
                {
                    required.extend(needs.iter().filter_map(Value::as_str));
                }
            }
        }
        for name in required {
            if out.contains_key(name) {
                continue;
            }
            let schema = properties
                .get(name)
                .cloned()
                .or_else(|| open_schema.clone())
                .unwrap_or(Value::Bool(true));
            out.insert(name.to_string(), self.value(&schema, depth + 1, 0)?);
        }
        Some(Value::Object(out))
    }

    /// A key of a map: one `propertyNames` allows when it says.
    fn key(&mut self, names: Option<&Value>) -> String {
        if let Some(names) = names
            && let Some(Value::String(k)) = self.value(names, 0, 0)
        {
            return k;
        }
        self.word()
    }
}

/// The JSON type names a schema may give, as static strings.
fn canonical(t: &str) -> Option<&'static str> {
    [
        "null", "boolean", "integer", "number", "string", "array", "object",
    ]
    .into_iter()
    .find(|k| *k == t)
}

/// The object without `keys`.
fn without(s: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    s.iter()
        .filter(|(k, _)| !keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// `a` and `b` as one schema, for a value that must satisfy both: their properties and
/// required names joined, their types intersected, and for other keywords `b`'s where both
/// have one (the validator has the last word).
fn merge(a: &Map<String, Value>, b: &Value) -> Map<String, Value> {
    let Value::Object(b) = b else {
        return a.clone();
    };
    let mut out = a.clone();
    for (k, v) in b {
        match (k.as_str(), out.get_mut(k)) {
            ("properties", Some(Value::Object(mine))) => {
                if let Value::Object(theirs) = v {
                    for (name, schema) in theirs {
                        match mine.get(name) {
                            Some(Value::Object(existing)) => {
                                let joined = merge(existing, schema);
                                mine.insert(name.clone(), Value::Object(joined));
                            }
                            _ => {
                                mine.insert(name.clone(), schema.clone());
                            }
                        }
                    }
                }
            }
            ("required", Some(Value::Array(mine))) => {
                if let Value::Array(theirs) = v {
                    for r in theirs {
                        if !mine.contains(r) {
                            mine.push(r.clone());
                        }
                    }
                }
            }
            ("type", Some(mine)) => {
                let as_list = |t: &Value| -> Vec<Value> {
                    match t {
                        Value::Array(ts) => ts.clone(),
                        other => vec![other.clone()],
                    }
                };
                let theirs = as_list(v);
                let both: Vec<Value> = as_list(mine)
                    .into_iter()
                    .filter(|t| {
                        theirs.contains(t) || (t == "number" && theirs.contains(&json!("integer")))
                    })
                    .map(|t| {
                        if t == "number" && theirs.contains(&json!("integer")) {
                            json!("integer")
                        } else {
                            t
                        }
                    })
                    .collect();
                *mine = match both.as_slice() {
                    [one] => one.clone(),
                    [] => v.clone(),
                    _ => Value::Array(both),
                };
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// Whether a schema refers to a named type anywhere.
fn mentions_ref(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("$ref") || m.values().any(mentions_ref),
        Value::Array(items) => items.iter().any(mentions_ref),
        _ => false,
    }
}

/// The integer bounds of a schema, within what JSON numbers toolc reads hold.
fn int_bounds(s: &Map<String, Value>) -> Option<(i128, i128)> {
    let get = |k: &str| s.get(k).and_then(Value::as_f64);
    let mut lo = i128::from(i64::MIN);
    let mut hi = i128::from(u64::MAX);
    if let Some(m) = get("minimum") {
        lo = lo.max(m.ceil() as i128);
    }
    if let Some(m) = get("exclusiveMinimum") {
        lo = lo.max(m.floor() as i128 + 1);
    }
    if let Some(m) = get("maximum") {
        hi = hi.min(m.floor() as i128);
    }
    if let Some(m) = get("exclusiveMaximum") {
        hi = hi.min(m.ceil() as i128 - 1);
    }
    (lo <= hi).then_some((lo, hi))
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let d = a.div_euclid(b);
    if a.rem_euclid(b) == 0 { d } else { d + 1 }
}

fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

/// `text` within `min..=max` characters: padded with `x`s, or cut.
fn fit(text: String, min: usize, max: Option<usize>) -> String {
    let mut text = text;
    let len = text.chars().count();
    if len < min {
        text.extend(std::iter::repeat_n('x', min - len));
    }
    if let Some(max) = max
        && text.chars().count() > max
    {
        text = text.chars().take(max).collect();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid(schema: Value) -> Vec<Value> {
        let validator = toolc_schema::compile(&schema).expect("compiles");
        (0..20)
            .map(|seed| {
                let v = generate(&schema, validator, seed)
                    .unwrap_or_else(|e| panic!("{schema}: {}", e.why));
                assert!(validator.validate(&v).is_empty(), "{schema}: {v}");
                v
            })
            .collect()
    }

    #[test]
    fn every_kind_of_schema_gets_a_valid_value() {
        for schema in [
            json!({"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}, "n": {"type": "integer", "minimum": 5, "maximum": 9, "multipleOf": 2}}, "required": ["id", "n"], "additionalProperties": false}),
            json!({"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"}, "minItems": 2, "uniqueItems": true}),
            json!({"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]}),
            json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
            json!({"type": "string", "minLength": 20, "maxLength": 20}),
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"enum": ["a", "b"]}}),
            json!({"oneOf": [{"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["kind", "x"]}, {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]}),
            json!({"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]}]}),
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 2}),
            json!({"type": "string", "format": "date-time"}),
            json!({"type": "integer", "minimum": 9007199254740993_i64}),
            json!({"type": ["string", "null"], "enum": ["x", null]}),
        ] {
            valid(schema);
        }
    }

    #[test]
    fn recursive_named_types_end() {
        let schema = json!({
            "$ref": "#/$defs/Tree",
            "$defs": {"Tree": {"type": "object", "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}, "minItems": 1}
            }, "required": ["label"]}}
        });
        valid(schema);
    }

    #[test]
    fn the_same_seed_gives_the_same_value_and_others_vary() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}, "required": ["n", "s"]});
        let validator = toolc_schema::compile(&schema).unwrap();
        let a = generate(&schema, validator, 7).unwrap();
        assert_eq!(a, generate(&schema, validator, 7).unwrap());
        let distinct: std::collections::BTreeSet<String> = (0..20)
            .map(|s| generate(&schema, validator, s).unwrap().to_string())
            .collect();
        assert!(distinct.len() > 5, "{distinct:?}");
    }

    #[test]
    fn a_schema_that_admits_nothing_says_why() {
        let schema = json!({"type": "integer", "minimum": 5, "maximum": 4});
        let validator = toolc_schema::compile(&schema).unwrap();
        let e = generate(&schema, validator, 1).unwrap_err();
        assert_eq!(e.why, "no integer lies within its bounds");
        let schema = json!({"type": "number", "minimum": 5, "maximum": 4});
        let validator = toolc_schema::compile(&schema).unwrap();
        let e = generate(&schema, validator, 1).unwrap_err();
        assert_eq!(e.why, "no number lies within its bounds");
        let schema = json!({"type": "string", "not": {"type": "string"}});
        let validator = toolc_schema::compile(&schema).unwrap();
        let e = generate(&schema, validator, 1).unwrap_err();
        assert!(!e.why.is_empty(), "{e:?}");
    }
}
