//! A tool's entry in each dialect's tool list, and what the MCP form leaves
//! out.

use super::mcp_entry::McpEntry;
use super::{Dialect, Form};
use crate::model::schema::JsonType;
use crate::model::{SchemaId, Schemas, Tool};
use serde_json::{Value, json};

/// Whether a parameters form is an object with no properties (Gemini takes
/// no `parameters` for such a tool).
pub fn is_empty_object(v: &Value) -> bool {
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

/// Why a tool's MCP entry has no `outputSchema`, when it has `returns`:
/// `structuredContent` is an object, so only a result that is always an
/// object (a plain object, or a union whose branches all are) and that the
/// runtime validates is listed with one.
pub(super) fn mcp_output_omitted(
    schemas: &Schemas,
    tool: &Tool,
    returns: SchemaId,
) -> Option<String> {
    if !tool.validate_returns {
        return Some("has `validate_returns: false`".to_string());
    }
    if only_objects(schemas, returns, 0) {
        return None;
    }
    let node = schemas.resolved(returns);
    let found = if node.nullable == Some(true) || node.types.contains(&JsonType::Null) {
        "a value that may be null".to_string()
    } else if let [t] = node.types.as_slice() {
        format!("`type: {}`", t.as_str())
    } else if node.any_of.is_some() || node.one_of.is_some() {
        "a union whose branches are not all objects".to_string()
    } else {
        "no `type`".to_string()
    };
    Some(format!("returns {found}, not always an object"))
}

/// Whether every value `id` accepts is an object: a `type: object` that is
/// not nullable, a union whose branches all are, or an `allOf` one of whose
/// parts is.
fn only_objects(schemas: &Schemas, id: SchemaId, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    let n = schemas.resolved(id);
    if n.boolean.is_some() || n.nullable == Some(true) {
        return false;
    }
    if !n.types.is_empty() {
        return n.types == [JsonType::Object];
    }
    if let Some(branches) = n.any_of.as_ref().or(n.one_of.as_ref()) {
        return !branches.is_empty()
            && branches
                .iter()
                .all(|b| only_objects(schemas, *b, depth + 1));
    }
    n.all_of
        .as_ref()
        .is_some_and(|parts| parts.iter().any(|p| only_objects(schemas, *p, depth + 1)))
}

/// MCP's `outputSchema` root must say `type: object`; a union of objects
/// gets it written above the union, which changes nothing it accepts.
pub(super) fn mcp_output_root(form: &mut Value) {
    if let Value::Object(m) = form
        && !m.contains_key("type")
    {
        let rest = std::mem::take(m);
        m.insert("type".into(), Value::String("object".into()));
        m.extend(rest);
    }
}

/// The tool's entry in `dialect`'s list, its schemas as `schema` gives each form.
pub(super) fn entry(
    tool: &Tool,
    dialect: Dialect,
    parameters: Option<&Form>,
    returns: Option<&Form>,
    schema: fn(&Value) -> Value,
) -> Value {
    let name = Value::String(tool.name.clone());
    let description = Value::String(tool.description.clone());
    let params = parameters.map_or(Value::Null, |f| schema(&f.json));
    let returns_form = returns;
    let returns = returns.map(|f| schema(&f.json));
    match dialect {
        Dialect::OpenAi | Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": params,
                "strict": dialect.is_openai_strict(),
            }
        }),
        Dialect::Gemini | Dialect::GeminiVertex => {
            let mut e = json!({"name": name, "description": description});
            if parameters.is_some() {
                e["parameters"] = params;
            }
            if let Some(r) = returns {
                e["response"] = r;
            }
            e
        }
        Dialect::GeminiJsonSchema => {
            let mut e =
                json!({"name": name, "description": description, "parametersJsonSchema": params});
            if let Some(r) = returns {
                e["responseJsonSchema"] = r;
            }
            e
        }
        Dialect::Anthropic => {
            json!({"name": name, "description": description, "input_schema": params})
        }
        Dialect::AnthropicStrict => json!({
            "name": name, "description": description, "input_schema": params, "strict": true
        }),
        Dialect::Mcp => McpEntry::new(tool, parameters, returns_form).json_with(schema),
    }
}
