//! Doc text for generated items: manifest prose made safe to hold in a doc
//! comment. Nothing a description says can run as a doctest, trip a lint or
//! leave the comment.

use proc_macro2::TokenStream;
use quote::quote;

/// Unicode controls that change text direction; rustc denies them in
/// comments (`text_direction_codepoint_in_comment`).
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// Rewrites description text for rustdoc:
/// - direction controls and other control characters are spelled out as
///   `U+XXXX`, tabs become four spaces;
/// - every fenced code block is marked `text`, and leading indentation is
///   removed, so no block is compiled as a doctest;
/// - line endings are normalized.
pub fn sanitize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        let line = match (marker, &fence) {
            (Some(m), None) => {
                let run: String = trimmed.chars().take_while(|c| m.starts_with(*c)).collect();
                fence = Some(run.clone());
                format!("{run}text")
            }
            (Some(_), Some(open))
                if trimmed.trim_end() == open.as_str()
                    || trimmed.starts_with(open.as_str())
                        && trimmed[open.len()..].trim().is_empty() =>
            {
                let closing = open.clone();
                fence = None;
                closing
            }
            _ => trimmed.to_string(),
        };
        for c in line.chars() {
            if c == '\t' {
                // clippy: tabs_in_doc_comments.
                out.push_str("    ");
            } else if is_bidi_control(c) || c.is_control() {
                out.push_str(&format!("U+{:04X}", c as u32));
            } else {
                out.push(c);
            }
        }
    }
    if let Some(open) = fence {
        // An unclosed fence would swallow the rest of the item's docs.
        out.push('\n');
        out.push_str(&open);
    }
    out
}

/// `#[doc = "…"]` attributes, one per line, each line starting with a space
/// so it renders as `/// line`.
pub fn doc_attrs(text: &str) -> TokenStream {
    let text = sanitize(text.trim());
    if text.is_empty() {
        return TokenStream::new();
    }
    let lines = text.split('\n').map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #l])
    });
    quote!(#(#lines)*)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_become_text_and_indentation_goes() {
        let s = sanitize("a\n```rust\nfn main() {}\n```\n    indented();\n\u{202E}x");
        assert_eq!(s, "a\n```text\nfn main() {}\n```\nindented();\nU+202Ex");
    }

    #[test]
    fn unclosed_fence_is_closed() {
        assert_eq!(sanitize("```\ncode"), "```text\ncode\n```");
    }
}
