//! `Deserialize` impls written out for the types the dispatcher reads: string enums and
//! structs of named fields. serde's derive writes, per type, a field (or variant) identifier,
//! its visitor and the type's visitor, with every method serde offers; those impls were the
//! largest part of a generated module's compile time (BENCHMARKS.md, "The generated module").
//! These impls keep only the one visitor method the type needs and share the rest through the
//! runtime (`codegen::enum_value`, `codegen::Keys` and the field steps), and read what serde's
//! derive reads, with the same errors.

use super::items::{default_fn_name, ident, serde_path};
use crate::model::rust::{Field, Ty};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// `Deserialize` for a string enum: the runtime's `enum_value` finds the string among the
/// enum's values, and a `match` on its index picks the variant.
pub(super) fn enum_deserialize(id: &Ident, variants: &[(String, String)]) -> TokenStream {
    let serde = serde_path();
    let values = variants.iter().map(|(_, value)| value);
    let last = variants.len().saturating_sub(1);
    let arms = variants.iter().enumerate().map(|(i, (v, _))| {
        let v = ident(v);
        if i == last {
            quote!(_ => #id::#v,)
        } else {
            let i = Literal::usize_unsuffixed(i);
            quote!(#i => #id::#v,)
        }
    });
    let read = quote!(::toolc_runtime::codegen::enum_value(deserializer, VALUES)?);
    // One value: the `match` would have one arm, which clippy refuses.
    let body = match variants {
        [(v, _)] => {
            let v = ident(v);
            quote! {
                #read;
                ::std::result::Result::Ok(#id::#v)
            }
        }
        _ => quote! {
            ::std::result::Result::Ok(match #read {
                #(#arms)*
            })
        },
    };
    quote! {
        impl<'de> #serde::Deserialize<'de> for #id {
            fn deserialize<D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const VALUES: &[&str] = &[#(#values),*];
                #body
            }
        }
    }
}

/// `Deserialize` for a struct of named fields (no flattened map of other properties): a map
/// visitor that reads each key as its field's index (`codegen::Keys`), each field's value
/// into a slot (`codegen::field`, which refuses a field given twice), and skips other keys
/// unless `deny_unknown`. An absent field then takes its default (the struct's
/// `__default_*` function), `None` for an `Option`, `null` for an optional JSON value, or
/// is an error naming it.
pub(super) fn struct_deserialize(id: &Ident, fields: &[Field], deny_unknown: bool) -> TokenStream {
    let serde = serde_path();
    let codegen = quote!(::toolc_runtime::codegen);
    let name = id.to_string();
    let expecting = format!("struct {name}");
    let names = fields.iter().map(|f| f.name.as_str());
    // Slots are prefixed so that no field's name can meet the visitor's own bindings.
    let slots: Vec<Ident> = fields
        .iter()
        .map(|f| format_ident!("__f_{}", f.ident.word()))
        .collect();
    let arms = fields.iter().zip(&slots).enumerate().map(|(i, (f, slot))| {
        let i = Literal::usize_unsuffixed(i);
        let name = &f.name;
        quote!(::std::option::Option::Some(#i) => #codegen::field(&mut __map, &mut #slot, #name)?,)
    });
    let inits = fields.iter().zip(&slots).map(|(f, slot)| {
        let field = ident(&f.ident);
        let value = if f.default.is_some() {
            let default = default_fn_name(None, f);
            quote!(#slot.unwrap_or_else(#id::#default))
        } else if matches!(f.ty, Ty::Option(_)) || (!f.required && f.ty == Ty::Json) {
            quote!(#slot.unwrap_or_default())
        } else {
            let name = &f.name;
            quote!(#codegen::required(#slot, #name)?)
        };
        quote!(#field: #value)
    });
    let keys = quote!(__map.next_key_seed(#codegen::Keys::new(FIELDS, #deny_unknown))?);
    let read = if fields.is_empty() {
        quote! {
            while #keys.is_some() {
                #codegen::skip(&mut __map)?;
            }
        }
    } else {
        quote! {
            #(let mut #slots = ::std::option::Option::None;)*
            while let ::std::option::Option::Some(__key) = #keys {
                match __key {
                    #(#arms)*
                    _ => #codegen::skip(&mut __map)?,
                }
            }
        }
    };
    let allow = fields
        .iter()
        .any(|f| f.deprecated)
        .then(|| quote!(#[allow(deprecated)]));
    quote! {
        #allow
        impl<'de> #serde::Deserialize<'de> for #id {
            fn deserialize<D: #serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const FIELDS: &[&str] = &[#(#names),*];
                struct V;
                impl<'de> #serde::de::Visitor<'de> for V {
                    type Value = #id;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(#expecting)
                    }

                    fn visit_map<A: #serde::de::MapAccess<'de>>(
                        self,
                        mut __map: A,
                    ) -> ::std::result::Result<#id, A::Error> {
                        #read
                        ::std::result::Result::Ok(#id { #(#inits,)* })
                    }
                }
                deserializer.deserialize_struct(#name, FIELDS, V)
            }
        }
    }
}
