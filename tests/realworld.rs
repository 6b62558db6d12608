//! The real-world corpus (tests/realworld/, its README says where each list
//! comes from): MCP servers' published tool lists, converted into manifests
//! by `toolc import tools-list`. For every server, the real `toolc` binary
//! checks its manifest with no error and builds it (the `mcp` dialect); the
//! MCP tool list toolc writes equals the server's own, tool by tool, up to
//! the normalizations below, which toolc makes on purpose; and the Rust of
//! every server compiles together, clippy `-D warnings` and rustdoc
//! `-D warnings`.
//!
//! The normalizations, each counted and each held to its exact form:
//!
//! - A tool's `execution` (its task support): the manifest has no key for it
//!   yet, so `toolc import` leaves it out (it names each in a note).
//! - The title: toolc lists a tool's `title` as `annotations.title` too when
//!   the manifest gives that no other text, so a tool with a `title` and no
//!   `annotations.title` gets one.
//! - Integer bounds: an integer schema whose bounds do not keep it within its
//!   Rust type (`i64`; `i32`, `u32`, `u64` by `format`) gets that type's
//!   `minimum`/`maximum`, the limits the generated handler holds to.
//! - Definitions no `$ref` reaches: toolc lists a schema's `$defs` with the
//!   definitions its schema uses, so one that nothing refers to is not listed.
//!
//! Any other difference fails the test.

use crate::support::scratch_crate;

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use toolc::Dialect;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus's sources: every folder of tests/realworld with a tools.json.
fn sources() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/realworld"))
        .expect("tests/realworld")
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("tools.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn toolc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(args)
        .args(["--format", "plain", "--color", "never"])
        .output()
        .expect("toolc runs")
}

/// A difference toolc makes on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Normalization {
    KeyWithoutManifestKey,
    TitleAsAnnotationTitle,
    IntegerBounds,
    UnusedDefinition,
}

impl Normalization {
    const ALL: [Normalization; 4] = [
        Normalization::KeyWithoutManifestKey,
        Normalization::TitleAsAnnotationTitle,
        Normalization::IntegerBounds,
        Normalization::UnusedDefinition,
    ];

    /// The first cell of its row in tests/realworld/README.md.
    fn readme_row(self) -> &'static str {
        match self {
            Normalization::KeyWithoutManifestKey => "a tool's `execution` is not listed",
            Normalization::TitleAsAnnotationTitle => {
                "a tool's `title` is listed as `annotations.title` too"
            }
            Normalization::IntegerBounds => "an integer schema gets its Rust type's",
            Normalization::UnusedDefinition => {
                "a root `$defs` entry that no `$ref` of the schema reaches is not listed"
            }
        }
    }
}

type Counts = BTreeMap<Normalization, usize>;

/// The tool keys the manifest has no place for yet.
const LEFT_OUT: [&str; 1] = ["execution"];

/// The differences between a server's tool and the tool toolc lists, beyond
/// the normalizations (which are counted).
fn differences(original: &Value, listed: &Value, counts: &mut Counts) -> Vec<String> {
    let mut expected = original.as_object().expect("a tool is an object").clone();
    for key in LEFT_OUT {
        if expected.remove(key).is_some() {
            *counts
                .entry(Normalization::KeyWithoutManifestKey)
                .or_default() += 1;
        }
    }
    if let Some(title) = expected.get("title").cloned() {
        let annotations = expected
            .entry("annotations")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(a) = annotations.as_object_mut()
            && !a.contains_key("title")
        {
            a.insert("title".into(), title);
            *counts
                .entry(Normalization::TitleAsAnnotationTitle)
                .or_default() += 1;
        }
    }
    let mut out = Vec::new();
    let listed = listed.as_object().expect("a listed tool is an object");
    let keys: BTreeSet<&String> = expected.keys().chain(listed.keys()).collect();
    for key in keys {
        match (expected.get(key), listed.get(key)) {
            (Some(_), None) => out.push(format!("`{key}` is not listed")),
            (None, Some(_)) => out.push(format!("`{key}` is listed, but the server has none")),
            (Some(e), Some(l)) if key == "inputSchema" || key == "outputSchema" => {
                schema_differences(e, l, &format!("/{key}"), true, counts, &mut out);
            }
            (Some(e), Some(l)) if e != l => out.push(format!("`{key}` differs: {e} → {l}")),
            _ => {}
        }
    }
    out
}

