//! The lower stage: each schema is lowered once per build, and what it makes
//! is what the providers accept: no emitted list holds a construct its own
//! dialect's error rules reject.

use crate::Severity;
use crate::lint::{LintSettings, rule};
use crate::pipeline::{ConfigSource, analyze, outputs, tool_list};
use crate::{Dialect, Role};
use crate::{check_schema, check_tool_list};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The manifests and fixtures whose lists are checked: every manifest the
/// tests build.
fn sets() -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = [
        "manifests",
        "tests/fixtures/codegen/constructs.yaml",
        "tests/fixtures/codegen/hostile.yaml",
        "tests/fixtures/codegen/defaults.yaml",
        "tests/fixtures/codegen/coverage.yaml",
        "tests/fixtures/codegen/formats.yaml",
        "tests/fixtures/lossless.yaml",
        "tests/formats/toolset.yaml",
        "examples/demo/tests/results.yaml",
        "examples/demo/benches/bench.yaml",
    ]
    .iter()
    .map(|p| repo().join(p))
    .collect();
    let generated = repo().join("tests/fixtures/agreement");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(generated)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    sets.extend(folders);
    sets
}

/// Lint reads each agent's list outlined (the schemas of each entry stood in for, its input
/// schema read in the form): the list rules find the same there as in the list as sent, in
/// every dialect, for every set the tests build and for one made to break the list rules.
#[test]
fn list_rules_find_the_same_in_outlines_as_in_lists_as_sent() {
    let mut toolsets: Vec<crate::model::Toolset> = sets()
        .iter()
        .map(|p| crate::check(std::slice::from_ref(p), &Default::default()).toolset)
        .collect();
    toolsets.push(
        crate::check_text(
            &repo(),
            &repo().join("lists.yaml"),
            list_breaking_manifest(),
            &Default::default(),
        )
        .toolset,
    );
    let mut compared = std::collections::BTreeSet::new();
    for set in &toolsets {
        let lowered = crate::lower::lower(set, &Dialect::ALL, Default::default());
        let tools: Vec<&crate::model::Tool> = set.operations().collect();
        for agent in &set.agents {
            let facts: Vec<crate::ToolFacts> = set
                .agent_operations(agent)
                .iter()
                .map(|&op| crate::ToolFacts::of(tools[op]))
                .collect();
            for d in Dialect::ALL {
                let list = lowered.list(set, agent, d);
                let sent = check_tool_list(&list, d, &Dialect::ALL, &facts);
                let outlines = lowered.outlines(set, agent, d);
                let outlined =
                    crate::lint::check_outlined(outlines, d, &Dialect::ALL, &facts, &|_| true);
                assert_eq!(outlined, sent, "agent `{}` in {d:?}", agent.name);
                compared.extend(sent.iter().map(|h| h.rule));
            }
        }
    }
    // Rules that read the entries' keys and the input schemas both found something.
    for id in [
        crate::lint::RuleId::StrictToolCount,
        crate::lint::RuleId::AnthropicStrictOptionalBudget,
        crate::lint::RuleId::AnthropicStrictUnionBudget,
        crate::lint::RuleId::GeminiLiveNoJsonschema,
    ] {
        assert!(compared.contains(&id), "no list found {id:?}: {compared:?}");
    }
}

/// An agent of 30 tools, with optional properties and unions over the budgets of strict tools
/// (resolve already refuses the names and descriptions the list rules would).
fn list_breaking_manifest() -> String {
    let mut text =
        String::from("version: 1\ntoolboxes:\n  box:\n    description: Tools.\n    tools:\n");
    for i in 0..30 {
        text.push_str(&format!(
            "      tool_{i}:\n        description: Tool {i}.\n        parameters:\n          \
             type: object\n          properties:\n            a: {{ type: string }}\n            \
             b: {{ anyOf: [{{ type: string }}, {{ type: integer }}] }}\n"
        ));
    }
    text.push_str(
        "capabilities:\n  all: { description: All, toolbox: box }\nagents:\n  \
         agent:\n    description: Everything.\n    capabilities: [all]\n",
    );
    text
}

