//! `pattern` regexes: ECMA-262 source, compiled once on first use with the `regex` crate.

use std::fmt;
use std::sync::OnceLock;

use regex::Regex;

/// A `pattern` (or `patternProperties` key): ECMA-262 regex source, compiled lazily.
///
/// ECMA-262's ASCII classes (`\d`, `\w`, `\s` and their negations) are translated to their
/// ECMA meaning before compiling; other syntax goes to the `regex` crate as written, so
/// look-around and back-references (which it does not support) make the pattern fail to
/// compile, and every string is then reported as not matching it.
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// A pattern over `source`; nothing is compiled until it is first used.
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The ECMA-262 source.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled regex, or why it could not be compiled.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| {
                regex::RegexBuilder::new(&translate(self.source))
                    .size_limit(1 << 22)
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether `text` contains a match; `Err` when the pattern does not compile.
    pub fn is_match(&self, text: &str) -> Result<bool, &str> {
        Ok(self.regex()?.is_match(text))
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const NOT_DIGIT: &str = "\\x00-/:-\\x{10FFFF}";
const NOT_WORD: &str = "\\x00-/:-@\\[-\\^`\\{-\\x{10FFFF}";
const NOT_SPACE: &str = "\\x00-\\x08\\x0E-\\x1F!-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";

/// Rewrites ECMA-262 class escapes whose meaning differs in the `regex` crate.
fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 16);
    let mut in_class = false;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let set = match e {
                    'd' => Some(DIGIT),
                    'w' => Some(WORD),
                    's' => Some(SPACE),
                    'D' => Some(NOT_DIGIT),
                    'W' => Some(NOT_WORD),
                    'S' => Some(NOT_SPACE),
                    _ => None,
                };
                match set {
                    Some(set) if in_class => out.push_str(set),
                    Some(set) => {
                        out.push('[');
                        out.push_str(set);
                        out.push(']');
                    }
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A leading `]` or `^]` is literal in neither dialect's sense we rely on;
                // copy `^` through.
                let rest = chars.as_str();
                if let Some(stripped) = rest.strip_prefix('^') {
                    out.push('^');
                    chars = stripped.chars();
                }
            }
            '[' => out.push_str("\\["),
            '&' | '~' if in_class => {
                // `&&` and `~~` are set operations in the `regex` crate, literals in ECMA-262.
                out.push('\\');
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecma_classes_are_ascii() {
        static P: Pattern = Pattern::new("^\\d+$");
        assert_eq!(P.is_match("123"), Ok(true));
        assert_eq!(P.is_match("١٢٣"), Ok(false));
        static W: Pattern = Pattern::new("^[\\w-]+$");
        assert_eq!(W.is_match("a_b-c"), Ok(true));
        assert_eq!(W.is_match("é"), Ok(false));
        static S: Pattern = Pattern::new("^\\S+$");
        assert_eq!(S.is_match("a\u{85}b"), Ok(true));
        assert_eq!(S.is_match("a\u{feff}b"), Ok(false));
        static N: Pattern = Pattern::new("[^\\d]");
        assert_eq!(N.is_match("12a"), Ok(true));
        assert_eq!(N.is_match("12"), Ok(false));
    }

    #[test]
    fn unsupported_syntax_is_an_error_not_a_panic() {
        static P: Pattern = Pattern::new("(?<=a)b");
        assert!(P.is_match("ab").is_err());
    }
}
