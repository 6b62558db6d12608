//! Validation while a value streams by: the checks of [`Schema::validate`](crate::Schema::validate) made on serde's
//! events, one position at a time, so that a call can be validated while its arguments are
//! deserialized ([`from_str`]) and while its result is serialized ([`checked`]), with no
//! `serde_json::Value` in between.
//!
//! This path only ever *accepts*. Whenever it meets a value the schema refuses, or a case it
//! cannot decide without seeing the whole value first (`anyOf`, `oneOf`, `not`, `if`, `enum`
//! or `const` on an array or object, `uniqueItems`, `contains`, `dependentSchemas` on an
//! object, a `$ref` cycle, very deep nesting), it stops, and the caller runs the full walk over a `Value`, which lists every
//! violation with its pointer. So whatever it accepts, the full walk accepts too: the property
//! tests of this module hold the two to that.
//!
//! Scalars are complete when they arrive, so every keyword is decided on them, the applicators
//! included.

mod de;
mod ser;
mod summary;
mod walk;

pub use de::from_str;
pub use ser::checked;

#[cfg(test)]
mod tests;
