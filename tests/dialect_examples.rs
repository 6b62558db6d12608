//! Every dialect's form of every example tool still accepts the example's
//! arguments (and its result, where the dialect sends a result schema), and
//! still rejects arguments the canonical schema rejects.

use serde_json::{Value, json};
use std::path::PathBuf;
use toolc::emit::dialect::{
    canonical_arguments, mcp_output_omitted, mcp_output_schema, schema_for, strict_arguments,
};
use toolc::lint::{Dialect, Role};
use toolc::model::{Tool, Toolset};

fn manifests() -> Toolset {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"));
    let checked = toolc::check(&[dir], &Default::default());
    assert!(
        !checked.diagnostics.has_errors(),
        "manifests/ do not check: {:?}",
        checked
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
    checked.toolset
}

fn all_tools(t: &Toolset) -> Vec<&Tool> {
    t.toolboxes
        .iter()
        .flat_map(|b| &b.tools)
        .chain(t.playbooks.iter().flat_map(|p| &p.plays))
        .collect()
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("{e}\n{schema:#}"))
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance).map(|e| e.to_string()).collect()
}

/// What a dialect's model would send for these canonical arguments.
fn sent(d: Dialect, bundled: &Value, args: &Value) -> Value {
    if d.is_openai_strict() {
        strict_arguments(bundled, args)
    } else {
        args.clone()
    }
}

#[test]
fn the_example_manifests_have_examples_to_check() {
    let t = manifests();
    let n: usize = all_tools(&t).iter().map(|t| t.examples.len()).sum();
    assert!(n >= 5, "only {n} examples");
}

#[test]
fn every_form_accepts_the_example_arguments() {
    let t = manifests();
    let mut checked = 0;
    for tool in all_tools(&t) {
        let bundled = t.bundle(tool.parameters);
        for d in Dialect::ALL {
            let form = schema_for(&t, tool.parameters, d, Role::Parameters);
            assert!(
                form.refusals.is_empty(),
                "{} {d}: {:?}",
                tool.name,
                form.refusals
            );
            let v = validator(&form.json);
            for ex in &tool.examples {
                let args = sent(d, &bundled, &ex.arguments);
                let errs = errors(&v, &args);
                assert!(
                    errs.is_empty(),
                    "{} in {d} rejects {args}: {errs:?}\n{:#}",
                    tool.name,
                    form.json
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn strict_arguments_fill_every_optional_with_null_and_round_trip() {
    let t = manifests();
    for tool in all_tools(&t) {
        let bundled = t.bundle(tool.parameters);
        for ex in &tool.examples {
            let strict = strict_arguments(&bundled, &ex.arguments);
            if let Some(props) = bundled.get("properties").and_then(Value::as_object) {
                for k in props.keys() {
                    assert!(
                        strict.get(k).is_some(),
                        "{}: `{k}` missing in {strict}",
                        tool.name
                    );
                }
            }
            assert_eq!(
                canonical_arguments(&bundled, &strict),
                ex.arguments,
                "{}",
                tool.name
            );
        }
    }
}

#[test]
fn the_strict_form_makes_absent_optionals_explicit() {
    // update_ticket's example leaves `priority` out: the strict form wants it
    // present, as null.
    let t = manifests();
    let tool = all_tools(&t)
        .into_iter()
        .find(|t| t.name == "update_ticket")
        .unwrap();
    let form = schema_for(&t, tool.parameters, Dialect::OpenAiStrict, Role::Parameters);
    let v = validator(&form.json);
    let args = &tool.examples[0].arguments;
    assert!(args.get("priority").is_none());
    assert!(
        !errors(&v, args).is_empty(),
        "the strict form should want every key"
    );
    let mut with_null = args.clone();
    with_null["priority"] = Value::Null;
    assert!(errors(&v, &with_null).is_empty());
    // A value outside the enum is still refused.
    with_null["priority"] = json!("someday");
    assert!(!errors(&v, &with_null).is_empty());
}

#[test]
fn every_form_still_rejects_what_the_canonical_schema_rejects() {
    let t = manifests();
    for tool in all_tools(&t) {
        let bundled = t.bundle(tool.parameters);
        let canonical = validator(&bundled);
        for ex in &tool.examples {
            let Some(obj) = ex.arguments.as_object() else {
                continue;
            };
            let mut broken: Vec<Value> = Vec::new();
            // Each required property left out.
            for r in bundled["required"].as_array().into_iter().flatten() {
                let mut a = obj.clone();
                if let Some(k) = r.as_str() {
                    a.remove(k);
                    broken.push(Value::Object(a));
                }
            }
            // Each given value replaced by one of another type.
            for (k, v) in obj {
                let mut a = obj.clone();
                a.insert(
                    k.clone(),
                    if v.is_string() {
                        json!(12345)
                    } else {
                        json!("x")
                    },
                );
                broken.push(Value::Object(a));
            }
            for b in &broken {
                assert!(
                    !canonical.is_valid(b),
                    "{}: canonical accepts {b}",
                    tool.name
                );
                for d in Dialect::ALL {
                    let form = schema_for(&t, tool.parameters, d, Role::Parameters);
                    let v = validator(&form.json);
                    let args = sent(d, &bundled, b);
                    assert!(
                        !v.is_valid(&args),
                        "{} in {d} accepts {args}, which the canonical schema rejects",
                        tool.name
                    );
                }
            }
        }
    }
}

#[test]
fn result_forms_accept_the_example_results() {
    let t = manifests();
    let mut checked = 0;
    for tool in all_tools(&t) {
        let Some(returns) = &tool.returns else {
            continue;
        };
        let mut forms = vec![
            (
                Dialect::GeminiVertex,
                schema_for(&t, *returns, Dialect::GeminiVertex, Role::Returns).json,
            ),
            (
                Dialect::GeminiJsonSchema,
                schema_for(&t, *returns, Dialect::GeminiJsonSchema, Role::Returns).json,
            ),
        ];
        if let Some(s) = mcp_output_schema(&t, tool) {
            forms.push((Dialect::Mcp, s));
        }
        for (d, form) in forms {
            let v = validator(&form);
            for ex in &tool.examples {
                let Some(result) = &ex.result else { continue };
                let errs = errors(&v, result);
                assert!(
                    errs.is_empty(),
                    "{} {d} rejects {result}: {errs:?}",
                    tool.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn mcp_lists_an_output_schema_exactly_for_plain_object_results() {
    let t = manifests();
    let tools = all_tools(&t);
    let get = |name: &str| *tools.iter().find(|t| t.name == name).unwrap();
    let listed = |name: &str| mcp_output_schema(&t, get(name));
    let array = mcp_output_omitted(&t, get("list_tickets")).expect("an array result has none");
    assert!(array.contains("`type: \"array\"`"), "{array}");
    assert!(listed("list_tickets").is_none());
    // A $ref to an object type is inlined at the root.
    assert_eq!(listed("update_ticket").unwrap()["type"], json!("object"));
    assert!(listed("lookup_order").is_some());
    assert!(listed("slug_and_span").is_some());
    assert!(mcp_output_omitted(&t, get("slug_and_span")).is_none());
}
