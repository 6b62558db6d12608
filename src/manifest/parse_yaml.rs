//! YAML → spanned [`Node`] tree, through serde-saphyr.
//!
//! serde-saphyr parses, enforces its budgets (alias expansion, node count,
//! nesting) and gives each value a location through `Spanned`. A visitor
//! rebuilds the tree with those locations. Duplicate keys are caught by the
//! visitor (with both places) before the parser's own duplicate check.

use super::node::{Entry, MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, Node, Value, too_deep};
use crate::diag::{Code, Diagnostic, FileId, SourceFile, Span};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};
use std::cell::RefCell;
use std::fmt;

/// A value without its own span: the span comes from the `Spanned` around it.
enum Raw {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

thread_local! {
    /// Duplicate keys found while visiting: (key, first, second).
    static DUPLICATES: RefCell<Vec<(String, Location, Location)>> = const { RefCell::new(Vec::new()) };
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

/// Up to how many entries a mapping's keys are compared one by one for duplicates.
const SCANNED_KEYS: usize = 16;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(Raw::Number(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Raw, E> {
        i64::try_from(v)
            .map(|v| Raw::Number(v.into()))
            .or_else(|_| u64::try_from(v).map(|v| Raw::Number(v.into())))
            .map_err(|_| E::custom(format!("integer {v} is out of range")))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Raw, E> {
        u64::try_from(v)
            .map(|v| Raw::Number(v.into()))
            .map_err(|_| E::custom(format!("integer {v} is out of range")))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Raw, E> {
        serde_json::Number::from_f64(v)
            .map(Raw::Number)
            .ok_or_else(|| E::custom("infinite or NaN numbers are not JSON numbers"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries: Vec<(Spanned<Raw>, Spanned<Raw>)> = Vec::new();
        // The string keys seen, by index into `entries`: looked up among the entries while
        // the map is small (most are), through a hash map of their texts once it is not.
        let mut seen: Option<std::collections::HashMap<String, usize>> = None;
        while let Some(key) = map.next_key::<Spanned<Raw>>()? {
            let value = map.next_value::<Spanned<Raw>>()?;
            if let Raw::String(k) = &key.value {
                let first = match &seen {
                    Some(seen) => seen.get(k).copied(),
                    None => entries
                        .iter()
                        .position(|(e, _)| matches!(&e.value, Raw::String(s) if s == k)),
                };
                if let Some(first) = first.and_then(|i| entries.get(i)) {
                    let dup = (k.clone(), first.0.referenced, key.referenced);
                    DUPLICATES.with(|d| d.borrow_mut().push(dup));
                    continue;
                }
                if let Some(seen) = &mut seen {
                    seen.insert(k.clone(), entries.len());
                } else if entries.len() >= SCANNED_KEYS {
                    let mut all: std::collections::HashMap<String, usize> = entries
                        .iter()
                        .enumerate()
                        .filter_map(|(i, (e, _))| match &e.value {
                            Raw::String(s) => Some((s.clone(), i)),
                            _ => None,
                        })
                        .collect();
                    all.insert(k.clone(), entries.len());
                    seen = Some(all);
                }
            }
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

fn span_of(file: &SourceFile, id: FileId, loc: &Location) -> Span {
    let s = loc.span();
    match (s.byte_offset(), s.byte_len()) {
        (Some(off), Some(len)) => {
            let start = (off as usize).min(file.text.len());
            Span::new(id, start, (start + len as usize).min(file.text.len()))
        }
        _ => {
            let start = file.offset_of(loc.line() as usize, loc.column() as usize);
            Span::new(id, start, start)
        }
    }
}

/// Converts a key to its text: manifests only use string keys, but a YAML
/// key such as `200` or `true` is read as its spelling.
fn key_text(raw: Raw) -> Result<String, &'static str> {
    match raw {
        Raw::String(s) => Ok(s),
        Raw::Number(n) => Ok(n.to_string()),
        Raw::Bool(b) => Ok(b.to_string()),
        Raw::Null => Ok("null".to_string()),
        Raw::Seq(_) | Raw::Map(_) => Err("a mapping key must be a string, not a list or mapping"),
    }
}

struct Builder<'a> {
    file: &'a SourceFile,
    id: FileId,
    diags: Vec<Diagnostic>,
}

impl Builder<'_> {
    fn node(&mut self, s: Spanned<Raw>, depth: usize) -> Node {
        let span = span_of(self.file, self.id, &s.referenced);
        if depth > MAX_DEPTH {
            self.diags.push(too_deep(span));
            return Node {
                span,
                value: Value::Null,
            };
        }
        let value = match s.value {
            Raw::Null => Value::Null,
            Raw::Bool(b) => Value::Bool(b),
            Raw::Number(n) => Value::Number(n),
            Raw::String(s) => Value::String(s),
            Raw::Seq(items) => {
                Value::Seq(items.into_iter().map(|i| self.node(i, depth + 1)).collect())
            }
            Raw::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    let key_span = span_of(self.file, self.id, &k.referenced);
                    match key_text(k.value) {
                        Ok(key) => {
                            let value = self.node(v, depth + 1);
                            out.push(Entry {
                                key,
                                key_span,
                                value,
                            });
                        }
                        Err(msg) => self
                            .diags
                            .push(Diagnostic::new(Code::WrongType, msg).at(key_span)),
                    }
                }
                Value::Map(out)
            }
        };
        Node { span, value }
    }
}

fn options() -> serde_saphyr::Options {
    let mut o = serde_saphyr::Options::default();
    o.strict_booleans = true;
    o.with_snippet = false;
    // Repeated keys reach the visitor, which reports both places.
    o.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.max_nodes = MAX_NODES;
    // A file's own strings stay under the file size limit; aliases may not
    // expand them past twice that.
    budget.max_total_scalar_bytes = 2 * MAX_FILE_BYTES as usize;
    o.budget = Some(budget);
    o
}

/// The stack the YAML parse runs on. serde-saphyr recurses once per nesting
/// level with large frames when unoptimized (as build scripts usually are):
/// the [`MAX_DEPTH`] levels it allows take about 8 MiB, more than a test
/// thread or an async worker has. Only the pages used are ever touched.
pub(super) const PARSE_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Parses one YAML file. Returns the tree, or the diagnostics that stopped it.
pub fn parse(file: &SourceFile, id: FileId) -> Result<Node, Vec<Diagnostic>> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("toolc-yaml".into())
            .stack_size(PARSE_STACK_BYTES)
            .spawn_scoped(scope, || parse_here(file, id));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: parse here, on the caller's stack.
            Err(_) => parse_here(file, id),
        }
    })
}

/// Whether a YAML text holds nothing but blank lines, comments and document
/// markers: an empty document, rather than a `null` one.
fn has_no_content(text: &str) -> bool {
    text.lines().all(|line| {
        let line = line.trim();
        line.is_empty() || line.starts_with('#') || line == "---" || line == "..."
    })
}

fn parse_here(file: &SourceFile, id: FileId) -> Result<Node, Vec<Diagnostic>> {
    DUPLICATES.with(|d| d.borrow_mut().clear());
    if has_no_content(&file.text) {
        // An empty document is an empty mapping: the loader then says what
        // is missing, at the top of the file.
        return Ok(Node {
            span: Span::new(id, 0, 0),
            value: Value::Map(Vec::new()),
        });
    }
    let parsed = serde_saphyr::from_str_with_options::<Spanned<Raw>>(&file.text, options());
    let dups = DUPLICATES.with(|d| std::mem::take(&mut *d.borrow_mut()));
    if !dups.is_empty() {
        return Err(dups
            .into_iter()
            .map(|(key, first, second)| {
                Diagnostic::new(Code::DuplicateKey, format!("duplicate key `{key}`"))
                    .at(span_of(file, id, &second))
                    .label("defined again here")
                    .secondary(span_of(file, id, &first), "first defined here")
                    .help("remove one of the two entries, or merge them")
            })
            .collect());
    }
    match parsed {
        Ok(root) => {
            let mut b = Builder {
                file,
                id,
                diags: Vec::new(),
            };
            let node = b.node(root, 0);
            if b.diags.is_empty() {
                Ok(node)
            } else {
                Err(b.diags)
            }
        }
        Err(e) => Err(vec![error_diagnostic(file, id, &e)]),
    }
}

/// The error itself, without the wrappers that add alias locations or
/// source snippets.
fn innermost(mut e: &serde_saphyr::Error) -> &serde_saphyr::Error {
    while let serde_saphyr::Error::AliasError { error, .. }
    | serde_saphyr::Error::WithSnippet { error, .. } = e
    {
        e = error;
    }
    e
}

/// What a breached reading budget means, in the manifest's terms.
fn budget_message(breach: &serde_saphyr::budget::BudgetBreach) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Depth { .. } => format!("the manifest nests deeper than {MAX_DEPTH} levels"),
        B::Nodes { .. } => format!(
            "the manifest has more than {MAX_NODES} nodes (keys, values, lists and mappings, each alias expansion counted again)"
        ),
        B::ScalarBytes { .. } => format!(
            "the manifest's strings add up to more than {} bytes (each alias expansion counted again)",
            2 * MAX_FILE_BYTES
        ),
        B::Aliases { .. }
        | B::Anchors { .. }
        | B::AliasAnchorRatio { .. }
        | B::RecordedAnchorEvents { .. }
        | B::RecordedAnchorBytes { .. } => {
            "the manifest uses too many YAML anchors and aliases".to_string()
        }
        other => format!("the manifest is too large to read ({other:?})"),
    }
}

