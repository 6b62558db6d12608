//! What the MCP server lists for each example agent is the compiler's `mcp` tool list, exactly:
//! the compiler makes the MCP form once and the generated descriptors carry it to the server.

use std::path::PathBuf;

use serde_json::Value;
use toolc::Dialect;
use toolc_mcp::McpServer;

fn compiler_list(agent: &str) -> Vec<Value> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../manifests"));
    let analysis = toolc::analyze(&[dir], &Default::default());
    assert!(
        !analysis
            .diagnostics()
            .iter()
            .any(toolc::Diagnostic::is_error),
        "manifests/ do not check"
    );
    let emitted = analysis
        .tool_list(agent, Dialect::Mcp)
        .unwrap_or_else(|| panic!("no agent {agent}"));
    assert!(
        !emitted.has_errors(),
        "the mcp list has errors: {:?}",
        emitted.findings
    );
    let list = emitted.list;
    list["tools"].as_array().cloned().expect("tools")
}

fn server_list(agent: toolc_runtime::Agent) -> Vec<Value> {
    McpServer::new(agent)
        .tools()
        .into_iter()
        .map(|tool| serde_json::to_value(tool).expect("json"))
        .collect()
}

#[test]
fn the_server_lists_what_the_compiler_emits() {
    for (name, agent) in [
        ("assistant", toolc_example::assistant()),
        ("support-desk", toolc_example::support_desk()),
    ] {
        let compiler = compiler_list(name);
        let server = server_list(agent);
        assert_eq!(compiler.len(), server.len(), "{name}");
        for (c, s) in compiler.iter().zip(&server) {
            assert_eq!(c, s, "{name}: the compiler's {c:#} vs the server's {s:#}");
        }
    }
}
