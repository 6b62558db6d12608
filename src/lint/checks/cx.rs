//! What every schema check sees (`Cx`, the node) and shares: where a keyword stands, a value
//! shown short, the ends of help lines that name a `toolc.toml` key.

pub(super) use super::super::spot::Spot;
pub(super) use super::super::walk::{
    self, Node, accepts_null, esc, is_array, is_object, required, types,
};
pub(super) use crate::lower::{Dialect, Role};
use serde_json::Value;

/// What every schema check sees besides the node.
pub struct Cx<'a> {
    pub root: &'a Value,
    pub dialect: Dialect,
    pub role: Role,
}

/// The end of a help line where `[lower] describe_unsupported` lowers the construct.
pub(crate) const OR_DESCRIBE: &str = "or set `[lower] describe_unsupported = true` in `toolc.toml`, and toolc says it in the description (the provider then no longer holds the model to it; the dispatcher still checks it)";

/// The end of a help line where `[lower] close_objects` lowers the construct.
pub(crate) const OR_CLOSE: &str = "or set `[lower] close_objects = true` in `toolc.toml`, and toolc lists the object closed (the model can then send only its declared properties)";

/// The end of a help line where Gemini's JSON Schema form takes the construct as written.
pub(crate) const OR_GEMINI_JSON: &str = "or set `[lint] gemini_form = \"parametersJsonSchema\"` in `toolc.toml`: Gemini's JSON Schema form (`gemini-jsonschema`) takes it as written";

pub(super) fn at(n: &Node<'_>, key: &str) -> String {
    format!("{}/{}", n.pointer, esc(key))
}

pub(super) fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s
    }
}

/// `$defs` and `definitions` hold named schemas, not a schema node of their
/// own; node checks about shape skip the container's direct entries only
/// through the walk (they are visited as schemas, which they are).
pub(super) fn is_schema_node(n: &Node<'_>) -> bool {
    n.value.is_object()
}
