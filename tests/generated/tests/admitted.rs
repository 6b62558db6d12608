//! Arguments the checks compiled per type vouch for: instances generated from each tool's
//! parameters schema, then sent as a model might (a key no property has, a `null` for an
//! optional property, a required one left out, a key given twice, an integer written as a
//! float). Whatever the dispatcher reads, the handler gets exactly the parameters the full
//! validation reads from the normalized arguments, and a call fails with `arguments_invalid`
//! exactly when the full validation refuses the text (never `panicked`, which debug builds
//! answer when a check admitted arguments their schema refuses). The arguments a tool's own type
//! reads in full and its check vouches for are taken that way, and no others.

use serde_json::{Value, json};
use toolc_generated_tests::vouched::toolboxes::admitted::{
    Admitted, AdmittedToolbox, DESCRIPTORS, LooseParams, OpenParams, Scope, check_arguments,
};
use toolc_generated_tests::vouched::types::Sample;
use toolc_runtime::codegen::serde::de::DeserializeOwned;
use toolc_runtime::codegen::{Conforms, read_whole};
use toolc_runtime::{CallContext, ErrorKind, HandlerError, ToolContext, Toolbox};

use super::instances::{Rng, generate};

const CASES: usize = 1_500;

/// Answers the parameters it was given, as their `Debug` text.
struct Echo;

