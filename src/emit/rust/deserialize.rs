//! `Deserialize` for the types the dispatcher reads, string enums and structs of named
//! fields, as calls of the runtime's macros rather than serde's derive. serde's derive writes, per type, a field (or variant) identifier,
//! its visitor and the type's visitor, with every method serde offers; those impls were the
//! largest part of a generated module's compile time (BENCHMARKS.md, "The generated module").
//! These impls keep only the one visitor method the type needs and share the rest through the
//! runtime (`codegen::deserialize_enum!`, `codegen::deserialize_struct!`), and read what serde's
//! derive reads, with the same errors, except that a struct is no longer read from an array
//! of its fields (no object schema accepts one).

use super::idents::{default_fn_name, ident};
use crate::model::rust::{Field, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `Deserialize` for a string enum, through the runtime's `codegen::deserialize_enum!`: the
/// runtime's `enum_value` finds the string among the enum's values, and the variant at its
/// index is the value. `variants` are each variant's identifier and value, in order.
pub(super) fn enum_deserialize(id: &Ident, variants: &[(String, String)]) -> TokenStream {
    let variants = variants.iter().map(|(v, value)| {
        let v = ident(v);
        quote!(#v = #value)
    });
    quote! {
        ::toolc_runtime::codegen::deserialize_enum!(#id #(, #variants)*);
    }
}

/// `Deserialize` for a struct of named fields (no flattened map of other properties), through
/// the runtime's `codegen::deserialize_struct!`: one map visitor that reads each key as its
/// field's index (`codegen::Keys`), each field's value into a slot (`codegen::field`, which
/// refuses a field given twice), and skips other keys unless `deny_unknown`. Each field says
/// how it is filled when absent: `default` (the struct's `__default_*` function), `optional`
/// (`None` for an `Option`, `null` for a JSON value) or `required` (an error naming it). The
/// macro keeps each struct's part of the impl to a line per field; written out, the impls
/// grew the generated module by two thirds.
pub(super) fn struct_deserialize(id: &Ident, fields: &[Field], deny_unknown: bool) -> TokenStream {
    let deny = deny_unknown.then(|| quote!(, deny_unknown));
    let fields = fields.iter().map(|f| {
        let field = ident(&f.ident);
        let name = &f.name;
        if f.default.is_some() {
            let default = default_fn_name(None, f);
            quote!(#field = default(#name, #id::#default))
        } else if !f.required && (matches!(f.ty, Ty::Option(_)) || f.ty == Ty::Json) {
            quote!(#field = optional(#name))
        } else {
            quote!(#field = required(#name))
        }
    });
    quote! {
        ::toolc_runtime::codegen::deserialize_struct!(#id #deny #(, #fields)*);
    }
}
