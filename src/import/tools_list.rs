//! An MCP `tools/list` result as tools of a manifest: what `toolc import tools-list` reads
//! from a file, and what `toolc import mcp` gets from a server.
//!
//! Each MCP tool becomes the manifest tool that toolc lists as the server listed it:
//!
//! | MCP | manifest |
//! |---|---|
//! | `name` | the tool's key, as it is |
//! | `title` | `title` |
//! | `description` | `description` |
//! | `inputSchema`, `outputSchema` | `parameters`, `returns`, as they are, but for OpenAPI 3.0's `example` |
//! | `example: v` in a schema (OpenAPI 3.0's keyword, which FastMCP's OpenAPI tools copy) | `examples: [v]`, JSON Schema 2020-12's spelling; left out beside an `examples` of its own |
//! | `annotations.readOnlyHint` (and the other three hints) | `annotations.read_only` (…) |
//! | `annotations.title` | `annotations.title`, unless it is the tool's `title` (toolc lists the title there too) |
//! | other `annotations` keys | the same keys under `annotations` |
//! | `icons` | `icons`, `mimeType` spelled `mime_type` |
//! | `_meta` | `meta` |
//!
//! What has no manifest key (a tool's `execution`, an icon's other keys) is left out, and each
//! is named in a note.

use super::{Failure, Import, Note, Tool, has_extension_keys};
use crate::model::schema::{Keyword, Shape};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The four behaviour hints: MCP's spelling and the manifest's.
const HINTS: [(&str, &str); 4] = [
    ("readOnlyHint", "read_only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open_world"),
];

/// An icon's keys: MCP's spelling and the manifest's.
const ICON_KEYS: [(&str, &str); 4] = [
    ("src", "src"),
    ("mimeType", "mime_type"),
    ("sizes", "sizes"),
    ("theme", "theme"),
];

/// The keys of an MCP tool that the manifest has a place for.
const KNOWN: [&str; 8] = [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
];

/// The tools of a saved result: `{"tools": [...]}`, a bare array of tools, or a JSON-RPC
/// response whose `result` is the former.
pub fn tools_of(document: &Value) -> Result<&[Value], Failure> {
    let not_a_list = || {
        Failure::source(
            "this is not a tools/list result",
            "give the result of an MCP `tools/list` request: `{\"tools\": [...]}`, the array of tools alone, or the JSON-RPC response holding either",
        )
    };
    match document {
        Value::Array(tools) => Ok(tools),
        Value::Object(map) => {
            if let Some(Value::Array(tools)) = map.get("tools") {
                return Ok(tools);
            }
            if let Some(error) = map.get("error").filter(|_| map.contains_key("jsonrpc")) {
                return Err(Failure::source(
                    format!("this is a JSON-RPC error, not a tools/list result: {error}"),
                    "save the answer of a tools/list request that succeeded",
                ));
            }
            match map.get("result") {
                Some(result @ Value::Object(_)) if map.contains_key("jsonrpc") => {
                    tools_of(result).map_err(|_| not_a_list())
                }
                _ => Err(not_a_list()),
            }
        }
        _ => Err(not_a_list()),
    }
}

/// The tools of a `tools/list` result as an [`Import`] named after `source`.
pub fn import(tools: &[Value], source: String) -> Result<Import, Failure> {
    let mut out = Import {
        source,
        ..Import::default()
    };
    let mut seen = HashSet::new();
    for (i, mcp) in tools.iter().enumerate() {
        let tool = convert(mcp, i, &mut out.notes)?;
        if !seen.insert(tool.name.clone()) {
            return Err(Failure::source(
                format!("the tool `{}` is listed twice (tools[{i}])", tool.name),
                "an MCP server lists each tool once; import a list where every name is unique",
            ));
        }
        out.extensions |= has_extension_keys(&tool.parameters)
            || tool.returns.as_ref().is_some_and(has_extension_keys);
        out.tools.push(tool);
    }
    Ok(out)
}

