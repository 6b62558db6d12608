//! Rendering diagnostics: like rustc on a terminal, plainly otherwise, or JSON.

use super::{Diagnostic, Severity, SourceMap};
use annotate_snippets::renderer::DecorStyle;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

fn render_with(renderer: &Renderer, map: &SourceMap, d: &Diagnostic) -> String {
    let title = level(d.severity)
        .primary_title(d.message.as_str())
        .id(d.id());
    let mut elements: Vec<annotate_snippets::Element<'_>> = Vec::new();
    if let Some(span) = d.span {
        let file = map.file(span.file);
        let path = file.path.display().to_string();
        let mut snippet = Snippet::source(file.text.as_str()).path(path).annotation(
            AnnotationKind::Primary
                .span(span.start..span.end)
                .label(d.label.as_deref()),
        );
        let mut others = Vec::new();
        for l in &d.secondary {
            if l.span.file == span.file {
                snippet = snippet.annotation(
                    AnnotationKind::Context
                        .span(l.span.start..l.span.end)
                        .label(l.message.as_str()),
                );
            } else {
                others.push(l);
            }
        }
        elements.push(snippet.into());
        for l in others {
            let f = map.file(l.span.file);
            elements.push(
                Snippet::source(f.text.as_str())
                    .path(f.path.display().to_string())
                    .annotation(
                        AnnotationKind::Context
                            .span(l.span.start..l.span.end)
                            .label(l.message.as_str()),
                    )
                    .into(),
            );
        }
    } else if let Some(path) = &d.path {
        elements.push(annotate_snippets::Origin::path(path.display().to_string()).into());
    }
    if let Some(help) = &d.help {
        elements.push(Level::HELP.message(help.as_str()).into());
    }
    let group = Group::with_title(title).elements(elements);
    renderer.render(&[group])
}

/// rustc-style rendering with source excerpts; `color` adds ANSI styles.
pub fn render_human(map: &SourceMap, d: &Diagnostic, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .decor_style(DecorStyle::Ascii);
    render_with(&renderer, map, d)
}

/// One line per diagnostic, `path:line:col: severity[code]: message`, then
/// indented secondary locations and help. For logs, editors and grep.
pub fn render_plain(map: &SourceMap, d: &Diagnostic) -> String {
    let mut out = String::new();
    match d.span {
        Some(span) => {
            let (line, col) = map.line_col(span);
            out.push_str(&format!("{}:{line}:{col}: ", map.path(span.file).display()));
        }
        None => {
            if let Some(p) = &d.path {
                out.push_str(&format!("{}: ", p.display()));
            }
        }
    }
    out.push_str(&format!(
        "{}[{}]: {}",
        d.severity.as_str(),
        d.id(),
        d.message
    ));
    for l in &d.secondary {
        let (line, col) = map.line_col(l.span);
        out.push_str(&format!(
            "\n    {}:{line}:{col}: {}",
            map.path(l.span.file).display(),
            l.message
        ));
    }
    if let Some(help) = &d.help {
        out.push_str(&format!("\n    help: {help}"));
    }
    out
}

fn location_json(map: &SourceMap, span: super::Span) -> serde_json::Value {
    let file = map.file(span.file);
    let (line, column) = file.line_col(span.start);
    let (end_line, end_column) = file.line_col(span.end);
    serde_json::json!({
        "file": file.path.display().to_string(),
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "byte_start": span.start,
        "byte_end": span.end,
    })
}

/// A JSON object per diagnostic, stable for tools to read.
pub fn render_json(map: &SourceMap, d: &Diagnostic) -> serde_json::Value {
    let mut v = serde_json::json!({
        "code": d.id(),
        "severity": d.severity.as_str(),
        "message": d.message,
    });
    if let Some(span) = d.span {
        v["location"] = location_json(map, span);
    } else if let Some(p) = &d.path {
        v["location"] = serde_json::json!({ "file": p.display().to_string() });
    }
    if let Some(label) = &d.label {
        v["label"] = label.clone().into();
    }
    if !d.secondary.is_empty() {
        v["related"] = d
            .secondary
            .iter()
            .map(|l| {
                let mut r = location_json(map, l.span);
                r["message"] = l.message.clone().into();
                r
            })
            .collect();
    }
    if let Some(help) = &d.help {
        v["help"] = help.clone().into();
    }
    v
}
