//! Stage 2, resolve: the toolset IR, and the checks that build it from the
//! raw manifest structs. After resolve, names are checked, references
//! followed, policies parsed and Rust identifiers assigned; nothing
//! downstream looks a name up by string again.

pub mod backend;
pub mod manual;
pub mod mcp;
pub mod names;
pub mod policy;
mod resolve;
pub mod rust;
pub mod schema;
mod toolset;

pub use policy::AuthLevel;
pub use resolve::{ResolveOptions, resolve};
pub use schema::{SchemaId, Schemas};
pub use toolset::{Agent, DelegateTarget, Idents, PolicyDefaults, Tool, Toolset};
