//! TOML → spanned [`Node`] tree, through the `toml` crate's spanned document.

use super::node::{Entry, MAX_DEPTH, MAX_NODES, Node, Value, too_deep};
use crate::diag::{Code, Diagnostic, FileId, SourceFile, Span};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// What a quick lexical pass over a TOML file finds before it is parsed.
#[derive(Debug, PartialEq, Eq)]
enum Prescan {
    Ok,
    /// Brackets nest deeper than the limit at this byte offset.
    TooDeep(usize),
    /// The file holds more values than the node limit; the offset is where
    /// the count passed it.
    TooManyNodes(usize),
}

/// Scans TOML text outside strings and comments, measuring bracket nesting
/// and counting values (each `=` is a key and a value, each `,` one more
/// item, each `[` or `{` a container). The TOML parser builds its whole tree
/// before any limit of ours could apply, so input over the limits is
/// refused without handing it over.
fn prescan(text: &str, depth_limit: usize, node_limit: usize) -> Prescan {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut nodes = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'"' | b'\'') => {
                let multi = bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q);
                i = if multi {
                    skip_multiline_string(bytes, i + 3, q)
                } else {
                    skip_string(bytes, i + 1, q)
                };
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                nodes += 1;
                if depth > depth_limit {
                    return Prescan::TooDeep(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' => nodes += 2,
            b',' => nodes += 1,
            _ => {}
        }
        if nodes > node_limit {
            return Prescan::TooManyNodes(i);
        }
        i += 1;
    }
    Prescan::Ok
}

/// The offset just past a one-line string whose text starts at `i`.
fn skip_string(bytes: &[u8], mut i: usize, q: u8) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if q == b'"' => i += 2,
            b'\n' => return i,
            b if b == q => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The offset just past a multi-line string whose text starts at `i`. Up to
/// two more quotes may stand right before the closing three.
fn skip_multiline_string(bytes: &[u8], mut i: usize, q: u8) -> usize {
    while i < bytes.len() {
        if bytes[i] == b'\\' && q == b'"' {
            i += 2;
        } else if bytes[i..].starts_with(&[q, q, q]) {
            i += 3;
            let mut extra = 0;
            while extra < 2 && bytes.get(i) == Some(&q) {
                i += 1;
                extra += 1;
            }
            return i;
        } else {
            i += 1;
        }
    }
    i
}

/// The TOML reader refuses brackets or key paths nested this deep.
const TOML_READER_DEPTH: usize = 80;

/// Where the first key path of `limit` parts or more starts: a location for
/// the TOML reader's "recursion limit" error, which has none.
fn long_key_path(text: &str, limit: usize) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let head = line.split('=').next().unwrap_or(line);
        if head.matches('.').count() + 1 >= limit {
            let indent = line.len() - line.trim_start().len();
            return Some(offset + indent);
        }
        offset += line.len();
    }
    None
}

fn too_many_nodes(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::TooLarge,
        format!("the manifest has more than {MAX_NODES} nodes (keys, values, lists and tables)"),
    )
    .at(span)
    .help("split the toolset into several manifest files")
}

/// One error of the TOML reader as a diagnostic.
fn syntax_error(file: &SourceFile, id: FileId, e: &toml::de::Error) -> Diagnostic {
    let msg = e.message().trim().to_string();
    let sp = e.span().map(|r| span(id, r));
    if msg.contains("recursion limit") || msg.contains("max recursion depth") {
        let at = sp.or_else(|| {
            long_key_path(&file.text, TOML_READER_DEPTH).map(|at| Span::new(id, at, at + 1))
        });
        return Diagnostic::new(
            Code::TooLarge,
            format!(
                "the TOML nests deeper than the {TOML_READER_DEPTH} levels the TOML reader allows"
            ),
        )
        .at(at.unwrap_or(Span::new(id, 0, 0)))
        .help(
            "flatten the structure, or move nested schemas into `types` and refer to them with `$ref`",
        );
    }
    let sp = sp.unwrap_or(Span::new(id, 0, 0));
    if msg.contains("duplicate key") {
        let key = file.text.get(sp.start..sp.end).unwrap_or("").trim();
        let message = if key.is_empty() || key.contains('\n') {
            "invalid TOML: duplicate key".to_string()
        } else {
            format!("invalid TOML: duplicate key `{key}`")
        };
        return Diagnostic::new(Code::DuplicateKey, message)
            .at(sp)
            .label("defined again here")
            .help("remove one of the two entries, or merge them");
    }
    Diagnostic::new(Code::Syntax, format!("invalid TOML: {msg}")).at(sp)
}

fn span(id: FileId, r: std::ops::Range<usize>) -> Span {
    Span::new(id, r.start, r.end)
}

