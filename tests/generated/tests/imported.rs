//! What importers bring in, called through the generated dispatcher
//! (tests/fixtures/codegen/imported.yaml): tuples read into structs by position and written
//! back as the arrays they were, `dependentRequired`, `dependentSchemas` and `nullable`
//! validated as the schema says, a union tagged by OpenAPI's `discriminator`, and nested maps behind their aliases.

use serde_json::{Value, json};
use toolc_generated_tests::imported::toolboxes::imported::{
    AdoptParams, AdoptParamsPet, Imported, ImportedToolbox, IndexParams, IndexParamsLabels,
    IndexReturns, LocateParams, LocateReturns, LocateReturnsSpot, NoteParams, PayParams, Scope,
};
use toolc_runtime::{ErrorKind, HandlerError, ToolContext};

/// Hands each tool's parameters back as it read them.
struct Echo;

impl Imported for Echo {
    async fn locate(
        &self,
        params: LocateParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<LocateReturns, HandlerError> {
        // The result echoes `point` as its `spot` (`[x, y, rest…]`, written back from the
        // struct), so a `point` with a gap (`[]` read, then `item_1` set) tests the writing.
        let point = &params.point;
        let spot = LocateReturnsSpot {
            item_0: point.item_0.map(|x| x.to_string()),
            item_1: point.item_1.or(point.item_0.is_none().then_some(0.5)),
            rest: point.rest.iter().map(Value::to_string).collect(),
        };
        Ok(LocateReturns { spot })
    }

    async fn adopt(
        &self,
        params: AdoptParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(match params.pet {
            AdoptParamsPet::Cat { species, meows } => json!({"cat": species, "meows": meows}),
            AdoptParamsPet::Dog { species, barks } => json!({"dog": species, "barks": barks}),
        })
    }

    async fn pay(
        &self,
        params: PayParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        Ok(serde_json::to_value(&params).expect("serializes"))
    }

    async fn note(
        &self,
        params: NoteParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<Value, HandlerError> {
        let text: &Option<String> = &params.text;
        Ok(json!({"text": text, "count": params.count, "tags": params.tags}))
    }

    async fn index(
        &self,
        params: IndexParams,
        _ctx: &ToolContext<'_, Scope>,
    ) -> Result<IndexReturns, HandlerError> {
        // The alias is the map type itself.
        let labels: IndexParamsLabels = params.labels.unwrap_or_default();
        Ok(labels
            .into_iter()
            .map(|(store, aisles)| {
                let aisles = aisles
                    .into_iter()
                    .map(|(aisle, shelves)| {
                        let shelves = shelves.into_keys().map(|s| (s, true)).collect();
                        (aisle, shelves)
                    })
                    .collect();
                (store, aisles)
            })
            .collect())
    }
}

fn call(tool: &str, arguments: Value) -> Result<Value, toolc_runtime::ToolError> {
    super::call(&ImportedToolbox::new(Echo), tool, &arguments.to_string())
}

/// `locate`'s parameters read into their types and written back.
fn round_trip(arguments: &Value) -> (LocateParams, Value) {
    let read: LocateParams =
        serde_json::from_value(arguments.clone()).unwrap_or_else(|e| panic!("{arguments}: {e}"));
    let written = serde_json::to_value(&read).expect("written");
    (read, written)
}

#[test]
fn tuples_are_read_and_written_as_the_arrays_they_are() {
    // zod 4's open tuple: any prefix of the positions, and any items after them.
    for point in [
        json!([1.5]),
        json!([1.5, 2.0]),
        json!([1.5, 2.0, "x", {"a": 1}]),
    ] {
        let got = call("locate", json!({"point": point})).expect("accepted");
        let expected: Vec<Value> = point
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, x)| match (i, x) {
                (0, x) => json!(x.as_f64().unwrap().to_string()),
                (1, x) => x.clone(),
                (_, x) => json!(x.to_string()),
            })
            .collect();
        assert_eq!(got["spot"], json!(expected), "{point}");
    }
    // Every tuple of the parameters, read and written back unchanged (`point` has an item: the
    // handler answers an empty one with a gap, below).
    for arguments in [
        json!({"point": [1.5], "tagged": [3]}),
        json!({"point": [1.5], "tagged": [3, "a", true, false]}),
        json!({"point": [1.5], "pair": []}),
        json!({"point": [1.5], "pair": ["a"]}),
        json!({"point": [1.5], "pair": ["a", null]}),
        json!({"point": [1.5], "pair": ["a", true]}),
        json!({"point": [1.5], "short": ["a", "b"]}),
        json!({"point": [1.5], "fixed": ["a", true]}),
    ] {
        assert!(call("locate", arguments.clone()).is_ok(), "{arguments}");
        assert_eq!(round_trip(&arguments).1, arguments);
    }
    // A missing item is `None`; a `null` one, where the position takes null, `Some(None)`.
    let (read, _) = round_trip(&json!({"point": [1.5], "pair": ["a", null]}));
    assert_eq!((read.point.item_0, read.point.item_1), (Some(1.5), None));
    let pair = read.pair.expect("a pair");
    assert_eq!(
        (pair.item_0.as_deref(), pair.item_1),
        (Some("a"), Some(None))
    );
    let (read, _) =
        round_trip(&json!({"point": [], "tagged": [3, "a", true], "fixed": ["b", false]}));
    let tagged = read.tagged.expect("tagged");
    assert_eq!((tagged.item_0, tagged.rest), (3, vec![true]));
    assert_eq!(read.fixed, Some(("b".to_string(), false)));
}

