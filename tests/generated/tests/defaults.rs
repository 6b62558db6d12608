//! Every kind of default is applied before the handler runs, and the field
//! that holds it is not an `Option` (tests/fixtures/codegen/defaults.yaml).

use serde_json::{Value, json};
use toolc_generated_tests::defaults::toolboxes::defaults::{
    Defaults, DefaultsToolbox, FillParams, FillParamsPageOrder, FillParamsState, FillParamsTarget,
    Scope,
};
use toolc_generated_tests::defaults::types::{Priority, Shape, Status};
use toolc_runtime::{HandlerError, ToolContext};

/// Hands the parameters back, after reading each field as its own type.
struct Echo;

impl Defaults for Echo {
    async fn fill(
        &self,
        params: FillParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // The types say it: none of these is an `Option`.
        let FillParams {
            limit,
            ratio,
            label,
            verbose,
            state,
            status,
            priority,
            tags,
            page,
            labels,
            note,
            cleared,
            target,
            shape,
            count,
        } = &params;
        let _: (&i64, &f64, &String, &bool) = (limit, ratio, label, verbose);
        let _: (&FillParamsState, &Status, &Priority) = (state, status, priority);
        let _: (&Vec<String>, &std::collections::BTreeMap<String, String>) = (tags, labels);
        let _: (&FillParamsTarget, &Shape, &FillParamsPageOrder) = (target, shape, &page.order);
        // A nullable field is an `Option` because `null` is one of its values.
        let _: (&Option<String>, &Option<String>, &Option<i64>) = (note, cleared, count);
        Ok(serde_json::to_value(&params).expect("serializes"))
    }
}

/// What the handler got from `fill` called with `arguments`.
fn handler_got(arguments: &str) -> Value {
    super::call(&DefaultsToolbox::new(Echo), "fill", arguments).expect("the call succeeds")
}

#[test]
fn scalars() {
    let got = handler_got("{}");
    assert_eq!(got["limit"], json!(20));
    assert_eq!(got["ratio"], json!(0.5));
    assert_eq!(got["label"], json!("inbox"));
    assert_eq!(got["verbose"], json!(true));
    // Given values win.
    let got = handler_got(r#"{"limit": 3, "verbose": false}"#);
    assert_eq!((&got["limit"], &got["verbose"]), (&json!(3), &json!(false)));
}

#[test]
fn enums_inline_and_named() {
    let got = handler_got("{}");
    assert_eq!(got["state"], json!("open"));
    // A `$ref` with its own default, and a named type's default.
    assert_eq!(got["status"], json!("closed"));
    assert_eq!(got["priority"], json!("low"));
    let got = handler_got(r#"{"status": "open", "priority": "high"}"#);
    assert_eq!(
        (&got["status"], &got["priority"]),
        (&json!("open"), &json!("high"))
    );
}

#[test]
fn arrays() {
    assert_eq!(handler_got("{}")["tags"], json!(["triage", "bug"]));
    assert_eq!(handler_got(r#"{"tags": []}"#)["tags"], json!([]));
}

#[test]
fn objects_with_their_own_defaults_inside() {
    // The object's default, with its own optional fields filled in as their
    // defaults say (`order`) or left out (`cursor`).
    assert_eq!(
        handler_got("{}")["page"],
        json!({"size": 10, "order": "desc"})
    );
    // Given, the object still gets its fields' defaults.
    assert_eq!(
        handler_got(r#"{"page": {"size": 2}}"#)["page"],
        json!({"size": 2, "order": "desc"})
    );
}

#[test]
fn maps() {
    assert_eq!(handler_got("{}")["labels"], json!({"team": "core"}));
}

#[test]
fn nullable_fields() {
    let got = handler_got("{}");
    assert_eq!(got["note"], json!("none"));
    // A default of null, and null given: both `None`.
    assert_eq!(got["cleared"], Value::Null);
    assert_eq!(handler_got(r#"{"note": null}"#)["note"], Value::Null);
}

#[test]
fn a_nullable_field_with_a_default_is_written_as_null_and_reads_back_as_null() {
    // Written out, not skipped: read back, an absent `note` would take its default.
    let got = handler_got(r#"{"note": null}"#);
    assert_eq!(got.get("note"), Some(&Value::Null));
    let params: FillParams = serde_json::from_value(got).expect("reads back");
    assert_eq!(params.note, None);
    assert_eq!(params.cleared, None);
}

#[test]
fn unions() {
    let got = handler_got("{}");
    assert_eq!(got["target"], json!(5));
    assert_eq!(got["shape"], json!({"kind": "circle", "radius": 1.5}));
    assert_eq!(handler_got(r#"{"target": "all"}"#)["target"], json!("all"));
}

#[test]
fn a_field_without_a_default_stays_absent() {
    assert!(handler_got("{}").get("count").is_none());
}
