//! Compiles every toolset of the agreement test into OUT_DIR, and describes
//! them for the driver: per tool and play, its module, its canonical
//! parameters schema, its parameters as each dialect advertises them, and its
//! MCP entry; per agent, its MCP list as `toolc dump --dialect mcp` prints it.
//!
//! Writes `<id>.rs` per toolset, `toolsets.rs` (the modules, a `check`
//! function that picks a module's `check_arguments`, and `descriptors`, which
//! picks a module's descriptors) and `agreement.json` (with, under
//! `listed_only`, the MCP descriptor fields and dumps of the real-world
//! corpus, which is not compiled here).

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use toolc::{Analysis, Dialect, Finding, ResolveOptions, Severity, ToolKind};

/// The toolsets, by id: the example manifests, the codegen fixtures, every
/// other manifest the tests build, and `tests/fixtures/lossless.yaml` (a tool
/// per lossless rewrite); then every folder of `tests/fixtures/agreement`
/// (generated toolsets).
const FIXED: &[(&str, &str)] = &[
    ("manifests", "../../manifests"),
    ("constructs", "../fixtures/codegen/constructs.yaml"),
    ("hostile", "../fixtures/codegen/hostile.yaml"),
    ("imported", "../fixtures/codegen/imported.yaml"),
    ("defaults", "../fixtures/codegen/defaults.yaml"),
    ("coverage", "../fixtures/codegen/coverage.yaml"),
    ("string_formats", "../fixtures/codegen/formats.yaml"),
    ("formats", "../formats/toolset.yaml"),
    ("results", "../../examples/demo/tests/results.yaml"),
    ("bench", "../../examples/demo/benches/bench.yaml"),
    ("lossless", "../fixtures/lossless.yaml"),
];

const GENERATED: &str = "../fixtures/agreement";

/// Toolsets whose MCP listing alone is compared (`listed_only`), not compiled
/// here: every folder of the real-world corpus (tests/realworld.rs compiles
/// their Rust; its thousand tools would make this crate slow to build and the
/// agreement run long).
const LISTED_ONLY: &str = "../realworld";

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut toolsets: Vec<(String, PathBuf)> = FIXED
        .iter()
        .map(|(id, p)| (id.to_string(), PathBuf::from(p)))
        .collect();
    println!("cargo:rerun-if-changed={GENERATED}");
    let mut generated: Vec<PathBuf> = std::fs::read_dir(GENERATED)
        .expect("tests/fixtures/agreement")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.is_dir())
        .collect();
    generated.sort();
    for p in generated {
        let id = p.file_name().unwrap().to_string_lossy().replace('-', "_");
        toolsets.push((id, p));
    }

    let mut modules = String::from("// Every toolset of the agreement test.\n\n");
    let mut arms = String::new();
    let mut descriptor_arms = String::new();
    let mut described = Vec::new();
    for (id, path) in &toolsets {
        let report = toolc::configure()
            .manifest(path)
            .file_name(format!("{id}.rs"))
            .toolset_name(id.as_str())
            // The code does not depend on the dialects linted; each dialect's
            // lint is run below, to tell which forms are advertised.
            .dialects(["mcp"])
            .cargo_instructions(false)
            .compile()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for input in &report.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        writeln!(
            modules,
            "pub mod {id} {{\n    toolc_runtime::include_toolset!(\"{id}\");\n}}\n"
        )
        .unwrap();
        let (analysis, ops, mcp_lists) = describe(id, path);
        for op in &ops {
            let group = op["group"].as_str().unwrap();
            let module = op["module"].as_str().unwrap();
            writeln!(
                arms,
                "        ({id:?}, {group:?}) => {id}::{module}::check_arguments(tool, arguments),"
            )
            .unwrap();
            writeln!(
                descriptor_arms,
                "        ({id:?}, {group:?}) => &{id}::{module}::DESCRIPTORS,"
            )
            .unwrap();
        }
        described.push(json!({
            "toolset": id,
            "source": path.to_string_lossy().trim_start_matches("../"),
            "agents": analysis.agents(),
            "mcp_lists": mcp_lists,
            "operations": ops,
        }));
    }
    // One arm per group is enough; the lists above have one per operation.
    let arms: BTreeSet<&str> = arms.lines().collect();
    let descriptor_arms: BTreeSet<&str> = descriptor_arms.lines().collect();
    write!(
        modules,
        "/// A group's `check_arguments`, by toolset id and group (`toolboxes/<name>`,\n\
         /// `playbooks/<name>`); `None` for a group that is not there.\n\
         pub fn check(\n    toolset: &str,\n    group: &str,\n    tool: &str,\n    arguments: &str,\n\
         ) -> Option<Result<serde_json::Value, toolc_runtime::ToolError>> {{\n\
         \x20   Some(match (toolset, group) {{\n{}\n        _ => return None,\n    }})\n}}\n",
        arms.into_iter().collect::<Vec<_>>().join("\n")
    )
    .unwrap();
    write!(
        modules,
        "\n/// A group's generated descriptors, by toolset id and group; `None` for a group that\n\
         /// is not there.\n\
         pub fn descriptors(\n    toolset: &str,\n    group: &str,\n\
         ) -> Option<&'static [toolc_runtime::ToolDescriptor]> {{\n\
         \x20   Some(match (toolset, group) {{\n{}\n        _ => return None,\n    }})\n}}\n",
        descriptor_arms.into_iter().collect::<Vec<_>>().join("\n")
    )
    .unwrap();
    std::fs::write(out.join("toolsets.rs"), modules).unwrap();
    let text = serde_json::to_string_pretty(&json!({
        "toolsets": described,
        "listed_only": listed_only(),
    }))
    .unwrap();
    std::fs::write(out.join("agreement.json"), text).unwrap();
}

