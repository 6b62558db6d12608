//! Manuals: their text (inline or from a file inside the manifest root) and
//! the `{{ tool("x") }}` / `{{ play("x") }}` references in it.

use crate::diag::{Code, Diagnostic, FileId, SourceMap, Span};
use std::path::{Component, Path, PathBuf};

/// What a manual reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefKind {
    Tool,
    Play,
}

impl RefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Tool => "tool",
            RefKind::Play => "play",
        }
    }
}

/// `{{ tool("name") }}` in a manual.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ManualRef {
    pub kind: RefKind,
    pub name: String,
    #[serde(skip)]
    pub span: Span,
}

/// A manual's text with its references rendered as plain names, and the
/// references themselves for checking against each capability.
#[derive(Debug, Clone, PartialEq)]
pub struct ManualText {
    pub text: String,
    pub refs: Vec<ManualRef>,
}

/// Maps offsets in a string value to spans in the source: exact when the
/// value is written verbatim in the source, else the whole value's span.
struct Locator {
    base: Span,
    exact: bool,
}

impl Locator {
    fn new(text: &str, base: Span, sources: &SourceMap) -> Self {
        let written = sources.snippet(base);
        if written == text {
            return Locator { base, exact: true };
        }
        // A quoted string without escapes: the text starts after the quote.
        let quoted = written.len() == text.len() + 2
            && [b'"', b'\''].iter().any(|&q| {
                written.as_bytes().first() == Some(&q) && written.as_bytes().last() == Some(&q)
            })
            && written.get(1..written.len() - 1) == Some(text);
        if quoted {
            Locator {
                base: Span::new(base.file, base.start + 1, base.end - 1),
                exact: true,
            }
        } else {
            Locator { base, exact: false }
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        if self.exact {
            Span::new(
                self.base.file,
                self.base.start + start,
                self.base.start + end,
            )
        } else {
            self.base
        }
    }
}

/// Scans a manual for references. `base` is where the text is written.
pub fn scan(
    text: &str,
    base: Span,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> ManualText {
    let loc = Locator::new(text, base, sources);
    let mut out = String::with_capacity(text.len());
    let mut refs = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("{{").map(|i| i + rest) {
        out.push_str(&text[rest..open]);
        let Some(close) = text[open + 2..].find("}}").map(|i| i + open + 2) else {
            diags.push(
                Diagnostic::new(Code::ManualTemplate, "unclosed `{{` in manual")
                    .at(loc.span(open, open + 2))
                    .help("close it with `}}`, or write `{{ \"{{\" }}` for literal braces"),
            );
            out.push_str(&text[open..]);
            return ManualText { text: out, refs };
        };
        let inner = text[open + 2..close].trim();
        let span = loc.span(open, close + 2);
        match parse_call(inner) {
            Some(Call::Ref(kind, name)) => {
                out.push_str(name);
                refs.push(ManualRef {
                    kind,
                    name: name.to_string(),
                    span,
                });
            }
            Some(Call::Literal(s)) => out.push_str(s),
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::ManualTemplate,
                        format!("`{{{{ {inner} }}}}` is not a manual reference"),
                    )
                    .at(span)
                    .help("manuals may use `{{ tool(\"name\") }}` and `{{ play(\"name\") }}`; write `{{ \"{{\" }}` for literal braces"),
                );
                out.push_str(&text[open..close + 2]);
            }
        }
        rest = close + 2;
    }
    out.push_str(&text[rest..]);
    ManualText { text: out, refs }
}

enum Call<'a> {
    Ref(RefKind, &'a str),
    Literal(&'a str),
}

fn quoted(s: &str) -> Option<&str> {
    let s = s.trim();
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    s.strip_prefix(q)?
        .strip_suffix(q)
        .filter(|inner| !inner.contains(q))
}

fn parse_call(inner: &str) -> Option<Call<'_>> {
    if let Some(lit) = quoted(inner) {
        return Some(Call::Literal(lit));
    }
    let (func, args) = inner.split_once('(')?;
    let args = args.trim_end().strip_suffix(')')?;
    let kind = match func.trim() {
        "tool" => RefKind::Tool,
        "play" => RefKind::Play,
        _ => return None,
    };
    Some(Call::Ref(kind, quoted(args)?))
}

