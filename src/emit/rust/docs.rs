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

/// Rewrites description text for rustdoc, so any Markdown a description
/// holds renders without a rustdoc or clippy warning:
/// - direction controls and other control characters are spelled out as
///   `U+XXXX`, tabs become four spaces;
/// - every fenced code block is marked `text`, and leading indentation is
///   removed, so no block is compiled as a doctest;
/// - outside code, `[` and `]` are escaped unless they make a link to a URL
///   (rustdoc would read `[name]` as a link to an item), bare URLs are put
///   in `<…>`, and `<` is `&lt;` (a stray tag is a rustdoc warning);
/// - a plain line right after a list item or a quote gets a blank line
///   first (clippy's `doc_lazy_continuation`);
/// - line endings are normalized.
pub fn sanitize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    // Whether the previous line was a list item or a quote (outside fences).
    let mut after_block = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        if fence.is_none() && !trimmed.starts_with("```") && !trimmed.starts_with("~~~") {
            let block = is_list_item(trimmed) || trimmed.starts_with('>');
            if after_block && !block && !trimmed.trim().is_empty() {
                out.push('\n');
            }
            after_block = block;
        } else {
            after_block = false;
        }
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
            _ if fence.is_some() => trimmed.to_string(),
            _ => prose(trimmed),
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

/// Whether a line starts a Markdown list item.
fn is_list_item(line: &str) -> bool {
    if ["- ", "* ", "+ "].iter().any(|p| line.starts_with(p)) {
        return true;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// One line of prose, outside code spans: brackets that are not a link to
/// a URL escaped, bare URLs in `<…>`, `<` as `&lt;`.
fn prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while !rest.is_empty() {
        // A code span runs to the next run of as many backticks.
        if rest.starts_with('`') {
            let ticks = rest.chars().take_while(|c| *c == '`').count();
            let fence = "`".repeat(ticks);
            if let Some(end) = rest[ticks..].find(&fence) {
                let span = ticks + end + ticks;
                out.push_str(&rest[..span]);
                rest = &rest[span..];
                continue;
            }
            out.push_str(&fence);
            rest = &rest[ticks..];
            continue;
        }
        // A Markdown link to a URL stays as it is.
        if rest.starts_with('[')
            && let Some(close) = rest.find("](")
            && !rest[1..close].contains(['[', ']', '`'])
            && let Some(end) = rest[close..].find(')')
            && rest[close + 2..close + end].contains("://")
            && !rest[close + 2..close + end].contains([' ', '<', '>'])
        {
            let link = close + end + 1;
            out.push_str(&rest[..link]);
            rest = &rest[link..];
            continue;
        }
        // An autolink `<https://…>` stays as it is.
        if rest.starts_with("<http")
            && let Some(end) = rest.find('>')
            && rest[1..end].contains("://")
            && !rest[1..end].contains([' ', '<'])
        {
            out.push_str(&rest[..=end]);
            rest = &rest[end + 1..];
            continue;
        }
        if rest.starts_with("https://") || rest.starts_with("http://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '`' | '"'))
                .unwrap_or(rest.len());
            let url = url_end(&rest[..end]);
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &rest[url.len()..];
            continue;
        }
        let Some(c) = rest.chars().next() else { break };
        match c {
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '<' => out.push_str("&lt;"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A bare URL without the punctuation that ends the sentence around it: a
/// trailing `.`/`,`/`;`/`:`/`!`/`?`, and a closing bracket it did not open.
fn url_end(url: &str) -> &str {
    let mut url = url;
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?']);
        let unbalanced = |open: char, close: char| {
            trimmed.ends_with(close)
                && trimmed.matches(close).count() > trimmed.matches(open).count()
        };
        if unbalanced('(', ')') || unbalanced('[', ']') {
            url = &trimmed[..trimmed.len() - 1];
        } else {
            return trimmed;
        }
    }
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
    fn markdown_that_rustdoc_or_clippy_would_flag_is_made_plain() {
        assert_eq!(
            sanitize("Steps:\n- one\n- two\nthen done."),
            "Steps:\n- one\n- two\n\nthen done."
        );
        assert_eq!(sanitize("> quoted\nafter"), "> quoted\n\nafter");
        assert_eq!(
            sanitize("See [Self] and [docs](https://a.b/c) or https://x.y/z."),
            "See \\[Self\\] and [docs](https://a.b/c) or <https://x.y/z>."
        );
        assert_eq!(
            sanitize("(at https://x.y/a_(b)) or https://x.y/?r=[2]."),
            "(at <https://x.y/a_(b)>) or <https://x.y/?r=[2]>."
        );
        assert_eq!(
            sanitize("a <b> tag, `[kept]` <code>"),
            "a &lt;b> tag, `[kept]` &lt;code>"
        );
        assert_eq!(sanitize("```\n[x] <y>\n```"), "```text\n[x] <y>\n```");
    }

    #[test]
    fn unclosed_fence_is_closed() {
        assert_eq!(sanitize("```\ncode"), "```text\ncode\n```");
    }
}
