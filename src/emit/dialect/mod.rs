//! Per-provider schema transforms and tool lists.
//!
//! Each dialect's form is made from the canonical schema (the manifest's
//! JSON Schema, named types bundled under `$defs` by [`Toolset::bundle`]) by
//! rewrites that keep its meaning:
//!
//! | dialect | rewrites |
//! |---|---|
//! | every one | a root `$ref` inlined (the root says `type: object`); `x-rust-*` keys dropped |
//! | JSON Schema dialects | `nullable: true` → `type: [T, "null"]` (or `anyOf: [..., {type: null}]`) |
//! | `openai-strict`, `azure-openai-strict` | every property `required`, optional ones made nullable; `additionalProperties: false` on objects with `properties`; `$ref` with siblings → `anyOf: [{$ref}]`; `default` → the description; integer `format`s (`int32`…) → `minimum`/`maximum`; a `oneOf` whose branches exclude each other → `anyOf`; `$defs` at the top |
//! | `anthropic-strict` | `additionalProperties: false` on objects with `properties` |
//! | `gemini`, `gemini-vertex` | every `$ref` inlined (a recursive one is refused); `type: [T, "null"]` and `anyOf: [X, {type: null}]` → `nullable: true`; a string `const` → `enum: [c]`; integer exclusive bounds → inclusive; `additionalProperties: false` dropped (`gemini`); `$schema`, `$id`, `$comment`, `x-*` dropped; `deprecated: true` → the description; disjoint `oneOf` → `anyOf` |
//! | `gemini-jsonschema` | `$ref` with siblings → `anyOf: [{$ref}]` |
//! | `mcp` | an `outputSchema` only for a validated result that is a plain object (what `structuredContent` can carry); other results go to the client as text, and a note says so |
//!
//! What no rewrite can express is left in place, and the lint rules (run on
//! every emitted schema) report it at its manifest line; a list with error
//! findings is not returned.
//!
//! In toolc's schemas an object with `properties` is closed (the generated
//! Rust denies unknown fields), so adding `additionalProperties: false` keeps
//! its meaning; an object without `properties` is a free-form map.

mod rewrite;

pub use rewrite::{INLINE_BUDGET, Origins, Transformed, disjoint, transform};

pub use crate::lint::{Dialect, Finding, LintSettings, Role, ToolFacts};
use crate::lint::{Hit, checks, list, rule};
use crate::model::{Agent, SchemaId, Tool, Toolset};
use serde_json::{Map, Value, json};

/// One tool list with what linting it found.
#[derive(Debug, Clone, PartialEq)]
pub struct Emitted {
    pub list: Value,
    pub findings: Vec<Finding>,
}

impl Emitted {
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity == crate::diag::Severity::Error)
    }
}

/// The schemas each dialect sends for a tool's result.
fn emits_returns(d: Dialect) -> bool {
    matches!(
        d,
        Dialect::Mcp | Dialect::GeminiVertex | Dialect::GeminiJsonSchema
    )
}

/// One schema of a tool in a dialect's form: bundled, then rewritten.
pub fn schema_for(
    toolset: &Toolset,
    schema: SchemaId,
    dialect: Dialect,
    _role: Role,
) -> Transformed {
    transform(&toolset.bundle(schema), dialect)
}

/// Why a tool's MCP listing has no `outputSchema`, when it has `returns`:
/// `structuredContent` is an object, so only a plain-object result that the
/// runtime validates is listed with one (as `toolc-runtime` serves it).
pub fn mcp_output_omitted(toolset: &Toolset, tool: &Tool) -> Option<String> {
    let returns = tool.returns?;
    if !tool.validate_returns {
        return Some("has `validate_returns: false`".to_string());
    }
    let t = transform(&toolset.bundle(returns), Dialect::Mcp);
    rewrite::needs_object_wrap(&t.json).then(|| {
        let found = match t.json.get("type") {
            Some(v) if v != "object" => format!("`type: {v}`"),
            Some(_) => "an object that may also be null, or a union".to_string(),
            None => "no `type`".to_string(),
        };
        format!("returns {found}, not a plain object")
    })
}

/// The MCP `outputSchema` of a tool, or `None` (no `returns`, or see
/// [`mcp_output_omitted`]).
pub fn mcp_output_schema(toolset: &Toolset, tool: &Tool) -> Option<Value> {
    let returns = tool.returns?;
    if mcp_output_omitted(toolset, tool).is_some() {
        return None;
    }
    Some(transform(&toolset.bundle(returns), Dialect::Mcp).json)
}

