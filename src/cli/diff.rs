//! `toolc diff`: the tool surface of the manifests compared with another
//! version of them (a git revision, or a folder), each change classified by
//! who it breaks. The comparison is `crate::diff`; this reads the other
//! version and reports.

use super::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use crate::ResolveOptions;
use crate::diff::{Change, ChangeKind, Class, DiffOptions, Joined};
use crate::{Code, Diagnostic, Severity, SourceMap};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(clap::Args)]
pub struct DiffArgs {
    /// Manifest files or folders of the current version (default `manifests/`).
    #[arg(default_value = "manifests")]
    paths: Vec<PathBuf>,
    /// The version to compare with: a folder that stands for the current one
    /// (the same manifest paths are read inside it), or a git revision
    /// (`main`, `v1.2.0`, `HEAD~1`), read from the repository of the current
    /// folder.
    #[arg(long, value_name = "REV|DIR")]
    against: String,
    /// Let changes of a class (`breaking-callers`, `breaking-model`) or of a
    /// kind (`tool-removed`, …) through: they are reported as warnings and do
    /// not fail the command. Repeat, or separate with commas.
    #[arg(long, value_delimiter = ',')]
    allow: Vec<String>,
    /// The config file whose dialects bound the tools per request. Default:
    /// toolc.toml in the manifest root, or beside it.
    #[arg(long)]
    config: Option<PathBuf>,
}

/// A folder removed when dropped: the other version, read from git.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A usage or I/O problem: printed, exit status 2.
fn fail(reporter: &Reporter, message: String, help: Option<String>) -> ExitCode {
    let mut d = Diagnostic::new(Code::Io, message);
    if let Some(h) = help {
        d = d.help(h);
    }
    reporter.diagnostics(&SourceMap::new(), &[d]);
    ExitCode::from(2)
}

/// What `--allow` lets through.
#[derive(Default)]
struct Allowed {
    classes: Vec<Class>,
    kinds: Vec<ChangeKind>,
}

impl Allowed {
    fn parse(values: &[String]) -> Result<Allowed, (String, String)> {
        let mut out = Allowed::default();
        for v in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
            if let Some(c) = Class::parse(v) {
                out.classes.push(c);
            } else if let Some(k) = ChangeKind::parse(v) {
                out.kinds.push(k);
            } else {
                let names = Class::ALL
                    .iter()
                    .filter(|c| c.is_breaking())
                    .map(|c| c.as_str())
                    .chain(ChangeKind::ALL.iter().map(|k| k.as_str()));
                let help = match crate::did_you_mean(v, names) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "allow `breaking-callers`, `breaking-model`, or a change kind of docs/diff.md".to_string(),
                };
                return Err((
                    format!("`--allow {v}` names no class or kind of change"),
                    help,
                ));
            }
        }
        Ok(out)
    }

    fn allows(&self, c: &crate::diff::Change) -> bool {
        self.classes.contains(&c.class) || self.kinds.contains(&c.kind)
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// `a/./b/../c` as `a/c`, for paths inside the repository.
fn normal(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(x) => out.push(x),
            _ => return None,
        }
    }
    Some(out)
}

/// Writes the manifest paths as they are at `rev` under a scratch folder;
/// the paths to read there, and the folder.
fn from_git(
    rev: &str,
    paths: &[PathBuf],
) -> Result<(Vec<PathBuf>, Scratch), (String, Option<String>)> {
    let here = PathBuf::from(".");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).trim().to_string();
    git(&here, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")]).map_err(|_| {
        (
            format!("`{rev}` is neither a folder nor a revision of a git repository here"),
            Some("give a folder holding the other version, or a branch, tag or commit such as `main` or `HEAD~1`".to_string()),
        )
    })?;
    let prefix = git(&here, &["rev-parse", "--show-prefix"])
        .map(text)
        .map_err(|e| (format!("cannot read the repository: {e}"), None))?;
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "toolc-diff-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    )));
    std::fs::create_dir_all(&scratch.0).map_err(|e| {
        (
            format!("cannot create `{}`: {e}", scratch.0.display()),
            None,
        )
    })?;
    let mut old_paths = Vec::new();
    for p in paths {
        let rel = copy_at(rev, p, &prefix, &scratch.0)?;
        old_paths.push(scratch.0.join(rel));
    }
    Ok((old_paths, scratch))
}

