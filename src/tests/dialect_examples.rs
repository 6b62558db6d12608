//! Every dialect's form of every example tool still accepts the example's
//! arguments (and its result, where the dialect sends a result schema), and
//! still rejects arguments the canonical schema rejects.

use crate::Dialect;
use crate::lower::arguments::{from_strict, to_strict};
use crate::lower::schema_for;
use crate::model::{SchemaId, Tool, Toolset};
use serde_json::{Value, json};
use std::path::PathBuf;

fn manifests() -> Toolset {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"));
    let checked = crate::check(&[dir], &Default::default());
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
fn sent(d: Dialect, t: &Toolset, params: SchemaId, args: &Value) -> Value {
    if d.is_openai_strict() {
        to_strict(&t.schemas, params, args)
    } else {
        args.clone()
    }
}

/// The MCP output schema of a tool, or why it has none.
fn mcp_output(t: &Toolset, tool: &Tool) -> Result<Value, Option<String>> {
    let op = t.operations().position(|x| std::ptr::eq(x, tool)).unwrap();
    let lowered = crate::lower::lower(t, &[Dialect::Mcp], Default::default());
    let form = lowered.form(op, Dialect::Mcp).unwrap();
    match &form.returns {
        Some(r) => Ok(r.json.clone()),
        None => Err(form.output_omitted.clone()),
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
        for d in Dialect::ALL {
            let form = schema_for(&t, tool.parameters, d);
            assert!(
                form.refusals.is_empty(),
                "{} {d}: {:?}",
                tool.name,
                form.refusals
            );
            let v = validator(&form.json);
            for ex in &tool.examples {
                let args = sent(d, &t, tool.parameters, &ex.arguments);
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
            let strict = to_strict(&t.schemas, tool.parameters, &ex.arguments);
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
                from_strict(&t.schemas, tool.parameters, &strict),
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
    let form = schema_for(&t, tool.parameters, Dialect::OpenAiStrict);
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
                    let form = schema_for(&t, tool.parameters, d);
                    let v = validator(&form.json);
                    let args = sent(d, &t, tool.parameters, b);
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
        let Some(returns) = tool.returns else {
            continue;
        };
        let mut forms: Vec<(Dialect, Value)> = [
            Dialect::Gemini,
            Dialect::GeminiVertex,
            Dialect::GeminiJsonSchema,
        ]
        .into_iter()
        .map(|d| (d, schema_for(&t, returns, d).json))
        .collect();
        if let Ok(s) = mcp_output(&t, tool) {
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
    let listed = |name: &str| mcp_output(&t, get(name));
    let array = listed("list_tickets")
        .expect_err("an array result has none")
        .expect("and says why");
    assert!(array.contains("`type: array`"), "{array}");
    // A $ref to an object type is inlined at the root.
    assert_eq!(listed("update_ticket").unwrap()["type"], json!("object"));
    assert!(listed("lookup_order").is_ok());
    assert!(listed("slug_and_span").is_ok());
}