#[test]
fn a_build_lowers_each_schema_once() {
    let before = crate::lower::schemas_lowered_on_this_thread();
    let analyzed = analyze(
        &[repo().join("manifests")],
        &Default::default(),
        &ConfigSource::Discover,
        &Default::default(),
    );
    assert!(!analyzed.has_errors());
    let written = outputs(analyzed.front(), &Default::default()).expect("builds");
    assert!(written.len() > 2);
    let lowered = crate::lower::schemas_lowered_on_this_thread() - before;
    // Lint and emit lowered nothing again: every schema lowered during the
    // build is one the stage counted once.
    assert_eq!(lowered, analyzed.lowered.schema_count);
    // And that is one per schema per dialect (MCP always among them):
    // parameters everywhere, results where the dialect sends them.
    let set = &analyzed.toolset;
    let mut dialects = analyzed.lowered.dialects.clone();
    if !dialects.contains(&Dialect::Mcp) {
        dialects.push(Dialect::Mcp);
    }
    let expected: usize = set
        .operations()
        .map(|t| {
            dialects
                .iter()
                .map(|d| 1 + usize::from(t.returns.is_some() && d.sends_returns()))
                .sum::<usize>()
        })
        .sum();
    assert_eq!(lowered, expected);
}

#[test]
fn no_emitted_list_holds_what_its_own_dialect_rejects() {
    let mut lists = 0;
    let mut alone = 0;
    for path in sets() {
        let checked = crate::check(std::slice::from_ref(&path), &Default::default());
        assert!(!checked.diagnostics.has_errors(), "{}", path.display());
        let set = &checked.toolset;
        let reached: Vec<usize> = set
            .agents
            .iter()
            .flat_map(|a| set.agent_operations(a))
            .collect();
        for d in Dialect::ALL {
            let settings = LintSettings::for_dialects(&[d]);
            let errors = |hits: Vec<crate::Hit>| -> Vec<String> {
                hits.into_iter()
                    .filter(|h| rule(h.rule).grade(Some(d)) == Some(Severity::Error))
                    .map(|h| format!("{} at {}: {}", h.rule, h.pointer, h.message))
                    .collect()
            };
            let where_ = |what: &str| format!("{} / {what} / {d}", path.display());
            for agent in &set.agents {
                let emitted = tool_list(set, agent, d, &settings, Default::default());
                if emitted.has_errors() {
                    // Not emitted: `toolc build` fails instead.
                    continue;
                }
                lists += 1;
                // The dialect's own rules, run again on what was emitted.
                let mut found = errors(check_tool_list(&emitted.list, d, &[d], &[]));
                let entries = match &emitted.list {
                    serde_json::Value::Array(a) => a.clone(),
                    v => v
                        .get("functionDeclarations")
                        .or_else(|| v.get("tools"))
                        .and_then(|x| x.as_array())
                        .cloned()
                        .unwrap_or_default(),
                };
                for e in &entries {
                    found.extend(entry_errors(e, d, &errors));
                }
                let at = where_(&agent.name);
                assert!(
                    found.is_empty(),
                    "{at}: the emitted list breaks its own dialect's rules:\n{}",
                    found.join("\n")
                );
                no_dropped_keyword_kept(&emitted.findings, &at);
            }
            // A tool no agent lists: its entry, wherever its own lint has no
            // error (the agreement test sends these forms too).
            let lowered = crate::lower::lower(set, &[d], Default::default());
            let findings = crate::lint::lint_toolset(set, &lowered, &settings);
            for (op, tool) in set.operations().enumerate() {
                let own: Vec<_> = findings
                    .iter()
                    .filter(|f| f.tool.as_deref() == Some(tool.name.as_str()))
                    .cloned()
                    .collect();
                if reached.contains(&op) || own.iter().any(|f| f.severity == Severity::Error) {
                    continue;
                }
                alone += 1;
                let form = lowered.form(op, d).expect("lowered");
                let found = entry_errors(&form.entry(tool), d, &errors);
                let at = where_(&tool.name);
                assert!(
                    found.is_empty(),
                    "{at}: the entry breaks its own dialect's rules:\n{}",
                    found.join("\n")
                );
                no_dropped_keyword_kept(&own, &at);
            }
        }
    }
    assert!(lists >= 20, "only {lists} lists were emitted");
    assert!(
        alone >= 100,
        "only {alone} entries of tools no agent lists were checked"
    );
}