/// Writes the files of manifest path `p` as they are at `rev` under `scratch` (a manifest
/// file's whole folder, where its manual files are); `p` relative to the repository root.
fn copy_at(
    rev: &str,
    p: &Path,
    prefix: &str,
    scratch: &Path,
) -> Result<PathBuf, (String, Option<String>)> {
    let here = PathBuf::from(".");
    let Some(rel) = (!p.is_absolute())
        .then(|| normal(&Path::new(&prefix).join(p)))
        .flatten()
    else {
        return Err((
            format!(
                "`{}` is not a path inside the repository, relative to the current folder",
                p.display()
            ),
            Some("give manifest paths relative to the current folder".to_string()),
        ));
    };
    let spec = rel.to_string_lossy().replace('\\', "/");
    let list = |spec: &str| -> Result<Vec<String>, (String, Option<String>)> {
        let args = [
            "ls-tree",
            "-r",
            "-z",
            "--name-only",
            "--full-tree",
            rev,
            "--",
            spec,
        ];
        let listed = git(&here, &args)
            .map_err(|e| (format!("cannot list `{spec}` at `{rev}`: {e}"), None))?;
        Ok(listed
            .split(|b| *b == 0)
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect())
    };
    let mut files = list(&spec)?;
    // A manifest file's root is its folder, where its manual files are.
    if files == [spec.clone()]
        && let Some(parent) = rel.parent().filter(|d| !d.as_os_str().is_empty())
    {
        files = list(&parent.to_string_lossy().replace('\\', "/"))?;
    }
    if files.is_empty() {
        return Err((
            format!("`{}` does not exist at `{rev}`", p.display()),
            Some("check the revision, or compare with a folder".to_string()),
        ));
    }
    for f in files {
        let bytes = git(&here, &["cat-file", "blob", &format!("{rev}:{f}")])
            .map_err(|e| (format!("cannot read `{f}` at `{rev}`: {e}"), None))?;
        let target = scratch.join(&f);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| (format!("cannot create `{}`: {e}", parent.display()), None))?;
        }
        std::fs::write(&target, bytes)
            .map_err(|e| (format!("cannot write `{}`: {e}", target.display()), None))?;
    }
    Ok(rel)
}

/// The other version's manifest paths: inside a folder standing for the current one, or
/// written from a revision into a scratch folder.
struct Other {
    paths: Vec<PathBuf>,
    /// The scratch folder and the revision written into it.
    from_git: Option<(Scratch, String)>,
}

impl Other {
    fn of(args: &DiffArgs) -> Result<Other, (String, Option<String>)> {
        let against = Path::new(&args.against);
        if !against.is_dir() {
            let (paths, scratch) = from_git(&args.against, &args.paths)?;
            return Ok(Other {
                paths,
                from_git: Some((scratch, args.against.clone())),
            });
        }
        let mut paths = Vec::new();
        for p in &args.paths {
            if p.is_absolute() {
                return Err((
                    format!(
                        "`{}` is absolute, so it cannot be read inside `{}`",
                        p.display(),
                        args.against
                    ),
                    Some("give manifest paths relative to the current folder".to_string()),
                ));
            }
            paths.push(against.join(p));
        }
        Ok(Other {
            paths,
            from_git: None,
        })
    }

    /// How a file of this version is shown: `REV:path` when it was read from git.
    fn shown(&self, p: &Path) -> PathBuf {
        match &self.from_git {
            Some((scratch, rev)) => match p.strip_prefix(&scratch.0) {
                Ok(rel) => PathBuf::from(format!(
                    "{rev}:{}",
                    rel.to_string_lossy().replace('\\', "/")
                )),
                Err(_) => p.to_path_buf(),
            },
            None => p.to_path_buf(),
        }
    }
}

