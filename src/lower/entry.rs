//! A tool's entry in each dialect's tool list, and what the MCP form leaves
//! out.

use super::{Dialect, Form};
use crate::model::Tool;
use serde_json::{Map, Value, json};

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
/// `structuredContent` is an object, so only a plain-object result that the
/// runtime validates is listed with one.
pub(super) fn mcp_output_omitted(tool: &Tool, form: &Value) -> Option<String> {
    if !tool.validate_returns {
        return Some("has `validate_returns: false`".to_string());
    }
    let plain = form.as_object().is_some_and(|m| {
        m.get("type") == Some(&Value::String("object".into()))
            && !m.contains_key("anyOf")
            && !m.contains_key("oneOf")
    });
    if plain {
        return None;
    }
    let found = match form.get("type") {
        Some(Value::String(t)) if t != "object" => format!("`type: {t}`"),
        Some(Value::Array(_)) => "an object that may also be null".to_string(),
        Some(_) => "a union of objects".to_string(),
        None => "no `type`".to_string(),
    };
    Some(format!("returns {found}, not a plain object"))
}

/// MCP annotations: the title (for clients that read `annotations.title`)
/// and the manifest's hints under their MCP names. Other annotation keys of
/// the manifest have no place in MCP's `ToolAnnotations` and are not sent.
fn mcp_annotations(tool: &Tool) -> Option<Map<String, Value>> {
    let mut out = Map::new();
    if let Some(t) = &tool.title {
        out.insert("title".into(), Value::String(t.clone()));
    }
    for (k, v) in &tool.annotations {
        let key = match (k.as_str(), v) {
            ("read_only", Value::Bool(_)) => "readOnlyHint",
            ("destructive", Value::Bool(_)) => "destructiveHint",
            ("idempotent", Value::Bool(_)) => "idempotentHint",
            ("open_world", Value::Bool(_)) => "openWorldHint",
            _ => continue,
        };
        out.insert(key.to_string(), v.clone());
    }
    (!out.is_empty()).then_some(out)
}

/// The tool's entry in `dialect`'s list.
pub(super) fn entry(
    tool: &Tool,
    dialect: Dialect,
    parameters: Option<&Form>,
    returns: Option<&Form>,
) -> Value {
    let name = Value::String(tool.name.clone());
    let description = Value::String(tool.description.clone());
    let params = parameters.map_or(Value::Null, |f| f.json.clone());
    let returns = returns.map(|f| f.json.clone());
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
        Dialect::Mcp => {
            let mut e = Map::new();
            e.insert("name".into(), name);
            if let Some(t) = &tool.title {
                e.insert("title".into(), Value::String(t.clone()));
            }
            e.insert("description".into(), description);
            e.insert("inputSchema".into(), params);
            if let Some(r) = returns {
                e.insert("outputSchema".into(), r);
            }
            if let Some(a) = mcp_annotations(tool) {
                e.insert("annotations".into(), Value::Object(a));
            }
            Value::Object(e)
        }
    }
}
