//! `toolc diff`, the command: against a folder and a git revision, its output formats and its
//! usage errors. The comparison itself, one test per change kind, is tested in the library
//! (`src/tests/diff.rs`).

use super::{text, toolc_in};
use crate::support::manifest_text::param;
use std::path::Path;

const TWO_TOOLS: &str = "version: 1
toolboxes:
  t:
    description: Tools.
    tools:
      a: { description: Does a. }
      b: { description: Does b. }
";

// ------------------------------------------------------------ the command

/// A folder with `manifests/toolset.yaml`.
fn project(yaml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("manifests")).unwrap();
    std::fs::write(dir.path().join("manifests/toolset.yaml"), yaml).unwrap();
    dir
}

#[test]
fn against_a_folder_each_version_reads_its_own_policy_defaults() {
    let yaml = "version: 1\ntoolboxes:\n  t:\n    description: Tools.\n    tools:\n      \
                erase:\n        description: Erases.\n        annotations: { destructive: true }\n";
    let old = project(yaml);
    let new = project(yaml);
    std::fs::write(
        new.path().join("manifests/toolc.toml"),
        "[policy]\napprove_destructive = true\n",
    )
    .unwrap();
    let against = old.path().to_string_lossy().into_owned();
    let out = toolc_in(
        new.path(),
        &["diff", "--against", &against, "--format", "plain"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("error[policy-tightened]: manifests: tool `erase`: `approval` went from none to required"),
        "{err}"
    );
    // The other way round, the old version's own toolc.toml holds it.
    let out = toolc_in(
        old.path(),
        &[
            "diff",
            "--against",
            &new.path().to_string_lossy(),
            "--format",
            "plain",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("`approval` went from required to none"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn against_a_folder_breaking_changes_fail_unless_allowed() {
    let old = project(&param("{ type: string, maxLength: 10 }", false));
    let new = project(&param("{ type: string, maxLength: 5 }", true));
    let against = old.path().to_string_lossy().into_owned();
    let out = toolc_in(
        new.path(),
        &["diff", "--against", &against, "--format", "plain"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("manifests/toolset.yaml:11:13: error[property-now-required]: manifests: tool `a`: parameter `p` is now required (breaking for callers)"),
        "{err}"
    );
    assert!(err.contains("error[bound-tightened]"), "{err}");
    assert!(
        err.contains(&format!("2 changes against `{against}` in 1 agent: 2 breaking for callers, 0 breaking for the model, 0 compatible")),
        "{err}"
    );
    // Allowed by class, or by kind: warnings, and exit 0.
    let out = toolc_in(
        new.path(),
        &[
            "diff",
            "--against",
            &against,
            "--allow",
            "breaking-callers",
            "--format",
            "plain",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("warning[property-now-required]"));
    assert!(
        text(&out.stdout).contains("(2 allowed)"),
        "{}",
        text(&out.stdout)
    );
    let out = toolc_in(
        new.path(),
        &[
            "diff",
            "--against",
            &against,
            "--allow",
            "property-now-required",
            "--format",
            "plain",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    // Nothing changed: exit 0.
    let out = toolc_in(
        new.path(),
        &["diff", "--against", &new.path().to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("no changes to the tool surface"));
}

#[test]
fn json_sarif_and_color_work_as_on_every_command() {
    let old = project(&param("{ type: string }", true));
    let new = project(&param("{ type: string, description: The p. }", true));
    let against = old.path().to_string_lossy().into_owned();
    let out = toolc_in(
        new.path(),
        &["diff", "--against", &against, "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "description-changed", "{doc:#}");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["kind"], "description-changed");
    assert_eq!(d["class"], "breaking-model");
    assert_eq!(d["agent"], "manifests");
    assert_eq!(d["tool"], "a");
    assert_eq!(d["schema"], "parameters");
    assert_eq!(d["pointer"], "/properties/p");
    assert_eq!(doc["summary"]["breaking_model"], 1);
    let out = toolc_in(
        new.path(),
        &["diff", "--against", &against, "--format", "sarif"],
    );
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "description-changed");
    assert_eq!(result["properties"]["pointer"], "/properties/p");
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["rules"][0]["id"],
        "description-changed"
    );
    // --color before or after the command.
    let colored = toolc_in(
        new.path(),
        &[
            "--color",
            "always",
            "diff",
            "--against",
            &against,
            "--format",
            "human",
        ],
    );
    assert!(
        text(&colored.stderr).contains('\u{1b}'),
        "{}",
        text(&colored.stderr)
    );
    let plain = toolc_in(
        new.path(),
        &[
            "diff",
            "--against",
            &against,
            "--format",
            "human",
            "--color",
            "never",
        ],
    );
    assert!(!text(&plain.stderr).contains('\u{1b}'));
    assert!(text(&plain.stderr).contains("= help: the model is shown something else now"));
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

#[test]
fn against_a_git_revision_the_old_files_are_read_from_git() {
    let repo_dir = project(TWO_TOOLS);
    let dir = repo_dir.path();
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "v1"]);
    std::fs::write(
        dir.join("manifests/toolset.yaml"),
        TWO_TOOLS.replace("      b: { description: Does b. }\n", ""),
    )
    .unwrap();
    // The scratch copy of the old files goes under TMPDIR, and is removed.
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(["diff", "--against", "HEAD", "--format", "plain"])
        .current_dir(dir)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "HEAD:manifests/toolset.yaml:7:7: error[tool-removed]: manifests: tool `b` was removed (breaking for callers)"
        ),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    // From a subfolder, paths stay relative to it.
    let out = toolc_in(
        &dir.join("manifests"),
        &["diff", ".", "--against", "HEAD", "--format", "plain"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("HEAD:manifests/toolset.yaml:7:7"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn usage_problems_exit_2_and_say_what_to_do() {
    let new = project(TWO_TOOLS);
    let out = toolc_in(
        new.path(),
        &["diff", "--against", "no-such-thing", "--format", "plain"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "`no-such-thing` is neither a folder nor a revision of a git repository here"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = toolc_in(
        new.path(),
        &[
            "diff",
            "--against",
            ".",
            "--allow",
            "breaking-caller",
            "--format",
            "plain",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("`--allow breaking-caller` names no class or kind of change"),
        "{err}"
    );
    assert!(err.contains("did you mean `breaking-callers`?"), "{err}");
    // Manifests with errors are not compared.
    let broken = project("version: 1\ntoolboxes:\n  t:\n    description: T.\n    tools: {}\n");
    let out = toolc_in(
        broken.path(),
        &[
            "diff",
            "--against",
            &new.path().to_string_lossy(),
            "--format",
            "plain",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot compare: the manifests have 1 error"),
        "{}",
        text(&out.stderr)
    );
}
