//! What a tool tells MCP clients beyond its schemas: the behaviour hints of
//! `annotations`, `icons` and `meta` (MCP's `_meta`), checked against what
//! the protocol accepts.

use crate::diag::{Code, Diagnostic};
use crate::manifest::node::Node;
use crate::manifest::raw::{RawHints, RawIcon};
use serde_json::{Map, Value};

/// The behaviour hints of a tool, as written (`None` where not written).
/// MCP lists them as `readOnlyHint`, `destructiveHint`, `idempotentHint`
/// and `openWorldHint`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Hints {
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

impl Hints {
    pub(super) fn from_raw(raw: &RawHints) -> Hints {
        Hints {
            read_only: raw.read_only.as_ref().map(|b| b.value),
            destructive: raw.destructive.as_ref().map(|b| b.value),
            idempotent: raw.idempotent.as_ref().map(|b| b.value),
            open_world: raw.open_world.as_ref().map(|b| b.value),
        }
    }

    /// The hints written, each under its MCP name, in MCP's order.
    pub fn mcp_names(&self) -> impl Iterator<Item = (&'static str, bool)> {
        [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ]
        .into_iter()
        .filter_map(|(name, v)| Some((name, v?)))
    }
}

/// A tool's `annotations`: the behaviour hints, MCP's `annotations.title`, and the other keys
/// the manifest gives, passed to MCP's `annotations` as written.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Annotations {
    pub hints: Hints,
    /// `annotations.title`, when the manifest gives one apart from the tool's `title`.
    pub title: Option<String>,
    /// Every other key, in the order written.
    pub other: Map<String, Value>,
}

impl Annotations {
    pub(super) fn from_raw(raw: &RawHints) -> Annotations {
        Annotations {
            hints: Hints::from_raw(raw),
            title: raw.title.as_ref().map(|t| t.value.clone()),
            other: raw
                .other
                .iter()
                .map(|(k, v)| (k.clone(), v.to_json("", &mut Default::default())))
                .collect(),
        }
    }
}

/// An icon MCP clients may show for a tool.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Icon {
    /// An `https:` URL or a `data:` URI.
    pub src: String,
    pub mime_type: Option<String>,
    /// `WxH` sizes, or `any`.
    pub sizes: Vec<String>,
    /// `light` or `dark`.
    pub theme: Option<String>,
}

impl Icon {
    /// The icon as MCP lists it.
    pub fn mcp_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("src".into(), Value::String(self.src.clone()));
        if let Some(t) = &self.mime_type {
            m.insert("mimeType".into(), Value::String(t.clone()));
        }
        if !self.sizes.is_empty() {
            m.insert(
                "sizes".into(),
                Value::Array(self.sizes.iter().cloned().map(Value::String).collect()),
            );
        }
        if let Some(t) = &self.theme {
            m.insert("theme".into(), Value::String(t.clone()));
        }
        Value::Object(m)
    }
}

fn invalid(span: crate::diag::Span, what: String, help: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidMcpField, what)
        .at(span)
        .help(help.to_string())
}

/// The icons of `what`, those MCP would refuse reported.
pub(super) fn icons(raw: &[RawIcon], what: &str, diags: &mut Vec<Diagnostic>) -> Vec<Icon> {
    let mut out = Vec::with_capacity(raw.len());
    for icon in raw {
        let Some(src) = &icon.src else { continue };
        let mut ok = true;
        let lower = src.value.to_ascii_lowercase();
        let data = lower.strip_prefix("data:");
        if let Some(data) = data {
            if !data.starts_with("image/") || !data.contains(',') {
                ok = false;
                diags.push(invalid(
                    src.span,
                    format!("the icon source of {what} is a `data:` URI that is not an image"),
                    "write the image inline as `data:image/png;base64,...`",
                ));
            }
        } else if !lower.starts_with("https://") || lower.len() == "https://".len() {
            ok = false;
            diags.push(invalid(
                src.span,
                format!(
                    "the icon source `{}` of {what} is neither an `https:` URL nor a `data:` URI",
                    src.value
                ),
                "MCP clients fetch icons only over https or read them inline: give an `https://` URL or a `data:image/...` URI",
            ));
        }
        if let Some(m) = &icon.mime_type {
            let parts: Vec<&str> = m.value.split('/').collect();
            if parts.len() != 2 || parts.iter().any(|p| p.trim().is_empty() || p.contains(' ')) {
                ok = false;
                diags.push(invalid(
                    m.span,
                    format!(
                        "the icon `mime_type` `{}` of {what} is not a media type",
                        m.value
                    ),
                    "write a media type such as `image/png` or `image/svg+xml`",
                ));
            }
        }
        for size in &icon.sizes {
            if !is_icon_size(&size.value) {
                ok = false;
                diags.push(invalid(
                    size.span,
                    format!(
                        "the icon size `{}` of {what} is not `WxH` or `any`",
                        size.value
                    ),
                    "write sizes such as `48x48`, or `any` for a scalable image",
                ));
            }
        }
        if let Some(t) = &icon.theme
            && !matches!(t.value.as_str(), "light" | "dark")
        {
            ok = false;
            diags.push(invalid(
                t.span,
                format!("the icon theme `{}` of {what} is not `light` or `dark`", t.value),
                "use `theme: light` for an icon drawn for light backgrounds, `theme: dark` for dark ones",
            ));
        }
        if ok {
            out.push(Icon {
                src: src.value.clone(),
                mime_type: icon.mime_type.as_ref().map(|m| m.value.clone()),
                sizes: icon.sizes.iter().map(|s| s.value.clone()).collect(),
                theme: icon.theme.as_ref().map(|t| t.value.clone()),
            });
        }
    }
    out
}

