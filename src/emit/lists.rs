//! Provider tool lists as files: the lowered lists, serialized.

use serde_json::Value;

/// A tool list as the text of its file: pretty JSON, ending with a newline.
pub fn text(list: &Value) -> String {
    let mut text = serde_json::to_string_pretty(list).unwrap_or_default();
    text.push('\n');
    text
}

/// The text of an agent's tool list in a dialect, [`text`] of
/// [`Lowered::list`](crate::lower::Lowered::list), serialized one entry at a time as each
/// is made, so the list is never held whole.
pub fn list_text(
    lowered: &crate::lower::Lowered,
    toolset: &crate::model::Toolset,
    agent: &crate::model::Agent,
    dialect: crate::lower::Dialect,
) -> String {
    use serde::ser::{SerializeMap, Serializer};
    let entries = Entries(std::cell::RefCell::new(Some(
        lowered.entries(toolset, agent, dialect),
    )));
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::pretty(&mut out);
    let written = match crate::lower::list_key(dialect) {
        Some(key) => ser.serialize_map(Some(1)).and_then(|mut map| {
            map.serialize_entry(key, &entries)?;
            map.end()
        }),
        None => serde::Serialize::serialize(&entries, &mut ser),
    };
    let mut text = match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    };
    text.push('\n');
    text
}

/// A sequence serialized from an iterator, which it takes: serialized once.
struct Entries<I>(std::cell::RefCell<Option<I>>);

impl<I: Iterator<Item = Value>> serde::Serialize for Entries<I> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.borrow_mut().take().into_iter().flatten())
    }
}