/// The real-world toolsets: per tool, what its generated descriptor would
/// carry for MCP (name, title, description and the texts of its MCP entry,
/// `toolc::McpTexts`, as the emitter writes them) and its MCP entry; per
/// agent, its dump.
fn listed_only() -> Vec<Value> {
    println!("cargo:rerun-if-changed={LISTED_ONLY}");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(LISTED_ONLY)
        .expect("tests/realworld")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.join("tools.json").is_file())
        .collect();
    folders.sort();
    folders
        .iter()
        .map(|path| {
            // The manifest `toolc import` wrote, named after the folder, and its config.
            let name = path.file_name().unwrap().to_string_lossy();
            for f in [format!("{name}.yaml"), "toolc.toml".to_string()] {
                println!("cargo:rerun-if-changed={}", path.join(f).display());
            }
            let analysis = toolc::analyze(std::slice::from_ref(path), &ResolveOptions::default());
            assert!(!analysis.has_errors(), "{}: does not check", path.display());
            let ops: Vec<Value> = analysis
                .tools()
                .iter()
                .map(|tool| {
                    let entry = tool.form(Dialect::Mcp).entry;
                    let texts = tool.mcp_texts();
                    json!({
                        "name": tool.name(),
                        "title": tool.title(),
                        "description": tool.description(),
                        "input_schema": texts.input_schema,
                        "output_schema": texts.output_schema,
                        "annotations": texts.annotations,
                        "icons": texts.icons,
                        "meta": texts.meta,
                        "mcp_entry": entry,
                        "reached_by": tool.agents(),
                    })
                })
                .collect();
            json!({
                "toolset": path.file_name().unwrap().to_string_lossy(),
                "agents": analysis.agents(),
                "mcp_lists": mcp_lists(&analysis),
                "operations": ops,
            })
        })
        .collect()
}

