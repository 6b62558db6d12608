//! The API for tools built on toolc, from the outside: `toolc::analyze` agrees with `toolc lint`
//! and `toolc dump`, each tool's forms with the agents' lists, and `toolc::check_text` with
//! `toolc::check`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use toolc::{Dialect, ToolKind};

fn manifests() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"))
}

fn dump(agent: &str, dialect: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["dump", manifests().to_str().unwrap(), "--agent", agent])
        .args(["--dialect", dialect])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_tool_lists_are_what_toolc_dump_prints() {
    let analysis = toolc::analyze(&[manifests()], &Default::default());
    assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics());
    assert_eq!(analysis.agents(), ["assistant", "support-desk"]);
    for agent in analysis.agents() {
        for d in [Dialect::Gemini, Dialect::Mcp] {
            let list = analysis.tool_list(agent, d).expect("the agent");
            assert!(!list.has_errors(), "{:?}", list.findings);
            assert_eq!(list.list, dump(agent, d.as_str()), "{agent} in {d}");
        }
    }
    assert!(analysis.tool_list("nobody", Dialect::Mcp).is_none());
}

#[test]
fn each_tool_is_in_the_lists_of_the_agents_that_reach_it_in_its_form() {
    let analysis = toolc::analyze(&[manifests()], &Default::default());
    let tools = analysis.tools();
    assert!(tools.iter().any(|t| t.kind() == ToolKind::Play));
    for tool in &tools {
        let entry = tool.form(Dialect::Mcp).entry;
        assert_eq!(entry["name"], tool.name());
        assert_eq!(tool.parameters()["type"], "object", "{}", tool.name());
        if tool.kind() != ToolKind::Delegate {
            let module = tool.module().expect("a module");
            let group = tool.group().expect("a group");
            assert!(module.ends_with(&group.replace('-', "_")), "{module}");
        }
        for agent in tool.agents() {
            let list = analysis.tool_list(agent, Dialect::Mcp).unwrap().list;
            assert!(
                list["tools"].as_array().unwrap().contains(&entry),
                "{} in {agent}",
                tool.name()
            );
        }
    }
}

#[test]
fn a_manifest_given_as_text_checks_as_its_file_does() {
    let path = manifests().join("meetings.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let from_file = toolc::check(std::slice::from_ref(&path), &Default::default());
    let from_text = toolc::check_text(&manifests(), &path, text, &Default::default());
    let rendered = |c: &toolc::Checked| -> Vec<String> {
        c.diagnostics
            .iter()
            .map(|d| toolc::render_plain(&c.sources, d))
            .collect()
    };
    assert_eq!(rendered(&from_text), rendered(&from_file));
    assert_eq!(from_text.manifest_count, 1);
    let broken = toolc::check_text(
        Path::new("."),
        Path::new("broken.toml"),
        "version = 1\n[toolboxes.t]\ndescriptio = \"T\"\n".into(),
        &Default::default(),
    );
    assert!(broken.diagnostics.has_errors());
    assert!(
        rendered(&broken)
            .iter()
            .any(|d| d.starts_with("broken.toml:3:1:")),
        "{:?}",
        rendered(&broken)
    );
}
