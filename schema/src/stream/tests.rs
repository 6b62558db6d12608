//! The fast path against the full walk, on generated values and argument texts, valid and
//! invalid: whatever the fast path accepts, the full walk accepts with the same result, and
//! on schemas without keywords that need the whole value it accepts exactly what the full
//! walk accepts.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value, json};

use super::{checked, de};
use crate::{Schema, compile};

const CASES: u32 = 3_000;

/// A schema, and whether the fast path must decide every value itself (no keyword in it
/// needs the whole value).
/// `value` written as JSON text through the checking serializer, as the runtime writes a result;
/// `None` when the fast path cannot vouch for it.
fn to_json<R: serde::Serialize + ?Sized>(schema: &'static Schema, value: &R) -> Option<String> {
    serde_json::to_string(&checked(schema, value)?).ok()
}

fn schemas() -> Vec<(&'static Schema, bool)> {
    let decided = [
        json!({}),
        json!({"type": "object"}),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 5},
                "count": {"type": "integer", "minimum": 0, "maximum": 100},
                "ratio": {"type": "number", "exclusiveMaximum": 1.5, "multipleOf": 0.5},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
                "kind": {"type": "string", "enum": ["a", "B"]},
                "flag": {"type": ["boolean", "null"]},
                "extra": {}
            },
            "required": ["name"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {"const": 1}}}},
            "additionalProperties": {"type": "integer"},
            "propertyNames": {"maxLength": 4},
            "minProperties": 1,
            "maxProperties": 3,
            "dependentRequired": {"a": ["b"]}
        }),
        json!({
            "type": "object",
            "patternProperties": {"^x": {"type": "string"}, "a": {"minLength": 2}},
            "additionalProperties": false
        }),
        json!({
            "$defs": {"T": {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}, "maxProperties": 2}},
            "type": "array",
            "items": {"$ref": "#/$defs/T"},
            "maxItems": 3
        }),
        json!({
            "type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer"}],
            "items": false
        }),
        json!({
            "allOf": [
                {"type": "object", "properties": {"name": {"pattern": "^[a-z]+$"}}},
                {"required": ["name"]}
            ]
        }),
        json!({"type": ["string", "integer"], "anyOf": [{"maxLength": 2}, {"type": "integer", "not": {"const": 3}}]}),
        json!({"oneOf": [{"type": "string"}, {"type": "number", "minimum": 2}], "if": {"type": "string"}, "then": {"minLength": 1}, "else": {"multipleOf": 2}}),
    ];
    // More properties than the 64 whose keys are kept as bits, two required past them.
    let mut wide: Map<String, Value> = (0..64).map(|i| (format!("f{i}"), json!({}))).collect();
    wide.insert("name".into(), json!({"type": "string"}));
    wide.insert("a".into(), json!({"type": "integer"}));
    let decided = decided.into_iter().chain([
        json!({"type": "object", "properties": wide, "required": ["f1", "name", "a"]}),
        // Two schemas with properties and `required`: the second's are looked up by name.
        json!({"allOf": [
            {"type": "object", "properties": {"name": {"type": "string"}, "a": {}}, "required": ["name"]},
            {"properties": {"b": {"type": "integer"}, "a": {"type": "integer"}}, "required": ["b", "a"]}
        ]}),
    ]);
    let whole = [
        json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["name"]}]}),
        json!({"type": "array", "uniqueItems": true, "contains": {"type": "integer"}}),
        json!({"enum": [{"a": 1}, [1, 2], "x"]}),
        json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "array"}, {"type": "object"}]}}}),
        json!({"not": {"type": "object", "required": ["a"]}}),
        json!({"type": "object", "dependentSchemas": {"a": {"required": ["name"]}, "b": {"maxProperties": 1}}}),
    ];
    let mut out = Vec::new();
    for s in decided {
        out.push((compile(&s).expect("schema"), true));
    }
    for s in whole {
        out.push((compile(&s).expect("schema"), false));
    }
    out
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..120).prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        Just(Value::from(i64::MIN)),
        prop_oneof![
            Just(0.5),
            Just(1.0),
            Just(1.5),
            Just(2.0),
            Just(-0.0),
            Just(3.25),
            Just(1e300)
        ]
        .prop_map(|f| Value::Number(Number::from_f64(f).expect("finite"))),
        prop_oneof![
            Just(""),
            Just("a"),
            Just("B"),
            Just("abc"),
            Just("abcdef"),
            Just("é€𝄞"),
            Just("x1"),
            Just("0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"),
            Just("not-a-uuid"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name"),
        Just("count"),
        Just("ratio"),
        Just("tags"),
        Just("kind"),
        Just("flag"),
        Just("extra"),
        Just("a"),
        Just("b"),
        Just("xa"),
        Just("long key"),
        Just("id"),
    ]
    .prop_map(str::to_owned)
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Argument text: an object written out, sometimes with a duplicate key, a deep value,
/// whitespace, trailing text, or not an object at all.
fn arguments() -> impl Strategy<Value = String> {
    let object = prop::collection::vec((key(), value()), 0..7)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>()));
    (object, 0u8..10, value()).prop_map(|(v, how, other)| {
        let text = v.to_string();
        match how {
            0 => match v.as_object().and_then(|m| m.iter().next()) {
                // A duplicate of the first key.
                Some((k, first)) => format!("{{{}:{first},{}", Value::from(k.clone()), &text[1..]),
                None => text,
            },
            1 => serde_json::to_string_pretty(&v).unwrap_or(text),
            2 => format!("{text} x"),
            3 => other.to_string(),
            4 => {
                let deep = format!("{}1{}", "[".repeat(130), "]".repeat(130));
                format!("{{\"extra\":{deep},{}", &text[1..])
            }
            5 => text
                .replace(':', ": ")
                .replace("\"name\"", "\"n\\u0061me\""),
            _ => text,
        }
    })
}

