//! One validator: `toolc check` and the generated dispatcher give a value one verdict.
//!
//! build.rs draws schemas (`draw/schemas.rs`, seeded by `TOOLC_DRAW_SEED`) and generates the
//! dispatcher of a toolset of them. Here values are drawn for each (instances of its advertised
//! schema, some changed as a model might change them, and noise), and each is judged twice: by
//! the dispatcher's `check_arguments`, as a call would be, and by `toolc check`, as an example of
//! the tool's arguments. The two must refuse the same values, with the same violations (pointer
//! and message), and both verdicts must be common, so that neither side passes by accident.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value, json};
use toolc_generated_tests::drawn::toolboxes::drawn;
use toolc_runtime::ErrorKind;

use crate::instances::{Rng, generate};

#[path = "../draw/schemas.rs"]
#[allow(dead_code)]
mod schemas;

/// The drawn toolset, as build.rs wrote it.
const MANIFEST: &str = include_str!(concat!(env!("OUT_DIR"), "/drawn.yaml"));

/// Values drawn for each schema.
const VALUES: usize = 120;

type Verdict = BTreeSet<(String, String)>;

/// The dispatcher's verdict: the violations a call with these arguments fails with.
fn dispatcher(tool: &str, arguments: &Value) -> Verdict {
    match drawn::check_arguments(tool, &arguments.to_string()) {
        Ok(_) => Verdict::new(),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{tool}: {e}");
            e.violations()
                .iter()
                .map(|v| (v.pointer.clone(), v.message.clone()))
                .collect()
        }
    }
}

/// `toolc check`'s verdict on each of `values` given as an example of `tool`'s arguments.
fn toolc_check(tool: &str, parameters: &Value, values: &[Value]) -> Vec<Verdict> {
    let manifest = schemas::manifest(&[(tool.to_string(), parameters.clone(), values.to_vec())]);
    let checked = toolc::check_text(
        Path::new("."),
        Path::new("drawn.yaml"),
        manifest.to_string(),
        &toolc::ResolveOptions::default(),
    );
    let mut verdicts = vec![Verdict::new(); values.len()];
    // Notes (a draft-07 tuple read as 2020-12's) are not verdicts.
    for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
        assert_eq!(d.code.as_str(), "invalid-example", "{tool}: {}", d.message);
        // "example N of tool `t`: the arguments do not match the parameters schema[ at `P`]: M"
        let rest = d
            .message
            .strip_prefix("example ")
            .expect("an example's diagnostic");
        let (n, rest) = rest.split_once(' ').expect("its number");
        let n: usize = n.parse().expect("a number");
        let (_, rest) = rest
            .split_once("the parameters schema")
            .expect("the schema named");
        let (pointer, message) = match rest.strip_prefix(" at `") {
            Some(rest) => {
                let (pointer, message) = rest.split_once("`: ").expect("a pointer");
                (pointer.to_string(), message)
            }
            None => (String::new(), rest.strip_prefix(": ").expect("a message")),
        };
        verdicts[n - 1].insert((pointer, message.to_string()));
    }
    verdicts
}

/// An instance changed as a model might change it: a key dropped or added, a `null`, a value
/// of another type.
fn changed(v: Value, rng: &mut Rng) -> Value {
    match v {
        Value::Object(mut map) if !map.is_empty() && rng.chance(2) => {
            let key = map
                .keys()
                .nth(rng.below(map.len()))
                .cloned()
                .unwrap_or_default();
            match rng.below(3) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    map.insert(key, Value::Null);
                }
                _ => {
                    let inner = map.remove(&key).unwrap_or(Value::Null);
                    map.insert(key, changed(inner, rng));
                }
            }
            Value::Object(map)
        }
        Value::Array(mut items) if !items.is_empty() && rng.chance(2) => {
            let i = rng.below(items.len());
            let item = std::mem::take(&mut items[i]);
            items[i] = changed(item, rng);
            Value::Array(items)
        }
        _ => noise(rng, 0),
    }
}

/// Any JSON value, small.
fn noise(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 2 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.chance(2)),
        2 => json!(*rng.pick(&[0, -1, 3, 2_147_483_648_i64, i64::MAX])),
        3 => json!(*rng.pick(&[0.5, 1.0, -2.25, 1e300])),
        4 => json!(*rng.pick(&["", "a", "ab", "é", "2024-02-29", "a@b.co", "::1", "x y"])),
        5 => json!(u64::MAX),
        6 => (0..rng.below(3)).map(|_| noise(rng, depth + 1)).collect(),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(3) {
                let key = *rng.pick(&["a", "b", "c~/", "label", "x", "zz"]);
                map.insert(key.to_string(), noise(rng, depth + 1));
            }
            Value::Object(map)
        }
    }
}

#[test]
fn toolc_check_and_the_dispatcher_judge_drawn_values_alike() {
    let manifest: Value = serde_json::from_str(MANIFEST).expect("the drawn toolset");
    let tools = manifest["toolboxes"]["drawn"]["tools"]
        .as_object()
        .expect("its tools");
    assert_eq!(tools.len(), drawn::DESCRIPTORS.len());
    let seed = std::env::var("TOOLC_DRAW_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_u64);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut accepted, mut refused) = (0, 0);
    for (name, tool) in tools {
        let descriptor = drawn::DESCRIPTORS
            .iter()
            .find(|d| d.name == name)
            .expect("a descriptor");
        let advertised: Value =
            serde_json::from_str(descriptor.input_schema).expect("the advertised schema");
        let values: Vec<Value> = (0..VALUES)
            .map(|i| match i % 4 {
                0 | 1 => generate(&advertised, &advertised, &mut rng, 0),
                2 => changed(generate(&advertised, &advertised, &mut rng, 0), &mut rng),
                _ => json!({"value": noise(&mut rng, 0)}),
            })
            .collect();
        let checked = toolc_check(name, &tool["parameters"], &values);
        for (value, by_check) in values.iter().zip(&checked) {
            let by_dispatcher = dispatcher(name, value);
            assert_eq!(
                by_check, &by_dispatcher,
                "{name} (seed {seed}) judged differently: {value}\nschema: {}",
                tool["parameters"]
            );
            if by_dispatcher.is_empty() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    let total = accepted + refused;
    println!("seed {seed}: {total} values, {accepted} accepted, {refused} refused");
    assert!(
        accepted * 5 >= total,
        "too few accepted: {accepted} of {total}"
    );
    assert!(
        refused * 5 >= total,
        "too few refused: {refused} of {total}"
    );
}
