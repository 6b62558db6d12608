//! Numbers as JSON Schema means them: an integral float is an integer, and an
//! integer parameter takes exactly what its schema advertises, which includes
//! the bounds of its Rust type. Messages speak of the schema, never of Rust.

use serde_json::{Value, json};
use toolc_generated_tests::defaults::toolboxes::defaults::{
    Defaults, DefaultsToolbox, FillParams, Scope,
};
use toolc_runtime::{ErrorKind, HandlerError, ToolContext};

struct Echo;

impl Defaults for Echo {
    async fn fill(
        &self,
        params: FillParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(json!({"limit": params.limit, "count": params.count}))
    }
}

fn call(arguments: &str) -> Result<Value, toolc_runtime::ToolError> {
    super::call(&DefaultsToolbox::new(Echo), "fill", arguments)
}

#[test]
fn integral_floats_are_integers() {
    for (text, n) in [("5.0", 5), ("1e2", 100), ("2.5e1", 25), ("-0.0", 0)] {
        let got = call(&format!(r#"{{"limit": 7, "count": {text}}}"#))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got["count"], json!(n), "{text}");
    }
    assert_eq!(
        call(r#"{"limit": 3.0}"#).expect("accepted")["limit"],
        json!(3)
    );
}

#[test]
fn values_beyond_the_advertised_range_are_refused_by_the_schema() {
    for text in [
        "9223372036854775808",
        "18446744073709551615",
        "1e30",
        "-1e19",
    ] {
        let e = call(&format!(r#"{{"count": {text}}}"#)).expect_err(text);
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{text}");
        let violations = e.violations();
        assert_eq!(violations[0].pointer, "/count", "{text}");
        let message = &violations[0].message;
        assert!(
            message.contains("9223372036854775807") || message.contains("-9223372036854775808"),
            "{text}: {message}"
        );
    }
    // The edge itself is accepted.
    let got = call(r#"{"count": 9223372036854775807}"#).expect("the greatest i64");
    assert_eq!(got["count"], json!(i64::MAX));
}

#[test]
fn no_message_names_a_rust_type() {
    for text in [
        r#"{"count": 5.5}"#,
        r#"{"count": "5"}"#,
        r#"{"limit": 0}"#,
        r#"{"count": 1e300}"#,
        r#"{"limit": true}"#,
    ] {
        let e = call(text).expect_err(text);
        let all = e.to_string();
        for word in ["i64", "u64", "floating point", "invalid type"] {
            assert!(!all.contains(word), "{text}: {all}");
        }
    }
}

#[test]
fn check_arguments_reads_them_as_a_call_would_without_calling() {
    use toolc_generated_tests::defaults::toolboxes::defaults::check_arguments;
    let read = check_arguments("fill", r#"{"count": 5.0, "note": null}"#).expect("accepted");
    // As read: the integer an integer, and the nullable field's null kept.
    assert_eq!(read, json!({"count": 5, "note": null}));
    let e = check_arguments("fill", r#"{"count": "five"}"#).expect_err("refused");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
    let e = check_arguments("nope", "{}").expect_err("no such tool");
    assert_eq!(e.kind(), ErrorKind::UnknownTool);
}