/// Compares a schema node by node: a listed key the server lacks is allowed
/// only as an integer bound of the Rust type, and at the root, `$defs` may
/// lack the definitions no `$ref` reaches.
fn schema_differences(
    original: &Value,
    listed: &Value,
    at: &str,
    root: bool,
    counts: &mut Counts,
    out: &mut Vec<String>,
) {
    match (original, listed) {
        (Value::Object(o), Value::Object(l)) => {
            let mut o = o.clone();
            if root {
                drop_unused_definitions(&mut o, counts);
            }
            for (key, ov) in &o {
                match l.get(key) {
                    Some(lv) => {
                        schema_differences(ov, lv, &format!("{at}/{key}"), false, counts, out)
                    }
                    None => out.push(format!("{at}/{key} is not listed")),
                }
            }
            for (key, lv) in l {
                if o.contains_key(key) {
                    continue;
                }
                if is_added_integer_bound(&o, key, lv) {
                    *counts.entry(Normalization::IntegerBounds).or_default() += 1;
                } else {
                    out.push(format!(
                        "{at}/{key} is listed ({lv}), but the server has none"
                    ));
                }
            }
        }
        (Value::Array(o), Value::Array(l)) if o.len() == l.len() => {
            for (i, (ov, lv)) in o.iter().zip(l).enumerate() {
                schema_differences(ov, lv, &format!("{at}/{i}"), false, counts, out);
            }
        }
        (o, l) if o == l => {}
        (o, l) => out.push(format!("{at} differs: {o} → {l}")),
    }
}

/// Whether `key: value`, absent from the server's `node`, is the bound toolc
/// adds to an integer schema: the limit of its Rust type on that side.
fn is_added_integer_bound(node: &Map<String, Value>, key: &str, value: &Value) -> bool {
    let types: Vec<&str> = match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return false,
    };
    if !types.contains(&"integer") || types.contains(&"number") {
        return false;
    }
    let (lo, hi): (i128, i128) = match node.get("format").and_then(Value::as_str) {
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    let n = value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from));
    match key {
        "minimum" => n == Some(lo),
        "maximum" => n == Some(hi),
        _ => false,
    }
}

/// Removes from a root schema's `$defs` (or `definitions`) each definition
/// that no `$ref` of the schema reaches, and the map when none is left.
fn drop_unused_definitions(root: &mut Map<String, Value>, counts: &mut Counts) {
    for (key, prefix) in [("$defs", "#/$defs/"), ("definitions", "#/definitions/")] {
        let Some(Value::Object(defs)) = root.get(key).cloned() else {
            continue;
        };
        let mut rest = root.clone();
        rest.remove(key);
        let mut reached = BTreeSet::new();
        let mut pending = refs(&Value::Object(rest), prefix);
        while let Some(name) = pending.pop() {
            if reached.insert(name.clone())
                && let Some(def) = defs.get(&name)
            {
                pending.extend(refs(def, prefix));
            }
        }
        let kept: Map<String, Value> = defs
            .iter()
            .filter(|(name, _)| reached.contains(*name))
            .map(|(n, d)| (n.clone(), d.clone()))
            .collect();
        *counts.entry(Normalization::UnusedDefinition).or_default() += defs.len() - kept.len();
        if kept.is_empty() {
            root.remove(key);
        } else {
            root.insert(key.into(), Value::Object(kept));
        }
    }
}

/// The definition names of the `$ref`s under `v` that start with `prefix`.
fn refs(v: &Value, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        if let Some(name) = r.strip_prefix(prefix) {
                            out.push(name.to_string());
                        }
                    }
                    // Data, not schemas: a `$ref` in them refers to nothing.
                    ("const" | "enum" | "default" | "examples", _) => {}
                    _ => out.extend(refs(x, prefix)),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| out.extend(refs(x, prefix))),
        _ => {}
    }
    out
}