fn convert(
    id: FileId,
    v: &Spanned<DeValue<'_>>,
    depth: usize,
    diags: &mut Vec<Diagnostic>,
) -> Node {
    let sp = span(id, v.span());
    if depth > MAX_DEPTH {
        diags.push(too_deep(sp));
        return Node {
            span: sp,
            value: Value::Null,
        };
    }
    let value = match v.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Integer(i) => {
            let text = i.as_str();
            match i64::from_str_radix(text, i.radix()) {
                Ok(n) => Value::Number(n.into()),
                Err(_) => match u64::from_str_radix(text, i.radix()) {
                    Ok(n) => Value::Number(n.into()),
                    Err(_) => {
                        diags.push(
                            Diagnostic::new(
                                Code::Syntax,
                                format!("integer `{text}` is out of range"),
                            )
                            .at(sp),
                        );
                        Value::Null
                    }
                },
            }
        }
        DeValue::Float(f) => {
            match f
                .as_str()
                .replace('_', "")
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
            {
                Some(n) => Value::Number(n),
                None => {
                    diags.push(
                        Diagnostic::new(
                            Code::Syntax,
                            format!("`{}` is not a finite number", f.as_str()),
                        )
                        .at(sp)
                        .help("JSON has no infinity or NaN; use a finite number"),
                    );
                    Value::Null
                }
            }
        }
        DeValue::Array(items) => Value::Seq(
            items
                .iter()
                .map(|i| convert(id, i, depth + 1, diags))
                .collect(),
        ),
        DeValue::Table(t) => Value::Map(convert_table(id, t, depth, diags)),
    };
    Node { span: sp, value }
}

fn convert_table(
    id: FileId,
    t: &DeTable<'_>,
    depth: usize,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Entry> {
    t.iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            key_span: span(id, k.span()),
            value: convert(id, v, depth + 1, diags),
        })
        .collect()
}

/// What the TOML front end refuses before a tree is read.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Brackets nest deeper than the limit at this byte offset.
    TooDeep(usize),
    /// More values than the node limit; the offset is where the count passed it.
    TooManyNodes(usize),
    /// The TOML reader's errors, as diagnostics.
    Syntax(Vec<Diagnostic>),
}

/// The TOML front end of manifests and `toolc.toml`: the file checked
/// against the limits, then read by the `toml` crate into its spanned
/// document. Every syntax error is a diagnostic worded here, once, for both.
pub(crate) fn read(
    file: &SourceFile,
    id: FileId,
    depth_limit: usize,
    node_limit: usize,
) -> Result<Spanned<DeTable<'_>>, Refusal> {
    match prescan(&file.text, depth_limit, node_limit) {
        Prescan::Ok => {}
        Prescan::TooDeep(at) => return Err(Refusal::TooDeep(at)),
        Prescan::TooManyNodes(at) => return Err(Refusal::TooManyNodes(at)),
    }
    let (root, errors) = DeTable::parse_recoverable(&file.text);
    if errors.is_empty() {
        return Ok(root);
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    for e in &errors {
        let d = syntax_error(file, id, e);
        if !out.contains(&d) {
            out.push(d);
        }
    }
    Err(Refusal::Syntax(out))
}

/// Parses one TOML file. Returns the tree, or every syntax error found.
pub fn parse(file: &SourceFile, id: FileId) -> Result<Node, Vec<Diagnostic>> {
    let root = match read(file, id, MAX_DEPTH, MAX_NODES) {
        Ok(root) => root,
        Err(Refusal::TooDeep(at)) => return Err(vec![too_deep(Span::new(id, at, at + 1))]),
        Err(Refusal::TooManyNodes(at)) => {
            return Err(vec![too_many_nodes(Span::new(id, at, at + 1))]);
        }
        Err(Refusal::Syntax(diags)) => return Err(diags),
    };
    let mut diags = Vec::new();
    let entries = convert_table(id, root.get_ref(), 0, &mut diags);
    if diags.is_empty() {
        Ok(Node {
            span: span(id, root.span()),
            value: Value::Map(entries),
        })
    } else {
        Err(diags)
    }
}

#[cfg(test)]
mod tests {
    use super::{Prescan, long_key_path, prescan};

    #[test]
    fn prescan_ignores_strings_and_comments() {
        assert_eq!(prescan("a = \"[[[[\" # [[[[\n", 2, 100), Prescan::Ok);
        assert_eq!(prescan("a = [[[1]]]", 2, 100), Prescan::TooDeep(6));
        assert_eq!(
            prescan("a = '''x'''\nb = [[[1]]]", 2, 100),
            Prescan::TooDeep(18)
        );
        // Quotes inside a multi-line string, and two right before its end.
        assert_eq!(
            prescan("a = \"\"\"[[[ \"q\" [[[\"\"\"\"\"\nb = 1", 2, 100),
            Prescan::Ok
        );
        assert_eq!(prescan("a = \"\\\"[[[\"", 2, 100), Prescan::Ok);
    }

    #[test]
    fn prescan_counts_values() {
        assert_eq!(prescan("a = [1, 2, 3]", 8, 100), Prescan::Ok);
        assert_eq!(prescan("a = [1, 2, 3]", 8, 4), Prescan::TooManyNodes(9));
        assert_eq!(prescan("a = \"1,2,3,4,5\"", 8, 4), Prescan::Ok);
    }

    #[test]
    fn long_key_paths_are_found() {
        assert_eq!(long_key_path("a = 1\n  [b.c.d]\n", 3), Some(8));
        assert_eq!(long_key_path("a = 1.5\n", 3), None);
    }
}
