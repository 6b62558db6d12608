//! Rust tokens for the type model: types, structs and enums with their serde
//! attributes and docs.

use super::docs::doc_attrs;
use super::types::{Field, Item, Ty};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

/// An identifier from a string that may be raw (`r#type`).
pub fn ident(s: &str) -> Ident {
    match s.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(s, Span::call_site()),
    }
}

pub fn serde_path() -> TokenStream {
    quote!(::toolc_runtime::__private::serde)
}

/// How generated code names types: `types` is the path to the named types
/// module from the module being generated.
pub struct Paths {
    pub types: TokenStream,
}

pub fn ty_tokens(ty: &Ty, paths: &Paths) -> TokenStream {
    match ty {
        Ty::String => quote!(::std::string::String),
        Ty::Bool => quote!(bool),
        Ty::I32 => quote!(i32),
        Ty::I64 => quote!(i64),
        Ty::U32 => quote!(u32),
        Ty::U64 => quote!(u64),
        Ty::F64 => quote!(f64),
        Ty::Unit => quote!(()),
        Ty::Json => quote!(::toolc_runtime::__private::serde_json::Value),
        Ty::Vec(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::vec::Vec<#t>)
        }
        Ty::Map(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::collections::BTreeMap<::std::string::String, #t>)
        }
        Ty::Option(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::option::Option<#t>)
        }
        Ty::Box(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::boxed::Box<#t>)
        }
        Ty::Shared(n) => {
            let types = &paths.types;
            let n = ident(n);
            quote!(#types::#n)
        }
        Ty::Local(n) => {
            let n = ident(n);
            quote!(#n)
        }
    }
}

/// Extra attributes for generated types, chosen by type name.
pub trait ExtraAttrs {
    /// Attributes (derives and others) to put on the type named `name`.
    fn attrs_for(&self, name: &str) -> TokenStream;
}

fn default_literal(ty: &Ty, v: &Value) -> TokenStream {
    match (ty, v) {
        (Ty::String, Value::String(s)) => quote!(::std::string::String::from(#s)),
        (Ty::Bool, Value::Bool(b)) => quote!(#b),
        (Ty::I32, v) => {
            let n = v
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .unwrap_or_default();
            quote!(#n)
        }
        (Ty::U32, v) => {
            let n = v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or_default();
            quote!(#n)
        }
        (Ty::U64, v) => {
            let n = v.as_u64().unwrap_or_default();
            quote!(#n)
        }
        (Ty::F64, v) => {
            let n = v.as_f64().unwrap_or_default();
            quote!(#n)
        }
        (_, v) => {
            let n = v.as_i64().unwrap_or_default();
            quote!(#n)
        }
    }
}

fn default_fn_name(field: &Field) -> Ident {
    format_ident!("__default_{}", field.ident.trim_start_matches("r#"))
}

/// Field tokens; `public` is false inside enum variants.
fn field_tokens(owner: &str, f: &Field, paths: &Paths, public: bool) -> TokenStream {
    let id = ident(&f.ident);
    let ty = ty_tokens(&f.ty, paths);
    let doc = f.doc.as_deref().map(doc_attrs).unwrap_or_default();
    let mut serde_args = Vec::new();
    let bare = f.ident.trim_start_matches("r#");
    if bare != f.name {
        let name = &f.name;
        serde_args.push(quote!(rename = #name));
    }
    if let Some(_d) = &f.default {
        let path = format!("{owner}::{}", default_fn_name(f));
        serde_args.push(quote!(default = #path));
    } else if !f.required && matches!(f.ty, Ty::Option(_)) {
        serde_args.push(quote!(
            default,
            skip_serializing_if = "::std::option::Option::is_none"
        ));
    } else if !f.required && f.ty == Ty::Json {
        serde_args.push(quote!(
            default,
            skip_serializing_if = "::toolc_runtime::__private::serde_json::Value::is_null"
        ));
    }
    let serde_attr = if serde_args.is_empty() {
        quote!()
    } else {
        quote!(#[serde(#(#serde_args),*)])
    };
    let deprecated = if f.deprecated {
        quote!(#[deprecated])
    } else {
        quote!()
    };
    let vis = if public { quote!(pub) } else { quote!() };
    quote! {
        #doc
        #deprecated
        #serde_attr
        #vis #id: #ty
    }
}

/// The `impl` with default-value functions a struct's serde attributes name.
fn default_fns(owner: &Ident, fields: &[Field], paths: &Paths) -> TokenStream {
    let fns: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let d = f.default.as_ref()?;
            let name = default_fn_name(f);
            let ty = ty_tokens(&f.ty, paths);
            let lit = default_literal(&f.ty, d);
            Some(quote! {
                fn #name() -> #ty {
                    #lit
                }
            })
        })
        .collect();
    if fns.is_empty() {
        return quote!();
    }
    quote! {
        impl #owner {
            #(#fns)*
        }
    }
}

pub fn item_tokens(item: &Item, paths: &Paths, extra: &dyn ExtraAttrs) -> TokenStream {
    let serde = serde_path();
    let serde_crate = quote!(#[serde(crate = "::toolc_runtime::__private::serde")]);
    let derive = quote!(#[derive(Debug, Clone, PartialEq, #serde::Serialize, #serde::Deserialize)]);
    let user = extra.attrs_for(item.name());
    match item {
        Item::Struct {
            name,
            doc,
            fields,
            deny_unknown,
            extra,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let fs = fields.iter().map(|f| field_tokens(name, f, paths, true));
            let extra_field = extra.as_ref().map(|t| {
                let t = ty_tokens(t, paths);
                quote! {
                    /// Properties beyond the named ones.
                    #[serde(flatten)]
                    pub additional_properties: ::std::collections::BTreeMap<::std::string::String, #t>,
                }
            });
            let deny = if *deny_unknown {
                quote!(#[serde(deny_unknown_fields)])
            } else {
                quote!()
            };
            let defaults = default_fns(&id, fields, paths);
            let allow_deprecated = if fields.iter().any(|f| f.deprecated) {
                quote!(#[allow(deprecated)])
            } else {
                quote!()
            };
            quote! {
                #doc
                #derive
                #serde_crate
                #deny
                #allow_deprecated
                #user
                pub struct #id {
                    #(#fs,)*
                    #extra_field
                }
                #defaults
            }
        }
        Item::Enum {
            name,
            doc,
            variants,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let vs = variants.iter().map(|(v, value)| {
                let v = ident(v);
                let d = format!(" `{value}`");
                quote! {
                    #[doc = #d]
                    #[serde(rename = #value)]
                    #v
                }
            });
            quote! {
                #doc
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, #serde::Serialize, #serde::Deserialize)]
                #serde_crate
                #user
                pub enum #id {
                    #(#vs,)*
                }
            }
        }
        Item::Tagged {
            name,
            doc,
            tag,
            variants,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let vs = variants.iter().map(|(v, value, fields)| {
                let vid = ident(v);
                let fs = fields.iter().map(|f| field_tokens(name, f, paths, false));
                let d = format!(" `{tag}: {value}`");
                quote! {
                    #[doc = #d]
                    #[serde(rename = #value)]
                    #vid {
                        #(#fs,)*
                    }
                }
            });
            let all_fields: Vec<Field> = variants.iter().flat_map(|(_, _, f)| f.clone()).collect();
            let defaults = default_fns(&id, &all_fields, paths);
            quote! {
                #doc
                #derive
                #serde_crate
                #[serde(tag = #tag)]
                #user
                pub enum #id {
                    #(#vs,)*
                }
                #defaults
            }
        }
        Item::Untagged {
            name,
            doc,
            variants,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let vs = variants.iter().map(|(v, t)| {
                let vid = ident(v);
                let t = ty_tokens(t, paths);
                quote!(#vid(#t))
            });
            quote! {
                #doc
                #derive
                #serde_crate
                #[serde(untagged)]
                #user
                pub enum #id {
                    #(#vs,)*
                }
            }
        }
        Item::Newtype { name, doc, ty } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let t = ty_tokens(ty, paths);
            quote! {
                #doc
                #derive
                #serde_crate
                #[serde(transparent)]
                #user
                pub struct #id(pub #t);
            }
        }
    }
}
