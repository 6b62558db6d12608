//! The Rust type plan, decided during resolve: which Rust type each schema
//! becomes, the structs and enums generated for it, the identifiers of their
//! fields and variants, where recursion needs a `Box`, and the value of every
//! default. Everything that can go wrong with it (a construct with no Rust
//! type, two properties with one field name, a default the type cannot hold)
//! is a located diagnostic here, so `toolc check` reports it and emission
//! cannot fail.

mod aliases;
mod literal;
mod plan;
mod types;
mod variants;

pub use plan::plan;
pub use types::{
    Alias, Field, FormatLit, GroupPlan, Item, Lit, Module, RustPlan, Signature, Ty, TypedFormat,
};
