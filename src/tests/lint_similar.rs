//! `indistinguishable-tools`: tools of one agent whose names are the same words, or whose
//! descriptions are near-identical, measured with the agent's search index; reported at
//! both tools. Distinct tools (the repository's manifests and fixtures, and 1,000 synthetic
//! tools of one template) do not fire it.

use std::path::{Path, PathBuf};

use crate::Finding;
use crate::Severity;
use crate::lint::LintSettings;
use serde_json::Value;

const RULE: crate::RuleId = crate::RuleId::IndistinguishableTools;

fn lint_paths(paths: &[PathBuf], settings: &LintSettings) -> (crate::Checked, Vec<Finding>) {
    let checked = crate::check(paths, &Default::default());
    assert!(
        !checked.diagnostics.has_errors(),
        "{:?}",
        checked.diagnostics.iter().collect::<Vec<_>>()
    );
    let lowered = crate::lower::lower(&checked.toolset, &[], Default::default());
    let findings = crate::lint::lint_toolset(&checked.toolset, &lowered, settings);
    (checked, findings)
}

fn no_dialects() -> LintSettings {
    LintSettings {
        dialects: vec![],
        ..Default::default()
    }
}

/// A finding with where it points (line, column) and its related places.
type Located = (Finding, (usize, usize), Vec<(usize, usize)>);

/// The findings of this rule for one manifest text, and where each points (line, column)
/// with its related place.
fn lint_text(name: &str, text: &str, settings: &LintSettings) -> Vec<Located> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let (checked, findings) = lint_paths(&[path], settings);
    findings
        .into_iter()
        .filter(|f| f.rule == RULE)
        .map(|f| {
            let at = checked.sources.line_col(f.span.expect("located"));
            let related = f
                .related
                .iter()
                .map(|l| checked.sources.line_col(l.span))
                .collect();
            (f, at, related)
        })
        .collect()
}

const NAMES: &str = "version: 1
toolboxes:
  tickets:
    description: Support tools
    tools:
      list_tickets:
        description: List the open tickets of a customer, newest first.
      close_ticket:
        description: Close a ticket once the customer's problem is solved.
      list_ticket:
        description: Show one ticket with its whole history of replies.
capabilities:
  support: { description: Support, toolbox: tickets }
agents:
  desk: { description: The support desk, capabilities: [support] }
";

#[test]
fn names_of_the_same_words_are_reported_at_both_tools() {
    let found = lint_text("t.yaml", NAMES, &no_dialects());
    assert_eq!(found.len(), 1, "{found:?}");
    let (f, at, related) = &found[0];
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.tool.as_deref(), Some("list_ticket"));
    assert_eq!(*at, (10, 7));
    assert_eq!(related, &[(6, 7)]);
    assert!(
        f.message.starts_with(
            "`list_tickets` and `list_ticket` of agent `desk` have names made of the same words"
        ),
        "{}",
        f.message
    );
    assert_eq!(f.related[0].message, "`list_tickets` is defined here");
    // Printed with both places.
    let d = crate::lint::to_diagnostics(std::slice::from_ref(f));
    assert_eq!(d[0].id(), RULE.as_str());
    assert_eq!(d[0].secondary.len(), 1);
}

#[test]
fn near_identical_descriptions_are_reported_with_how_alike() {
    let text = "version: 1
toolboxes:
  orders:
    description: Order tools
    tools:
      lookup_order:
        description: Look up an order by its id and say where it is.
      cancel_order:
        description: Cancel an order that has not shipped yet.
      track_order:
        description: Look up an order by its ID, and say where it is.
capabilities:
  orders: { description: Orders, toolbox: orders }
";
    let found = lint_text("t.yaml", text, &no_dialects());
    assert_eq!(found.len(), 1, "{found:?}");
    let (f, at, related) = &found[0];
    assert_eq!((*at, related.as_slice()), ((10, 7), &[(6, 7)][..]));
    assert!(
        f.message.contains("have near-identical descriptions ("),
        "{}",
        f.message
    );
    // One word that only one of three tools has is enough to tell them apart.
    let apart = text.replace(
        "its ID, and say where it is.",
        "its ID, and say where it is now.",
    );
    assert!(lint_text("t.yaml", &apart, &no_dialects()).is_empty());
}