/// One MCP tool as a manifest tool; what it cannot carry is named in `notes`.
fn convert(mcp: &Value, index: usize, notes: &mut Vec<Note>) -> Result<Tool, Failure> {
    let malformed = |what: &str| {
        Failure::source(
            format!("tools[{index}] {what}"),
            "each MCP tool is an object with a `name` string and an `inputSchema` object (MCP's `Tool`)",
        )
    };
    let Value::Object(mcp) = mcp else {
        return Err(malformed("is not an object"));
    };
    let Some(Value::String(name)) = mcp.get("name") else {
        return Err(malformed("has no `name` string"));
    };
    let Some(parameters @ Value::Object(_)) = mcp.get("inputSchema") else {
        return Err(malformed(&format!(
            "(`{name}`) has no `inputSchema` object"
        )));
    };
    let note = |notes: &mut Vec<Note>, at: &str, message: String| {
        notes.push(Note::new(Some(name), at, message));
    };
    let mut tool = Tool {
        name: name.clone(),
        parameters: parameters.clone(),
        ..Tool::default()
    };
    spell_examples(&mut tool.parameters, "inputSchema", name, notes);
    match mcp.get("title") {
        Some(Value::String(t)) => tool.title = Some(t.clone()),
        Some(other) => note(
            notes,
            "title",
            format!("left out: {other} is not a string, which a title is"),
        ),
        None => {}
    }
    let annotations = match mcp.get("annotations") {
        Some(Value::Object(a)) => a.clone(),
        Some(other) => {
            note(
                notes,
                "annotations",
                format!("left out: {other} is not an object, which annotations are"),
            );
            Map::new()
        }
        None => Map::new(),
    };
    tool.description = match mcp.get("description") {
        Some(Value::String(d)) if !d.trim().is_empty() => d.clone(),
        given => {
            let stand_in = tool
                .title
                .clone()
                .or_else(|| annotations.get("title")?.as_str().map(str::to_string))
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| name.clone());
            let why = match given {
                None => "the server gives none".to_string(),
                Some(Value::String(_)) => "the server's is blank".to_string(),
                Some(other) => format!("the server's, {other}, is not a string"),
            };
            note(
                notes,
                "description",
                format!(
                    "written as \"{stand_in}\": a manifest tool needs a description, and {why}; toolc lists this one"
                ),
            );
            stand_in
        }
    };
    match mcp.get("outputSchema") {
        Some(returns @ Value::Object(_)) => {
            let mut returns = returns.clone();
            spell_examples(&mut returns, "outputSchema", name, notes);
            tool.returns = Some(returns);
        }
        Some(other) => note(
            notes,
            "outputSchema",
            format!("left out: {other} is not a schema object"),
        ),
        None => {}
    }
    for (key, value) in &annotations {
        if let Some((_, ours)) = HINTS.iter().find(|(mcp, _)| mcp == key) {
            if value.is_boolean() {
                tool.annotations.insert((*ours).to_string(), value.clone());
            } else {
                note(
                    notes,
                    &format!("annotations/{key}"),
                    format!("left out: {value} is not a boolean, which a hint is"),
                );
            }
        } else if key == "title" {
            // toolc lists the tool's title as `annotations.title` when the manifest gives no
            // other, so the same text is written once.
            if tool.title.as_ref() != value.as_str().map(str::to_string).as_ref() {
                tool.annotations.insert(key.clone(), value.clone());
            }
        } else {
            tool.annotations.insert(key.clone(), value.clone());
        }
    }
    match mcp.get("icons") {
        Some(Value::Array(icons)) => {
            let mut written = Vec::new();
            for (i, icon) in icons.iter().enumerate() {
                let Value::Object(icon) = icon else {
                    note(
                        notes,
                        &format!("icons/{i}"),
                        format!("left out: {icon} is not an icon object"),
                    );
                    continue;
                };
                let mut ours = Map::new();
                for (key, value) in icon {
                    match ICON_KEYS.iter().find(|(mcp, _)| mcp == key) {
                        Some((_, k)) => {
                            ours.insert((*k).to_string(), value.clone());
                        }
                        None => note(
                            notes,
                            &format!("icons/{i}/{key}"),
                            "left out: the manifest's icons have no such key (only `src`, `mimeType`, `sizes` and `theme`), so toolc will not list it".to_string(),
                        ),
                    }
                }
                written.push(Value::Object(ours));
            }
            tool.icons = Some(written);
        }
        Some(other) => note(
            notes,
            "icons",
            format!("left out: {other} is not a list of icons"),
        ),
        None => {}
    }
    tool.meta = mcp.get("_meta").cloned();
    for key in mcp.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
        note(
            notes,
            key,
            format!(
                "left out: the manifest has no key for a tool's `{key}` yet, so toolc will not list it"
            ),
        );
    }
    Ok(tool)
}

/// Writes each `example: v` of a schema (OpenAPI 3.0's keyword, not JSON Schema's, which toolc
/// would refuse as unknown) as `examples: [v]` in its place, or leaves it out where the schema
/// has `examples` too; `at` is the schema's place in the MCP tool. Only schemas are walked: an
/// `example` property, or one inside a `default`, is data.
fn spell_examples(schema: &mut Value, at: &str, tool: &str, notes: &mut Vec<Note>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(index) = map.keys().position(|k| k == "example") {
        let here = format!("{at}/example");
        let value = map.shift_remove("example").expect("the key is there");
        if map.contains_key("examples") {
            notes.push(Note::new(
                Some(tool),
                here,
                "left out: OpenAPI 3.0's `example` is not a JSON Schema keyword, and the schema has `examples` too",
            ));
        } else {
            map.shift_insert(index, "examples".into(), Value::Array(vec![value]));
            notes.push(Note::new(
                Some(tool),
                here,
                "written as `examples: [...]`: OpenAPI 3.0's `example` is not a JSON Schema keyword, `examples` is its 2020-12 spelling",
            ));
        }
    }
    for (key, value) in map.iter_mut() {
        let Some(shape) = Keyword::parse(key).map(Keyword::shape) else {
            continue;
        };
        let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
        match (shape, value) {
            (Shape::Schema | Shape::SchemaList, Value::Array(items)) => {
                for (i, item) in items.iter_mut().enumerate() {
                    spell_examples(item, &format!("{here}/{i}"), tool, notes);
                }
            }
            (Shape::Schema, value) => spell_examples(value, &here, tool, notes),
            (Shape::SchemaMap, Value::Object(named)) => {
                for (name, value) in named.iter_mut() {
                    let name = name.replace('~', "~0").replace('/', "~1");
                    spell_examples(value, &format!("{here}/{name}"), tool, notes);
                }
            }
            _ => {}
        }
    }
}
