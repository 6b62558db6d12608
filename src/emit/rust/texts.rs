//! Schema texts cut at their `$defs` entries, so that an entry several descriptors' texts
//! carry (a named type such as `TicketStatus`, referred to from many tools) is written once
//! in the generated file, and the texts are joined from parts at compile time.

use serde_json::Value;

/// A piece of a schema text: text as it stands, or the value of one `$defs` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text written as it is.
    Text(String),
    /// The value text of the `$defs` entry `name`.
    Def {
        /// The entry's name, as the text spells it.
        name: String,
        /// Its value, as the text has it.
        value: String,
    },
}

/// `text`, the compact JSON of `schema`, cut around the values of its top-level `$defs`
/// entries; `None` when it has none (or they are not where its own serialization would put
/// them). The pieces joined are `text`, byte for byte.
pub fn cut(schema: &Value, text: &str) -> Option<Vec<Piece>> {
    let defs = schema.get("$defs")?.as_object()?;
    if defs.is_empty() {
        return None;
    }
    let entries: Vec<(String, String)> = defs
        .iter()
        .map(|(k, v)| (Value::String(k.clone()).to_string(), v.to_string()))
        .collect();
    let members: Vec<String> = entries.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    let needle = format!("\"$defs\":{{{}}}", members.join(","));
    let start = text.rfind(&needle)?;
    let mut pieces = Vec::new();
    let mut head = format!("{}\"$defs\":{{", &text[..start]);
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            head.push(',');
        }
        head.push_str(key);
        head.push(':');
        pieces.push(Piece::Text(std::mem::take(&mut head)));
        let name = defs.keys().nth(i).cloned().unwrap_or_default();
        pieces.push(Piece::Def {
            name,
            value: value.clone(),
        });
    }
    pieces.push(Piece::Text(format!("}}{}", &text[start + needle.len()..])));
    debug_assert_eq!(joined(&pieces), text);
    Some(pieces)
}

/// The pieces as one text.
pub fn joined(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.as_str(),
            Piece::Def { value, .. } => value.as_str(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_at_each_entry_and_joined_back() {
        let text = r##"{"type":"object","properties":{"s":{"$ref":"#/$defs/S"}},"$defs":{"S":{"enum":["a"]},"T":{"type":"string"}}}"##;
        let schema: Value = serde_json::from_str(text).expect("JSON");
        let pieces = cut(&schema, text).expect("has $defs");
        assert_eq!(joined(&pieces), text);
        let defs: Vec<_> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Def { name, value } => Some((name.as_str(), value.as_str())),
                Piece::Text(_) => None,
            })
            .collect();
        assert_eq!(
            defs,
            [("S", r#"{"enum":["a"]}"#), ("T", r#"{"type":"string"}"#)]
        );
        let plain = r#"{"type":"object"}"#;
        assert_eq!(cut(&serde_json::json!({"type": "object"}), plain), None);
    }
}