fn readme() -> String {
    std::fs::read_to_string(repo().join("tests/realworld/README.md")).expect("the corpus README")
}

/// The cells of every table row of a Markdown text, trimmed (header and
/// separator rows included).
fn table_rows(markdown: &str) -> Vec<Vec<String>> {
    markdown
        .lines()
        .filter_map(|l| l.strip_prefix('|')?.strip_suffix('|'))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

/// The README beside the corpus says, for each folder, where its list comes
/// from, at which version or commit, under which license (with the text
/// beside it), and how many tools it has; its sources include servers
/// written with pydantic, with zod, and generated from OpenAPI.
#[test]
fn the_readme_names_the_source_version_and_license_of_every_folder() {
    let readme = readme();
    let rows = table_rows(&readme);
    let header = rows
        .iter()
        .find(|cells| cells[0] == "folder")
        .expect("the README's table of sources");
    let column = |name: &str| {
        header
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("the table of sources has no column `{name}`"))
    };
    let (package, version, license, count, written_with) = (
        column("package or repository"),
        column("version or commit"),
        column("license"),
        column("tools"),
        column("schemas written with"),
    );
    let mut total = 0;
    let mut written = Vec::new();
    let sources = sources();
    for dir in &sources {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let folder = format!("`{name}`");
        let matching: Vec<&Vec<String>> = rows.iter().filter(|c| c[0] == folder).collect();
        let [row] = matching[..] else {
            panic!(
                "tests/realworld/README.md has {} rows for {name}",
                matching.len()
            );
        };
        assert_eq!(row.len(), header.len(), "{name}: the row's cells");
        assert!(
            !row[package].is_empty() && !row[version].is_empty(),
            "{name}: source and version"
        );
        let tools = read_json(&dir.join("tools.json"))["tools"]
            .as_array()
            .map_or(0, Vec::len);
        assert_eq!(row[count], tools.to_string(), "{name}: the number of tools");
        total += tools;
        // A license the corpus may hold, and its text beside the lists.
        assert!(
            ["MIT", "Apache-2.0", "BSD"]
                .iter()
                .any(|l| row[license].contains(l)),
            "{name}: a permissive license, not {}",
            row[license]
        );
        let text = row[license]
            .split("](")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("{name}: the license cell links no text: {}", row[license]));
        assert!(
            repo().join("tests/realworld").join(text).is_file(),
            "{name}: {text} is missing"
        );
        written.push(row[written_with].clone());
    }
    // No row for a folder that is not there.
    let folders = rows
        .iter()
        .filter(|c| c[0].starts_with('`') && c.len() == header.len());
    assert_eq!(
        folders.count(),
        sources.len(),
        "rows of the table of sources"
    );
    for how in ["pydantic", "zod", "OpenAPI"] {
        assert!(
            written.iter().any(|w| w.contains(how)),
            "no source written with {how}"
        );
    }
    let said = format!(
        "{total} tools, as {} published MCP servers list them",
        sources.len()
    );
    assert!(readme.contains(&said), "the README does not say \"{said}\"");
}

