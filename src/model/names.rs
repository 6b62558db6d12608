//! Name rules and the Rust identifiers names become.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Longest name allowed for toolboxes, playbooks, types and the other sections.
pub const MAX_NAME_LEN: usize = 64;

/// Longest tool or play name: MCP's limit (tools.mdx 2025-11-25, "Tool Names"). A
/// provider's tighter limit is a lint rule of its dialect (`tool-name-length`).
pub const MAX_TOOL_NAME_LEN: usize = 128;

/// Why a name of a toolbox, playbook, manual, capability or agent is
/// refused, as a message and a help line.
pub fn check_name(name: &str) -> Result<(), (String, String)> {
    check(
        name,
        crate::manifest::decode::is_name,
        "is not snake_case or kebab-case ASCII",
        "names match `^[a-z][a-z0-9_-]*$`",
    )
}

/// Why a tool or play name is refused. Tool and play names are what the model sees, so they
/// take what MCP takes (tools.mdx 2025-11-25, "Tool Names"): 1 to 128 of the ASCII letters,
/// digits, `_`, `-` and `.`, as MCP servers name their tools (`API-get-user`,
/// `admin.tools.list`); a provider's tighter rule is a lint rule of its dialect
/// (`tool-name-pattern`, `tool-name-length`). The name also needs a letter or digit, for
/// its Rust identifiers.
pub fn check_tool_name(name: &str) -> Result<(), (String, String)> {
    if name.trim().is_empty() {
        return Err((
            "'name' is required".to_string(),
            "give it a name such as `list_tickets`".to_string(),
        ));
    }
    if name.len() > MAX_TOOL_NAME_LEN {
        return Err((
            format!(
                "name `{name}` is {} characters long; MCP takes at most {MAX_TOOL_NAME_LEN}",
                name.len()
            ),
            "shorten it (OpenAI and Vertex AI take 64; toolc's lint says which dialects refuse a name)"
                .to_string(),
        ));
    }
    if !is_tool_name(name) {
        let suggestion: String = name
            .chars()
            .map(|c| if tool_name_char(c) { c } else { '_' })
            .collect();
        let help = if suggestion.chars().any(|c| c.is_ascii_alphanumeric()) {
            format!(
                "tool and play names are ASCII letters, digits, `_`, `-` and `.`, such as `{suggestion}`"
            )
        } else {
            "tool and play names are ASCII letters, digits, `_`, `-` and `.`, with a letter or digit among them".to_string()
        };
        return Err((
            format!(
                "name `{name}` is not ASCII letters, digits, `_`, `-` and `.` with a letter or digit among them"
            ),
            help,
        ));
    }
    Ok(())
}

/// A character MCP allows in a tool name.
fn tool_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Whether a tool or play name is of MCP's characters (`^[A-Za-z0-9_.-]+$`) with a letter or
/// digit among them.
pub fn is_tool_name(s: &str) -> bool {
    s.chars().all(tool_name_char) && s.chars().any(|c| c.is_ascii_alphanumeric())
}

fn check(
    name: &str,
    valid: fn(&str) -> bool,
    not: &str,
    rule: &str,
) -> Result<(), (String, String)> {
    if name.trim().is_empty() {
        return Err((
            "'name' is required".to_string(),
            "give it a snake_case or kebab-case name such as `list_tickets`".to_string(),
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err((
            format!(
                "name `{name}` is {} characters long; the limit is {MAX_NAME_LEN}",
                name.len()
            ),
            "providers refuse longer tool names; shorten it".to_string(),
        ));
    }
    if !valid(name) {
        let suggestion = suggest_name(name);
        return Err((
            format!("name `{name}` {not}"),
            if suggestion.is_empty() {
                rule.to_string()
            } else {
                format!("{rule}, such as `{suggestion}`")
            },
        ));
    }
    Ok(())
}

/// A valid name close to an invalid one, for the help line.
fn suggest_name(name: &str) -> String {
    let snake: String = name
        .to_snake_case()
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .collect();
    let trimmed = snake.trim_start_matches(|c: char| !c.is_ascii_lowercase());
    trimmed.chars().take(MAX_NAME_LEN).collect()
}

/// Whether a type name is PascalCase ASCII.
pub fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric())
        && name.len() <= MAX_NAME_LEN
}

/// Rust's keywords, strict and reserved.
pub(crate) const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers; they get a trailing underscore.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// A Rust identifier made from a manifest name. It keeps the word
/// (`type`); it is written raw (`r#type`) only where it is rendered, by its
/// `Display` here and by the emitter's token for it, both through
/// [`RustIdent::is_raw`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RustIdent(String);

