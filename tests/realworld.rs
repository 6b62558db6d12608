//! The real-world corpus (tests/realworld/, its README says where each list
//! comes from): MCP servers' published tool lists, converted into manifests
//! by `toolc import tools-list`. For every server, the real `toolc` binary
//! builds its manifest without an error (a build checks what `toolc check`
//! does) for `mcp` and every other
//! default dialect but those the README names refusals of (what each dialect
//! refuses, per tool, is held to what `toolc lint` finds); the MCP tool list
//! toolc writes equals the server's own, tool by tool, up to the
//! normalizations below, which toolc makes on purpose; and the Rust of every
//! server compiles together, clippy `-D warnings` and rustdoc `-D warnings`.
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
//! - A `default` its own schema refuses (a server's mistake, `"1"` on an
//!   integer): `toolc import` leaves it out with a note, since toolc would
//!   refuse it, so it is not listed.
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
    RefusedDefault,
}

impl Normalization {
    const ALL: [Normalization; 5] = [
        Normalization::KeyWithoutManifestKey,
        Normalization::TitleAsAnnotationTitle,
        Normalization::IntegerBounds,
        Normalization::UnusedDefinition,
        Normalization::RefusedDefault,
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
            Normalization::RefusedDefault => "a `default` its own schema refuses is not listed",
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
/// only as an integer bound of the Rust type, a `default` only when the node's
/// own schema refuses it, and at the root, `$defs` may lack the definitions no
/// `$ref` reaches.
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
                    None if key == "default" && refuses_its_default(&o) => {
                        *counts.entry(Normalization::RefusedDefault).or_default() += 1;
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

/// Whether a schema `node` (without `$ref`s, which would need the root) refuses
/// its own `default`, as JSON Schema 2020-12 judges it.
fn refuses_its_default(node: &Map<String, Value>) -> bool {
    let Some(default) = node.get("default") else {
        return false;
    };
    let mut schema = node.clone();
    schema.remove("default");
    let schema = Value::Object(schema);
    if !refs(&schema, "#").is_empty() {
        return false;
    }
    jsonschema::draft202012::new(&schema).is_ok_and(|v| !v.is_valid(default))
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
/// written with pydantic (FastMCP 3 and 4), with zod (3 and 4), in Go, C#
/// and Rust, and generated from OpenAPI.
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
    for how in [
        "pydantic",
        "zod",
        "zod 4",
        "FastMCP 3",
        "FastMCP 4",
        "OpenAPI",
        "Go",
        "C#",
        "Rust",
    ] {
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
    let readme = readme();
    let refusing: BTreeSet<(String, Dialect)> = sources
        .iter()
        .map(|dir| dir.file_name().unwrap().to_string_lossy().into_owned())
        .flat_map(|name| {
            refusing_dialects(&readme, &name)
                .into_iter()
                .map(move |d| (name.clone(), d))
        })
        .collect();
    for dir in &sources {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let path = dir.to_str().unwrap();
        // Built for every default dialect but those the README names refusals
        // of (the lint test holds those to what toolc refuses): the folder's
        // own toolc.toml, with these dialects. The build checks what `toolc
        // check` does (with `mcp` among its dialects, the folder's own) and
        // fails on any error, so a build without one is a check without one.
        let dialects: Vec<Dialect> = Dialect::DEFAULT
            .into_iter()
            .filter(|d| !refusing.contains(&(name.clone(), *d)))
            .collect();
        assert!(
            dialects.contains(&Dialect::Mcp),
            "{name}: mcp refuses a tool"
        );
        let config = scratch.path().join(format!("{name}.toml"));
        write_config(&dir.join("toolc.toml"), &dialects, &config);
        let out = scratch.path().join(&name);
        let build = toolc(&[
            "build",
            path,
            "--config",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&build.stderr);
        assert!(
            build.status.success() && !stderr.contains("error["),
            "{name}: toolc build for {dialects:?}:\n{stderr}"
        );
        // The implicit agent is named after the folder; it has a list per dialect.
        let agent = name.replace('-', "_");
        for d in &dialects {
            let list = out
                .join("tools")
                .join(&agent)
                .join(format!("{}.json", d.as_str()));
            assert!(list.is_file(), "{name}: {} was not written", list.display());
        }
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
    // The corpus is what the README says it is: 1,000 tools or more.
    assert!(
        sources.len() >= 25 && tools >= 1000,
        "{} sources, {tools} tools",
        sources.len()
    );
    eprintln!(
        "{} sources, {tools} tools; normalizations: {counts:?}",
        sources.len()
    );
    // The README counts each normalization as the comparison did.
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
const README_START: &str = "<!-- realworld-dialects: written by tests/realworld.rs (TOOLC_BLESS=1 cargo test -p toolc --test main realworld::) -->";
const README_END: &str = "<!-- /realworld-dialects -->";

/// How many tools of a rule's row are named; past it, the first few and a count.
const NAMED: usize = 5;

/// The rules whose error refuses a request as a whole (a limit on the tools of
/// one request, not on a tool): the diagnostic names the first tool past the
/// limit, and the provider refuses every tool sent with it.
const REQUEST_RULES: [&str; 4] = [
    "tool-count",
    "strict-tool-count",
    "anthropic-strict-optional-budget",
    "anthropic-strict-union-budget",
];

/// A rule firing in a dialect: the dialect, the rule, the severity.
type Finding = (Dialect, String, String);

/// What `toolc lint` finds in the corpus.
struct Findings {
    /// Per (dialect, rule, severity), the tools the diagnostics name, as
    /// `folder/tool` (a request rule names one tool).
    named: BTreeMap<Finding, BTreeSet<String>>,
    /// Every folder's tools, in its list's order.
    servers: BTreeMap<String, Vec<String>>,
}

impl Findings {
    fn total(&self) -> usize {
        self.servers.values().map(Vec::len).sum()
    }

    /// The tools a finding concerns, as `folder/tool`: those named, and for a
    /// rule of [`REQUEST_RULES`], every tool of each folder it fires in.
    fn tools(&self, (_, code, _): &Finding, named: &BTreeSet<String>) -> BTreeSet<String> {
        if !REQUEST_RULES.contains(&code.as_str()) {
            return named.clone();
        }
        named
            .iter()
            .filter_map(|t| t.split_once('/'))
            .flat_map(|(folder, _)| {
                self.servers[folder]
                    .iter()
                    .map(move |tool| format!("{folder}/{tool}"))
            })
            .collect()
    }

    /// The tools `dialect` refuses (an error), as `folder/tool`.
    fn refused(&self, dialect: Dialect) -> BTreeSet<String> {
        self.named
            .iter()
            .filter(|((d, _, severity), _)| *d == dialect && severity == "error")
            .flat_map(|(finding, named)| self.tools(finding, named))
            .collect()
    }

    /// Per folder `dialect` refuses anything in: the request rules that refuse
    /// the whole list, and per other tool refused, its rules.
    fn refusals(&self, dialect: Dialect) -> BTreeMap<String, Refusal> {
        let mut out: BTreeMap<String, Refusal> = BTreeMap::new();
        for ((d, code, severity), named) in &self.named {
            if *d != dialect || severity != "error" {
                continue;
            }
            for (folder, tool) in named.iter().filter_map(|t| t.split_once('/')) {
                let refusal = out.entry(folder.to_string()).or_default();
                if REQUEST_RULES.contains(&code.as_str()) {
                    refusal.request.insert(code.clone());
                } else {
                    refusal
                        .tools
                        .entry(tool.to_string())
                        .or_default()
                        .insert(code.clone());
                }
            }
        }
        out
    }
}

/// What a dialect refuses in one folder.
#[derive(Default)]
struct Refusal {
    /// Rules that refuse the whole list.
    request: BTreeSet<String>,
    /// Each tool refused by a rule of its own, with those rules.
    tools: BTreeMap<String, BTreeSet<String>>,
}

/// What `toolc lint DIR --dialect D,… --format json` reports for every corpus
/// folder and every dialect. Notes are left out; every error and warning names
/// its tool.
fn lint_findings() -> Findings {
    let mut named: BTreeMap<Finding, BTreeSet<String>> = BTreeMap::new();
    let mut servers = BTreeMap::new();
    for dir in sources() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let tools = read_json(&dir.join("tools.json"))["tools"]
            .as_array()
            .expect("a tools list")
            .iter()
            .map(|t| t["name"].as_str().expect("a tool name").to_string())
            .collect();
        servers.insert(name.clone(), tools);
        // One run for every dialect: a finding names the dialects it holds
        // for; one without (a check of the manifest, not a provider's rule,
        // e.g. `indistinguishable-tools`) holds for each.
        let all: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
            .args(["lint", dir.to_str().unwrap()])
            .args(["--dialect", &all.join(","), "--format", "json"])
            .output()
            .expect("toolc runs");
        // 0: no error; 1: errors found. Anything else is toolc failing.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        for d in report["diagnostics"].as_array().expect("diagnostics") {
            let (Some(code), Some(severity)) = (d["code"].as_str(), d["severity"].as_str()) else {
                panic!("{name}: a diagnostic without code or severity: {d}");
            };
            if severity == "note" {
                continue;
            }
            let Some(tool) = d["tool"].as_str() else {
                panic!("{name}: a {severity} that names no tool: {d}");
            };
            let dialects: Vec<Dialect> = match d["dialects"].as_array() {
                Some(named) if !named.is_empty() => named
                    .iter()
                    .map(|n| {
                        n.as_str()
                            .and_then(Dialect::parse)
                            .unwrap_or_else(|| panic!("{name}: a dialect toolc does not know: {n}"))
                    })
                    .collect(),
                _ => Dialect::ALL.to_vec(),
            };
            for dialect in dialects {
                named
                    .entry((dialect, code.to_string(), severity.to_string()))
                    .or_default()
                    .insert(format!("{name}/{tool}"));
            }
        }
    }
    Findings { named, servers }
}

/// The findings as Markdown: per dialect, how many tools it would reject
/// (an error) and how many it would only warn about; then per rule that
/// fired, on how many tools, which (all of them up to [`NAMED`]), and why.
/// A request rule counts every tool of the lists it refuses.
fn lint_table(findings: &Findings) -> String {
    let total = findings.total();
    let mut out = String::from(
        "| dialect | tools rejected (an error) | tools only warned about | of |\n|---|---|---|---|\n",
    );
    for dialect in Dialect::ALL {
        let tools = |wanted: &str| -> BTreeSet<String> {
            findings
                .named
                .iter()
                .filter(|((d, _, severity), _)| *d == dialect && severity == wanted)
                .flat_map(|(finding, named)| findings.tools(finding, named))
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
    let mut rows: Vec<(&Finding, BTreeSet<String>)> = findings
        .named
        .iter()
        .map(|(finding, named)| (finding, findings.tools(finding, named)))
        .collect();
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

/// The corpus README's tables of what each dialect refuses: per dialect, how
/// many tools build as they are (and how many servers build whole); then per
/// default dialect and folder, every tool it refuses with the rules that do.
fn readme_tables(findings: &Findings) -> String {
    let total = findings.total();
    let mut out = String::from(
        "| dialect | tools that build as they are | tools refused | of | servers that build whole | of |\n|---|---|---|---|---|---|\n",
    );
    for dialect in Dialect::ALL {
        let refused = findings.refused(dialect);
        let servers_refused: BTreeSet<&str> = refused
            .iter()
            .filter_map(|t| t.split_once('/').map(|(folder, _)| folder))
            .collect();
        let default = if Dialect::DEFAULT.contains(&dialect) {
            " (default)"
        } else {
            ""
        };
        out.push_str(&format!(
            "| `{}`{default} | {} | {} | {total} | {} | {} |\n",
            dialect.as_str(),
            total - refused.len(),
            refused.len(),
            findings.servers.len() - servers_refused.len(),
            findings.servers.len(),
        ));
    }
    // What builds as it is for every default dialect at once (a build for
    // `toolc.toml`'s default dialects).
    let refused: BTreeSet<String> = Dialect::DEFAULT
        .into_iter()
        .flat_map(|d| findings.refused(d))
        .collect();
    let servers_refused: BTreeSet<&str> = refused
        .iter()
        .filter_map(|t| t.split_once('/').map(|(folder, _)| folder))
        .collect();
    out.push_str(&format!(
        "| every default dialect at once | {} | {} | {total} | {} | {} |\n",
        total - refused.len(),
        refused.len(),
        findings.servers.len() - servers_refused.len(),
        findings.servers.len(),
    ));
    out.push_str(
        "\n| dialect | folder | refused | the tools refused, each with the rules that refuse it |\n|---|---|---|---|\n",
    );
    for dialect in Dialect::DEFAULT {
        for (folder, refusal) in findings.refusals(dialect) {
            let all = findings.servers[&folder].len();
            let mut cells = Vec::new();
            if !refusal.request.is_empty() {
                let rules: Vec<String> = refusal.request.iter().map(|r| format!("`{r}`")).collect();
                cells.push(format!(
                    "all {all} tools, in one request: {}",
                    rules.join(", ")
                ));
            }
            for (tool, rules) in &refusal.tools {
                let rules: Vec<String> = rules.iter().map(|r| format!("`{r}`")).collect();
                cells.push(format!("`{tool}` ({})", rules.join(", ")));
            }
            let refused = if refusal.request.is_empty() {
                refusal.tools.len()
            } else {
                all
            };
            out.push_str(&format!(
                "| `{}` | `{folder}` | {refused} of {all} | {} |\n",
                dialect.as_str(),
                cells.join("; ")
            ));
        }
    }
    out
}

/// The text between `start` and `end` in the file at `path` is `body`; with
/// `TOOLC_BLESS` set, it is written so instead.
fn generated_section(path: &Path, start: &str, end: &str, body: &str, what: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let shown = path.strip_prefix(repo()).unwrap_or(path).display();
    let (Some(from), Some(to)) = (text.find(start), text.find(end)) else {
        panic!("{shown} lacks the markers `{start}` and `{end}`");
    };
    let from = from + start.len();
    assert!(from <= to, "{shown}: `{end}` comes before `{start}`");
    if text[from..to] == *body {
        return;
    }
    if std::env::var_os("TOOLC_BLESS").is_some() {
        let updated = format!("{}{body}{}", &text[..from], &text[to..]);
        std::fs::write(path, updated).unwrap_or_else(|e| panic!("{shown}: {e}"));
        return;
    }
    panic!(
        "{shown}'s {what} is not current; run `TOOLC_BLESS=1 cargo test -p toolc --test main realworld::` \
         to write it. It is now:\n{body}"
    );
}

/// docs/lint-rules.md's table of what each dialect finds in the corpus, and
/// the corpus README's tables of what each dialect refuses, are what `toolc
/// lint` finds now; `TOOLC_BLESS=1` writes them instead.
#[test]
fn the_dialect_tables_of_docs_lint_rules_md_and_the_readme_are_current() {
    let findings = lint_findings();
    // The servers' own dialect rejects none of their tools.
    let mcp_errors = findings.refused(Dialect::Mcp);
    assert!(mcp_errors.is_empty(), "mcp errors: {mcp_errors:?}");
    generated_section(
        &repo().join("docs/lint-rules.md"),
        TABLE_START,
        TABLE_END,
        &format!("\n{}", lint_table(&findings)),
        "table of what each dialect finds in tests/realworld",
    );
    generated_section(
        &repo().join("tests/realworld/README.md"),
        README_START,
        README_END,
        &format!("\n{}", readme_tables(&findings)),
        "tables of what each dialect refuses",
    );
}

/// Writes to `to` the config at `from` (a folder's toolc.toml, as `toolc
/// import` writes it: `[lint] dialects` and `[emit] extensions` at most) with
/// `[lint] dialects` set to `dialects`.
fn write_config(from: &Path, dialects: &[Dialect], to: &Path) {
    let text = std::fs::read_to_string(from).unwrap_or_default();
    let config: toml::Table =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    let mut extensions = None;
    for (section, keys) in &config {
        let keys = keys.as_table().expect("a section");
        for (key, value) in keys {
            match (section.as_str(), key.as_str()) {
                ("lint", "dialects") => {}
                ("emit", "extensions") => extensions = value.as_bool(),
                _ => panic!(
                    "{}: `{section}.{key}` is not a key toolc import writes",
                    from.display()
                ),
            }
        }
    }
    let names: Vec<String> = dialects
        .iter()
        .map(|d| format!("\"{}\"", d.as_str()))
        .collect();
    let mut out = format!("[lint]\ndialects = [{}]\n", names.join(", "));
    if let Some(extensions) = extensions {
        out.push_str(&format!("\n[emit]\nextensions = {extensions}\n"));
    }
    std::fs::write(to, out).unwrap();
}

/// The default dialects the corpus README names a refusal for in `folder`
/// (its table of the tools each default dialect refuses).
fn refusing_dialects(readme: &str, folder: &str) -> BTreeSet<Dialect> {
    let folder = format!("`{folder}`");
    table_rows(readme)
        .into_iter()
        .filter(|cells| cells.len() == 4 && cells[1] == folder)
        .filter_map(|cells| Dialect::parse(cells[0].trim_matches('`')))
        .collect()
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
    // A default may go only when its own schema refuses it.
    let with_default = |default: Value| {
        tool(
            serde_json::json!({"inputSchema": {"type": "object", "properties": {"n": {
            "type": ["integer", "null"], "default": default}}}}),
        )
    };
    let without = tool(
        serde_json::json!({"inputSchema": {"type": "object", "properties": {"n": {
        "type": ["integer", "null"], "minimum": i64::MIN, "maximum": i64::MAX}}}}),
    );
    assert!(differences(&with_default("1".into()), &without, &mut counts).is_empty());
    assert_eq!(counts[&Normalization::RefusedDefault], 1);
    assert_eq!(
        differences(&with_default(1.into()), &without, &mut counts).len(),
        1
    );
}
