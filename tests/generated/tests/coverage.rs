//! The wider JSON Schema vocabulary real tools use, through generated code
//! (tests/fixtures/codegen/coverage.yaml): each construct has a Rust type, and
//! a call reads arguments into it.

use serde_json::{Value, json};
use toolc_generated_tests::coverage::toolboxes::shapes::{
    ApiSetParentParams, ApiSetParentParamsParent, DistanceParams, LettersParams, LocateParams,
    LocateParamsId, LocateParamsScoresKey, OtherParams, Scope, Shapes, ShapesToolbox,
};
use toolc_generated_tests::coverage::types::{A, D, PageParent, Point, Point2, Unit};
use toolc_runtime::{ErrorKind, HandlerError, ToolContext};

/// Echoes the parameters, after reading each field as its type.
struct Echo;

impl Shapes for Echo {
    async fn locate(
        &self,
        params: LocateParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // A schema's own `$defs` are named types; a tuple is a tuple; an
        // enum-keyed map is keyed by the enum.
        let _: (&Point, &Unit) = (&params.at, &params.unit);
        let _: &(String, i64) = &params.pair;
        let _: &Option<(bool, String)> = &params.legacy_pair;
        let _: &Option<LocateParamsId> = &params.id;
        let _: &Option<std::collections::BTreeMap<LocateParamsScoresKey, f64>> = &params.scores;
        Ok(serde_json::to_value(&params).expect("serializes"))
    }

    async fn distance(
        &self,
        params: DistanceParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // The same definition in two tools is one type.
        let _: &Point = &params.from;
        Ok(json!(params.from.row))
    }

    // An omitted `parameters` and an empty object schema give one signature:
    // the context alone.
    async fn ping(&self, _ctx: &ToolContext<'_, Scope>) -> Result<Value, HandlerError> {
        Ok(json!("pong"))
    }

    async fn ping_empty(&self, _ctx: &ToolContext<'_, Scope>) -> Result<Value, HandlerError> {
        Ok(json!("pong"))
    }

    async fn ping_closed(&self, _ctx: &ToolContext<'_, Scope>) -> Result<Value, HandlerError> {
        Ok(json!("pong"))
    }

    async fn letters(
        &self,
        params: LettersParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // Types named `D` and `A` read themselves as any other.
        let _: (&A, &D) = (&params.a, &params.a.d);
        Ok(serde_json::to_value(&params).expect("serializes"))
    }

    async fn other(
        &self,
        params: OtherParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // A different definition of the same name is another type.
        let _: &Point2 = &params.p;
        Ok(json!(params.p.lat))
    }

    async fn api_set_parent(
        &self,
        params: ApiSetParentParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        // Definitions named in camelCase are types and variants in
        // PascalCase; `default: null` on a string is no default.
        let page: Option<&PageParent> = match &params.parent {
            ApiSetParentParamsParent::PageParent(p) => Some(p),
            ApiSetParentParamsParent::WorkspaceParent(_) => None,
        };
        let note: &Option<String> = &params.note;
        Ok(json!({"page": page.map(|p| p.page_id.clone()), "note": note}))
    }
}

fn locate(arguments: &str) -> Result<Value, toolc_runtime::ToolError> {
    super::call(&ShapesToolbox::new(Echo), "locate", arguments)
}

