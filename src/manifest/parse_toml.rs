//! TOML → spanned [`Node`] tree, through the `toml` crate's spanned document.

use super::node::{Entry, MAX_DEPTH, Node, Value};
use super::parse_yaml::too_deep;
use crate::diag::{Code, Diagnostic, FileId, SourceFile, Span};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The deepest bracket nesting accepted before parsing. The TOML parser
/// recurses on nested arrays and inline tables, so deeper input is refused
/// without handing it over.
fn bracket_depth_exceeds(text: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str: Option<u8> = None;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match in_str {
            Some(q) => {
                if b == b'\\' && q == b'"' {
                    i += 1;
                } else if b == q {
                    in_str = None;
                }
            }
            None => match b {
                b'"' | b'\'' => in_str = Some(b),
                b'#' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth > limit {
                        return Some(i);
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                b'\n' => {}
                _ => {}
            },
        }
        i += 1;
    }
    None
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

/// Parses one TOML file. Returns the tree, or every syntax error found.
pub fn parse(file: &SourceFile, id: FileId) -> Result<Node, Vec<Diagnostic>> {
    if let Some(at) = bracket_depth_exceeds(&file.text, MAX_DEPTH) {
        return Err(vec![too_deep(Span::new(id, at, at + 1))]);
    }
    let (root, errors) = DeTable::parse_recoverable(&file.text);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|e| {
                let msg = e.message().trim().to_string();
                let code = if msg.contains("duplicate key") {
                    Code::DuplicateKey
                } else {
                    Code::Syntax
                };
                let sp = e.span().map_or(Span::new(id, 0, 0), |r| span(id, r));
                let mut d = Diagnostic::new(code, format!("invalid TOML: {msg}")).at(sp);
                if code == Code::DuplicateKey {
                    d = d.help("remove one of the two entries, or merge them");
                }
                d
            })
            .collect());
    }
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
    use super::bracket_depth_exceeds;

    #[test]
    fn bracket_depth_ignores_strings_and_comments() {
        assert_eq!(bracket_depth_exceeds("a = \"[[[[\" # [[[[\n", 2), None);
        assert_eq!(bracket_depth_exceeds("a = [[[1]]]", 2), Some(6));
    }
}
