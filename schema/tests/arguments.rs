//! Adversarial argument text at the boundary: every bad input is a clean `arguments_invalid`
//! violation, deep or huge inputs neither overflow the stack nor blow up memory.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolc_schema::{MAX_ARGUMENT_DEPTH, parse_arguments};

fn nested(depth: usize, open: &str, close: &str) -> String {
    // `depth` containers: the root object plus `depth - 1` nested ones under key "a".
    let mut s = String::from("{\"a\":");
    for _ in 1..depth {
        s.push_str(open);
    }
    s.push('1');
    for _ in 1..depth {
        s.push_str(close);
    }
    s.push('}');
    s
}

/// Runs `f` on a thread with a small stack, as a busy async worker might have.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn nesting_up_to_the_limit_is_accepted_and_deeper_is_not() {
    assert_eq!(MAX_ARGUMENT_DEPTH, 128);
    for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
        let ok = nested(MAX_ARGUMENT_DEPTH, open, close);
        assert!(parse_arguments(&ok).is_ok(), "{open}");
        let deep = nested(MAX_ARGUMENT_DEPTH + 1, open, close);
        let v = parse_arguments(&deep).unwrap_err();
        assert!(
            v.message.starts_with("nesting is deeper than 128 levels"),
            "{}",
            v.message
        );
    }
    // The pointer leads to the container that is too deep.
    let v = parse_arguments(&nested(MAX_ARGUMENT_DEPTH + 1, "[", "]")).unwrap_err();
    assert_eq!(
        v.pointer,
        format!("/a{}", "/0".repeat(MAX_ARGUMENT_DEPTH - 1))
    );
}

#[test]
fn ten_thousand_levels_fail_cleanly_on_a_small_stack() {
    on_small_stack(|| {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let text = nested(10_000, open, close);
            let v = parse_arguments(&text).unwrap_err();
            assert!(
                v.message.starts_with("nesting is deeper than"),
                "{}",
                v.message
            );
            // Unclosed, too.
            let v = parse_arguments(&open.repeat(10_000)).unwrap_err();
            assert!(!v.message.is_empty());
        }
    });
}

#[test]
fn duplicate_keys_are_errors_at_any_depth() {
    let v = parse_arguments(r#"{"a":1,"a":2}"#).unwrap_err();
    assert_eq!(v.pointer, "");
    assert!(
        v.message.starts_with("duplicate key \"a\""),
        "{}",
        v.message
    );
    let v = parse_arguments(r#"{"a":{"b":1,"c":{},"b":2}}"#).unwrap_err();
    assert_eq!(v.pointer, "/a");
    let v = parse_arguments(r#"{"x/y":[{}, {"k":1,"k":1}]}"#).unwrap_err();
    assert_eq!(v.pointer, "/x~1y/1");
    // serde_json alone would keep the last value silently.
    assert_eq!(
        serde_json::from_str::<Value>(r#"{"a":1,"a":2}"#).unwrap(),
        json!({"a": 2})
    );
}

#[test]
fn numbers_out_of_range_are_errors() {
    for text in [r#"{"n":1e400}"#, r#"{"n":-1e400}"#, r#"{"n":[1, 2E+999]}"#] {
        let v = parse_arguments(text).unwrap_err();
        assert!(
            v.message.contains("number out of range"),
            "{text}: {}",
            v.message
        );
    }
    // In range, however long.
    assert!(parse_arguments(r#"{"n":1e308,"m":-0.0,"k":18446744073709551615}"#).is_ok());
}

#[test]
fn numbers_are_read_exactly_as_written() {
    // The nearest double to each text, so distinct numbers stay distinct (`uniqueItems`) and a
    // handler gets the number the model sent.
    for text in [
        "1.7976931348623155e308",
        "1.7976931348623157e308",
        "2.225073858507201e-308",
        "0.30000000000000004",
        "9007199254740993.0",
    ] {
        let v = parse_arguments(&format!("{{\"n\": {text}}}")).unwrap();
        let expected: f64 = text.parse().unwrap();
        assert_eq!(v["n"].as_f64(), Some(expected), "{text}");
    }
}

#[test]
fn malformed_text_names_line_and_column() {
    let cases = [
        ("", ""),
        ("{\n  \"a\": tru\n}", "/a"),
        (r#"{"a":"\x"}"#, "/a"),
        (r#"{"a":"\ud800"}"#, "/a"),
        ("{\"a\":\"\u{1}\"}", "/a"),
        (r#"{"a":[1,2,]}"#, "/a/2"),
        (r#"{"a":1} {}"#, ""),
        ("\u{feff}{}", ""),
    ];
    for (text, pointer) in cases {
        let v = parse_arguments(text).unwrap_err();
        assert!(
            v.message.starts_with("arguments are not valid JSON: "),
            "{text:?}: {}",
            v.message
        );
        assert!(v.message.contains("line "), "{text:?}: {}", v.message);
        assert_eq!(v.pointer, pointer, "{text:?}");
    }
}

#[test]
fn non_objects_are_never_coerced() {
    for (text, what) in [
        ("null", "null"),
        ("[]", "an array"),
        ("\"{}\"", "a string"),
        ("0", "a number"),
        ("true", "a boolean"),
    ] {
        let v = parse_arguments(text).unwrap_err();
        assert_eq!(
            v.message,
            format!("arguments must be a JSON object, got {what}")
        );
    }
}

#[test]
fn a_hundred_megabyte_string_parses_with_bounded_memory() {
    let size = 100 * 1024 * 1024;
    let mut text = String::with_capacity(size + 16);
    text.push_str("{\"s\":\"");
    text.extend(std::iter::repeat_n('x', size));
    text.push_str("\"}");
    let before = peak_rss();
    let v = on_small_stack(move || parse_arguments(&text).map(|v| v["s"].as_str().map(str::len)));
    assert_eq!(v.unwrap(), Some(size));
    if let (Some(before), Some(after)) = (before, peak_rss()) {
        // The text (100 MB) plus the parsed string (100 MB) and slack; never a multiple.
        assert!(
            after.saturating_sub(before) < 3 * size as u64,
            "{before} → {after}"
        );
    }
}

/// The process's peak resident set in bytes (Linux).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(".{0,6}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Whatever serde_json writes for an object, the boundary reads back as the same value.
    #[test]
    fn agrees_with_serde_json_on_valid_objects(
        m in prop::collection::btree_map(".{0,6}", json_value(), 0..6),
        pretty in any::<bool>(),
    ) {
        let v = Value::Object(m.into_iter().collect());
        let text = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { v.to_string() };
        prop_assert_eq!(parse_arguments(&text).unwrap(), v);
    }

    /// Arbitrary text never panics, and is accepted only where serde_json accepts an object.
    #[test]
    fn arbitrary_text_never_panics(text in r#"[\[\]{}":,0-9a-z\\. eE+\-]{0,40}"#) {
        let ours = parse_arguments(&text);
        let theirs = serde_json::from_str::<Value>(&text);
        if let Ok(v) = &ours {
            prop_assert_eq!(Some(v), theirs.as_ref().ok());
        }
        if let Ok(Value::Object(_)) = &theirs {
            // Only a duplicate key makes us stricter.
            prop_assert!(ours.is_ok() || ours.unwrap_err().message.starts_with("duplicate key"));
        }
    }
}