/// The errors of the dialect's schema rules in one entry's parameters and result.
fn entry_errors(
    e: &serde_json::Value,
    d: Dialect,
    errors: &dyn Fn(Vec<crate::Hit>) -> Vec<String>,
) -> Vec<String> {
    let mut found = Vec::new();
    let params = [
        "parameters",
        "parametersJsonSchema",
        "input_schema",
        "inputSchema",
    ]
    .iter()
    .find_map(|k| e.get(k).or_else(|| e.get("function")?.get(k)));
    if let Some(p) = params {
        found.extend(errors(check_schema(p, d, Role::Parameters)));
    }
    for k in ["response", "responseJsonSchema", "outputSchema"] {
        if let Some(r) = e.get(k) {
            found.extend(errors(check_schema(r, d, Role::Returns)));
        }
    }
    found
}

/// No finding says a keyword is dropped while the list keeps it.
fn no_dropped_keyword_kept(findings: &[crate::Finding], at: &str) {
    for f in findings {
        assert!(
            !f.message.contains("dropped") && !f.message.contains("is not supported"),
            "{at}: {}",
            f.message
        );
    }
}

/// `sensitive` is toolc's own keyword: every dialect's list (MCP's too) is the same with and
/// without it, and none holds it.
#[test]
fn sensitive_never_reaches_a_model_facing_list() {
    let text = std::fs::read_to_string(repo().join("tests/fixtures/codegen/secrets.yaml")).unwrap();
    let plain = text
        .replace(", sensitive: true", "")
        .lines()
        .filter(|l| l.trim() != "sensitive: true")
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        plain
            .lines()
            .all(|l| l.trim_start().starts_with('#') || !l.contains("sensitive:"))
    );
    let dir = tempfile::tempdir().unwrap();
    let lists = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let checked = crate::check(&[path], &Default::default());
        assert!(!checked.diagnostics.has_errors(), "{name}");
        let set = &checked.toolset;
        let sensitive = set
            .operations()
            .filter_map(|t| t.returns)
            .any(|r| set.schemas.reaches_sensitive(r));
        let lists: Vec<(Dialect, String)> = Dialect::ALL
            .iter()
            .map(|&d| {
                let settings = LintSettings::for_dialects(&[d]);
                let list = tool_list(set, &set.agents[0], d, &settings, Default::default()).list;
                (d, serde_json::to_string_pretty(&list).unwrap())
            })
            .collect();
        (sensitive, lists)
    };
    let (marked, with) = lists("secrets.yaml", &text);
    let (unmarked, without) = lists("plain.yaml", &plain);
    assert!(marked && !unmarked);
    for ((d, a), (_, b)) in with.iter().zip(&without) {
        assert!(!a.contains("\"sensitive\""), "{d}: {a}");
        assert_eq!(a, b, "{d}: the list changes with `sensitive`");
    }
}

#[test]
fn notes_added_to_descriptions_are_sentences() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.yaml"),
        "version: 1\ntoolboxes:\n  t:\n    description: T\n    tools:\n      a:\n        description: A\n        parameters:\n          type: object\n          properties:\n            state: { type: string, enum: [open, closed], default: open, description: Which issues to include }\n            old: { type: string, deprecated: true, description: Kept for old clients! }\n",
    )
    .unwrap();
    let checked = crate::check(&[dir.path().join("t.yaml")], &Default::default());
    let set = &checked.toolset;
    let tool = set.operations().next().unwrap();
    let strict = crate::lower::schema_for(set, tool.parameters, Dialect::OpenAiStrict).json;
    assert_eq!(
        strict["properties"]["state"]["description"],
        "Which issues to include. Default: \"open\"."
    );
    let gemini = crate::lower::schema_for(set, tool.parameters, Dialect::Gemini).json;
    assert_eq!(
        gemini["properties"]["old"]["description"],
        "Kept for old clients! Deprecated."
    );
}

/// MCP's `outputSchema` must be an object schema: a result that is always an
/// object (a union whose branches all are objects, too) is listed with one,
/// `type: object` written above the union; any other result without.
#[test]
fn mcp_lists_an_output_schema_for_results_that_are_always_objects() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("toolset.yaml"),
        r##"version: 1
types:
  Found: { type: object, properties: { id: { type: string } }, required: [id] }
toolboxes:
  t:
    description: Tools.
    tools:
      union_of_objects:
        description: Found or missing.
        returns:
          oneOf:
            - { $ref: "#/types/Found" }
            - { type: object, properties: { missing: { const: true } }, required: [missing] }
      union_with_a_string:
        description: Found or a note.
        returns:
          anyOf: [{ $ref: "#/types/Found" }, { type: string }]
      nullable_object:
        description: Found or nothing.
        returns: { type: [object, "null"], properties: { id: { type: string } } }
capabilities:
  c: { description: The tools., toolbox: t }