fn returns_span(toolset: &Toolset, tool: &Tool) -> crate::diag::Span {
    match tool.returns {
        Some(r) => crate::lint::locate(toolset, r, ""),
        None => tool.span,
    }
}

/// Gemini takes no `parameters` for a tool without arguments.
fn is_empty_object(v: &Value) -> bool {
    let Some(m) = v.as_object() else { return false };
    let empty = |k: &str| match m.get(k) {
        None => true,
        Some(Value::Object(o)) => o.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    };
    m.get("type") == Some(&Value::String("object".into()))
        && m.contains_key("properties")
        && empty("properties")
        && empty("required")
        && m.keys().all(|k| {
            matches!(
                k.as_str(),
                "type" | "properties" | "required" | "description" | "title"
            )
        })
}

/// MCP annotation hints from the manifest's `annotations`.
fn mcp_annotations(tool: &Tool) -> Option<Map<String, Value>> {
    let mut out = Map::new();
    for (k, v) in &tool.annotations {
        let key = match (k.as_str(), v) {
            ("read_only", Value::Bool(_)) => "readOnlyHint",
            ("destructive", Value::Bool(_)) => "destructiveHint",
            ("idempotent", Value::Bool(_)) => "idempotentHint",
            ("open_world", Value::Bool(_)) => "openWorldHint",
            _ => k.as_str(),
        };
        out.insert(key.to_string(), v.clone());
    }
    (!out.is_empty()).then_some(out)
}

fn schema_findings(
    toolset: &Toolset,
    tool: &Tool,
    (schema, role): (SchemaId, Role),
    dialect: Dialect,
    settings: &LintSettings,
    t: &Transformed,
    out: &mut Vec<Finding>,
) {
    let enabled = |r: &crate::lint::Rule| settings.severity(r, Some(dialect)).is_some();
    let hits = checks::run_schema(&t.json, dialect, role, &enabled);
    let located = hits
        .into_iter()
        .filter(|h| !t.is_refused(&h.pointer))
        .map(|h| {
            let src = t.origins.source(&h.pointer);
            (h, src, false)
        })
        .chain(
            t.refusals
                .iter()
                .map(|h| (h.clone(), h.pointer.clone(), true)),
        );
    for (h, src, refusal) in located {
        let Some(r) = rule(h.rule) else { continue };
        // A refusal under a rule not graded for this dialect (a schema too
        // deep to rewrite) is still an error: the form could not be made.
        let ungraded_refusal =
            refusal && r.grade(Some(dialect)).is_none() && !settings.allow.contains(r.id);
        let severity = match settings.severity(r, Some(dialect)) {
            Some(s) => s,
            None if ungraded_refusal => crate::diag::Severity::Error,
            None => continue,
        };
        out.push(Finding {
            rule: r.id,
            severity,
            dialect: Some(dialect),
            tool: Some(tool.name.clone()),
            role: Some(role),
            span: Some(crate::lint::locate(toolset, schema, &src)),
            pointer: src,
            message: h.message,
            help: h.help.unwrap_or_else(|| r.help.to_string()),
        });
    }
}

