//! The manifest checked as `toolc check` reads it, before it is written. A value the source
//! sent inside a schema that its own schema refuses (an item of `examples`, a `default`) would
//! fail the check; it is left out, with a note. What else the check finds is returned, to be
//! reported beside the import (toolc refuses it, so the source needs it changed).

use super::Note;
use crate::manifest::parse_yaml;
use crate::{Code, Diagnostic, ResolveOptions, Severity, SourceMap};
use serde_json::Value;
use std::path::Path;

/// How many times the manifest is checked again after values were left out (a value is left
/// out only once, so the rounds end; this bounds them all the same).
const ROUNDS: usize = 8;

/// What the check of the manifest found once the refused values were left out.
pub struct Settled {
    /// The manifest's text as checked, by the path it will be written to.
    pub sources: SourceMap,
    /// The errors and warnings the check still finds.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks `manifest` as the file at `path` and leaves out the examples and defaults its schemas
/// refuse, naming each in `notes`.
pub fn settle(manifest: &mut Value, path: &Path, notes: &mut Vec<Note>) -> Result<Settled, String> {
    let root = path.parent().unwrap_or(Path::new("."));
    for _ in 0..ROUNDS {
        let text = super::yaml::to_yaml(manifest)?;
        let checked = crate::check_text(root, path, text, &ResolveOptions::default());
        let refused: Vec<&Diagnostic> = checked
            .diagnostics
            .iter()
            .filter(|d| {
                d.is_error() && matches!(d.code, Code::InvalidExample | Code::InvalidDefault)
            })
            .collect();
        let left_out = if refused.is_empty() {
            0
        } else {
            leave_out(manifest, &checked.sources, &refused, notes)
        };
        if left_out == 0 {
            let diagnostics = checked
                .diagnostics
                .iter()
                .filter(|d| d.severity != Severity::Note)
                .cloned()
                .collect();
            return Ok(Settled {
                sources: checked.sources,
                diagnostics,
            });
        }
    }
    Err("the manifest's examples and defaults could not be settled".to_string())
}

/// Leaves out the values of `refused`; how many were.
fn leave_out(
    manifest: &mut Value,
    sources: &SourceMap,
    refused: &[&Diagnostic],
    notes: &mut Vec<Note>,
) -> usize {
    let Some((id, file)) = sources.files().next() else {
        return 0;
    };
    let Ok(node) = parse_yaml::parse(file, id) else {
        return 0;
    };
    let mut spans = Default::default();
    node.to_json("", &mut spans);
    let spans: &crate::manifest::node::PointerSpans = &spans;
    // One change per value: the items of one list are left out from the last.
    let mut changes: Vec<(String, Option<usize>, String)> = Vec::new();
    for d in refused {
        let Some(span) = d.span else { continue };
        let Some((pointer, _)) = spans
            .iter()
            .find(|(p, s)| **s == span && (p.ends_with("/examples") || p.ends_with("/default")))
        else {
            continue;
        };
        let item = example_index(&d.message);
        if !changes.iter().any(|(p, i, _)| p == pointer && *i == item) {
            changes.push((pointer.clone(), item, d.message.clone()));
        }
    }
    changes.sort_by(|a, b| b.cmp(a));
    let mut done = 0;
    for (pointer, item, why) in changes {
        let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
        let Some(Value::Object(owner)) = manifest.pointer_mut(parent) else {
            continue;
        };
        match item {
            Some(i) => {
                let Some(Value::Array(items)) = owner.get_mut(key) else {
                    continue;
                };
                if i >= items.len() {
                    continue;
                }
                items.remove(i);
                if items.is_empty() {
                    owner.shift_remove(key);
                }
            }
            None => {
                if owner.shift_remove(key).is_none() {
                    continue;
                }
            }
        }
        done += 1;
        let (tool, at) = whose(&pointer);
        notes.push(Note::new(
            tool.as_deref(),
            at,
            format!("left out, since toolc would refuse it: {why}"),
        ));
    }
    done
}

/// The index in `examples` a message of `invalid-example` is about ("example 2 of
/// `examples` …" is index 1); `None` for a `default`.
fn example_index(message: &str) -> Option<usize> {
    let rest = message.strip_prefix("example ")?;
    let n: usize = rest.split_whitespace().next()?.parse().ok()?;
    n.checked_sub(1)
}

/// The tool a manifest pointer is inside (`/toolboxes/t/tools/NAME/…`), and the rest of the
/// pointer (from `parameters` on), or the named type's pointer.
fn whose(pointer: &str) -> (Option<String>, String) {
    let parts: Vec<&str> = pointer.split('/').collect();
    if parts.len() > 4 && parts[1] == "toolboxes" && parts[3] == "tools" {
        let tool = parts[4].replace("~1", "/").replace("~0", "~");
        return (Some(tool), parts[5..].join("/"));
    }
    (None, pointer.to_string())
}