fn error_diagnostic(file: &SourceFile, id: FileId, e: &serde_saphyr::Error) -> Diagnostic {
    let inner = innermost(e);
    let text = inner.to_string();
    // The message without the location suffix serde-saphyr appends.
    let message = text
        .split(" at line ")
        .next()
        .unwrap_or(&text)
        .trim()
        .to_string();
    let (code, message) = match inner {
        serde_saphyr::Error::Budget { breach, .. } => (Code::TooLarge, budget_message(breach)),
        serde_saphyr::Error::MultipleDocuments { .. } => (
            Code::Syntax,
            "invalid YAML: a manifest file holds one YAML document, and a second one starts here"
                .to_string(),
        ),
        _ if message.contains("recursion limit") => (
            Code::TooLarge,
            format!("the manifest nests deeper than {MAX_DEPTH} levels"),
        ),
        _ if message.to_ascii_lowercase().contains("duplicate") => {
            (Code::DuplicateKey, format!("invalid YAML: {message}"))
        }
        _ => (Code::Syntax, format!("invalid YAML: {message}")),
    };
    let mut d = Diagnostic::new(code, message);
    d = match e.location().or_else(|| inner.location()) {
        Some(loc) => d.at(span_of(file, id, &loc)),
        None => d.at(Span::new(id, 0, 0)),
    };
    if code == Code::TooLarge {
        d = d.help(
            "manifests are small: flatten deep nesting (move nested schemas into `types` and use `$ref`), split large files, and avoid aliases that expand many times",
        );
    }
    d
}