/// One tool's entry in a dialect's tool list, with the findings of its
/// schemas (not of the list: names and counts are checked per list).
pub fn build_entry(
    toolset: &Toolset,
    tool: &Tool,
    dialect: Dialect,
    settings: &LintSettings,
) -> (Value, Vec<Finding>) {
    let mut findings = Vec::new();
    let params = schema_for(toolset, tool.parameters, dialect, Role::Parameters);
    let omit_params = dialect == Dialect::Gemini && is_empty_object(&params.json);
    if !omit_params {
        schema_findings(
            toolset,
            tool,
            (tool.parameters, Role::Parameters),
            dialect,
            settings,
            &params,
            &mut findings,
        );
    }
    let returns = match (tool.returns, emits_returns(dialect)) {
        (Some(r), true) => {
            let omitted = if dialect == Dialect::Mcp {
                mcp_output_omitted(toolset, tool)
            } else {
                None
            };
            match omitted {
                Some(why) => {
                    if let Some(r) = rule("mcp-output-schema-omitted")
                        && let Some(severity) = settings.severity(r, Some(dialect))
                    {
                        findings.push(Finding {
                            rule: r.id,
                            severity,
                            dialect: Some(dialect),
                            tool: Some(tool.name.clone()),
                            role: Some(Role::Returns),
                            pointer: String::new(),
                            span: Some(returns_span(toolset, tool)),
                            message: format!(
                                "`{}` {why}, so its MCP listing has no `outputSchema`: clients get the result as text",
                                tool.name
                            ),
                            help: r.help.to_string(),
                        });
                    }
                    None
                }
                None => {
                    let t = schema_for(toolset, r, dialect, Role::Returns);
                    schema_findings(
                        toolset,
                        tool,
                        (r, Role::Returns),
                        dialect,
                        settings,
                        &t,
                        &mut findings,
                    );
                    Some(t.json)
                }
            }
        }
        _ => None,
    };
    let name = Value::String(tool.name.clone());
    let description = Value::String(tool.description.clone());
    let entry = match dialect {
        Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": params.json,
                "strict": dialect.is_openai_strict(),
            }
        }),
        Dialect::Gemini | Dialect::GeminiVertex => {
            let mut e = json!({"name": name, "description": description});
            if !omit_params {
                e["parameters"] = params.json;
            }
            if let Some(r) = returns {
                e["response"] = r;
            }
            e
        }
        Dialect::GeminiJsonSchema => {
            let mut e = json!({"name": name, "description": description, "parametersJsonSchema": params.json});
            if let Some(r) = returns {
                e["responseJsonSchema"] = r;
            }
            e
        }
        Dialect::Anthropic => {
            json!({"name": name, "description": description, "input_schema": params.json})
        }
        Dialect::AnthropicStrict => json!({
            "name": name, "description": description, "input_schema": params.json, "strict": true
        }),
        Dialect::Mcp => {
            let mut e = Map::new();
            e.insert("name".into(), name);
            if let Some(t) = &tool.title {
                e.insert("title".into(), Value::String(t.clone()));
            }
            e.insert("description".into(), description);
            e.insert("inputSchema".into(), params.json);
            if let Some(r) = returns {
                e.insert("outputSchema".into(), r);
            }
            if let Some(a) = mcp_annotations(tool) {
                e.insert("annotations".into(), Value::Object(a));
            }
            Value::Object(e)
        }
    };
    (entry, findings)
}

/// An agent's tool list in a dialect's request shape, with every finding:
/// the OpenAI `tools` array, `{"functionDeclarations": [...]}` for Gemini,
/// the Anthropic `tools` array, or an MCP `tools/list` result `{"tools": [...]}`.
pub fn emit_tool_list(
    toolset: &Toolset,
    agent: &Agent,
    dialect: Dialect,
    settings: &LintSettings,
) -> Emitted {
    let (list, mut findings) = build_list(toolset, agent, dialect, settings);
    crate::lint::sort_dedup(&mut findings);
    Emitted { list, findings }
}

/// An agent's tool list in a dialect's request shape, or, when a provider
/// would reject it, every finding (errors and warnings). Rules are graded
/// as the rule table says; see [`emit_tool_list`] to apply `toolc.toml`.
pub fn tool_list(
    toolset: &Toolset,
    agent: &Agent,
    dialect: Dialect,
) -> Result<Value, Vec<Finding>> {
    let e = emit_tool_list(
        toolset,
        agent,
        dialect,
        &LintSettings::for_dialects(&[dialect]),
    );
    if e.has_errors() {
        Err(e.findings)
    } else {
        Ok(e.list)
    }
}

pub(crate) fn build_list(
    toolset: &Toolset,
    agent: &Agent,
    dialect: Dialect,
    settings: &LintSettings,
) -> (Value, Vec<Finding>) {
    let tools: Vec<&Tool> = toolset.agent_tools(agent).collect();
    let mut findings = Vec::new();
    let mut entries = Vec::new();
    for tool in &tools {
        let (e, f) = build_entry(toolset, tool, dialect, settings);
        entries.push(e);
        findings.extend(f);
    }
    let list = match dialect {
        Dialect::Gemini | Dialect::GeminiVertex | Dialect::GeminiJsonSchema => {
            json!({ "functionDeclarations": entries })
        }
        Dialect::Mcp => json!({ "tools": entries }),
        _ => Value::Array(entries),
    };
    let facts: Vec<ToolFacts> = tools.iter().map(|t| ToolFacts::of(t)).collect();
    let enabled = |r: &crate::lint::Rule| settings.severity(r, Some(dialect)).is_some();
    let targets = if settings.dialects.is_empty() {
        vec![dialect]
    } else {
        settings.dialects.clone()
    };
    for h in list::run(&list, dialect, &targets, &facts, &enabled) {
        findings.extend(list_finding(&tools, agent, dialect, settings, h));
    }
    (list, findings)
}

