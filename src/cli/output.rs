//! What every command shares: the `--format` and `--color` options, and one
//! way of printing diagnostics and the closing summary in each format.
//!
//! - `human`: diagnostics with source excerpts on stderr, the summary line on
//!   stdout (on stderr when the command failed for a reason that is not a
//!   diagnostic, such as stale outputs);
//! - `plain`: the same, one line per diagnostic;
//! - `json`: one document `{"diagnostics": [...], "summary": {...}}`;
//! - `sarif`: one SARIF 2.1.0 log.
//!
//! The documents go to stdout, except for the commands whose stdout is
//! their product (`dump`'s tool list, `schema`'s JSON Schema): there every
//! report goes to stderr, so stdout stays pipeable.

use crate::lint::Group;
use crate::{Diagnostic, SourceMap, render_human, render_json, render_plain};
use clap::ValueEnum;
use std::io::{IsTerminal, Write};

/// How diagnostics and the summary are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// With source excerpts, for people at a terminal.
    Human,
    /// One line per diagnostic: `path:line:col: severity[code]: message`.
    Plain,
    /// One JSON document with every diagnostic and the summary.
    Json,
    /// A SARIF 2.1.0 log, for code scanning.
    Sarif,
}

/// When human output is colored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    Always,
    Never,
}

/// `--format` and `--color`: taken by every command, before or after its
/// name (`toolc --color never build`, `toolc build --color never`).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct OutputArgs {
    /// How to print problems: `human` (source excerpts) or `plain` (one line
    /// each) on stderr, or one `json` or `sarif` document on stdout (on
    /// stderr for `dump` and `schema`, whose stdout is their output).
    /// Default: human on a terminal, plain otherwise.
    #[arg(long, value_enum, global = true)]
    pub format: Option<Format>,
    /// When to color human output: `auto` (on a terminal, unless NO_COLOR is
    /// set), `always` or `never`.
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    pub color: Color,
}

/// What a command's stdout is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdout {
    /// The report: the summary line, or the JSON or SARIF document.
    Report,
    /// The command's own output; the whole report goes to stderr.
    Product,
}

/// The closing summary: a line (or a few) for people, an object for tools.
pub struct Summary {
    pub text: String,
    pub json: serde_json::Value,
    /// Print the text on stderr: the command failed for a reason the text
    /// gives (the diagnostics, if any, are printed either way).
    pub failed: bool,
}

impl Summary {
    pub fn ok(text: impl Into<String>, json: serde_json::Value) -> Self {
        Summary {
            text: text.into(),
            json,
            failed: false,
        }
    }

    pub fn failed(text: impl Into<String>, json: serde_json::Value) -> Self {
        Summary {
            text: text.into(),
            json,
            failed: true,
        }
    }
}

/// Prints reports in the format and colors chosen on the command line.
pub struct Reporter {
    format: Format,
    color: bool,
    stdout: Stdout,
}