impl RustIdent {
    /// The identifier for `word`, the text of a Rust identifier or keyword.
    pub fn new(word: impl Into<String>) -> Self {
        RustIdent(word.into())
    }

    /// The word, never raw (`type`): for names made from it
    /// (`refine_type`, `__default_type`) and for text that is not Rust.
    pub fn word(&self) -> &str {
        &self.0
    }

    /// Whether Rust code must write it raw (`r#type`): it is a keyword.
    pub fn is_raw(&self) -> bool {
        KEYWORDS.contains(&self.0.as_str())
    }
}

/// As Rust code writes it: `r#type` for a keyword.
impl std::fmt::Display for RustIdent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_raw() {
            f.write_str("r#")?;
        }
        f.write_str(&self.0)
    }
}

impl serde::Serialize for RustIdent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A snake_case Rust identifier for a manifest name (`type` is written
/// `r#type`, `self` becomes `self_`).
pub fn snake_ident(name: &str) -> RustIdent {
    RustIdent(escape(name.to_snake_case()))
}

/// A PascalCase Rust type name for a manifest name (`list-tickets` →
/// `ListTickets`). Never raw: the one PascalCase keyword, `Self`, becomes
/// `Self_`.
pub fn pascal_ident(name: &str) -> String {
    escape(name.to_upper_camel_case())
}

/// A leading digit prefixed with `_`, and the keywords that cannot be raw
/// with `_` after them.
fn escape(ident: String) -> String {
    let ident = if ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{ident}")
    } else {
        ident
    };
    if NOT_RAW.contains(&ident.as_str()) {
        format!("{ident}_")
    } else {
        ident
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_identifiers() {
        let snake = |name: &str| snake_ident(name).to_string();
        assert_eq!(snake("API-get-user"), "api_get_user");
        assert_eq!(pascal_ident("API-get-user"), "ApiGetUser");
        assert_eq!(snake("list-tickets"), "list_tickets");
        assert_eq!(snake("list_tickets"), "list_tickets");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake_ident("type").word(), "type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(pascal_ident("list-tickets"), "ListTickets");
        // `Self` cannot be a raw identifier either.
        assert_eq!(pascal_ident("self"), "Self_");
        assert_eq!(pascal_ident("type"), "Type");
        // MCP's names: dots and leading marks are word breaks, a leading digit is escaped.
        assert_eq!(snake("admin.tools.list"), "admin_tools_list");
        assert_eq!(pascal_ident("admin.tools.list"), "AdminToolsList");
        assert_eq!(snake("_private"), "private");
        assert_eq!(snake("9lives"), "_9lives");
        assert_eq!(pascal_ident("9lives"), "_9lives");
        assert_eq!(snake("-a.1"), "a_1");
    }

    #[test]
    fn name_rules() {
        assert!(check_name("list_tickets").is_ok());
        assert!(check_name("list-tickets").is_ok());
        assert_eq!(check_name("  ").unwrap_err().0, "'name' is required");
        let (msg, help) = check_name("ListTickets").unwrap_err();
        assert!(msg.contains("not snake_case"));
        assert!(help.contains("`list_tickets`"), "{help}");
        assert!(check_name(&"a".repeat(65)).is_err());
        // Tools and plays take MCP's names; other sections do not.
        assert!(check_tool_name("API-get-user").is_ok());
        assert!(check_tool_name("getTinyImage").is_ok());
        assert!(check_name("API-get-user").is_err());
        assert!(check_tool_name("admin.tools.list").is_ok());
        assert!(check_tool_name("_private").is_ok());
        assert!(check_tool_name("9lives").is_ok());
        assert!(check_tool_name(&"A".repeat(128)).is_ok());
        let (msg, help) = check_tool_name(&"A".repeat(129)).unwrap_err();
        assert!(
            msg.contains("129 characters") && msg.contains("128"),
            "{msg}"
        );
        assert!(help.contains("64"), "{help}");
        let (msg, help) = check_tool_name("list tickets").unwrap_err();
        assert!(msg.contains("is not ASCII letters"), "{msg}");
        assert!(help.contains("`list_tickets`"), "{help}");
        assert!(check_tool_name("a/b").is_err());
        // A name needs a letter or digit, for its Rust identifiers.
        assert!(check_tool_name("._-").is_err());
        assert_eq!(check_tool_name("").unwrap_err().0, "'name' is required");
        assert_eq!(check_tool_name(" ").unwrap_err().0, "'name' is required");
        assert!(is_type_name("MeetingList"));
        assert!(!is_type_name("meeting_list"));
    }
}