fn list_finding(
    tools: &[&Tool],
    agent: &Agent,
    dialect: Dialect,
    settings: &LintSettings,
    h: Hit,
) -> Option<Finding> {
    let r = rule(h.rule)?;
    let severity = settings.severity(r, Some(dialect))?;
    let tool = h.tool.and_then(|i| tools.get(i).or(tools.last()));
    Some(Finding {
        rule: r.id,
        severity,
        dialect: Some(dialect),
        tool: tool.map(|t| t.name.clone()),
        role: None,
        pointer: String::new(),
        span: tool.map(|t| t.span).or(agent.span),
        message: h.message,
        help: h.help.unwrap_or_else(|| r.help.to_string()),
    })
}

/// Arguments in the canonical shape → the shape a strict-mode model sends:
/// every optional property that is absent is there as `null`. (What the
/// `openai-strict` form of the schema accepts.)
pub fn strict_arguments(bundled: &Value, arguments: &Value) -> Value {
    walk_arguments(bundled, bundled, arguments, 0, fill_nulls)
}

/// Arguments from a strict-mode model → the canonical shape: a `null` for a
/// property that is optional and does not itself accept null is dropped
/// (the model's way of leaving it out). The generated dispatchers do the
/// same at run time (`toolc_runtime::Schema::drop_null_optionals`), so
/// hosts pass strict-mode arguments on as they come; this is the compiler's
/// side, for checking the dialect forms against examples.
pub fn canonical_arguments(bundled: &Value, arguments: &Value) -> Value {
    walk_arguments(bundled, bundled, arguments, 0, drop_nulls)
}

/// What to do with an object argument, given its schema object: the rule
/// recurses into members through [`walk_arguments`].
type ObjectRule = fn(&Value, &Map<String, Value>, &Map<String, Value>, usize) -> Value;

/// Walks arguments along their schema (following `$ref`s and array items),
/// rewriting every object with `rule`.
fn walk_arguments(
    root: &Value,
    schema: &Value,
    v: &Value,
    depth: usize,
    rule: ObjectRule,
) -> Value {
    if depth > crate::lint::walk::MAX_WALK_DEPTH {
        return v.clone();
    }
    let Some(m) = schema.as_object() else {
        return v.clone();
    };
    if let Some(Value::String(t)) = m.get("$ref")
        && let Some(target) = crate::lint::walk::resolve_ref(root, t)
    {
        return walk_arguments(root, target, v, depth + 1, rule);
    }
    match v {
        Value::Object(obj) => rule(root, m, obj, depth),
        Value::Array(items) => match m.get("items") {
            Some(s) if s.is_object() => Value::Array(
                items
                    .iter()
                    .map(|x| walk_arguments(root, s, x, depth + 1, rule))
                    .collect(),
            ),
            _ => v.clone(),
        },
        _ => v.clone(),
    }
}

/// Every property the schema names is present: absent ones as `null`.
fn fill_nulls(
    root: &Value,
    m: &Map<String, Value>,
    obj: &Map<String, Value>,
    depth: usize,
) -> Value {
    let mut out = obj.clone();
    if let Some(Value::Object(props)) = m.get("properties") {
        for (k, p) in props {
            let x = match obj.get(k) {
                Some(x) => walk_arguments(root, p, x, depth + 1, fill_nulls),
                None => Value::Null,
            };
            out.insert(k.clone(), x);
        }
    }
    Value::Object(out)
}

/// A `null` for an optional property whose schema refuses null is dropped.
fn drop_nulls(
    root: &Value,
    m: &Map<String, Value>,
    obj: &Map<String, Value>,
    depth: usize,
) -> Value {
    let props = m.get("properties").and_then(Value::as_object);
    let req = crate::lint::walk::required(m);
    let mut out = Map::new();
    for (k, x) in obj {
        let p = props.and_then(|p| p.get(k));
        let nullable = p
            .and_then(|p| deref_obj(root, p))
            .is_some_and(crate::lint::walk::accepts_null);
        if x.is_null() && p.is_some() && !req.contains(&k.as_str()) && !nullable {
            continue;
        }
        let x = match p {
            Some(p) => walk_arguments(root, p, x, depth + 1, drop_nulls),
            None => x.clone(),
        };
        out.insert(k.clone(), x);
    }
    Value::Object(out)
}

fn deref_obj<'a>(root: &'a Value, v: &'a Value) -> Option<&'a Map<String, Value>> {
    let mut cur = v;
    for _ in 0..16 {
        match cur.get("$ref").and_then(Value::as_str) {
            Some(t) => cur = crate::lint::walk::resolve_ref(root, t)?,
            None => return cur.as_object(),
        }
    }
    None
}