/// The operations of one toolset: names, modules, canonical schemas, the
/// parameters each dialect advertises and the MCP entry; and its agents' MCP
/// lists.
fn describe(id: &str, path: &Path) -> (Analysis, Vec<Value>, Map<String, Value>) {
    let analysis = toolc::analyze(
        &[path.to_path_buf()],
        &ResolveOptions {
            name: Some(id.to_string()),
            ..Default::default()
        },
    );
    let agents = analysis.agents();
    // Each agent's lists: the rules that fail each one (none: it is advertised).
    let lists: Vec<Vec<BTreeSet<&'static str>>> = agents
        .iter()
        .map(|agent| {
            Dialect::ALL
                .into_iter()
                .map(|d| {
                    let list = analysis.tool_list(agent, d).expect("the agent");
                    errors(&list.findings, None, d)
                })
                .collect()
        })
        .collect();
    // Delegates are served by the agents' own modules, not compared here.
    let ops = analysis
        .tools()
        .iter()
        .filter(|tool| tool.kind() != ToolKind::Delegate)
        .map(|tool| {
            let reached_by = tool.agents();
            let reaching: Vec<&Vec<BTreeSet<&str>>> = agents
                .iter()
                .zip(&lists)
                .filter(|(a, _)| reached_by.contains(a))
                .map(|(_, errors)| errors)
                .collect();
            let mut forms = Map::new();
            let mut refused = Map::new();
            for (i, d) in Dialect::ALL.into_iter().enumerate() {
                let form = tool.form(d);
                // Advertised when some agent's list is, or, where no agent
                // reaches the tool, when its own lint (in every dialect) has
                // no error.
                let why: BTreeSet<&str> = if reaching.is_empty() {
                    errors(&form.findings, Some(tool.name()), d)
                } else if reaching.iter().any(|e| e[i].is_empty()) {
                    BTreeSet::new()
                } else {
                    reaching.iter().flat_map(|e| e[i].iter().copied()).collect()
                };
                if !why.is_empty() {
                    refused.insert(d.as_str().into(), json!(why));
                } else {
                    forms.insert(d.as_str().into(), form.parameters.unwrap_or(Value::Null));
                }
            }
            let kind = if tool.kind() == ToolKind::Tool {
                "toolboxes"
            } else {
                "playbooks"
            };
            json!({
                "name": tool.name(),
                "kind": if tool.kind() == ToolKind::Tool { "tool" } else { "play" },
                "mcp_entry": tool.form(Dialect::Mcp).entry,
                "group": format!("{kind}/{}", tool.group().expect("a toolbox or playbook")),
                "module": tool.module().expect("a toolbox or playbook"),
                "canonical": tool.parameters(),
                "reached_by": reached_by,
                "advertised": forms,
                "not_advertised": refused,
            })
        })
        .collect();
    let mcp = mcp_lists(&analysis);
    (analysis, ops, mcp)
}

/// What `toolc dump --dialect mcp --agent <name>` prints for each agent (its `tools`), made by
/// the function `dump` calls; `null` for a list the dump refuses (an error in its lint).
fn mcp_lists(analysis: &Analysis) -> Map<String, Value> {
    analysis
        .agents()
        .into_iter()
        .map(|agent| {
            let emitted = analysis.tool_list(agent, Dialect::Mcp).expect("the agent");
            let tools = if emitted.has_errors() {
                Value::Null
            } else {
                emitted.list["tools"].clone()
            };
            (agent.to_string(), tools)
        })
        .collect()
}

/// The rules with error findings in dialect `d` (or in none: model checks),
/// about `tool` when given.
fn errors(findings: &[Finding], tool: Option<&str>, d: Dialect) -> BTreeSet<&'static str> {
    findings
        .iter()
        .filter(|f| {
            f.severity == Severity::Error
                && tool.is_none_or(|t| f.tool.as_deref() == Some(t))
                && f.dialect.is_none_or(|x| x == d)
        })
        .map(|f| f.rule.as_str())
        .collect()
}
