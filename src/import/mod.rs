//! `toolc import`: tools that exist elsewhere as a manifest. Three sources read into one
//! [`Import`]: a running MCP server ([`client`], over stdio or streamable HTTP), a saved
//! `tools/list` result ([`tools_list`], which the client's answer goes through too) and an
//! OpenAPI 3.0 or 3.1 document ([`openapi`]). [`manifest`] writes an `Import` as a manifest
//! and its `toolc.toml`, [`files`] puts them on disk (or compares them, for `--check`).
//!
//! The command line's alone (feature `cli`), and beside the pipeline, not a stage of it: it
//! reads sources and writes manifests, and only the check of what it wrote
//! ([`fixup`]) calls into the stages, through the crate's public `check_text`.

pub(crate) mod client;
pub(crate) mod files;
pub(crate) mod fixup;
pub(crate) mod manifest;
mod notes;
pub(crate) mod openapi;
pub(crate) mod tools_list;
pub(crate) mod yaml;

pub use notes::{Failure, Note};

use serde_json::{Map, Value};

/// What was imported: the tools, the named types they refer to, and every change made on the
/// way.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// Where it came from, as the manifest's header names it ("the MCP server `node a.js`").
    pub source: String,
    /// What kind of source it is.
    pub kind: Kind,
    /// The name the source gives itself (`serverInfo.name`, `info.title`), if any: the
    /// toolbox's name unless `--name` says otherwise.
    pub source_name: Option<String>,
    /// The tools, in the source's order.
    pub tools: Vec<Tool>,
    /// Named types (`types:` of the manifest), in order, their names valid type names.
    pub types: Vec<(String, Value)>,
    /// Every change made to what the source sent.
    pub notes: Vec<Note>,
    /// Whether the tools' schemas carry `x-` keys that MCP clients are to be shown
    /// (`[emit] extensions = true`): an MCP server's are part of its list.
    pub extensions: bool,
}

/// The kinds of source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Kind {
    /// An MCP server's tools/list.
    #[default]
    Mcp,
    /// An OpenAPI document's operations.
    OpenApi,
}

/// One tool, with the manifest keys it will be written with.
#[derive(Debug, Clone, Default)]
pub struct Tool {
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    /// The `parameters` schema, written as it is.
    pub parameters: Value,
    /// The `returns` schema, written as it is.
    pub returns: Option<Value>,
    /// The `annotations` mapping, its keys as the manifest spells them.
    pub annotations: Map<String, Value>,
    /// `icons`, each a mapping with the manifest's keys.
    pub icons: Option<Vec<Value>>,
    /// `meta` (MCP's `_meta`).
    pub meta: Option<Value>,
    pub deprecated: bool,
    /// The `backend` mapping: for an OpenAPI operation, the `http` request that calls it.
    pub backend: Option<Value>,
}

/// A name of the toolbox from what the source calls itself: lowercase ASCII letters, digits
/// and `-`, starting with a letter, at most 64 characters; `None` when nothing is left.
pub fn toolbox_name(raw: &str) -> Option<String> {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_start_matches(|c: char| !c.is_ascii_lowercase());
    let out: String = out
        .chars()
        .take(crate::model::names::MAX_NAME_LEN)
        .collect();
    let out = out.trim_end_matches('-').to_string();
    (!out.is_empty()).then_some(out)
}

/// Whether a schema has an `x-` key (an extension) anywhere: not a property so named, nor a
/// key inside a value (`const`, `enum`, `default`, `examples`).
pub fn has_extension_keys(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| match k.as_str() {
            k if k.starts_with("x-") => true,
            "const" | "enum" | "default" | "examples" | "example" => false,
            "properties" | "$defs" | "definitions" | "patternProperties" | "dependentSchemas" => v
                .as_object()
                .is_some_and(|named| named.values().any(has_extension_keys)),
            _ => has_extension_keys(v),
        }),
        Value::Array(items) => items.iter().any(has_extension_keys),
        _ => false,
    }
}