pub fn run(args: DiffArgs, output: OutputArgs) -> ExitCode {
    let reporter = Reporter::new(output, Stdout::Report);
    let allowed = match Allowed::parse(&args.allow) {
        Ok(a) => a,
        Err((message, help)) => return fail(&reporter, message, Some(help)),
    };
    let other = match Other::of(&args) {
        Ok(other) => other,
        Err((message, help)) => return fail(&reporter, message, help),
    };
    let old_paths = &other.paths;
    let rename = |p: &Path| other.shown(p);
    let mut new = crate::check(&args.paths, &ResolveOptions::default());
    let mut old = crate::check(old_paths, &ResolveOptions::default());
    let joined = Joined::new(&new.sources, &old.sources, &rename);
    // Both versions must check: the comparison reads what resolved.
    if let Some(code) = report_problems(&reporter, &new, &old, &joined, &rename) {
        return code;
    }
    // The dialects the current version is linted for bound the tool count.
    let mut config_sources = SourceMap::new();
    let (config, config_diags) = match &args.config {
        Some(p) => crate::config::load(p, &mut config_sources),
        None => crate::config::discover(&args.paths, &mut config_sources),
    };
    let settings = config.options.lint_settings();
    if config_diags.iter().any(Diagnostic::is_error) || settings.is_err() {
        let mut all = config_diags;
        all.extend(settings.err().unwrap_or_default());
        reporter.diagnostics(&config_sources, &all);
        return ExitCode::from(2);
    }
    let dialects = settings.map(|s| s.dialects).unwrap_or_default();
    // Each version's policy defaults (`[policy]` of its toolc.toml) decide which tools wait
    // for approval; the other version's config is its own, found beside its manifests.
    new.toolset
        .apply_policy_defaults(config.options.policy_defaults());
    let (old_config, _) = crate::config::discover(old_paths, &mut SourceMap::new());
    old.toolset
        .apply_policy_defaults(old_config.options.policy_defaults());
    let changes = crate::diff::diff(&old.toolset, &new.toolset, &DiffOptions { dialects });
    let items: Vec<(Diagnostic, serde_json::Value)> = changes
        .iter()
        .map(|c| {
            let data = serde_json::json!({
                "kind": c.kind.as_str(),
                "class": c.class.as_str(),
                "allowed": c.is_breaking() && allowed.allows(c),
                "agent": c.agent,
                "tool": c.tool,
                "schema": c.role.map(|r| r.as_str()),
                "pointer": c.pointer,
            });
            (c.to_diagnostic(&joined, allowed.allows(c)), data)
        })
        .collect();
    let blocking = items
        .iter()
        .filter(|(d, _)| d.severity == Severity::Error)
        .count();
    let let_through = changes
        .iter()
        .filter(|c| c.is_breaking() && allowed.allows(c))
        .count();
    let summary = summary(&changes, &args.against, blocking, let_through);
    reporter.report_with_data(&joined.sources, &items, Some(&summary));
    drop(other);
    if blocking > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The line (and JSON) that sums up the changes: how many of each class, how many let through.
fn summary(changes: &[Change], against: &str, blocking: usize, let_through: usize) -> Summary {
    let count = |class: Class| changes.iter().filter(|c| c.class == class).count();
    let agents: std::collections::BTreeSet<&str> =
        changes.iter().map(|c| c.agent.as_str()).collect();
    let mut text = if changes.is_empty() {
        format!("no changes to the tool surface against `{against}`")
    } else {
        format!(
            "{} against `{against}` in {}: {} breaking for callers, {} breaking for the model, {} compatible",
            plural(changes.len(), "change", "changes"),
            plural(agents.len(), "agent", "agents"),
            count(Class::BreakingCallers),
            count(Class::BreakingModel),
            count(Class::Compatible),
        )
    };
    if let_through > 0 {
        text.push_str(&format!(" ({let_through} allowed)"));
    }
    let json = serde_json::json!({
        "against": against,
        "changes": changes.len(),
        "breaking_callers": count(Class::BreakingCallers),
        "breaking_model": count(Class::BreakingModel),
        "compatible": count(Class::Compatible),
        "allowed": let_through,
    });
    if blocking > 0 {
        Summary::failed(text, json)
    } else {
        Summary::ok(text, json)
    }
}

/// Reports the diagnostics of both versions (the other's files shown as `rename` says) when
/// either has an error: exit 2 when a file could not be read, else 1.
fn report_problems(
    reporter: &Reporter,
    new: &crate::Checked,
    old: &crate::Checked,
    joined: &Joined,
    rename: &dyn Fn(&Path) -> PathBuf,
) -> Option<ExitCode> {
    let problems: Vec<Diagnostic> = new
        .diagnostics
        .iter()
        .cloned()
        .chain(old.diagnostics.iter().map(|d| {
            let mut d = d.clone();
            d.span = d.span.map(|s| joined.old_span(s));
            d.secondary
                .iter_mut()
                .for_each(|l| l.span = joined.old_span(l.span));
            d.path = d.path.as_deref().map(rename);
            d
        }))
        .collect();
    let errors = problems.iter().filter(|d| d.is_error()).count();
    if errors == 0 {
        return None;
    }
    let io = problems.iter().any(|d| d.code == Code::Io);
    let summary = Summary::failed(
        format!(
            "cannot compare: the manifests have {}",
            plural(errors, "error", "errors")
        ),
        serde_json::json!({ "errors": errors }),
    );
    reporter.report(&joined.sources, &problems, &[], Some(&summary));
    Some(ExitCode::from(if io { 2 } else { 1 }))
}
