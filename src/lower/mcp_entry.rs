//! A tool's MCP entry as a typed value: what `tools/list` lists of it, each schema the form
//! lower made. The list printed by `toolc dump`, the texts a generated descriptor carries and
//! the agreement harness's view of a descriptor are all made from it, so none reads an entry
//! back by its JSON keys.

use super::Form;
use crate::model::Tool;
use serde_json::{Map, Value};

/// The input schema of an entry without parameters, and of a descriptor that writes none.
pub const DEFAULT_INPUT_SCHEMA: &str = "{\"type\":\"object\"}";

/// A tool's MCP entry.
#[derive(Debug, Clone, PartialEq)]
pub struct McpEntry<'a> {
    pub name: &'a str,
    pub title: Option<&'a str>,
    pub description: &'a str,
    /// `inputSchema`: the parameters' form (`None` for a tool lowered without one).
    pub input_schema: Option<&'a Value>,
    /// `outputSchema`: the result's form, when the entry lists one.
    pub output_schema: Option<&'a Value>,
    /// `annotations`: the title (the manifest's `annotations.title`, else the tool's `title`,
    /// for clients that read only `annotations.title`), the hints written, under their MCP
    /// names, and the other keys of the manifest's `annotations`, as written; `None` when empty.
    pub annotations: Option<Map<String, Value>>,
    /// `icons`, as MCP spells each.
    pub icons: Vec<Value>,
    /// `_meta`.
    pub meta: Option<&'a Map<String, Value>>,
}

impl<'a> McpEntry<'a> {
    /// The entry of `tool`, with its parameters' and result's forms.
    pub fn new(tool: &'a Tool, parameters: Option<&'a Form>, returns: Option<&'a Form>) -> Self {
        let mut annotations = Map::new();
        if let Some(t) = tool.annotations.title.as_ref().or(tool.title.as_ref()) {
            annotations.insert("title".into(), Value::String(t.clone()));
        }
        for (name, v) in tool.annotations.hints.mcp_names() {
            annotations.insert(name.to_string(), Value::Bool(v));
        }
        for (k, v) in &tool.annotations.other {
            annotations.insert(k.clone(), v.clone());
        }
        McpEntry {
            name: &tool.name,
            title: tool.title.as_deref(),
            description: &tool.description,
            input_schema: parameters.map(|f| &f.json),
            output_schema: returns.map(|f| &f.json),
            annotations: (!annotations.is_empty()).then_some(annotations),
            icons: tool.icons.iter().map(|i| i.mcp_json()).collect(),
            meta: tool.meta.as_ref(),
        }
    }

    /// The entry as `tools/list` lists it, each schema as `schema` gives it.
    pub fn json_with(&self, schema: impl Fn(&Value) -> Value) -> Value {
        let mut e = Map::new();
        e.insert("name".into(), Value::String(self.name.to_string()));
        if let Some(t) = self.title {
            e.insert("title".into(), Value::String(t.to_string()));
        }
        e.insert(
            "description".into(),
            Value::String(self.description.to_string()),
        );
        e.insert(
            "inputSchema".into(),
            self.input_schema.map_or(Value::Null, &schema),
        );
        if let Some(r) = self.output_schema {
            e.insert("outputSchema".into(), schema(r));
        }
        if let Some(a) = &self.annotations {
            e.insert("annotations".into(), Value::Object(a.clone()));
        }
        if !self.icons.is_empty() {
            e.insert("icons".into(), Value::Array(self.icons.clone()));
        }
        if let Some(meta) = self.meta {
            e.insert("_meta".into(), Value::Object(meta.clone()));
        }
        Value::Object(e)
    }
}

/// The MCP fields a generated tool descriptor carries, as the JSON texts written into it,
/// made from the tool's [`McpEntry`], so that the runtime's MCP server lists what `toolc dump
/// --dialect mcp` prints. Tools built on toolc read them with
/// [`Tool::mcp_texts`](crate::Tool::mcp_texts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpTexts {
    /// `inputSchema` (`{"type":"object"}` without one).
    pub input_schema: String,
    /// `outputSchema`, when the entry lists one.
    pub output_schema: Option<String>,
    /// `annotations` (`{}` when none).
    pub annotations: String,
    /// `icons`, when the entry lists them.
    pub icons: Option<String>,
    /// `_meta`, when the entry has one.
    pub meta: Option<String>,
}

impl Default for McpTexts {
    /// The texts of a descriptor with no entry: an object of no declared properties, no
    /// annotations.
    fn default() -> Self {
        McpTexts {
            input_schema: DEFAULT_INPUT_SCHEMA.to_string(),
            output_schema: None,
            annotations: "{}".to_string(),
            icons: None,
            meta: None,
        }
    }
}

impl McpTexts {
    /// The texts of `entry`, each field compact JSON.
    pub fn of(entry: &McpEntry<'_>) -> McpTexts {
        McpTexts {
            input_schema: entry
                .input_schema
                .map_or_else(|| DEFAULT_INPUT_SCHEMA.to_string(), Value::to_string),
            output_schema: entry.output_schema.map(Value::to_string),
            annotations: entry.annotations.as_ref().map_or_else(
                || "{}".to_string(),
                |a| Value::Object(a.clone()).to_string(),
            ),
            icons: (!entry.icons.is_empty()).then(|| Value::Array(entry.icons.clone()).to_string()),
            meta: entry.meta.map(|m| Value::Object(m.clone()).to_string()),
        }
    }
}
