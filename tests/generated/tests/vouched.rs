//! Results the checks compiled per type vouch for: instances generated from each tool's
//! returns schema (values at and beyond every bound, formats valid and broken, optional
//! properties present and absent) are read into the result type; whenever its check vouches
//! for one, the schema accepts what the type writes, and a call answering it answers exactly
//! that text (or that `Value`). A call answers every instance the schema accepts and refuses every other with
//! `output_invalid` (never `panicked`, which debug builds answer when a check vouched wrongly).

use serde_json::{Map, Value, json};
use toolc_generated_tests::vouched::toolboxes::vouched::{
    DESCRIPTORS, ReadingsReturns, Scope, Vouched, VouchedToolbox,
};
use toolc_generated_tests::vouched::types::{Left, LeftShort, Reading, Wrapped};
use toolc_runtime::codegen::Conforms;
use toolc_runtime::codegen::serde::Serialize;
use toolc_runtime::codegen::serde::de::DeserializeOwned;
use toolc_runtime::{CallContext, ErrorKind, HandlerError, ToolContext, Toolbox};

const CASES: usize = 1_500;

/// The result each tool answers, set before each call.
#[derive(Default)]
struct Answers {
    reading: Option<Reading>,
    left: Option<Left>,
    readings: Option<ReadingsReturns>,
}

fn answer<T: Clone>(value: &Option<T>) -> Result<T, HandlerError> {
    value
        .clone()
        .ok_or_else(|| HandlerError::msg("no answer set"))
}

impl Vouched for Answers {
    async fn reading(&self, _ctx: &ToolContext<'_, Scope>) -> Result<Reading, HandlerError> {
        answer(&self.reading)
    }
    async fn left(&self, _ctx: &ToolContext<'_, Scope>) -> Result<Left, HandlerError> {
        answer(&self.left)
    }
    async fn readings(
        &self,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<ReadingsReturns, HandlerError> {
        answer(&self.readings)
    }
}

/// How the instances of one tool fell.
#[derive(Debug, Default)]
struct Tally {
    /// Not of the result type's shape (a property missing, a number out of its range).
    unread: usize,
    vouched: usize,
    valid: usize,
    invalid: usize,
}

/// Calls `tool` answering each of `CASES` instances of its returns schema read as `T`.
fn run<T>(tool: &str, seed: u64, set: fn(&mut Answers, T)) -> Tally
where
    T: DeserializeOwned + Serialize + Conforms,
{
    let desc = DESCRIPTORS
        .iter()
        .find(|d| d.name == tool)
        .expect("the tool");
    let schema = desc.output_schema_json().expect("an object result");
    let returns = desc.returns.expect("a validated result");
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let instance = generate(&schema, &schema, &mut rng, 0);
        let Ok(value) = serde_json::from_value::<T>(instance) else {
            tally.unread += 1;
            continue;
        };
        let vouched = value.conforms();
        let written = serde_json::to_value(&value).expect("written");
        let valid = returns.is_valid(&written);
        assert!(
            !vouched || valid,
            "{tool}: vouched for a result its schema refuses: {written}"
        );
        tally.vouched += usize::from(vouched);
        let mut answers = Answers::default();
        set(&mut answers, value);
        let toolbox = VouchedToolbox::new(answers);
        let ctx = CallContext::new("vouched");
        // Answered as text and as a `Value`: the same result either way.
        let as_text = super::block_on(toolbox.call_json(tool, "{}", &ctx))
            .map(|text| serde_json::from_str::<Value>(text.get()).expect("JSON"));
        let as_value = super::block_on(toolbox.call(tool, "{}", &ctx));
        for answered in [as_text, as_value] {
            match answered {
                Ok(read) => {
                    assert!(
                        valid,
                        "{tool}: answered a result its schema refuses: {written}"
                    );
                    assert_eq!(read, written, "{tool}: answered other than it wrote");
                }
                Err(e) => {
                    assert!(!valid, "{tool}: refused a valid result {written}: {e}");
                    assert_eq!(e.kind(), ErrorKind::OutputInvalid, "{tool}: {e}");
                }
            }
        }
        if valid {
            tally.valid += 1;
        } else {
            tally.invalid += 1;
        }
    }
    tally
}

