//! Argument text, parsed once at the toolbox boundary (contract rule 1).
//!
//! [`parse_arguments`] is stricter than `serde_json::from_str::<Value>`: a duplicate key (which
//! `serde_json::Value` silently resolves to the last one), nesting deeper than
//! [`MAX_ARGUMENT_DEPTH`], a number out of range and a root that is not an object are each an
//! error. Nothing is ever coerced to `{}`.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::{Violation, json_pointer};

/// The deepest nesting of arrays and objects accepted, the root object counting as 1.
pub const MAX_ARGUMENT_DEPTH: usize = 128;

#[derive(Default)]
struct State {
    /// Our own error, when the parse stopped for a reason serde_json does not know about.
    error: Option<String>,
    /// Path segments from the failure back up to the root.
    path_rev: Vec<String>,
}

#[derive(Clone, Copy)]
struct Seed<'s> {
    state: &'s RefCell<State>,
    depth: usize,
}

impl Seed<'_> {
    fn fail<E: de::Error>(&self, message: String) -> E {
        self.state.borrow_mut().error = Some(message);
        E::custom("invalid arguments")
    }

    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth > MAX_ARGUMENT_DEPTH {
            return Err(self.fail(format!(
                "nesting is deeper than {MAX_ARGUMENT_DEPTH} levels"
            )));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        match Number::from_f64(v) {
            Some(n) => Ok(Value::Number(n)),
            None => Err(self.fail("number out of range".to_owned())),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.enter()?;
        let child = Seed {
            state: self.state,
            depth: self.depth + 1,
        };
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(child) {
                Ok(Some(v)) => items.push(v),
                Ok(None) => break,
                Err(e) => {
                    self.state
                        .borrow_mut()
                        .path_rev
                        .push(items.len().to_string());
                    return Err(e);
                }
            }
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        self.enter()?;
        let child = Seed {
            state: self.state,
            depth: self.depth + 1,
        };
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.contains_key(&key) {
                return Err(self.fail(format!("duplicate key {}", Value::String(key))));
            }
            match access.next_value_seed(child) {
                Ok(v) => {
                    map.insert(key, v);
                }
                Err(e) => {
                    self.state.borrow_mut().path_rev.push(key);
                    return Err(e);
                }
            }
        }
        Ok(Value::Object(map))
    }
}

/// Parses argument text into a JSON object, or says why it is not one, with a JSON pointer to
/// where the parse stopped.
///
/// Errors: malformed JSON (with line and column), a duplicate key, nesting deeper than
/// [`MAX_ARGUMENT_DEPTH`], a number outside the range of `f64`, and any root that is not an
/// object (including `null` and the empty text). Stack use is bounded by the depth limit,
/// and memory by the size of the text.
pub fn parse_arguments(text: &str) -> Result<Value, Violation> {
    let state = RefCell::new(State::default());
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let seed = Seed {
        state: &state,
        depth: 1,
    };
    let parsed = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(Value::Object(map)) => Ok(Value::Object(map)),
        Ok(other) => Err(Violation::new(
            "",
            format!(
                "arguments must be a JSON object, got {}",
                match other {
                    Value::Null => "null",
                    Value::Bool(_) => "a boolean",
                    Value::Number(_) => "a number",
                    Value::String(_) => "a string",
                    Value::Array(_) => "an array",
                    Value::Object(_) => "an object",
                }
            ),
        )),
        Err(e) => {
            let state = state.into_inner();
            let pointer = json_pointer(state.path_rev.iter().rev().map(String::as_str));
            let message = match state.error {
                Some(own) => format!("{own} (line {}, column {})", e.line(), e.column()),
                None => format!("arguments are not valid JSON: {e}"),
            };
            Err(Violation::new(pointer, message))
        }
    }
}
