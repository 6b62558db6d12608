//! The bad-input corpus: every manifest under tests/corpus/ (a file, or a
//! folder checked as one toolset) is wrong in one way. Each starts with a
//! comment naming the diagnostic code it must get and the line (or the line
//! and column) it must be reported at:
//!
//! ```text
//! # expect: unknown-key 4
//! # expect: undeclared-required 13:38
//! # expect: sensitive-parameter 13:39 warning
//! ```
//!
//! A trailing `warning` says the diagnostic is a warning: the manifest is otherwise good, so
//! `toolc check` must succeed (exit status 0) and report it with that severity.
//!
//! In a folder, the file holding the comment is the one the diagnostic must
//! point into. Inputs that cannot be committed (10 MB files, 20,000 levels
//! of nesting, symlinks, files with no room for a comment) are generated in
//! a temporary folder by `generated_cases`.
//!
//! Every case runs the real `toolc check --format json` and must exit with
//! status 1 (not 101, a panic, nor 2; 0 for a warning), print no panic message, and report the
//! expected code at the expected line.
//!
//! A lint finding is expected by its rule id (an error of the default dialects, say
//! `tool-name-pattern 7`); a lint warning with `warning` after the place,
//! and `also` and a second place when the diagnostic points at two (the case
//! must then exit with status 0, with no error):
//!
//! ```text
//! # expect: indistinguishable-tools 11:7 warning also 9:7
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Case {
    name: String,
    /// What to pass to `toolc check`.
    path: PathBuf,
    /// The file the diagnostic must be in.
    file: PathBuf,
    code: String,
    /// `None`: a diagnostic about the whole file, with no line.
    line: Option<usize>,
    /// The column too, when the expectation gives one.
    column: Option<usize>,
    /// `true`: a warning, and no error (exit status 0).
    warning: bool,
    /// A related place (line, column) the diagnostic points at too.
    also: Option<(usize, usize)>,
}

/// What a case expects: the code, the line and column (either may be unknown), whether it
/// is a warning, and a related place.
type Expected = (
    String,
    Option<usize>,
    Option<usize>,
    bool,
    Option<(usize, usize)>,
);

fn line_col(text: &str) -> Option<(usize, usize)> {
    let (l, c) = text.split_once(':')?;
    Some((l.parse().ok()?, c.parse().ok()?))
}

/// Reads `# expect: code line[:column]` from the first line of a file. NUL
/// bytes are dropped first so a UTF-16 file can carry its expectation too.
fn expectation(path: &Path) -> Option<Expected> {
    let bytes = std::fs::read(path).ok()?;
    let first: Vec<u8> = bytes
        .split(|&b| b == b'\n')
        .next()?
        .iter()
        .copied()
        .filter(|&b| b != 0)
        .collect();
    let first = String::from_utf8_lossy(&first);
    let rest = &first[first.find("# expect:")? + "# expect:".len()..];
    let mut words = rest.split_whitespace();
    let code = words.next()?.to_string();
    let (line, column) = match words.next()? {
        "-" => (None, None),
        n => match line_col(n) {
            Some((l, c)) => (Some(l), Some(c)),
            None => (Some(n.parse().ok()?), None),
        },
    };
    let mut warning = false;
    let mut also = None;
    while let Some(word) = words.next() {
        match word {
            "warning" => warning = true,
            "also" => also = Some(line_col(words.next()?)?),
            _ => return None,
        }
    }
    Some((code, line, column, warning, also))
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn committed_cases() -> Vec<Case> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .map(|e| e.expect("readable entry").path())
        .collect();
    entries.sort();
    let mut cases = Vec::new();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let candidates = if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            files
        } else {
            vec![path.clone()]
        };
        let found: Vec<(PathBuf, Expected)> = candidates
            .into_iter()
            .filter_map(|f| expectation(&f).map(|e| (f, e)))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "corpus case {name} needs exactly one `# expect: code line[:column]` comment"
        );
        let (file, (code, line, column, warning, also)) = found.into_iter().next().unwrap();
        cases.push(Case {
            name,
            path,
            file,
            code,
            line,
            column,
            warning,
            also,
        });
    }
    cases
}

