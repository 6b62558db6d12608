//! `toolc import`: tools that exist elsewhere as a manifest: a running MCP server's, a saved
//! tools/list result's, an OpenAPI document's. The sources are read in `crate::import`; this
//! file takes the command line, writes (or checks) the files and reports.

use super::output::{OutputArgs, Reporter, Stdout, Summary, plural};
use crate::import::client::{self, Listed, Transport};
use crate::import::files::{self, Output, Stale};
use crate::import::{Failure, Import, fixup, manifest, openapi, tools_list};
use crate::{Code, Diagnostic, Dialect, Severity, SourceMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  toolc import mcp --out manifests -- npx -y @modelcontextprotocol/server-everything\n  toolc import mcp --url http://127.0.0.1:8080/mcp --save-list tools.json\n  toolc import tools-list tools.json --name everything\n  toolc import openapi openapi.yaml --out manifests --check"
)]
pub struct ImportArgs {
    #[command(subcommand)]
    source: SourceArgs,
    #[command(flatten)]
    common: Common,
}

/// The options every source takes.
#[derive(clap::Args)]
struct Common {
    /// The folder the manifest (and toolc.toml) goes to; created when missing.
    #[arg(long, global = true, value_name = "DIR", default_value = ".")]
    out: PathBuf,
    /// The toolbox's name, which also names the file (NAME.yaml). Default: the name the
    /// source gives itself (serverInfo.name, info.title), else the file's stem, made a name.
    #[arg(long, global = true)]
    name: Option<String>,
    /// The dialects toolc.toml lints for (repeat, or comma-separated). Default: `mcp`, where
    /// the tools come from or are to be served; `toolc lint DIR --dialect D` shows what
    /// another provider would refuse.
    #[arg(
        long = "dialect",
        global = true,
        value_name = "D",
        value_delimiter = ','
    )]
    dialects: Vec<String>,
    /// Write nothing; exit 1 naming each file that is not what the import would write.
    #[arg(long, global = true)]
    check: bool,
    /// Write over files that toolc import did not write.
    #[arg(long, global = true)]
    force: bool,
}

#[derive(clap::Subcommand)]
enum SourceArgs {
    /// List the tools of an MCP server: one it starts (`-- COMMAND ARGS…`, over stdio) or one
    /// running on this machine (`--url`, streamable HTTP).
    Mcp(McpArgs),
    /// Read a saved tools/list result: `{"tools": [...]}`, the array alone, or the JSON-RPC
    /// response holding it; `-` reads stdin.
    ToolsList(ToolsListArgs),
    /// Read an OpenAPI 3.0 or 3.1 document (JSON or YAML): one tool per operation.
    Openapi(OpenapiArgs),
}

#[derive(clap::Args)]
struct McpArgs {
    /// The server's streamable HTTP endpoint, on this machine: `http://127.0.0.1:PORT/mcp`
    /// (https and other hosts are refused: toolc sends no credentials and speaks no TLS).
    #[arg(long, conflicts_with = "command")]
    url: Option<String>,
    /// How long the server may take to answer each request (initialize, its start included,
    /// and each page of tools/list), in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    timeout: Duration,
    /// Also write the tools/list result as received (`{"tools": [...]}`, every page's tools,
    /// each tool's keys in the server's order) to FILE.
    #[arg(long, value_name = "FILE")]
    save_list: Option<PathBuf>,
    /// The command that starts the server over stdio, and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(clap::Args)]
struct ToolsListArgs {
    /// The saved result (`-`: stdin).
    file: PathBuf,
}

#[derive(clap::Args)]
struct OpenapiArgs {
    /// The OpenAPI document, JSON or YAML.
    spec: PathBuf,
}

/// A positive number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if s.is_finite() && s > 0.0 && s < 1e9 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "the timeout must be a positive number of seconds, not {text}"
        ))
    }
}

/// What was read from the source: the import, the name its file gets by default, and the
/// tools/list result to save.
struct Read {
    import: Import,
    fallback_name: Option<String>,
    saved: Option<(PathBuf, String)>,
    summary_source: String,
    /// The file read, for the notes' location; `None` for a server.
    file: Option<PathBuf>,
}