/// `48x48`, or `any`.
fn is_icon_size(size: &str) -> bool {
    if size == "any" {
        return true;
    }
    let positive = |s: &str| {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && s.bytes().any(|b| b != b'0')
    };
    size.split_once('x')
        .is_some_and(|(w, h)| positive(w) && positive(h))
}

/// `meta` of `what` as MCP's `_meta` object, its keys checked against the
/// protocol's rules for `_meta` names.
pub(super) fn meta(
    node: &Node,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Map<String, Value>> {
    let entries = node.as_map()?;
    let mut ok = true;
    for e in entries {
        if let Err(why) = check_meta_key(&e.key) {
            ok = false;
            diags.push(invalid(
                e.key_span,
                format!("the `meta` key `{}` of {what} {why}", e.key),
                "MCP `_meta` keys are `name` or `prefix/name`: a prefix is dot-separated labels (`com.example/`), a name starts and ends with a letter or digit; a prefix whose second label (or any label but the last) is `mcp` or `modelcontextprotocol` is the protocol's own",
            ));
        }
    }
    if !ok {
        return None;
    }
    match node.to_json("", &mut Default::default()) {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

/// Whether `key` is a `_meta` key MCP lets a server write; why not, if not.
fn check_meta_key(key: &str) -> Result<(), &'static str> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        let label_ok = |l: &str| {
            l.starts_with(|c: char| c.is_ascii_alphabetic())
                && l.ends_with(|c: char| c.is_ascii_alphanumeric())
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        if !labels.iter().all(|l| label_ok(l)) {
            return Err("has a prefix that is not dot-separated labels");
        }
        // Reserved under both readings the protocol has had: the second
        // label (2025-11-25 on, `io.modelcontextprotocol/`), or any label
        // but the last (2025-06-18, `modelcontextprotocol.io/`).
        let protocol = |l: &&str| matches!(*l, "mcp" | "modelcontextprotocol");
        let reserved =
            labels.get(1).is_some_and(protocol) || labels[..labels.len() - 1].iter().any(protocol);
        if reserved {
            return Err("has a prefix reserved for the protocol");
        }
    }
    let name_ok = name.is_empty()
        || (name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.ends_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')));
    if !name_ok {
        return Err(
            "is not a valid name (letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit)",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_keys_follow_the_protocol() {
        assert!(check_meta_key("owner").is_ok());
        assert!(check_meta_key("com.example/owner-team").is_ok());
        assert!(check_meta_key("com.example/").is_ok());
        assert!(check_meta_key("modelcontextprotocol.io/x").is_err());
        assert!(check_meta_key("tools.mcp.com/x").is_err());
        assert!(check_meta_key("io.modelcontextprotocol/related-task").is_err());
        assert!(check_meta_key("dev.mcp/x").is_err());
        assert!(check_meta_key("com.example.mcp/x").is_ok());
        assert!(check_meta_key("-bad").is_err());
        assert!(check_meta_key("1.x/y").is_err());
    }

    #[test]
    fn icon_sizes() {
        assert!(is_icon_size("48x48"));
        assert!(is_icon_size("any"));
        assert!(!is_icon_size("48"));
        assert!(!is_icon_size("0x0"));
        assert!(!is_icon_size("48X48"));
    }
}