/// Every keyword the checks read: each valid result is vouched for, each invalid one is not.
#[test]
fn the_checks_vouch_for_exactly_the_valid_results_they_can_read() {
    for (tool, tally) in [
        ("reading", run("reading", 1, |a, v| a.reading = Some(v))),
        ("readings", run("readings", 2, |a, v| a.readings = Some(v))),
    ] {
        let read = CASES - tally.unread;
        assert!(
            read >= CASES / 4,
            "{tool}: too few instances read: {tally:?}"
        );
        assert!(tally.valid >= read / 10, "{tool}: too few valid: {tally:?}");
        assert!(
            tally.invalid >= read / 10,
            "{tool}: too few invalid: {tally:?}"
        );
        assert_eq!(tally.vouched, tally.valid, "{tool}: {tally:?}");
    }
}

/// What the checks leave to the validator (a pattern, `uniqueItems`, a union, a map of
/// bounded values) is never vouched for, and still validated.
#[test]
fn what_the_checks_cannot_read_is_left_to_the_validator() {
    let tally = run("left", 3, |a, v| a.left = Some(v));
    assert_eq!(tally.vouched, 0, "{tally:?}");
    assert!(tally.valid > 0 && tally.invalid > 0, "{tally:?}");
}

/// The vouching is this toolset's own: a type the checks read answers its own verdict, and the
/// instance generator below reaches every bound (a reading at each edge is vouched for, one
/// past it is not).
#[test]
fn a_reading_at_each_edge_is_vouched_for_and_one_past_it_is_not() {
    let base = json!({
        "id": "123e4567-e89b-12d3-a456-426614174000", "at": "2024-02-29T12:00:00Z",
        "mail": "a@b.co", "name": "abcd", "label": "ab", "count": 9, "above": -2, "below": 2,
        "small": -5, "unsigned": 70000, "ratio": 0, "free": 1.5, "flag": true, "level": "low",
        "mood": "calm", "tags": ["abc"], "grid": [[0, 1]], "note": null, "shade": "dark",
        "part": {"code": "abc"}, "parts": []
    });
    let read = |v: &Value| serde_json::from_value::<Reading>(v.clone()).expect("a reading");
    assert!(read(&base).conforms());
    for (key, past) in [
        ("name", json!("abcde")),
        ("name", json!("")),
        ("label", json!("abcdef")),
        ("count", json!(10)),
        ("count", json!(0)),
        ("above", json!(-3)),
        ("below", json!(3)),
        ("small", json!(-6)),
        ("unsigned", json!(70001)),
        ("ratio", json!(1.5)),
        ("ratio", json!(-0.5)),
        ("id", json!("123e4567")),
        ("at", json!("2024-02-30T12:00:00Z")),
        ("tags", json!([])),
        ("tags", json!(["abcd"])),
        ("grid", json!([[0, 1, 2]])),
        ("grid", json!([[-1]])),
        ("note", json!("abcdefg")),
        ("part", json!({"code": "ab"})),
        (
            "parts",
            json!([{"code": "abc"}, {"code": "abc"}, {"code": "abc"}]),
        ),
        ("shade", json!(null)),
        ("none", json!(["a"])),
        ("zero", json!(1)),
        ("top", json!(2_147_483_646)),
    ] {
        let mut v = base.clone();
        v[key] = past;
        assert!(!read(&v).conforms(), "{key}: {}", v[key]);
    }
    let mut v = base;
    v["size"] = json!(5);
    assert!(!read(&v).conforms(), "size");
    // A string enum with a length beside its values, and a named type made from the one branch
    // of an `allOf` whose root closes it to that branch's property: the values alone do not
    // settle them.
    assert!(!LeftShort::A.conforms());
    let wrapped = Wrapped {
        a: Some("x".to_owned()),
    };
    assert!(!wrapped.conforms());
}

/// A seeded xorshift generator: the same instances on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// An instance of `s` (within the schema `root`, whose `$defs` references name): each value
/// at or within its bounds, or now and then just past one, or of a value not listed.
fn generate(root: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
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