#[test]
fn tools_of_different_agents_are_not_compared_and_a_shared_pair_is_reported_once() {
    let text = "version: 1
toolboxes:
  a:
    description: A
    tools:
      get_report: { description: Get the weekly sales report. }
  b:
    description: B
    tools:
      get_reports: { description: Get every report a team shared this month. }
capabilities:
  a: { description: A, toolbox: a }
  b: { description: B, toolbox: b }
agents:
  first: { description: First, capabilities: [a] }
  second: { description: Second, capabilities: [b] }
";
    assert!(lint_text("t.yaml", text, &no_dialects()).is_empty());
    let both = text.replace(
        "  second: { description: Second, capabilities: [b] }",
        "  second: { description: Second, capabilities: [a, b] }\n  third: { description: Third, capabilities: [b, a] }",
    );
    let found = lint_text("t.yaml", &both, &no_dialects());
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn allow_silences_it_and_deny_makes_it_an_error() {
    let allow = LintSettings {
        dialects: vec![],
        allow: [RULE].into_iter().collect(),
        ..Default::default()
    };
    assert!(lint_text("t.yaml", NAMES, &allow).is_empty());
    let deny = LintSettings {
        dialects: vec![],
        deny: [RULE].into_iter().collect(),
        ..Default::default()
    };
    let found = lint_text("t.yaml", NAMES, &deny);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0.severity, Severity::Error);
}

/// Every finding of this rule in the toolset under `paths`, after printing how alike the
/// closest descriptions of each agent are (the figures docs/lint-rules.md gives).
fn fired(paths: &[PathBuf]) -> Vec<String> {
    let checked = crate::check(paths, &Default::default());
    let lowered = crate::lower::lower(&checked.toolset, &[], Default::default());
    let tools: Vec<&crate::model::Tool> = checked.toolset.operations().collect();
    for (agent, index) in checked.toolset.agents.iter().zip(&lowered.search) {
        let texts: Vec<(&str, &str)> = index
            .operations
            .iter()
            .map(|&op| (tools[op].name.as_str(), tools[op].description.as_str()))
            .collect();
        if let Some((s, a, b)) =
            crate::lint::similar::closest_descriptions(&texts, &index.index.as_ref())
        {
            println!(
                "{paths:?} agent {}: closest descriptions {s:.3} ({} and {})",
                agent.name, texts[a].0, texts[b].0
            );
            assert!(s < crate::lint::similar::THRESHOLD);
        }
    }
    lint_paths(paths, &no_dialects())
        .1
        .into_iter()
        .filter(|f| f.rule == RULE)
        .map(|f| f.message)
        .collect()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_repository_manifests_and_fixtures_do_not_fire_it() {
    let mut toolsets: Vec<Vec<PathBuf>> = vec![vec![root().join("manifests")]];
    for file in [
        "tests/fixtures/codegen/constructs.yaml",
        "tests/fixtures/codegen/coverage.yaml",
        "tests/fixtures/codegen/defaults.yaml",
        "tests/fixtures/codegen/hostile.yaml",
        "tests/fixtures/codegen/search.yaml",
        "examples/demo/benches/bench.yaml",
        "examples/demo/tests/results.yaml",
    ] {
        toolsets.push(vec![root().join(file)]);
    }
    for paths in toolsets {
        assert_eq!(fired(&paths), Vec::<String>::new(), "{paths:?}");
    }
}

/// The synthetic agent of runtime/tests/data/search_purposes.json as a manifest: every one
/// of 25 actions on each of 40 entities, described from one template (as
/// runtime/tests/agent/synthetic.rs builds it at run time).
pub fn synthetic_manifest() -> String {
    let data: Value = serde_json::from_str(include_str!(
        "../../runtime/tests/data/search_purposes.json"
    ))
    .unwrap();
    let mut s = String::from(
        "version: 1\ntoolboxes:\n  synthetic:\n    description: Synthetic tools\n    tools:\n",
    );
    for e in data["entities"].as_array().unwrap() {
        let (id, words, gloss) = (
            e[0].as_str().unwrap(),
            e[1].as_str().unwrap(),
            e[2].as_str().unwrap(),
        );
        for a in data["actions"].as_array().unwrap() {
            let fill = |t: &str| t.replace("{e}", words).replace("{id}", id);
            let article = if words.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "An"
            } else {
                "A"
            };
            let description = format!(
                "{} {article} {words} is {gloss}.",
                fill(a[1].as_str().unwrap())
            );
            s.push_str(&format!(
                "      {}_{id}:\n        description: {}\n        parameters:\n          type: object\n          properties:\n",
                a[0].as_str().unwrap(),
                serde_json::to_string(&description).unwrap()
            ));
            for p in a[2].as_array().unwrap() {
                s.push_str(&format!(
                    "            {}: {{ type: string, description: {} }}\n",
                    fill(p[0].as_str().unwrap()),
                    serde_json::to_string(&fill(p[1].as_str().unwrap())).unwrap()
                ));
            }
        }
    }
    s.push_str("capabilities:\n  synthetic: { description: Synthetic, toolbox: synthetic }\n");
    s
}

#[test]
fn a_thousand_distinct_tools_of_one_template_do_not_fire_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("synthetic.yaml");
    std::fs::write(&path, synthetic_manifest()).unwrap();
    let (checked, _) = lint_paths(std::slice::from_ref(&path), &no_dialects());
    assert_eq!(checked.toolset.tool_count(), 1000);
    assert_eq!(fired(&[path]), Vec::<String>::new());
}
