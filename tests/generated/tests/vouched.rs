//! Results the checks compiled per type vouch for: instances generated from each tool's
//! returns schema (values at and beyond every bound, formats valid and broken, optional
//! properties present and absent) are read into the result type; whenever its check vouches
//! for one, the schema accepts what the type writes, and a call answering it answers exactly
//! that text (or that `Value`). A call answers every instance the schema accepts and refuses every other with
//! `output_invalid` (never `panicked`, which debug builds answer when a check vouched wrongly).

use serde_json::{Value, json};
use toolc_generated_tests::vouched::toolboxes::vouched::{
    DESCRIPTORS, ReadingsReturns, Scope, Vouched, VouchedToolbox,
};
use toolc_generated_tests::vouched::types::{Left, LeftShort, Reading, Wrapped};
use toolc_runtime::codegen::Conforms;
use toolc_runtime::codegen::serde::Serialize;
use toolc_runtime::codegen::serde::de::DeserializeOwned;
use toolc_runtime::{CallContext, ErrorKind, HandlerError, ToolContext, Toolbox};

use super::instances::{Rng, generate};

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