/// Resolves `file` (as written in the manifest at `manifest`) inside `root`,
/// refusing absolute paths, `..` that leaves the root, and symlinks out.
pub fn confine(file: &str, manifest: &Path, root: &Path) -> Result<PathBuf, String> {
    let rel = Path::new(file);
    if rel.is_absolute() || rel.has_root() {
        return Err(format!("manual file `{file}` is an absolute path"));
    }
    let dir = manifest.parent().unwrap_or(Path::new(""));
    let joined = dir.join(rel);
    if !absolute(&joined).starts_with(absolute(root)) {
        return Err(format!(
            "manual file `{file}` is outside the manifest root `{}`",
            root.display()
        ));
    }
    // Symlinks: compare real paths. A missing file is reported when read.
    if let (Ok(real), Ok(real_root)) = (std::fs::canonicalize(&joined), std::fs::canonicalize(root))
        && !real.starts_with(&real_root)
    {
        return Err(format!(
            "manual file `{file}` leads outside the manifest root `{}` through a symlink",
            root.display()
        ));
    }
    Ok(joined)
}

/// The absolute, normalized form of a path, for comparing a path with the
/// root: as written, a relative root such as `""` or `.` would be a prefix
/// of every relative path, `../x.md` too.
fn absolute(p: &Path) -> PathBuf {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// Lexical normalization: drops `.`, folds `..` onto the previous part.
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

/// Reads a manual file into the source map, so its references point into it.
pub fn read(path: &Path, sources: &mut SourceMap) -> Result<FileId, String> {
    let len = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if len > crate::manifest::MAX_FILE_BYTES {
        return Err(format!(
            "it is {len} bytes, over the {} byte limit",
            crate::manifest::MAX_FILE_BYTES
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "it is not valid UTF-8".to_string())?;
    Ok(sources.add(path, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_renders_and_records_references() {
        let mut sources = SourceMap::new();
        let text = "Use {{ tool(\"list_meetings\") }} then {{play('recap')}}.";
        let id = sources.add("m.md", text.to_string());
        let mut diags = Vec::new();
        let m = scan(text, Span::new(id, 0, text.len()), &sources, &mut diags);
        assert!(diags.is_empty());
        assert_eq!(m.text, "Use list_meetings then recap.");
        assert_eq!(m.refs.len(), 2);
        assert_eq!(m.refs[0].span, Span::new(id, 4, 31));
        assert_eq!(m.refs[1].kind, RefKind::Play);
    }

    #[test]
    fn references_in_quoted_strings_point_at_themselves() {
        let mut sources = SourceMap::new();
        let written = "text: \"See {{ tool('a') }}.\"";
        let id = sources.add("m.yaml", written.to_string());
        let mut diags = Vec::new();
        let m = scan(
            "See {{ tool('a') }}.",
            Span::new(id, 6, written.len()),
            &sources,
            &mut diags,
        );
        assert_eq!(m.refs[0].span, Span::new(id, 11, 26));
    }

    #[test]
    fn scan_reports_bad_templates() {
        let mut sources = SourceMap::new();
        let text = "{{ nope }} and {{ unclosed";
        let id = sources.add("m.md", text.to_string());
        let mut diags = Vec::new();
        scan(text, Span::new(id, 0, text.len()), &sources, &mut diags);
        assert_eq!(diags.len(), 2);
        assert_eq!(diags[0].span, Some(Span::new(id, 0, 10)));
        assert_eq!(diags[1].span, Some(Span::new(id, 15, 17)));
    }

    #[test]
    fn confine_refuses_escapes() {
        let root = Path::new("manifests");
        let m = Path::new("manifests/a.yaml");
        assert!(confine("docs/x.md", m, root).is_ok());
        assert!(confine("../x.md", m, root).is_err());
        assert!(confine("docs/../../x.md", m, root).is_err());
        assert!(confine("/etc/passwd", m, root).is_err());
        // A manifest given as a bare file name: its root is the current
        // folder, or the empty path.
        for root in [Path::new("."), Path::new("")] {
            let m = Path::new("a.yaml");
            assert!(confine("docs/x.md", m, root).is_ok());
            assert!(confine("../x.md", m, root).is_err());
            assert!(confine("./docs/../../x.md", m, root).is_err());
        }
    }
}