#[test]
fn empty_parameters_take_nothing_however_written() {
    let toolbox = ShapesToolbox::new(Echo);
    for tool in ["ping", "ping_empty", "ping_closed"] {
        assert_eq!(
            super::call(&toolbox, tool, "{}").expect("accepted"),
            json!("pong")
        );
    }
    // What each schema says of other keys still holds: the open one takes
    // them (and the handler never sees them), the closed ones refuse them.
    assert!(super::call(&toolbox, "ping_empty", r#"{"x": 1}"#).is_ok());
    for tool in ["ping", "ping_closed"] {
        let err = super::call(&toolbox, tool, r#"{"x": 1}"#).expect_err("refused");
        assert_eq!(err.kind(), ErrorKind::ArgumentsInvalid, "{tool}");
    }
}

#[test]
fn local_definitions_tuples_and_defaults() {
    let got = locate(r#"{"at": {"row": 1, "col": 2}, "pair": ["a", 3]}"#).expect("accepted");
    assert_eq!(got["at"], json!({"row": 1.0, "col": 2.0}));
    assert_eq!(got["pair"], json!(["a", 3]));
    // The default of a `$ref` into `$defs`.
    assert_eq!(got["unit"], json!("km"));
    // A tuple is closed and complete.
    for bad in [r#"["a"]"#, r#"["a", 3, 4]"#, r#"[3, "a"]"#] {
        let e = locate(&format!(
            r#"{{"at": {{"row": 1, "col": 2}}, "pair": {bad}}}"#
        ))
        .expect_err(bad);
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{bad}");
    }
    // The draft-07 spelling reads the same.
    let got =
        locate(r#"{"at": {"row": 0, "col": 0}, "pair": ["a", 1], "legacy_pair": [true, "b"]}"#)
            .expect("accepted");
    assert_eq!(got["legacy_pair"], json!([true, "b"]));
}

#[test]
fn several_types_all_of_and_enum_keyed_maps() {
    let base = r#""at": {"row": 0, "col": 0}, "pair": ["a", 1]"#;
    for (id, back) in [(r#""x1""#, json!("x1")), ("7", json!(7))] {
        let got = locate(&format!("{{{base}, \"id\": {id}}}")).expect("accepted");
        assert_eq!(got["id"], back);
    }
    assert!(locate(&format!("{{{base}, \"id\": true}}")).is_err());
    // `allOf` of objects: one struct, the name required by its branch.
    let got = locate(&format!(
        r#"{{{base}, "person": {{"name": "Ada", "age": 36}}}}"#
    ))
    .expect("accepted");
    assert_eq!(got["person"], json!({"name": "Ada", "age": 36}));
    assert!(locate(&format!(r#"{{{base}, "person": {{"age": 36}}}}"#)).is_err());
    // Keys from the enum only.
    let got = locate(&format!(
        r#"{{{base}, "scores": {{"low": 1.5, "high": 9}}}}"#
    ))
    .expect("accepted");
    assert_eq!(got["scores"], json!({"low": 1.5, "high": 9.0}));
    let e = locate(&format!(r#"{{{base}, "scores": {{"medium": 2}}}}"#)).expect_err("medium");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}

#[test]
fn const_false_and_open_maps() {
    let base = r#""at": {"row": 0, "col": 0}, "pair": ["a", 1]"#;
    let got = locate(&format!(
        r#"{{{base}, "version": 2, "extra": {{"any": [1, {{}}]}}}}"#
    ))
    .expect("accepted");
    assert_eq!(got["version"], json!(2));
    assert_eq!(got["extra"], json!({"any": [1, {}]}));
    assert!(locate(&format!(r#"{{{base}, "version": 3}}"#)).is_err());
    // A property whose schema is `false` may not be there.
    let e = locate(&format!(r#"{{{base}, "retired": "yes"}}"#)).expect_err("retired");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}

#[test]
fn equivalent_forms_some_dialects_are_shown_are_read_back() {
    // A map as `{key, value}` pairs (the strict and Gemini forms), a tuple as
    // an object keyed by positions (the Gemini form): the handler gets the
    // map and the tuple.
    let got = locate(
        r#"{"at": {"row": 0, "col": 0}, "pair": {"0": "a", "1": 7},
            "scores": [{"key": "low", "value": 1}, {"key": "high", "value": 2.5}],
            "extra": [{"key": "k", "value": [true]}]}"#,
    )
    .expect("accepted");
    assert_eq!(got["pair"], json!(["a", 7]));
    assert_eq!(got["scores"], json!({"low": 1.0, "high": 2.5}));
    assert_eq!(got["extra"], json!({"k": [true]}));
    // A key in two pairs takes the last value, as a key written twice in a
    // JSON object does.
    let base = r#""at": {"row": 0, "col": 0}"#;
    let got = locate(&format!(
        r#"{{{base}, "pair": ["a", 1], "scores": [{{"key": "low", "value": 1}}, {{"key": "low", "value": 2}}]}}"#
    ))
    .expect("accepted");
    assert_eq!(got["scores"], json!({"low": 2.0}));
    // The forms still have to hold: a key outside the enum, a position
    // missing.
    for bad in [
        r#""pair": ["a", 1], "scores": [{"key": "mid", "value": 1}]"#,
        r#""pair": {"0": "a", "2": 1}"#,
    ] {
        let e = locate(&format!("{{{base}, {bad}}}")).expect_err(bad);
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{bad}");
    }
}

#[test]
fn capitalized_names_camel_case_definitions_and_null_defaults() {
    let call =
        |arguments: &str| super::call(&ShapesToolbox::new(Echo), "API-set-parent", arguments);
    let got = call(r#"{"parent": {"page_id": "p1"}}"#).expect("accepted");
    // An absent `note` stays absent: its `default: null` is not applied.
    assert_eq!(got, json!({"page": "p1", "note": null}));
    let got = call(r#"{"parent": {"workspace": true}, "note": "n"}"#).expect("accepted");
    assert_eq!(got, json!({"page": null, "note": "n"}));
    // `null` for an optional property is read as absent, as strict dialects send it.
    let got = call(r#"{"parent": {"workspace": true}, "note": null}"#).expect("accepted");
    assert_eq!(got["note"], json!(null));
    let e = call(r#"{"parent": {"workspace": true}, "note": 3}"#).expect_err("a number");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}

#[test]
fn types_named_as_serde_generic_parameters() {
    let call = |arguments: &str| super::call(&ShapesToolbox::new(Echo), "letters", arguments);
    let got = call(r#"{"a": {"d": "down", "n2": 2}}"#).expect("accepted");
    assert_eq!(got, json!({"a": {"d": "down", "n2": 2}}));
    let e = call(r#"{"a": {"d": "left"}}"#).expect_err("not a value of D");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}
