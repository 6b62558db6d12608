//! Provider tool lists as files: the lowered lists, serialized.

/// The text of an agent's tool list in a dialect, as its file holds it (pretty JSON, ending
/// with a newline): [`Lowered::list`](crate::lower::Lowered::list), serialized from the
/// lowered entries without copying them.
pub fn list_text(
    lowered: &crate::lower::Lowered,
    toolset: &crate::model::Toolset,
    agent: &crate::model::Agent,
    dialect: crate::lower::Dialect,
) -> String {
    use serde::ser::{SerializeMap, Serializer};
    let entries = lowered.entries(toolset, agent, dialect);
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::pretty(&mut out);
    let written = match crate::lower::list_key(dialect) {
        Some(key) => ser.serialize_map(Some(1)).and_then(|mut map| {
            map.serialize_entry(key, &entries)?;
            map.end()
        }),
        None => ser.collect_seq(&entries),
    };
    let mut text = match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    };
    text.push('\n');
    text
}