"##,
    )
    .unwrap();
    let checked = crate::check(&[dir.path().to_path_buf()], &Default::default());
    assert!(!checked.diagnostics.has_errors());
    let set = &checked.toolset;
    let settings = LintSettings::for_dialects(&[Dialect::Mcp]);
    let emitted = tool_list(
        set,
        &set.agents[0],
        Dialect::Mcp,
        &settings,
        Default::default(),
    );
    let tools = emitted.list["tools"].as_array().expect("tools").clone();
    let output = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .and_then(|t| t.get("outputSchema"))
            .cloned()
    };
    let union = output("union_of_objects").expect("listed with an outputSchema");
    assert_eq!(union["type"], "object");
    assert_eq!(union["oneOf"].as_array().map(Vec::len), Some(2));
    // What it accepts is unchanged: both branches, nothing else.
    let validator = jsonschema::validator_for(&union).expect("a schema");
    assert!(validator.is_valid(&serde_json::json!({"id": "a"})));
    assert!(validator.is_valid(&serde_json::json!({"missing": true})));
    assert!(!validator.is_valid(&serde_json::json!("a")));
    assert_eq!(output("union_with_a_string"), None);
    assert_eq!(output("nullable_object"), None);
}

/// No stage reaches back (docs/architecture.md): a stage imports no later
/// stage, lint reads the lowered forms and never emit, emit serializes them
/// and never reaches into lint, and none imports what runs the stages.
#[test]
fn no_stage_imports_a_later_one() {
    let runners = ["pipeline", "builder", "cli"];
    let forbidden: &[(&str, &[&str])] = &[
        ("manifest", &["model", "lower", "lint", "emit"]),
        ("model", &["lower", "lint", "emit"]),
        ("lower", &["lint", "emit"]),
        ("lint", &["emit"]),
        ("emit", &["lint"]),
    ];
    let mut files = 0;
    for (stage, later) in forbidden {
        let mut stack = vec![repo().join("src").join(stage)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                files += 1;
                let text = std::fs::read_to_string(&path).unwrap();
                for module in crate_modules(&text) {
                    assert!(
                        !later.contains(&module.as_str()) && !runners.contains(&module.as_str()),
                        "{} ({stage}) uses crate::{module}",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(files > 20, "only {files} files read");
}

/// The top modules a file names through `crate::`, in paths and in
/// `use crate::{a, b::c}` groups.
fn crate_modules(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                // The names at the group's top level, before each `::`, `,` or `}`.
                let mut depth = 0;
                let mut start = true;
                for (j, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => start = true,
                        c if start && (c.is_alphanumeric() || c == '_') => {
                            out.push(ident(&group[j..]));
                            start = false;
                        }
                        _ => {}
                    }
                }
            }
            None => out.push(ident(rest)),
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

/// `gemini` (and its alias `gemini-bifrost`) and `gemini-vertex` send the
/// result as `response`, so they lint it as they lint the parameters; OpenAI
/// and Anthropic tools have no result schema, so theirs lint none.
#[test]
fn gemini_lints_results_as_it_lints_parameters() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.yaml"),
        "version: 1\ntoolboxes:\n  t:\n    description: T\n    tools:\n      score:\n        description: Scores.\n        returns:\n          type: object\n          properties:\n            score: { type: number, exclusiveMinimum: 0 }\n          required: [score]\n",
    )
    .unwrap();
    let checked = crate::check(&[dir.path().join("t.yaml")], &Default::default());
    assert!(!checked.diagnostics.has_errors());
    let set = &checked.toolset;
    let bifrost = Dialect::parse("gemini-bifrost").expect("the alias");
    for d in [
        bifrost,
        Dialect::GeminiVertex,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
    ] {
        let lowered = crate::lower::lower(set, &[d], Default::default());
        let findings = crate::lint::lint_toolset(set, &lowered, &LintSettings::for_dialects(&[d]));
        let on_result: Vec<_> = findings
            .iter()
            .filter(|f| f.role == Some(Role::Returns) && f.severity == Severity::Error)
            .map(|f| (f.rule.as_str(), f.pointer.as_str()))
            .collect();
        if d.sends_returns() {
            assert_eq!(
                on_result,
                [(
                    "exclusive-numeric-bound",
                    "/properties/score/exclusiveMinimum"
                )],
                "{d}"
            );
        } else {
            assert!(on_result.is_empty(), "{d}: {on_result:?}");
        }
    }
}