/// Cases written at test time into `dir`.
fn generated_cases(dir: &Path) -> Vec<Case> {
    const DEPTH: usize = 20_000;
    let mut cases = Vec::new();
    let mut add = |name: &str, bytes: Vec<u8>, code: &str, line: Option<usize>| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        cases.push(Case {
            name: format!("generated/{name}"),
            file: path.clone(),
            path,
            code: code.to_string(),
            line,
            column: None,
            warning: false,
            also: None,
        });
    };

    // 10 MB: over the 8 MiB limit, refused before it is read.
    let mut huge = String::from("version: 1\ntypes:\n");
    let mut i = 0;
    while huge.len() < 10_000_000 {
        huge.push_str(&format!(
            "  Type{i}: {{ type: object, description: generated to make a large file }}\n"
        ));
        i += 1;
    }
    add("huge.yaml", huge.into_bytes(), "too-large", None);
    let huge_toml = format!(
        "version = 1\n{}",
        "# padding padding padding padding padding padding padding padding\n".repeat(160_000)
    );
    add("huge.toml", huge_toml.into_bytes(), "too-large", None);

    // 20,000 levels of nesting, in every way each format can nest.
    let flow_seq = format!(
        "version: 1\ntypes:\n  A: {}{}\n",
        "[".repeat(DEPTH),
        "]".repeat(DEPTH)
    );
    add(
        "deep-flow-sequences.yaml",
        flow_seq.into_bytes(),
        "too-large",
        Some(3),
    );
    let flow_map = format!(
        "version: 1\ntypes:\n  A: {}1{}\n",
        "{a: ".repeat(DEPTH),
        "}".repeat(DEPTH)
    );
    add(
        "deep-flow-mappings.yaml",
        flow_map.into_bytes(),
        "too-large",
        Some(3),
    );
    let block_seq = format!("version: 1\ntypes:\n  A:\n    {}x\n", "- ".repeat(DEPTH));
    add(
        "deep-block-sequences.yaml",
        block_seq.into_bytes(),
        "too-large",
        Some(4),
    );
    // Block mappings indent one space per level: 20,000 levels would be a
    // 200 MB file, over the size limit before the nesting counts; this is the
    // deepest that fits, and nesting is what refuses it.
    let mut block_map = String::from("version: 1\ntypes:\n");
    for level in 1..=2_000 {
        block_map.push_str(&" ".repeat(level));
        block_map.push_str("a:\n");
    }
    add(
        "deep-block-mappings.yaml",
        block_map.into_bytes(),
        "too-large",
        Some(130),
    );
    let arrays = format!(
        "version = 1\n[types]\nA = {}{}\n",
        "[".repeat(DEPTH),
        "]".repeat(DEPTH)
    );
    add(
        "deep-arrays.toml",
        arrays.into_bytes(),
        "too-large",
        Some(3),
    );
    let tables = format!(
        "version = 1\n[types]\nA = {}1{}\n",
        "{ a = ".repeat(DEPTH),
        " }".repeat(DEPTH)
    );
    add(
        "deep-inline-tables.toml",
        tables.into_bytes(),
        "too-large",
        Some(3),
    );
    let header = format!(
        "version = 1\n[types.A{}]\ntype = \"string\"\n",
        ".a".repeat(DEPTH)
    );
    add(
        "deep-table-header.toml",
        header.into_bytes(),
        "too-large",
        Some(2),
    );
    let dotted = format!("version = 1\n[types]\nA{} = 1\n", ".a".repeat(DEPTH));
    add(
        "deep-dotted-key.toml",
        dotted.into_bytes(),
        "too-large",
        Some(3),
    );

    // Files with no room for a comment.
    add("empty.yaml", Vec::new(), "missing-key", Some(1));
    add("empty.toml", Vec::new(), "missing-key", Some(1));
    add("blank.yaml", b"\n\n   \n".to_vec(), "missing-key", Some(1));

    // A manual that is a symlink leading out of the manifest root.
    let outside = dir.join("outside");
    let root = dir.join("symlink-escape");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(root.join("manuals")).unwrap();
    std::fs::write(outside.join("secret.md"), "Not a manual.\n").unwrap();
    std::os::unix::fs::symlink("../../outside/secret.md", root.join("manuals/guide.md")).unwrap();
    let manifest = root.join("toolset.yaml");
    std::fs::write(
        &manifest,
        "version: 1\nmanuals:\n  guide:\n    file: manuals/guide.md\n",
    )
    .unwrap();
    cases.push(Case {
        name: "generated/symlink-escape".into(),
        path: root,
        file: manifest,
        code: "manual-path".into(),
        line: Some(4),
        column: None,
        warning: false,
        also: None,
    });
    // A symlinked folder leading out: the folder is not followed, so its
    // manual is refused when named through it.
    let root = dir.join("symlink-folder");
    std::fs::create_dir_all(&root).unwrap();
    std::os::unix::fs::symlink("../outside", root.join("docs")).unwrap();
    let manifest = root.join("toolset.toml");
    std::fs::write(
        &manifest,
        "version = 1\n[manuals.guide]\nfile = \"docs/secret.md\"\n",
    )
    .unwrap();
    cases.push(Case {
        name: "generated/symlink-folder".into(),
        path: root,
        file: manifest,
        code: "manual-path".into(),
        line: Some(3),
        column: None,
        warning: false,
        also: None,
    });
    cases
}

