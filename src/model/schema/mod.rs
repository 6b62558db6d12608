//! The typed schema model: every JSON Schema of the manifests, read once into
//! an arena of typed nodes ([`SchemaNode`]) with a span per node and per
//! keyword, `$ref`s linked to the named types' roots. Every later stage reads
//! schemas through this module; none walks the manifest's JSON again.
//!
//! - [`keyword`]: the vocabulary (the one keyword list of the compiler);
//! - [`read`]: the reader, which reports every unknown, unsupported or
//!   malformed keyword;
//! - [`check`]: the facts checked once the whole toolset is read (`required`
//!   names declared, defaults valid against their own schema, patterns);
//! - `schemas`: the arena itself ([`Schemas`]) and the walks over it;
//! - [`json`]: the canonical JSON of a schema, bundled with the named types
//!   it reaches;
//! - `integer`: the integers a schema's Rust type can hold;
//! - `validator`: the values a manifest writes judged by the one validator,
//!   toolc-schema's, as the generated dispatcher judges them.

pub mod check;
mod integer;
pub mod json;
pub mod keyword;
mod node;
pub mod read;
mod schemas;
mod validator;

pub use check::null_default_unapplied;
#[cfg(feature = "cli")]
pub use integer::integer_range;
pub use integer::{added_integer_bounds, integer_limits};
pub use json::{JsonOptions, RefStyle};
#[cfg(feature = "cli")]
pub use keyword::Takes;
pub use keyword::{Keyword, Shape};
#[cfg(feature = "cli")]
pub use node::Property;
pub use node::{Entry, JsonType, RustTypeHint, SchemaId, SchemaNode, TypeRef, is_integral};
pub use schemas::{MAX_DEPTH, Schemas, TYPE_REF_PREFIX, ref_type_name};
pub use validator::Validator;