fn slow<P: DeserializeOwned>(schema: &Schema, text: &str) -> Option<P> {
    let mut v = crate::parse_arguments(text).ok()?;
    schema.normalize_arguments(&mut v);
    if !schema.is_valid(&v) {
        return None;
    }
    P::deserialize(&v).ok()
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    name: String,
    count: Option<i64>,
    ratio: Option<f64>,
    #[serde(default)]
    tags: Vec<String>,
    kind: Option<Kind>,
    flag: Option<bool>,
    extra: Option<Value>,
}

#[derive(Debug, PartialEq, Deserialize)]
enum Kind {
    #[serde(rename = "a")]
    A,
    B,
}

#[test]
fn results_written_fast_are_what_the_full_walk_accepts() {
    let schemas = schemas();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let accepted: Vec<Cell<u32>> = vec![Cell::new(0); schemas.len()];
    runner
        .run(&value(), |v| {
            for (i, (s, decided)) in schemas.iter().enumerate() {
                let valid = s.is_valid(&v);
                let text = to_json(s, &v);
                if let Some(text) = text {
                    prop_assert!(valid, "accepted fast, refused by the full walk: {v}");
                    let back: Value = serde_json::from_str(text.as_str()).expect("json");
                    prop_assert_eq!(&back, &v);
                    prop_assert_eq!(text.as_str(), v.to_string());
                    accepted[i].set(accepted[i].get() + 1);
                }
                if *decided {
                    prop_assert_eq!(to_json(s, &v).is_some(), valid, "schema {} on {}", i, v);
                }
            }
            Ok(())
        })
        .expect("agreement");
    // Both outcomes are common: beyond the two schemas that take any value or any object,
    // the fast path accepted many values.
    let beyond: u32 = accepted[2..].iter().map(Cell::get).sum();
    assert!(beyond > CASES / 2, "accepted {beyond}");
}

#[test]
fn arguments_read_fast_are_what_the_full_walk_reads() {
    let schemas = schemas();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let fast = Cell::new(0u32);
    let full = Cell::new(0u32);
    runner
        .run(&arguments(), |text| {
            for (s, _) in &schemas {
                let quick = de::from_str::<Value>(s, &text);
                let sure = slow::<Value>(s, &text);
                if sure.is_some() {
                    full.set(full.get() + 1);
                }
                if let Some(quick) = quick {
                    fast.set(fast.get() + 1);
                    prop_assert_eq!(Some(quick), sure, "{}", text);
                }
                let quick = de::from_str::<Params>(s, &text);
                if let Some(quick) = quick {
                    prop_assert_eq!(Some(quick), slow::<Params>(s, &text), "{}", text);
                }
            }
            Ok(())
        })
        .expect("agreement");
    // The fast path takes most of what the full walk accepts.
    let (fast, full) = (fast.get(), full.get());
    assert!(fast * 2 > full, "fast {fast} of {full}");
}

#[test]
fn arguments_the_fast_path_leaves_to_the_full_walk() {
    static ROOT: std::sync::LazyLock<&'static Schema> = std::sync::LazyLock::new(|| {
        compile(&json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
            "additionalProperties": false
        }))
        .expect("schema")
    });
    let s: &'static Schema = &ROOT;
    for (text, read) in [
        // Read the same either way.
        (r#"{"n": 5, "s": "x"}"#, true),
        // Normalized by the full walk: an integral float, a strict-mode null.
        (r#"{"n": 5.0}"#, false),
        (r#"{"s": null}"#, false),
        // Refused by both.
        (r#"{"n": 5, "n": 6}"#, false),
        (r#"{"m": 1}"#, false),
        ("[]", false),
        ("", false),
        (r#"{"n": 1} {}"#, false),
    ] {
        assert_eq!(de::from_str::<Value>(s, text).is_some(), read, "{text}");
    }
    assert_eq!(slow::<Value>(s, r#"{"n": 5.0}"#), Some(json!({"n": 5})));
    assert_eq!(slow::<Value>(s, r#"{"s": null}"#), Some(json!({})));
}

#[test]
fn results_the_fast_path_leaves_to_the_full_walk() {
    use std::collections::BTreeMap;
    let s = compile(&json!({"type": "object", "additionalProperties": {"type": "number"}}))
        .expect("schema");
    // Integer keys are written as their text.
    let ints: BTreeMap<i32, f32> = [(1, 0.1), (2, 2.5)].into_iter().collect();
    let text = to_json(s, &ints).expect("written");
    assert_eq!(text.as_str(), r#"{"1":0.1,"2":2.5}"#);
    // A non-finite float is written as `null`, which the schema refuses.
    let nan: BTreeMap<&str, f64> = [("x", f64::NAN)].into_iter().collect();
    assert!(to_json(s, &nan).is_none());
    assert!(!s.is_valid(&serde_json::to_value(&nan).expect("value")));
    // Raw JSON inside a result is not followed.
    let raw: BTreeMap<&str, Box<serde_json::value::RawValue>> =
        [("x", serde_json::value::to_raw_value(&1).expect("raw"))]
            .into_iter()
            .collect();
    assert!(to_json(s, &raw).is_none());
}
