//! The JSON Schema validator of toolc: one meaning for a schema, whether `toolc check` judges an
//! example or a default in a manifest, or a generated toolset judges a call's arguments and its
//! result.
//!
//! A schema is a tree of [`Schema`] values. Generated code writes that tree as `static` items
//! (`Schema { types: Types::OBJECT, properties: &[...], ..Schema::ANY }`), so no schema compiler
//! runs in the program that serves the tools; a schema known only at run time (a tool registered
//! with the runtime, or a schema the compiler checks a value against) is built from its JSON with
//! [`compile`]. [`Schema::validate`] checks a JSON value with JSON Schema 2020-12 semantics and
//! reports every violation with its JSON pointer; the [`stream`] checks validate while serde
//! reads or writes a value, and accept only what the full walk accepts.
//!
//! Argument text is read by [`parse_arguments`], stricter than `serde_json::from_str` (duplicate
//! keys, depth, a root that is not an object), and arguments are read as the schema means them
//! with [`Schema::normalize_arguments`] before they are validated.

mod arguments;
mod compile;
mod equal;
mod format;
mod normalize;
mod number;
mod pattern;
mod pointer;
mod redact;
pub mod stream;
mod tree;
mod validate;
mod violation;

pub use arguments::{MAX_ARGUMENT_DEPTH, parse_arguments};
pub use compile::{MAX_SCHEMA_DEPTH, SchemaError, compile};
pub use format::Format;
pub use pattern::Pattern;
pub use pointer::json_pointer;
pub use tree::{Additional, Json, LateRef, MAX_VALIDATION_DEPTH, Num, REDACTED, Schema, Types};
pub use violation::{Violation, Violations};