#[test]
fn tuples_are_validated_as_json_schema_says() {
    for (bad, why) in [
        (json!({"point": ["1"]}), "a position's type"),
        (json!({"point": [], "tagged": []}), "minItems"),
        (
            json!({"point": [], "tagged": [3, "a", "b"]}),
            "the items after the positions",
        ),
        (json!({"point": [], "pair": ["a", true, 1]}), "items: false"),
        (json!({"point": [], "short": ["a", "b", "c"]}), "maxItems"),
        (
            json!({"point": [], "fixed": ["a"]}),
            "a closed and complete tuple",
        ),
        (json!({}), "a required tuple"),
    ] {
        let e = call("locate", bad.clone()).expect_err(why);
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{why}: {bad}");
    }
}

/// A value with an item after a missing one has no array to be written as: the call fails
/// rather than answering the items before the gap.
#[test]
fn a_tuple_with_a_gap_is_not_written() {
    // `point: []` makes the handler answer a spot with `item_1` set and `item_0` not.
    let e = call("locate", json!({"point": []})).expect_err("no array holds the spot");
    assert_eq!(e.kind(), ErrorKind::OutputInvalid, "{e}");
    assert!(e.message().contains("LocateReturnsSpot"), "{}", e.message());
}

#[test]
fn dependent_required_and_dependent_schemas_are_validated() {
    for ok in [
        json!({"name": "a"}),
        json!({"name": "ab", "billing_address": "b", "zip": "12345"}),
        json!({"name": "ab", "credit_card": "1", "billing_address": "b", "zip": "12345"}),
        // `zip` alone needs nothing.
        json!({"name": "a", "zip": "12345"}),
    ] {
        let got = call("pay", ok.clone());
        assert!(got.is_ok(), "{ok}: {got:?}");
    }
    for (bad, says) in [
        // `dependentRequired`: a card needs the address.
        (json!({"name": "ab", "credit_card": "1"}), "billing_address"),
        // `dependentSchemas`: the address needs a zip, and a name of two characters.
        (json!({"name": "ab", "billing_address": "b"}), "zip"),
        (
            json!({"name": "a", "billing_address": "b", "zip": "12345"}),
            "/name",
        ),
    ] {
        let e = call("pay", bad.clone()).expect_err("refused");
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{bad}");
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
}

#[test]
fn the_discriminator_tags_the_enum() {
    let cat = call(
        "adopt",
        json!({"pet": {"species": "felis", "pet_type": "cat", "meows": 3}}),
    )
    .expect("a cat");
    assert_eq!(cat, json!({"cat": "felis", "meows": 3}));
    let dog = call(
        "adopt",
        json!({"pet": {"pet_type": "dog", "species": "canis", "barks": 1.5}}),
    )
    .expect("a dog");
    assert_eq!(dog, json!({"dog": "canis", "barks": 1.5}));
    // The branches are what validates: a tag with the other branch's fields matches neither.
    let e = call(
        "adopt",
        json!({"pet": {"species": "felis", "pet_type": "dog", "meows": 3}}),
    )
    .expect_err("neither branch");
    assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid);
}

#[test]
fn nullable_lets_null_through() {
    let got = call("note", json!({"text": null, "count": null, "tags": null})).expect("nulls");
    assert_eq!(got, json!({"text": null, "count": null, "tags": null}));
    let got = call("note", json!({"text": "t", "count": 9, "tags": ["a"]})).expect("values");
    assert_eq!(got, json!({"text": "t", "count": 9, "tags": ["a"]}));
    for bad in [
        json!({}),
        json!({"text": "t", "count": 10}),
        json!({"text": 1}),
    ] {
        let e = call("note", bad.clone()).expect_err("refused");
        assert_eq!(e.kind(), ErrorKind::ArgumentsInvalid, "{bad}");
    }
}

#[test]
fn nested_maps_read_through_their_aliases() {
    let got = call(
        "index",
        json!({"labels": {"north": {"a1": {"top": "x", "low": "y"}}}}),
    )
    .expect("accepted");
    assert_eq!(got, json!({"north": {"a1": {"low": true, "top": true}}}));
}