impl Reporter {
    pub fn new(args: OutputArgs, stdout: Stdout) -> Self {
        let tty = std::io::stderr().is_terminal();
        let format = args
            .format
            .unwrap_or(if tty { Format::Human } else { Format::Plain });
        let color = match args.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => tty && std::env::var_os("NO_COLOR").is_none(),
        };
        Reporter {
            format,
            color,
            stdout,
        }
    }

    /// Prints diagnostics alone (no summary), as [`Reporter::report`] does.
    pub fn diagnostics(&self, sources: &SourceMap, diags: &[Diagnostic]) {
        self.report(sources, diags, &[], None);
    }

    /// Prints diagnostics that carry data of their own (`toolc diff`'s
    /// changes: agent, tool, pointer, class): in `json` each diagnostic's
    /// object gets the data's fields, in `sarif` each result's properties;
    /// the other formats print the diagnostics as [`Reporter::report`] does.
    pub fn report_with_data(
        &self,
        sources: &SourceMap,
        items: &[(Diagnostic, serde_json::Value)],
        summary: Option<&Summary>,
    ) {
        let diags: Vec<Diagnostic> = items.iter().map(|(d, _)| d.clone()).collect();
        let merge = |mut v: serde_json::Value, data: &serde_json::Value, key: Option<&str>| {
            if let (Some(target), Some(fields)) = (v.as_object_mut(), data.as_object()) {
                match key {
                    Some(k) => {
                        target.insert(k.to_string(), data.clone());
                    }
                    None => target.extend(fields.clone()),
                }
            }
            v
        };
        match self.format {
            Format::Json => {
                let rendered = items
                    .iter()
                    .map(|(d, data)| merge(render_json(sources, d), data, None))
                    .collect();
                self.json_document(rendered, summary);
            }
            Format::Sarif => {
                let mut log = super::sarif::log(sources, &diags, &[]);
                if let Some(results) = log
                    .pointer_mut("/runs/0/results")
                    .and_then(serde_json::Value::as_array_mut)
                {
                    for (r, (_, data)) in results.iter_mut().zip(items) {
                        *r = merge(r.take(), data, Some("properties"));
                    }
                }
                let mut out = self.document();
                let _ = writeln!(out, "{log:#}");
            }
            Format::Human | Format::Plain => self.report(sources, &diags, &[], summary),
        }
    }

    /// Where a JSON or SARIF document goes: stdout, unless stdout is the
    /// command's product.
    fn document(&self) -> Box<dyn Write> {
        match self.stdout {
            Stdout::Report => Box::new(std::io::stdout().lock()),
            Stdout::Product => Box::new(std::io::stderr().lock()),
        }
    }

    /// `{"diagnostics": [...], "summary": {...}}`.
    fn json_document(&self, diagnostics: Vec<serde_json::Value>, summary: Option<&Summary>) {
        let mut out = serde_json::json!({ "diagnostics": diagnostics });
        if let Some(s) = summary {
            out["summary"] = s.json.clone();
        }
        let mut document = self.document();
        let _ = writeln!(document, "{out:#}");
    }

    /// Prints `diags`, then the lint findings `groups`, then the summary.
    pub fn report(
        &self,
        sources: &SourceMap,
        diags: &[Diagnostic],
        groups: &[Group],
        summary: Option<&Summary>,
    ) {
        if self.stdout == Stdout::Product
            && diags.is_empty()
            && groups.is_empty()
            && summary.is_none()
        {
            // Nothing to say beside the product: stderr stays empty.
            return;
        }
        match self.format {
            Format::Json => {
                let rendered = diags
                    .iter()
                    .map(|d| render_json(sources, d))
                    .chain(groups.iter().map(|g| group_json(sources, g)))
                    .collect();
                self.json_document(rendered, summary);
            }
            Format::Sarif => {
                let log = super::sarif::log(sources, diags, groups);
                let mut document = self.document();
                let _ = writeln!(document, "{log:#}");
            }
            Format::Human | Format::Plain => {
                let mut stdout = std::io::stdout().lock();
                let mut stderr = std::io::stderr().lock();
                let human = self.format == Format::Human;
                let grouped: Vec<Diagnostic> = groups.iter().map(Group::to_diagnostic).collect();
                for d in diags.iter().chain(&grouped) {
                    let text = if human {
                        render_human(sources, d, self.color)
                    } else {
                        render_plain(sources, d)
                    };
                    let _ = writeln!(stderr, "{text}");
                    if human {
                        let _ = writeln!(stderr);
                    }
                }
                if let Some(s) = summary {
                    let _ = if s.failed || self.stdout == Stdout::Product {
                        writeln!(stderr, "{}", s.text)
                    } else {
                        writeln!(stdout, "{}", s.text)
                    };
                }
            }
        }
    }
}

/// A lint finding as JSON: the diagnostic, plus its dialects, the JSON
/// pointer into the emitted schema, the tool and which schema it is in.
fn group_json(sources: &SourceMap, g: &Group) -> serde_json::Value {
    let mut v = render_json(sources, &g.to_diagnostic());
    v["dialects"] = g.dialects.iter().map(|d| d.as_str()).collect();
    v["pointer"] = g.finding.pointer.clone().into();
    if let Some(t) = &g.finding.tool {
        v["tool"] = t.clone().into();
    }
    if let Some(r) = g.finding.role {
        v["schema"] = r.as_str().into();
    }
    v
}

/// `1 tool`, `2 tools`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
