//! What the MCP server lists is what `toolc dump --dialect mcp` prints, for every toolset the
//! harness compiles (tests/agreement/build.rs: the example manifests, the codegen fixtures, every
//! other manifest the tests build, the agreement fixtures): each tool's entry as the runtime serves
//! it (`toolc_mcp::mcp_tool` of its generated descriptor, as `tools/list` sends it) equals
//! the compiler's MCP entry, and each agent's served list equals its dump: names, titles,
//! descriptions, input and output schemas (or their absence), annotations, icons and `_meta`,
//! compared as JSON values. The real-world corpus is compared through the descriptor fields the
//! emitter would write, without compiling it.

use serde_json::Value;
use toolc_agreement::{DESCRIPTION, descriptors};
use toolc_mcp::mcp_tool_json;
use toolc_runtime::codegen::schema::Schema;
use toolc_runtime::{OperationKind, Policy, ToolDescriptor};

fn description() -> Value {
    serde_json::from_str(DESCRIPTION).expect("the embedded description")
}

fn array(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// The generated descriptor of an operation of the description.
fn descriptor(toolset: &str, op: &Value) -> &'static ToolDescriptor {
    let group = op["group"].as_str().expect("a group");
    let name = op["name"].as_str().expect("a name");
    descriptors(toolset, group)
        .unwrap_or_else(|| panic!("{toolset}: no group {group}"))
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("{toolset}: no descriptor for {group}/{name}"))
}

/// The tool as the server lists it, as JSON (its annotation keys of the manifest's own too).
fn served(desc: &ToolDescriptor) -> Value {
    mcp_tool_json(desc)
}

#[test]
fn every_tool_is_served_as_the_compiler_lowered_it() {
    let description = description();
    let mut compared = 0;
    for set in array(&description["toolsets"]) {
        let toolset = set["toolset"].as_str().expect("an id");
        for op in array(&set["operations"]) {
            let served = served(descriptor(toolset, op));
            assert_eq!(
                served, op["mcp_entry"],
                "{toolset}: {}: served as {served:#}, lowered as {:#}",
                op["name"], op["mcp_entry"]
            );
            compared += 1;
        }
    }
    assert!(compared >= 50, "only {compared} tools compared");
}

#[test]
fn every_agent_is_served_its_dump() {
    let description = description();
    let mut agents = 0;
    for set in array(&description["toolsets"]) {
        let toolset = set["toolset"].as_str().expect("an id");
        for agent in array(&set["agents"]) {
            let agent = agent.as_str().expect("an agent name");
            let dump = &set["mcp_lists"][agent];
            assert!(dump.is_array(), "{toolset}: the dump of {agent} is refused");
            let served: Vec<Value> = array(&set["operations"])
                .iter()
                .filter(|op| array(&op["reached_by"]).iter().any(|a| a == agent))
                .map(|op| served(descriptor(toolset, op)))
                .collect();
            // By name: the order the server lists an agent's tools in is tested through a
            // real server on the example manifests (examples/demo/tests/mcp_tools.rs).
            let mut served = served;
            let mut dumped = array(dump).to_vec();
            for list in [&mut served, &mut dumped] {
                list.sort_by_key(|t| t["name"].to_string());
            }
            let names = |list: &[Value]| -> Vec<String> {
                list.iter().map(|t| t["name"].to_string()).collect()
            };
            assert_eq!(
                names(&served),
                names(&dumped),
                "{toolset}: agent {agent}: the tools served and dumped"
            );
            for (s, d) in served.iter().zip(&dumped) {
                assert_eq!(
                    s, d,
                    "{toolset}: agent {agent}: {}: served as {s:#}, dumped as {d:#}",
                    s["name"]
                );
            }
            agents += 1;
        }
    }
    assert!(agents >= 12, "only {agents} agents compared");
}

/// The example manifests use every MCP field of a tool, so the comparisons above cover them.
#[test]
fn the_example_manifests_use_every_mcp_field() {
    let description = description();
    let set = array(&description["toolsets"])
        .iter()
        .find(|s| s["toolset"] == "manifests")
        .expect("the example manifests");
    let entries: Vec<&Value> = array(&set["operations"])
        .iter()
        .map(|op| &op["mcp_entry"])
        .collect();
    for field in ["title", "annotations", "outputSchema", "icons", "_meta"] {
        assert!(
            entries.iter().any(|e| e.get(field).is_some()),
            "no tool of manifests/ lists `{field}`"
        );
    }
    assert!(
        entries.iter().any(|e| e.get("outputSchema").is_none()),
        "every tool of manifests/ lists an outputSchema"
    );
}

static ANY: Schema = Schema::ANY;

/// A descriptor with what build.rs recorded of a real-world tool: the fields the emitter writes
/// for MCP (name, title, description, and the texts of its MCP entry, as `toolc::McpTexts`
/// makes them); the rest plays no part in the listing.
fn listed_descriptor(op: &Value) -> ToolDescriptor {
    let text = |k: &str| -> Option<&'static str> {
        op[k]
            .as_str()
            .map(|s| &*Box::leak(s.to_owned().into_boxed_str()))
    };
    ToolDescriptor {
        name: text("name").expect("a name"),
        kind: OperationKind::Tool,
        title: text("title"),
        description: text("description").expect("a description"),
        input_schema: text("input_schema").expect("an input schema"),
        output_schema: text("output_schema"),
        parameters: &ANY,
        returns: None,
        validate_returns: true,
        terminal: false,
        deprecated: false,
        policy: Policy::NONE,
        annotations: text("annotations").expect("annotations"),
        icons: text("icons"),
        meta: text("meta"),
    }
}

/// The real-world corpus (tests/realworld, not compiled here): each tool's descriptor, as the
/// emitter would write it, is served as the compiler's MCP entry, and each server's list as
/// its dump.
#[test]
fn every_real_world_tool_is_served_as_dumped() {
    let description = description();
    let mut tools = 0;
    for set in array(&description["listed_only"]) {
        let toolset = set["toolset"].as_str().expect("a name");
        for op in array(&set["operations"]) {
            let served = mcp_tool_json(&listed_descriptor(op));
            assert_eq!(
                served, op["mcp_entry"],
                "{toolset}: {}: served as {served:#}, lowered as {:#}",
                op["name"], op["mcp_entry"]
            );
            tools += 1;
        }
        for agent in array(&set["agents"]) {
            let agent = agent.as_str().expect("an agent name");
            let dump = array(&set["mcp_lists"][agent]);
            let entries: Vec<&Value> = array(&set["operations"])
                .iter()
                .filter(|op| array(&op["reached_by"]).iter().any(|a| a == agent))
                .map(|op| &op["mcp_entry"])
                .collect();
            assert_eq!(entries.len(), dump.len(), "{toolset}: {agent}");
            for (e, d) in entries.iter().zip(dump) {
                assert_eq!(*e, d, "{toolset}: {agent}: {}", d["name"]);
            }
        }
    }
    assert!(tools >= 1000, "only {tools} real-world tools compared");
}