/// Each folder's manifest and `toolc.toml` are what `toolc import tools-list` writes from its
/// `tools.json`, the toolbox named after the folder.
#[test]
fn the_manifests_are_what_toolc_import_writes() {
    let mut stale = Vec::new();
    for dir in sources() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let out = toolc(&[
            "import",
            "tools-list",
            dir.join("tools.json").to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--name",
            &name,
            "--check",
        ]);
        match out.status.code() {
            Some(0) => {}
            Some(1) => stale.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .filter(|l| l.starts_with("stale: "))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => panic!(
                "{name}: toolc import failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        }
    }
    assert!(
        stale.is_empty(),
        "not what `toolc import tools-list DIR/tools.json --out DIR --name DIR` writes (run it again for each):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_source_checks_builds_lists_its_tools_as_published_and_compiles() {
    let sources = sources();
    let scratch = tempfile::tempdir().unwrap();
    let mut compiled = Vec::new();
    let mut counts = Counts::new();
    let mut tools = 0;
    let mut problems = Vec::new();
    for dir in &sources {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let path = dir.to_str().unwrap();
        let check = toolc(&["check", path]);
        let stderr = String::from_utf8_lossy(&check.stderr);
        assert!(
            check.status.success() && !stderr.contains("error["),
            "{name}: toolc check:\n{stderr}"
        );
        let out = scratch.path().join(&name);
        let build = toolc(&["build", path, "--out", out.to_str().unwrap()]);
        assert!(
            build.status.success(),
            "{name}: toolc build:\n{}",
            String::from_utf8_lossy(&build.stderr)
        );
        // The implicit agent is named after the folder.
        let agent = name.replace('-', "_");
        let listed = read_json(&out.join("tools").join(&agent).join("mcp.json"));
        let original = read_json(&dir.join("tools.json"));
        let listed = listed["tools"].as_array().expect("a tools list");
        let original = original["tools"].as_array().expect("a tools list");
        let names = |l: &[Value]| -> Vec<String> {
            l.iter()
                .map(|t| t["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(names(listed), names(original), "{name}: the tools listed");
        for (o, l) in original.iter().zip(listed) {
            for d in differences(o, l, &mut counts) {
                problems.push(format!("{name}: {}: {d}", o["name"].as_str().unwrap()));
            }
        }
        tools += original.len();
        compiled.push((name, out.join("rust/toolset.rs")));
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The corpus is what the README says it is: 300 tools or more.
    assert!(
        sources.len() >= 3 && tools >= 300,
        "{} sources, {tools} tools",
        sources.len()
    );
    eprintln!(
        "{} sources, {tools} tools; normalizations: {counts:?}",
        sources.len()
    );
    // The README counts each normalization as the comparison did.
    let readme = readme();
    for n in Normalization::ALL {
        let row = table_rows(&readme)
            .into_iter()
            .find(|cells| cells[0].starts_with(n.readme_row()))
            .unwrap_or_else(|| panic!("tests/realworld/README.md has no row for {n:?}"));
        let count = counts.get(&n).copied().unwrap_or(0);
        assert_eq!(
            row.last().map(String::as_str),
            Some(count.to_string().as_str()),
            "tests/realworld/README.md: the count of {n:?}"
        );
    }
    scratch_crate::compile_together(
        "realworld",
        "The Rust of every real-world tool list.",
        &compiled,
        "the Rust generated for the real-world corpus",
    );
}

// ------------------------------------------------------------ what each dialect finds

const TABLE_START: &str = "<!-- realworld-lint-table: written by tests/realworld.rs (TOOLC_BLESS=1 cargo test -p toolc --test main realworld::) -->";
const TABLE_END: &str = "<!-- /realworld-lint-table -->";

/// How many tools of a rule's row are named; past it, the first few and a count.
const NAMED: usize = 5;

/// A rule firing in a dialect: the dialect, the rule, the severity.
type Finding = (Dialect, String, String);

/// What `toolc lint DIR --dialect D --format json` reports for every corpus
/// folder and every dialect: per (dialect, rule, severity), the tools it
/// names, as `folder/tool`; and the corpus's number of tools. Notes are left
/// out; every error and warning names its tool.
fn lint_findings() -> (BTreeMap<Finding, BTreeSet<String>>, usize) {
    let mut findings: BTreeMap<Finding, BTreeSet<String>> = BTreeMap::new();
    let mut total = 0;
    for dir in sources() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        total += read_json(&dir.join("tools.json"))["tools"]
            .as_array()
            .map_or(0, Vec::len);
        for dialect in Dialect::ALL {
            let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
                .args(["lint", dir.to_str().unwrap()])
                .args(["--dialect", dialect.as_str(), "--format", "json"])
                .output()
                .expect("toolc runs");
            // 0: no error; 1: errors found. Anything else is toolc failing.
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{name}, {}: {}",
                dialect.as_str(),
                String::from_utf8_lossy(&out.stderr)
            );
            let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
            for d in report["diagnostics"].as_array().expect("diagnostics") {
                let (Some(code), Some(severity)) = (d["code"].as_str(), d["severity"].as_str())
                else {
                    panic!(
                        "{name}, {}: a diagnostic without code or severity: {d}",
                        dialect.as_str()
                    );
                };
                if severity == "note" {
                    continue;
                }
                let Some(tool) = d["tool"].as_str() else {
                    panic!(
                        "{name}, {}: a {severity} that names no tool: {d}",
                        dialect.as_str()
                    );
                };
                findings
                    .entry((dialect, code.to_string(), severity.to_string()))
                    .or_default()
                    .insert(format!("{name}/{tool}"));
            }
        }
    }
    (findings, total)
}

/// The findings as Markdown: per dialect, how many tools it would reject
/// (an error) and how many it would only warn about; then per rule that
/// fired, on how many tools, which (all of them up to [`NAMED`]), and why.
fn lint_table(findings: &BTreeMap<Finding, BTreeSet<String>>, total: usize) -> String {
    let mut out = String::from(
        "| dialect | tools rejected (an error) | tools only warned about | of |\n|---|---|---|---|\n",
    );
    for dialect in Dialect::ALL {
        let tools = |wanted: &str| -> BTreeSet<&String> {
            findings
                .iter()
                .filter(|((d, _, severity), _)| *d == dialect && severity == wanted)
                .flat_map(|(_, tools)| tools)
                .collect()
        };
        let rejected = tools("error");
        let only_warned = tools("warning").difference(&rejected).count();
        out.push_str(&format!(
            "| `{}` | {} | {only_warned} | {total} |\n",
            dialect.as_str(),
            rejected.len()
        ));
    }
    out.push_str(
        "\n| dialect | rule | severity | tools | which | why |\n|---|---|---|---|---|---|\n",
    );
    let mut rows: Vec<(&Finding, &BTreeSet<String>)> = findings.iter().collect();
    // Per dialect, errors first, then the rules that fire most.
    rows.sort_by_key(|((dialect, code, severity), tools)| {
        (
            *dialect,
            severity.clone(),
            std::cmp::Reverse(tools.len()),
            code.clone(),
        )
    });
    for ((dialect, code, severity), tools) in rows {
        let shown = if tools.len() <= NAMED { NAMED } else { 3 };
        let mut which: Vec<String> = tools.iter().take(shown).map(|t| format!("`{t}`")).collect();
        if tools.len() > shown {
            which.push(format!("and {} more", tools.len() - shown));
        }
        let why = toolc::RuleId::parse(code).map_or("", toolc::RuleId::message);
        out.push_str(&format!(
            "| `{}` | [`{code}`](#{code}) | {severity} | {} | {} | {} |\n",
            dialect.as_str(),
            tools.len(),
            which.join(", "),
            why.replace('|', "\\|")
        ));
    }
    out
}

/// docs/lint-rules.md's table of what each dialect finds in the corpus is
/// what `toolc lint` finds now; `TOOLC_BLESS=1` writes it instead.
#[test]
fn the_lint_table_of_docs_lint_rules_md_is_current() {
    let (findings, total) = lint_findings();
    // The servers' own dialect rejects none of their tools.
    let mcp_errors: Vec<_> = findings
        .iter()
        .filter(|((d, _, severity), _)| *d == Dialect::Mcp && severity == "error")
        .collect();
    assert!(mcp_errors.is_empty(), "mcp errors: {mcp_errors:?}");
    let table = format!("\n{}", lint_table(&findings, total));
    let path = repo().join("docs/lint-rules.md");
    let docs = std::fs::read_to_string(&path).expect("docs/lint-rules.md");
    let (Some(start), Some(end)) = (docs.find(TABLE_START), docs.find(TABLE_END)) else {
        panic!("docs/lint-rules.md lacks the markers `{TABLE_START}` and `{TABLE_END}`");
    };
    let body = start + TABLE_START.len();
    assert!(
        body <= end,
        "docs/lint-rules.md: `{TABLE_END}` comes before `{TABLE_START}`"
    );
    if docs[body..end] == table {
        return;
    }
    if std::env::var_os("TOOLC_BLESS").is_some() {
        let updated = format!("{}{table}{}", &docs[..body], &docs[end..]);
        std::fs::write(&path, updated).expect("docs/lint-rules.md written");
        return;
    }
    panic!(
        "docs/lint-rules.md's table of what each dialect finds in tests/realworld is not current; \
         run `TOOLC_BLESS=1 cargo test -p toolc --test main realworld::` to write it. It is now:\n{table}"
    );
}

/// The comparison is as strict as it says: each normalization holds only in
/// its exact form.
#[test]
fn the_comparison_allows_only_the_normalizations() {
    let mut counts = Counts::new();
    let tool = |extra: Value| {
        let mut t = serde_json::json!({
            "name": "t", "description": "d",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}
        });
        t.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        t
    };
    let bounded = serde_json::json!({"type": "object", "properties": {"n": {
        "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}}});
    // Bounds of i64, the title as `annotations.title` too, left-out keys: the same tool.
    let o = tool(serde_json::json!({"title": "T", "execution": {}}));
    let l = tool(
        serde_json::json!({"title": "T", "annotations": {"title": "T"},
        "inputSchema": bounded}),
    );
    assert_eq!(differences(&o, &l, &mut counts), Vec::<String>::new());
    // Another bound, another key, another title: differences.
    let l = tool(
        serde_json::json!({"title": "T", "annotations": {"title": "T"},
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}}}),
    );
    assert_eq!(differences(&o, &l, &mut counts).len(), 1);
    let l = tool(serde_json::json!({"title": "U", "annotations": {"title": "T"}}));
    assert_eq!(differences(&o, &l, &mut counts).len(), 1);
    // `annotations.title` alone is listed as it is: a `title` beside it is a difference.
    let only_annotation = tool(serde_json::json!({"annotations": {"title": "T"}}));
    assert!(differences(&only_annotation, &only_annotation, &mut counts).is_empty());
    let l = tool(serde_json::json!({"title": "T", "annotations": {"title": "T"}}));
    assert_eq!(differences(&only_annotation, &l, &mut counts).len(), 1);
    // Icons and `_meta` have manifest keys: they are listed, or differ.
    let with_icons = tool(
        serde_json::json!({"title": "T", "icons": [{"src": "data:image/png;base64,AA"}],
        "_meta": {"ui": {}}}),
    );
    let l = tool(
        serde_json::json!({"title": "T", "annotations": {"title": "T"},
        "inputSchema": bounded}),
    );
    assert_eq!(differences(&with_icons, &l, &mut counts).len(), 2);
    let l = tool(
        serde_json::json!({"title": "T", "annotations": {"title": "T"},
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "x": 1}}),
    );
    assert_eq!(differences(&o, &l, &mut counts).len(), 1);
    // Definitions: only the unused ones may go.
    let defs = serde_json::json!({"inputSchema": {"type": "object",
        "$defs": {"A": {"type": "string"}, "B": {"$ref": "#/$defs/C"}, "C": {"type": "string"}, "D": {}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}, "e": {"const": {"$ref": "#/$defs/D"}}}}});
    let mut used = defs.clone();
    used["inputSchema"]["$defs"]
        .as_object_mut()
        .unwrap()
        .remove("D");
    let before = counts
        .get(&Normalization::UnusedDefinition)
        .copied()
        .unwrap_or(0);
    assert!(differences(&tool(defs.clone()), &tool(used.clone()), &mut counts).is_empty());
    assert_eq!(counts[&Normalization::UnusedDefinition], before + 1);
    used["inputSchema"]["$defs"]
        .as_object_mut()
        .unwrap()
        .remove("C");
    assert_eq!(differences(&tool(defs), &tool(used), &mut counts).len(), 1);
}