impl Admitted for Echo {
    async fn sample(
        &self,
        params: Sample,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<String, HandlerError> {
        Ok(format!("{params:?}"))
    }
    async fn open(
        &self,
        params: OpenParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<String, HandlerError> {
        Ok(format!("{params:?}"))
    }
    async fn loose(
        &self,
        params: LooseParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<String, HandlerError> {
        Ok(format!("{params:?}"))
    }
}

/// How the texts sent to one tool fell.
#[derive(Debug, Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    /// Read in full by the parameters type and vouched for by its check.
    admitted: usize,
    /// Valid, and sent as generated (no key added, dropped or doubled).
    valid_as_generated: usize,
    admitted_as_generated: usize,
}

/// The text of `instance` as a model might send it, and whether it was changed: now and then a
/// key no property has, a `null` for an absent property, a property left out, the first key
/// given twice, or an integer written as a float.
fn sent(instance: &Value, rng: &mut Rng) -> (String, bool) {
    let Value::Object(map) = instance else {
        return (instance.to_string(), false);
    };
    let mut members: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{}:{v}", json!(k)))
        .collect();
    let changed = match rng.below(8) {
        0 => {
            members.push("\"zz\":{\"a\":[1,{\"b\":null}]}".to_owned());
            true
        }
        1 => {
            let name = *rng.pick(&["note", "hint", "shade", "part", "code", "any", "count"]);
            if !map.contains_key(name) {
                members.push(format!("\"{name}\":null"));
            }
            true
        }
        2 if !members.is_empty() => {
            let at = rng.below(members.len());
            members.remove(at);
            true
        }
        3 if !members.is_empty() => {
            let first = members[0].clone();
            members.push(first);
            true
        }
        4 => {
            members = members
                .into_iter()
                .map(|m| match m.split_once(':') {
                    Some((k, v)) if v.parse::<i64>().is_ok() => format!("{k}:{v}.0"),
                    _ => m,
                })
                .collect();
            true
        }
        _ => false,
    };
    (format!("{{{}}}", members.join(",")), changed)
}

/// Sends `CASES` texts to `tool`, whose parameters type is `P`.
fn run<P: DeserializeOwned + Conforms + std::fmt::Debug>(tool: &str, seed: u64) -> Tally {
    let desc = DESCRIPTORS
        .iter()
        .find(|d| d.name == tool)
        .expect("the tool");
    let schema = desc.input_schema_json();
    let toolbox = AdmittedToolbox::new(Echo);
    let ctx = CallContext::new("admitted");
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    for _ in 0..CASES {
        let instance = generate(&schema, &schema, &mut rng, 0);
        let (text, changed) = sent(&instance, &mut rng);
        // The full validation: the text parsed, normalized and validated, every violation
        // listed, and the parameters read from the normalized value.
        let expected = check_arguments(tool, &text).map(|normalized| {
            let params: P = serde_json::from_value(normalized).expect("valid arguments read");
            format!("{params:?}")
        });
        let admitted = read_whole::<P>(&text).is_some_and(|p| p.conforms());
        let answered = super::block_on(toolbox.call(tool, &text, &ctx));
        match (&expected, answered) {
            (Ok(params), Ok(got)) => {
                assert_eq!(got, json!(params), "{tool}: read {text} otherwise");
            }
            (Err(_), Err(e)) => {
                assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{tool}: {text}: {e}");
            }
            (expected, answered) => {
                panic!(
                    "{tool}: {text}: the full validation says {expected:?}, the call {answered:?}"
                )
            }
        }
        assert!(
            !admitted || expected.is_ok(),
            "{tool}: admitted arguments the schema refuses: {text}"
        );
        tally.admitted += usize::from(admitted);
        if expected.is_ok() {
            tally.valid += 1;
            if !changed {
                tally.valid_as_generated += 1;
                tally.admitted_as_generated += usize::from(admitted);
            }
        } else {
            tally.invalid += 1;
        }
    }
    tally
}

/// Closed parameters of every kind the checks read: arguments sent as generated are admitted
/// exactly when valid; a changed text is admitted only when still valid and read in full.
#[test]
fn arguments_read_in_full_are_admitted_exactly_when_valid() {
    let tally = run::<Sample>("sample", 11);
    assert!(tally.valid >= CASES / 10, "{tally:?}");
    assert!(tally.invalid >= CASES / 10, "{tally:?}");
    assert!(tally.valid_as_generated > 0, "{tally:?}");
    assert_eq!(
        tally.admitted_as_generated, tally.valid_as_generated,
        "{tally:?}"
    );
}

/// Open parameters with a required nullable property: valid texts with another key, or
/// without the required property, are read the same but never admitted (the full validation
/// decides them); the others are.
#[test]
fn arguments_the_type_reads_only_in_part_are_not_admitted() {
    let tally = run::<OpenParams>("open", 12);
    assert!(tally.valid > 0 && tally.invalid > 0, "{tally:?}");
    assert!(tally.admitted > 0, "{tally:?}");
    for text in [
        r#"{"note":"a","zz":1}"#,
        r#"{"part":{"code":"abc","zz":1},"note":null}"#,
        r#"{"code":"abc"}"#,
    ] {
        let read = read_whole::<OpenParams>(text);
        assert!(read.is_none(), "{text}: {read:?}");
    }
    assert!(
        read_whole::<OpenParams>(r#"{"note":null,"code":"abc"}"#).is_some_and(|p| p.conforms())
    );
    // An integer past 2^53 rounds to the bound as a float; the validator compares it exactly.
    let past = r#"{"note":null,"big":9007199254740993}"#;
    assert!(!read_whole::<OpenParams>(past).is_some_and(|p| p.conforms()));
    let toolbox = AdmittedToolbox::new(Echo);
    let e = super::block_on(toolbox.call("open", past, &CallContext::new("open")))
        .expect_err("past the maximum");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{e}");
}

/// A JSON value among the parameters reads a key given twice: the text is validated as it is
/// read instead, and calls still answer as the full validation does.
#[test]
fn parameters_holding_a_json_value_are_validated_as_they_are_read() {
    let tally = run::<LooseParams>("loose", 13);
    assert!(tally.valid > 0 && tally.invalid > 0, "{tally:?}");
    // The type's own reading takes the last value, and its check has nothing to refuse.
    let twice = r#"{"any":{"a":1,"a":2},"count":3}"#;
    assert!(read_whole::<LooseParams>(twice).is_some_and(|p| p.conforms()));
    let toolbox = AdmittedToolbox::new(Echo);
    let e = super::block_on(toolbox.call("loose", twice, &CallContext::new("loose")))
        .expect_err("a key given twice");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{e}");
}
