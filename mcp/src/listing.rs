//! A descriptor as MCP lists it: the `Tool` of `tools/list`.

use std::sync::Arc;

use rmcp::model::{Icon, MetaObject, Tool, ToolAnnotations};
use serde_json::{Map, Value};
use toolc_runtime::ToolDescriptor;

/// One tool as listed, with its descriptor.
pub(crate) struct Listed {
    pub(crate) tool: Tool,
    pub(crate) desc: &'static ToolDescriptor,
    /// The annotations as the compiler wrote them, when they hold keys `ToolAnnotations` has no
    /// field for (keys of the manifest's own): the listing sends these instead.
    pub(crate) own_annotations: Option<Map<String, Value>>,
}

impl Listed {
    /// The tool as `tools/list` sends it.
    pub(crate) fn json(&self) -> Map<String, Value> {
        let mut tool = match serde_json::to_value(&self.tool) {
            Ok(Value::Object(tool)) => tool,
            _ => Map::new(),
        };
        if let Some(a) = &self.own_annotations {
            tool.insert("annotations".into(), Value::Object(a.clone()));
        }
        tool
    }
}

/// The annotation keys rmcp's [`ToolAnnotations`] carries.
const TYPED_ANNOTATIONS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// A descriptor's annotations, when they hold a key [`ToolAnnotations`] has no field for.
pub(crate) fn own_annotations(desc: &ToolDescriptor) -> Option<Map<String, Value>> {
    match desc.annotations_json() {
        Value::Object(m) if m.keys().any(|k| !TYPED_ANNOTATIONS.contains(&k.as_str())) => Some(m),
        _ => None,
    }
}

/// The MCP `Tool` of a descriptor, as the compiler made it: name, title, description, input
/// schema, output schema (listed only for a result that is always an object and that the
/// runtime validates), annotations, icons and `_meta`. Nothing is recomputed here: `toolc dump
/// --dialect mcp` lists the same, but for annotation keys of the manifest's own
/// (`category: navigation`), which rmcp's `ToolAnnotations` cannot hold: [`mcp_tool_json`]
/// has them, as `tools/list` sends them.
pub fn mcp_tool(desc: &ToolDescriptor) -> Tool {
    let object = |v: Value| match v {
        Value::Object(m) => Some(m),
        _ => None,
    };
    let input = object(desc.input_schema_json()).unwrap_or_default();
    let mut tool = Tool::new(desc.name, desc.description, Arc::new(input));
    if let Some(output) = desc.output_schema_json().and_then(object) {
        tool = tool.with_raw_output_schema(Arc::new(output));
    }
    if let Some(title) = desc.title {
        tool = tool.with_title(title);
    }
    if let Ok(annotations) = serde_json::from_value::<ToolAnnotations>(desc.annotations_json())
        && annotations != ToolAnnotations::default()
    {
        tool = tool.with_annotations(annotations);
    }
    tool.icons = desc
        .icons
        .and_then(|text| serde_json::from_str::<Vec<Icon>>(text).ok());
    tool.meta = desc
        .meta
        .and_then(|text| serde_json::from_str::<Map<String, Value>>(text).ok())
        .map(MetaObject);
    tool
}

/// The MCP `Tool` of a descriptor as `tools/list` sends it: [`mcp_tool`], with the annotations
/// as the compiler wrote them when they hold keys of the manifest's own.
pub fn mcp_tool_json(desc: &ToolDescriptor) -> Value {
    let mut tool = serde_json::to_value(mcp_tool(desc)).unwrap_or(Value::Null);
    if let (Value::Object(t), Some(a)) = (&mut tool, own_annotations(desc)) {
        t.insert("annotations".into(), Value::Object(a));
    }
    tool
}