/// Runs one case; returns how long it took, or what went wrong.
fn run(case: &Case) -> Result<Duration, String> {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["check", "--format", "json"])
        .arg(&case.path)
        .output()
        .map_err(|e| format!("cannot run toolc: {e}"))?;
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("panicked") || stderr.contains("overflow") {
        return Err(format!("toolc crashed: {stderr}"));
    }
    let status = if case.warning { 0 } else { 1 };
    if out.status.code() != Some(status) {
        return Err(format!(
            "exit status {:?}, expected {status}\nstdout: {stdout}\nstderr: {stderr}",
            out.status.code()
        ));
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout).map_err(|e| format!("output is not JSON ({e}): {stdout}"))?;
    let diags = json["diagnostics"].as_array().cloned().unwrap_or_default();
    let file = case.file.display().to_string();
    let hit = diags.iter().any(|d| {
        let loc = &d["location"];
        d["code"] == case.code.as_str()
            && (!case.warning || d["severity"] == "warning")
            && loc["file"].as_str().is_some_and(|f| f == file)
            && loc["line"].as_u64().map(|l| l as usize) == case.line
            && case
                .column
                .is_none_or(|c| loc["column"].as_u64() == Some(c as u64))
            && case.also.is_none_or(|(l, c)| {
                d["related"].as_array().is_some_and(|related| {
                    related.iter().any(|r| {
                        r["file"].as_str() == Some(file.as_str())
                            && r["line"].as_u64() == Some(l as u64)
                            && r["column"].as_u64() == Some(c as u64)
                    })
                })
            })
    });
    if hit {
        Ok(took)
    } else {
        let got: Vec<String> = diags
            .iter()
            .map(|d| {
                format!(
                    "{} at {}:{}:{}: {}",
                    d["code"],
                    d["location"]["file"],
                    d["location"]["line"],
                    d["location"]["column"],
                    d["message"]
                )
            })
            .collect();
        Err(format!(
            "expected {} at {file}:{}{}, got:\n  {}",
            case.code,
            case.line.map_or("-".to_string(), |l| l.to_string()),
            case.column.map_or(String::new(), |c| format!(":{c}")),
            got.join("\n  ")
        ))
    }
}

#[test]
fn bad_input_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let committed = committed_cases();
    assert!(
        committed.len() >= 40,
        "the corpus has {} cases; keep at least 40",
        committed.len()
    );
    let mut cases = committed;
    cases.extend(generated_cases(dir.path()));

    let mut failures = Vec::new();
    let mut times = Vec::new();
    for case in &cases {
        match run(case) {
            Ok(t) => times.push((t, case.name.as_str())),
            Err(e) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    times.sort();
    if let Some((t, name)) = times.last() {
        println!(
            "{} corpus cases; the slowest was {name}, {:.0} ms",
            cases.len(),
            t.as_secs_f64() * 1000.0
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Every code a corpus case expects is a real code or lint rule, so a typo in an `# expect:`
/// line cannot pass by accident.
#[test]
fn corpus_expectations_name_real_codes() {
    for case in committed_cases() {
        let code = toolc::Code::ALL.iter().any(|c| c.as_str() == case.code);
        let rule = toolc::RuleId::parse(&case.code).is_some();
        assert!(
            code || rule,
            "{}: `{}` is neither a diagnostic code nor a lint rule",
            case.name,
            case.code,
        );
    }
}
