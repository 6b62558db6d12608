//! The YAML a manifest is written in: block style for mappings and lists, short lists and
//! mappings of scalars on one line (`required: [id, name]`, `id: {type: string}`), and
//! every value read back exactly as it was (strings, numbers, key order).
//!
//! The text is serde-saphyr's serializer (the crate whose parser reads it back), given a
//! wrapper over `serde_json::Value` that picks the flow style for small collections; every
//! decision about quoting and block scalars is the serializer's. The round trip through the
//! manifest loader is held by property tests (`src/tests/import.rs`).

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// The widest a collection written on one line may be, in characters of its values.
const FLOW_WIDTH: usize = 60;

/// `value` as YAML text, ending with a newline.
pub fn to_yaml(value: &Value) -> Result<String, String> {
    let options = serde_saphyr::ser_options! {
        indent_step: 2,
        compact_list_indent: false,
    };
    serde_saphyr::to_string_with_options(&Yaml(value), options).map_err(|e| e.to_string())
}

/// A JSON value written as block YAML, its small collections of scalars in flow style.
struct Yaml<'a>(&'a Value);

impl Serialize for Yaml<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Array(items) if flows(self.0) => {
                serde_saphyr::FlowSeq(Items(items)).serialize(s)
            }
            Value::Object(map) if flows(self.0) => serde_saphyr::FlowMap(Entries(map)).serialize(s),
            Value::Array(items) => Items(items).serialize(s),
            Value::Object(map) => Entries(map).serialize(s),
            scalar => scalar.serialize(s),
        }
    }
}

struct Items<'a>(&'a [Value]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&Yaml(item))?;
        }
        seq.end()
    }
}

struct Entries<'a>(&'a serde_json::Map<String, Value>);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, &Yaml(value))?;
        }
        map.end()
    }
}

/// Whether a collection goes on one line: not empty (the serializer writes `[]` and `{}`
/// itself), only short scalars without line breaks, and short in all.
fn flows(value: &Value) -> bool {
    let scalars: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) => map.values().collect(),
        _ => return false,
    };
    if scalars.is_empty() {
        return false;
    }
    let keys = match value {
        Value::Object(map) if map.keys().any(|k| k.contains(['\n', '\r'])) => return false,
        Value::Object(map) => map.keys().map(|k| k.len() + 2).sum(),
        _ => 0,
    };
    let mut width = keys;
    for v in &scalars {
        width += match v {
            Value::String(s) if !s.contains(['\n', '\r']) => s.len() + 2,
            Value::Number(n) => n.to_string().len() + 2,
            Value::Bool(_) | Value::Null => 6,
            _ => return false,
        };
    }
    width <= FLOW_WIDTH
}