pub fn run(args: ImportArgs, output: OutputArgs) -> ExitCode {
    let reporter = Reporter::new(output, Stdout::Report);
    let fail = |failure: Failure| {
        let code = if failure.io { 2 } else { 1 };
        reporter.diagnostics(&SourceMap::new(), &[*failure.diagnostic]);
        ExitCode::from(code)
    };
    let usage = |d: Diagnostic| {
        reporter.diagnostics(&SourceMap::new(), &[d]);
        ExitCode::from(2)
    };
    let common = &args.common;
    if let Some(name) = &common.name
        && let Err((message, help)) = crate::model::names::check_name(name)
    {
        return usage(
            Diagnostic::new(Code::Io, format!("--name: {message}"))
                .help(format!("{help}; the name is the toolbox's and the file's")),
        );
    }
    for d in &common.dialects {
        if Dialect::parse(d).is_none() {
            let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
            return usage(
                Diagnostic::new(
                    Code::UnknownDialect,
                    format!("--dialect: `{d}` is not a dialect"),
                )
                .help(format!("the dialects are {}", names.join(", "))),
            );
        }
    }
    let read = match read_source(&args.source, &common.out) {
        Ok(r) => r,
        Err(f) => return fail(f),
    };
    let Read {
        mut import,
        fallback_name,
        saved,
        summary_source,
        file,
    } = read;

    let toolbox = common
        .name
        .clone()
        .or_else(|| {
            import
                .source_name
                .as_deref()
                .and_then(crate::import::toolbox_name)
        })
        .or_else(|| {
            fallback_name
                .as_deref()
                .and_then(crate::import::toolbox_name)
        })
        .unwrap_or_else(|| "tools".to_string());
    let manifest_path = common.out.join(format!("{toolbox}.yaml"));
    let mut value = manifest::manifest_value(&import, &toolbox);
    let settled = match fixup::settle(&mut value, &manifest_path, &mut import.notes) {
        Ok(s) => s,
        Err(e) => {
            return fail(Failure::source(e, "report this as a bug of toolc import"));
        }
    };
    let mut text = manifest::header(&import.source);
    match crate::import::yaml::to_yaml(&value) {
        Ok(yaml) => text.push_str(&yaml),
        Err(e) => {
            return fail(Failure::source(
                format!("the manifest could not be written as YAML: {e}"),
                "report this as a bug of toolc import",
            ));
        }
    }
    // The dialects to lint for, each once, in the order given; `mcp` by default.
    let mut dialects: Vec<Dialect> = Vec::new();
    for d in common.dialects.iter().filter_map(|d| Dialect::parse(d)) {
        if !dialects.contains(&d) {
            dialects.push(d);
        }
    }
    if dialects.is_empty() {
        dialects.push(Dialect::Mcp);
    }
    let mut outputs = vec![Output {
        path: manifest_path.clone(),
        contents: Some(text),
        always_ours: false,
    }];
    outputs.push(Output {
        path: common.out.join(crate::manifest::CONFIG_FILE),
        contents: manifest::config(&import, &dialects),
        always_ours: false,
    });
    if let Some((path, list)) = saved {
        outputs.push(Output {
            path,
            contents: Some(list),
            always_ours: true,
        });
    }

    // The notes, then what the check of the manifest still finds.
    let mut items: Vec<(Diagnostic, serde_json::Value)> = import
        .notes
        .iter()
        .map(|n| (n.to_diagnostic(file.as_deref()), n.data()))
        .collect();
    let check_problems = settled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    items.extend(
        settled
            .diagnostics
            .iter()
            .map(|d| (d.clone().severity(Severity::Warning), serde_json::json!({}))),
    );
    let sources = settled.sources;
    let tools = import.tools.len();
    let base = serde_json::json!({
        "source": import.source,
        "manifest": slashed(&manifest_path),
        "tools": tools,
        "types": import.types.len(),
        "notes": import.notes.len(),
        "check_errors": check_problems,
    });
    let with = |mut json: serde_json::Value, extra: serde_json::Value| {
        if let (Some(j), Some(e)) = (json.as_object_mut(), extra.as_object()) {
            j.extend(e.clone());
        }
        json
    };
    let check_line = if check_problems > 0 {
        format!(
            "\nwarning: `toolc check` finds {} in {} (above, as warnings): toolc refuses what the source sent there",
            plural(check_problems, "error", "errors"),
            manifest_path.display()
        )
    } else {
        String::new()
    };

    if common.check {
        let stale = match files::check(&outputs) {
            Ok(s) => s,
            Err(r) => {
                return fail(Failure::io(r.message, r.help).path(r.path));
            }
        };
        let json = with(
            base,
            serde_json::json!({
                "written": [],
                "stale": stale.iter().map(|s| serde_json::json!({"path": slashed(s.path()), "why": s.why()})).collect::<Vec<_>>(),
            }),
        );
        let summary = if stale.is_empty() {
            Summary::ok(
                format!(
                    "{} of {summary_source} in {} is up to date{check_line}",
                    plural(tools, "tool", "tools"),
                    manifest_path.display()
                ),
                json,
            )
        } else {
            let mut text: String = stale
                .iter()
                .map(|s: &Stale| format!("stale: {} ({})\n", s.path().display(), s.why()))
                .collect();
            text.push_str(&format!(
                "error: not what `toolc import` writes from {summary_source}; run it again without `--check`{check_line}"
            ));
            Summary::failed(text, json)
        };
        reporter.report_with_data(&sources, &items, Some(&summary));
        return if stale.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    match files::write(&outputs, common.force) {
        Ok(done) => {
            let mut text = format!(
                "imported {} from {summary_source} into {}",
                plural(tools, "tool", "tools"),
                manifest_path.display()
            );
            let mut parts = vec![format!(
                "wrote {}",
                plural(done.written.len(), "file", "files")
            )];
            if !done.unchanged.is_empty() {
                parts.push(format!("{} unchanged", done.unchanged.len()));
            }
            if !done.removed.is_empty() {
                parts.push(format!("removed {}", done.removed.len()));
            }
            if !import.notes.is_empty() {
                parts.push(plural(import.notes.len(), "note", "notes"));
            }
            text.push_str(&format!(" ({}){check_line}", parts.join(", ")));
            let json = with(
                base,
                serde_json::json!({
                    "written": done.written.iter().map(|p| slashed(p)).collect::<Vec<_>>(),
                    "removed": done.removed.iter().map(|p| slashed(p)).collect::<Vec<_>>(),
                    "stale": [],
                }),
            );
            reporter.report_with_data(&sources, &items, Some(&Summary::ok(text, json)));
            ExitCode::SUCCESS
        }
        Err(refused) => {
            for r in refused {
                items.push((
                    Diagnostic::new(Code::Io, r.message)
                        .help(r.help)
                        .path(r.path),
                    serde_json::json!({}),
                ));
            }
            let summary = Summary::failed(
                "error: nothing written",
                with(base, serde_json::json!({ "written": [], "stale": [] })),
            );
            reporter.report_with_data(&sources, &items, Some(&summary));
            ExitCode::from(2)
        }
    }
}

/// A path as the JSON output shows it, with `/` between its parts.
fn slashed(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// `file` as the header names it: relative to `out` when the two share a folder below the
/// root (so that the header is the same wherever the command runs), else as given.
fn shown_path(file: &Path, out: &Path) -> String {
    let relative = || -> Option<PathBuf> {
        let file = std::fs::canonicalize(file).ok()?;
        let out = absolute(out)?;
        let common = file
            .components()
            .zip(out.components())
            .take_while(|(a, b)| a == b)
            .count();
        if common < 2 {
            return None;
        }
        let mut path: PathBuf = out.components().skip(common).map(|_| "..").collect();
        path.extend(file.components().skip(common));
        Some(path)
    };
    slashed(relative().as_deref().unwrap_or(file))
}

/// `path` made absolute, its links resolved as far as it exists (the output folder may not
/// exist yet).
fn absolute(path: &Path) -> Option<PathBuf> {
    if let Ok(full) = std::fs::canonicalize(path) {
        return Some(full);
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some(absolute(parent)?.join(path.file_name()?))
}

/// Reads a file, or stdin for `-`.
fn read_text(path: &Path) -> Result<String, Failure> {
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map(|_| bytes)
    } else {
        std::fs::read(path)
    };
    let bytes = bytes.map_err(|e| {
        Failure::io(
            format!("cannot read `{}`: {e}", path.display()),
            "pass an existing file (`-` reads stdin)",
        )
        .path(path)
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::source(
            format!(
                "`{}` is not UTF-8 text (a bad byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
            "save the file as UTF-8",
        )
        .path(path)
    })
}

/// A file as the summary names it: as given, `stdin` for `-`.
fn given(path: &Path) -> String {
    if path == Path::new("-") {
        "stdin".to_string()
    } else {
        slashed(path)
    }
}

/// The stem of a file, for a default name.
fn stem(path: &Path) -> Option<String> {
    (path != Path::new("-"))
        .then(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .flatten()
}

fn read_source(source: &SourceArgs, out: &Path) -> Result<Read, Failure> {
    match source {
        SourceArgs::ToolsList(a) => {
            let text = read_text(&a.file)?;
            let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                Failure::source(
                    format!("`{}` is not JSON: {e}", a.file.display()),
                    "give a tools/list result saved as JSON",
                )
                .path(&a.file)
            })?;
            let shown = if a.file == Path::new("-") {
                "stdin".to_string()
            } else {
                shown_path(&a.file, out)
            };
            let tools = tools_list::tools_of(&doc).map_err(|f| f.path(&a.file))?;
            let import = tools_list::import(tools, format!("the tools/list result {shown}"))
                .map_err(|f| f.path(&a.file))?;
            Ok(Read {
                import,
                fallback_name: stem(&a.file),
                saved: None,
                summary_source: given(&a.file),
                file: Some(a.file.clone()),
            })
        }
        SourceArgs::Openapi(a) => {
            let text = read_text(&a.spec)?;
            let doc = openapi::parse(&text).map_err(|e| {
                Failure::source(
                    format!("`{}` is neither JSON nor YAML: {e}", a.spec.display()),
                    "give an OpenAPI 3.0 or 3.1 document, JSON or YAML",
                )
                .path(&a.spec)
            })?;
            let shown = if a.spec == Path::new("-") {
                "stdin".to_string()
            } else {
                shown_path(&a.spec, out)
            };
            let import = openapi::import(&doc, &shown).map_err(|f| f.path(&a.spec))?;
            Ok(Read {
                import,
                fallback_name: stem(&a.spec),
                saved: None,
                summary_source: given(&a.spec),
                file: Some(a.spec.clone()),
            })
        }
        SourceArgs::Mcp(a) => {
            let (mut transport, shown, fallback): (Box<dyn Transport>, String, Option<String>) =
                match (&a.url, a.command.split_first()) {
                    (Some(url), _) => {
                        if let Some(refused) = client::http::refuse(url) {
                            return Err(refused);
                        }
                        (
                            Box::new(client::http::HttpServer::new(url, a.timeout)),
                            url.clone(),
                            None,
                        )
                    }
                    (None, Some((command, args))) => {
                        let server = client::stdio::StdioServer::start(command, args, a.timeout)?;
                        let shown = a.command.join(" ");
                        (
                            Box::new(server),
                            format!("`{shown}`"),
                            stem(Path::new(command)),
                        )
                    }
                    (None, None) => {
                        return Err(Failure::io(
                            "toolc import mcp needs a server: a command after `--`, or `--url`",
                            "start one over stdio with `toolc import mcp -- COMMAND ARGS…`, or reach a running one with `toolc import mcp --url http://127.0.0.1:PORT/mcp`",
                        ));
                    }
                };
            let listed: Listed = client::list(transport.as_mut())?;
            let what = match (&listed.name, &listed.version) {
                (Some(n), Some(v)) => format!(
                    "the MCP server {n} {v} ({shown}, protocol {})",
                    listed.protocol
                ),
                (Some(n), None) => {
                    format!("the MCP server {n} ({shown}, protocol {})", listed.protocol)
                }
                _ => format!("the MCP server {shown} (protocol {})", listed.protocol),
            };
            let saved = a.save_list.as_ref().map(|path| {
                let mut text =
                    serde_json::to_string_pretty(&serde_json::json!({ "tools": listed.tools }))
                        .unwrap_or_default();
                text.push('\n');
                (path.clone(), text)
            });
            let mut import = tools_list::import(&listed.tools, what)?;
            import.source_name = listed.name.clone();
            Ok(Read {
                import,
                fallback_name: fallback,
                saved,
                summary_source: shown,
                file: None,
            })
        }
    }
}
