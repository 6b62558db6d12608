//! The result of a tool or play with `validate_returns: false`: sent as it is written, and able
//! to carry keys its `returns` schema does not declare.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Error as _, Serialize, SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// What a tool or play with `validate_returns: false` returns: its `returns` type `T`, written
/// as it is and never validated, plus any keys the schema does not declare
/// ([`Verbatim::with_key`]), or any JSON at all ([`Verbatim::raw`]).
///
/// The typed value keeps the compiler's help with the keys the schema declares; the other keys
/// are what the schema has not caught up with yet. They come after the typed value's keys, in
/// the order they were added.
///
/// ```
/// use serde_json::json;
/// use toolc_runtime::Verbatim;
///
/// #[derive(serde::Serialize)]
/// struct Meeting {
///     title: String,
/// }
///
/// let meeting = Verbatim::new(Meeting { title: "Standup".into() }).with_key("room", "4B");
/// assert_eq!(
///     serde_json::to_string(&meeting).unwrap(),
///     r#"{"title":"Standup","room":"4B"}"#
/// );
/// let plain: Verbatim<Meeting> = Meeting { title: "Planning".into() }.into();
/// assert_eq!(serde_json::to_value(&plain).unwrap(), json!({ "title": "Planning" }));
/// ```
///
/// Writing fails, and with it the call (`output_invalid`, the violation saying why), when keys
/// were added to a value that is not written as an object, or when an added key is one the
/// typed value writes too: set that one on the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Verbatim<T> {
    content: Content<T>,
}

#[derive(Debug, Clone, PartialEq)]
enum Content<T> {
    Typed {
        value: T,
        extra: Vec<(String, Value)>,
    },
    Raw(Value),
}

impl<T> Verbatim<T> {
    /// The typed value, written as it is.
    pub fn new(value: T) -> Verbatim<T> {
        Verbatim {
            content: Content::Typed {
                value,
                extra: Vec::new(),
            },
        }
    }

    /// Any JSON, in place of a `T`: for a result whose shape the schema and its type no longer
    /// describe at all (keys changed inside nested values, another type).
    pub fn raw(value: Value) -> Verbatim<T> {
        Verbatim {
            content: Content::Raw(value),
        }
    }

    /// The value with `key` added after the typed value's keys (in place of an earlier value
    /// added under the same key). Ignored for a [`Verbatim::raw`] value, which is written as
    /// it is.
    pub fn with_key(mut self, key: impl Into<String>, value: impl Into<Value>) -> Verbatim<T> {
        if let Content::Typed { extra, .. } = &mut self.content {
            let (key, value) = (key.into(), value.into());
            match extra.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => extra.push((key, value)),
            }
        }
        self
    }

    /// The typed value, unless the result is [`Verbatim::raw`].
    pub fn typed(&self) -> Option<&T> {
        match &self.content {
            Content::Typed { value, .. } => Some(value),
            Content::Raw(_) => None,
        }
    }

    /// The keys added with [`Verbatim::with_key`], in order.
    pub fn extra(&self) -> impl Iterator<Item = (&str, &Value)> {
        let extra = match &self.content {
            Content::Typed { extra, .. } => extra.as_slice(),
            Content::Raw(_) => &[],
        };
        extra.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl<T> From<T> for Verbatim<T> {
    fn from(value: T) -> Verbatim<T> {
        Verbatim::new(value)
    }
}

impl<T: Serialize> Serialize for Verbatim<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (value, extra) = match &self.content {
            Content::Raw(value) => return value.serialize(serializer),
            Content::Typed { value, extra } if extra.is_empty() => {
                return value.serialize(serializer);
            }
            Content::Typed { value, extra } => (value, extra),
        };
        // The typed value's keys in the order it writes them, whatever map serde_json keeps.
        let text = serde_json::value::to_raw_value(value).map_err(S::Error::custom)?;
        let Ok(Entries(entries)) = serde_json::from_str::<Entries>(text.get()) else {
            let first = text.get().chars().next().unwrap_or(' ');
            return Err(S::Error::custom(format!(
                "keys were added to a value written as {}, not an object",
                match first {
                    '[' => "an array",
                    '"' => "a string",
                    'n' => "null",
                    't' | 'f' => "a boolean",
                    _ => "a number",
                }
            )));
        };
        if let Some((key, _)) = extra
            .iter()
            .find(|(k, _)| entries.iter().any(|(e, _)| e == k))
        {
            return Err(S::Error::custom(format!(
                "the added key '{key}' is one the typed value writes too: set it on the value"
            )));
        }
        let mut map = serializer.serialize_map(Some(entries.len() + extra.len()))?;
        for (key, value) in &entries {
            map.serialize_entry(key, value)?;
        }
        for (key, value) in extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A JSON object's entries in the order written, each value as its text.
struct Entries(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entries, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Entries;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Object)
    }
}
