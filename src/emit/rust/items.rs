//! Rust tokens for the type model: types, structs and enums with their serde
//! attributes and docs.

use super::deserialize::{enum_deserialize, struct_deserialize};
use super::directions::Directions;
use super::docs::doc_attrs;
use super::idents::{default_fn_name, ident};
use crate::model::rust::{Alias, Field, FormatLit, Item, Lit, Module, Ty, TypedFormat};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use serde_json::Value;

pub fn serde_path() -> TokenStream {
    quote!(::toolc_runtime::codegen::serde)
}

/// How generated code names types in the module being generated.
#[derive(Clone, Copy)]
pub struct Paths<'a> {
    /// In a group's module, two levels down: named types are `super::super::types::X`. In the
    /// named types' module they are written bare, as every item of the module is.
    pub nested: bool,
    /// The module's type aliases: a type one names is written by the alias's name.
    pub aliases: &'a [Alias],
}

impl<'a> Paths<'a> {
    /// The paths of `module`, a group's (`nested`) or the named types'.
    pub fn of(module: &'a Module, nested: bool) -> Paths<'a> {
        Paths {
            nested,
            aliases: &module.aliases,
        }
    }
}

pub fn ty_tokens(ty: &Ty, paths: &Paths) -> TokenStream {
    match paths.aliases.iter().find(|a| a.ty == *ty) {
        Some(a) => {
            let name = ident(&a.name);
            quote!(#name)
        }
        None => written_out(ty, paths),
    }
}

/// `pub type Name = …;` for each of the module's aliases, with its docs.
pub fn alias_items(paths: &Paths) -> TokenStream {
    let items = paths.aliases.iter().map(|a| {
        let name = ident(&a.name);
        let doc = doc_attrs(&a.doc);
        let ty = written_out(&a.ty, paths);
        quote! {
            #doc
            pub type #name = #ty;
        }
    });
    quote!(#(#items)*)
}

/// The tokens of `ty` itself (the types inside it by their aliases, where they have one).
fn written_out(ty: &Ty, paths: &Paths) -> TokenStream {
    match ty {
        Ty::String => quote!(::std::string::String),
        Ty::Bool => quote!(bool),
        Ty::I32 => quote!(i32),
        Ty::I64 => quote!(i64),
        Ty::U32 => quote!(u32),
        Ty::U64 => quote!(u64),
        Ty::F64 => quote!(f64),
        Ty::Unit => quote!(()),
        Ty::Json => quote!(::toolc_runtime::codegen::serde_json::Value),
        Ty::Vec(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::vec::Vec<#t>)
        }
        Ty::Map(t) => {
            let t = ty_tokens(t, paths);
            quote!(::std::collections::BTreeMap<::std::string::String, #t>)
        }
        Ty::EnumMap(k, v) => {
            let k = ty_tokens(k, paths);
            let v = ty_tokens(v, paths);
            quote!(::std::collections::BTreeMap<#k, #v>)
        }
        Ty::Tuple(items) => {
            let items = items.iter().map(|t| ty_tokens(t, paths));
            quote!((#(#items,)*))
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
            let n = ident(n);
            if paths.nested {
                quote!(super::super::types::#n)
            } else {
                quote!(#n)
            }
        }
        Ty::Local(n) => {
            let n = ident(n);
            quote!(#n)
        }
        Ty::Format(f) => format_ty(*f),
    }
}

/// The Rust type of a typed format. `uuid` and chrono's types are reached
/// through the runtime's hidden re-exports, which stand in for them when the
/// runtime feature is off (the file's `require_feature!` then says which).
pub fn format_ty(f: TypedFormat) -> TokenStream {
    let private = quote!(::toolc_runtime::codegen);
    match f {
        TypedFormat::Uuid => quote!(#private::Uuid),
        TypedFormat::DateTime => quote!(#private::DateTime<#private::FixedOffset>),
        TypedFormat::Date => quote!(#private::NaiveDate),
        TypedFormat::Email => quote!(::toolc_runtime::formats::Email),
        TypedFormat::Uri => quote!(::toolc_runtime::formats::Uri),
    }
}

/// A default in a typed format, built from its parts without parsing. The
/// chrono constructors run in a `const` block: the parts were checked when
/// the code was generated, and were they not, the build would fail rather
/// than a call.
fn format_lit_tokens(lit: &FormatLit) -> TokenStream {
    let private = quote!(::toolc_runtime::codegen);
    match lit {
        FormatLit::Uuid(n) => {
            // Grouped as the UUID is written: 0x123e4567_e89b_12d3_a456_426614174000.
            let hex = format!("{n:032x}");
            let text = format!(
                "0x{}_{}_{}_{}_{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..]
            );
            let n = text
                .parse::<proc_macro2::Literal>()
                .unwrap_or_else(|_| proc_macro2::Literal::u128_unsuffixed(*n));
            quote!(#private::Uuid::from_u128(#n))
        }
        FormatLit::Date { year, month, day } => quote! {
            const {
                match #private::NaiveDate::from_ymd_opt(#year, #month, #day) {
                    ::std::option::Option::Some(date) => date,
                    ::std::option::Option::None => ::std::panic!("toolc: a default date out of range"),
                }
            }
        },
        FormatLit::DateTime { utc, nano, offset } => {
            let (year, month, day, hour, minute, second) = **utc;
            quote! {
                const {
                    let date = #private::NaiveDate::from_ymd_opt(#year, #month, #day);
                    let offset = #private::FixedOffset::east_opt(#offset);
                    match (date, offset) {
                        (::std::option::Option::Some(date), ::std::option::Option::Some(offset)) => {
                            match date.and_hms_nano_opt(#hour, #minute, #second, #nano) {
                                ::std::option::Option::Some(utc) => {
                                    #private::DateTime::from_naive_utc_and_offset(utc, offset)
                                }
                                ::std::option::Option::None => ::std::panic!("toolc: a default time out of range"),
                            }
                        }
                        _ => ::std::panic!("toolc: a default date-time out of range"),
                    }
                }
            }
        }
        FormatLit::Email(s) => quote!(::toolc_runtime::formats::Email::__checked_default(#s)),
        FormatLit::Uri(s) => quote!(::toolc_runtime::formats::Uri::__checked_default(#s)),
    }
}

/// Extra attributes for generated types, chosen by type name.
pub trait ExtraAttrs {
    /// Attributes (derives and others) to put on the type named `name`.
    fn attrs_for(&self, name: &str) -> TokenStream;
}

/// A default value as a Rust expression of its type.
// Over 80 lines: one arm per pair of literal and Rust type.
fn lit_tokens(lit: &Lit, ty: &Ty, paths: &Paths) -> TokenStream {
    let inner = |t: &Ty| -> Ty {
        match t {
            Ty::Option(i) | Ty::Box(i) | Ty::Vec(i) | Ty::Map(i) => (**i).clone(),
            other => other.clone(),
        }
    };
    match lit {
        Lit::Str(s) => quote!(::std::string::String::from(#s)),
        Lit::Bool(b) => quote!(#b),
        Lit::Int(i) => {
            let text = format!("{i}{}", int_suffix(ty));
            text.parse::<TokenStream>().unwrap_or_else(|_| quote!(0))
        }
        Lit::Float(f) => {
            let f = *f;
            quote!(#f)
        }
        Lit::Unit => quote!(()),
        Lit::Json(v) => json_tokens(v),
        Lit::Vec(items) => {
            let t = inner(ty);
            let items = items.iter().map(|l| lit_tokens(l, &t, paths));
            quote!(::std::vec::Vec::from([#(#items),*]))
        }
        Lit::Tuple(items) => {
            let tys: Vec<Ty> = match ty {
                Ty::Tuple(t) => t.clone(),
                _ => vec![Ty::Json; items.len()],
            };
            let items = items.iter().zip(&tys).map(|(l, t)| lit_tokens(l, t, paths));
            quote!((#(#items,)*))
        }
        Lit::EnumMap(entries) => {
            let (k, v) = match ty {
                Ty::EnumMap(k, v) => ((**k).clone(), (**v).clone()),
                _ => (Ty::Json, Ty::Json),
            };
            let entries = entries.iter().map(|(key, l)| {
                let key = lit_tokens(key, &k, paths);
                let l = lit_tokens(l, &v, paths);
                quote!((#key, #l))
            });
            quote!(::std::collections::BTreeMap::from([#(#entries),*]))
        }
        Lit::Map(entries) => {
            let t = inner(ty);
            let entries = entries.iter().map(|(k, l)| {
                let l = lit_tokens(l, &t, paths);
                quote!((::std::string::String::from(#k), #l))
            });
            quote!(::std::collections::BTreeMap::from([#(#entries),*]))
        }
        Lit::Some(l) => {
            let l = lit_tokens(l, &inner(ty), paths);
            quote!(::std::option::Option::Some(#l))
        }
        Lit::None => quote!(::std::option::Option::None),
        Lit::Box(l) => {
            let l = lit_tokens(l, &inner(ty), paths);
            quote!(::std::boxed::Box::new(#l))
        }
        Lit::Enum { ty, variant } => {
            let path = ty_tokens(ty, paths);
            let v = ident(variant);
            quote!(#path::#v)
        }
        Lit::Struct { ty, fields, extra } => {
            let path = ty_tokens(ty, paths);
            let fs = fields.iter().map(|(f, l)| {
                let id = ident(f);
                let l = lit_any(l, paths);
                quote!(#id: #l)
            });
            let extra = extra.as_ref().map(|entries| {
                let entries = entries.iter().map(|(k, l)| {
                    let l = lit_any(l, paths);
                    quote!((::std::string::String::from(#k), #l))
                });
                quote!(additional_properties: ::std::collections::BTreeMap::from([#(#entries),*]),)
            });
            quote!(#path { #(#fs,)* #extra })
        }
        Lit::Tagged {
            ty,
            variant,
            fields,
        } => {
            let path = ty_tokens(ty, paths);
            let v = ident(variant);
            let fs = fields.iter().map(|(f, l)| {
                let id = ident(f);
                let l = lit_any(l, paths);
                quote!(#id: #l)
            });
            quote!(#path::#v { #(#fs),* })
        }
        Lit::Untagged { ty, variant, value } => {
            let path = ty_tokens(ty, paths);
            let v = ident(variant);
            let l = lit_any(value, paths);
            quote!(#path::#v(#l))
        }
        Lit::Newtype { ty, value } => {
            let path = ty_tokens(ty, paths);
            let l = lit_any(value, paths);
            quote!(#path(#l))
        }
        Lit::Format(f) => format_lit_tokens(f),
    }
}

/// A literal whose type is only known to the literal itself: integers are
/// written without a suffix and take the field's type by inference.
fn lit_any(lit: &Lit, paths: &Paths) -> TokenStream {
    lit_tokens(lit, &Ty::Json, paths)
}

fn int_suffix(ty: &Ty) -> &'static str {
    match ty {
        Ty::I32 => "i32",
        Ty::I64 => "i64",
        Ty::U32 => "u32",
        Ty::U64 => "u64",
        _ => "",
    }
}

/// A JSON value built with `serde_json::Value`'s constructors.
fn json_tokens(v: &Value) -> TokenStream {
    let json = quote!(::toolc_runtime::codegen::serde_json);
    match v {
        Value::Null => quote!(#json::Value::Null),
        Value::Bool(b) => quote!(#json::Value::Bool(#b)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                quote!(#json::Value::from(#i))
            } else if let Some(u) = n.as_u64() {
                quote!(#json::Value::from(#u))
            } else {
                let f = n.as_f64().unwrap_or_default();
                quote!(#json::Value::from(#f))
            }
        }
        Value::String(s) => quote!(#json::Value::String(::std::string::String::from(#s))),
        Value::Array(items) => {
            let items = items.iter().map(json_tokens);
            quote!(#json::Value::Array(::std::vec::Vec::from([#(#items),*])))
        }
        Value::Object(m) => {
            let entries = m.iter().map(|(k, v)| {
                let v = json_tokens(v);
                quote!((::std::string::String::from(#k), #v))
            });
            quote!(#json::Value::Object(#json::Map::from_iter([#(#entries),*])))
        }
    }
}

/// Field tokens; `public` is false inside enum variants. `derived`: the serde
/// traits the type derives, whose attributes the field carries: its JSON name
/// for either, its default for `Deserialize`, and for `Serialize` that an absent
/// optional is skipped when written.
fn field_tokens(
    owner: &str,
    variant: Option<&str>,
    f: &Field,
    paths: &Paths,
    (public, derived): (bool, Directions),
) -> TokenStream {
    let id = ident(&f.ident);
    let ty = ty_tokens(&f.ty, paths);
    let doc = f.doc.as_deref().map(doc_attrs).unwrap_or_default();
    let mut serde_args = Vec::new();
    let bare = f.ident.word();
    let serializes = derived.serialize;
    if bare != f.name && (serializes || derived.deserialize) {
        let name = &f.name;
        serde_args.push(quote!(rename = #name));
    }
    if !derived.deserialize {
        // No `Deserialize` derived (it is written by `deserialize::struct_deserialize`, which
        // reads the defaults itself, or not needed): only `Serialize`'s attributes. A field
        // with a default is always written, so that `None` or `null` reads back as itself.
        let skippable = serializes && !f.required && f.default.is_none();
        if skippable && matches!(f.ty, Ty::Option(_)) {
            serde_args.push(quote!(
                skip_serializing_if = "::std::option::Option::is_none"
            ));
        } else if skippable && f.ty == Ty::Json {
            serde_args.push(quote!(
                skip_serializing_if = "::toolc_runtime::codegen::serde_json::Value::is_null"
            ));
        }
    } else if let Some(_d) = &f.default {
        let path = format!("{owner}::{}", default_fn_name(variant, f));
        serde_args.push(quote!(default = #path));
    } else if !f.required && matches!(f.ty, Ty::Option(_)) {
        serde_args.push(quote!(default));
        if serializes {
            serde_args.push(quote!(
                skip_serializing_if = "::std::option::Option::is_none"
            ));
        }
    } else if !f.required && f.ty == Ty::Json {
        serde_args.push(quote!(default));
        if serializes {
            serde_args.push(quote!(
                skip_serializing_if = "::toolc_runtime::codegen::serde_json::Value::is_null"
            ));
        }
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
fn default_fns(owner: &Ident, fields: &[(Option<&str>, &Field)], paths: &Paths) -> TokenStream {
    let fns: Vec<TokenStream> = fields
        .iter()
        .filter_map(|(variant, f)| {
            let d = f.default.as_ref()?;
            let name = default_fn_name(*variant, f);
            let ty = ty_tokens(&f.ty, paths);
            let lit = lit_tokens(d, &f.ty, paths);
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
    // Building a struct names its fields, deprecated ones too.
    let builds = fields.iter().any(|(_, f)| {
        matches!(
            f.default,
            Some(
                Lit::Struct { .. }
                    | Lit::Tagged { .. }
                    | Lit::Untagged { .. }
                    | Lit::Newtype { .. }
            )
        )
    });
    let allow = if builds {
        quote!(#[allow(deprecated)])
    } else {
        quote!()
    };
    quote! {
        #allow
        impl #owner {
            #(#fns)*
        }
    }
}

/// `<redacted>` as a `Debug` value: what stands for a sensitive value.
fn redacted() -> TokenStream {
    quote!(&::std::format_args!("<redacted>"))
}

/// A hand-written `Debug` for an item whose value is sensitive as a whole:
/// `Name(<redacted>)`.
fn redacted_debug(id: &Ident) -> TokenStream {
    let name = id.to_string();
    let r = redacted();
    quote! {
        impl ::std::fmt::Debug for #id {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_tuple(#name).field(#r).finish()
            }
        }
    }
}

/// `.field("name", value)` calls for a `Debug` of these fields, each read
/// through `access` (`&self.x`, or a binding of a variant's field), a
/// sensitive one as `<redacted>`.
fn debug_fields(fields: &[Field], access: impl Fn(&Ident) -> TokenStream) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let id = ident(&f.ident);
            let name = f.ident.word();
            let value = if f.sensitive { redacted() } else { access(&id) };
            quote!(.field(#name, #value))
        })
        .collect()
}

/// A hand-written `Debug` for a struct with sensitive fields: as derived,
/// with `<redacted>` for them.
fn struct_debug(id: &Ident, fields: &[Field], extra: bool) -> TokenStream {
    let name = id.to_string();
    let calls = debug_fields(fields, |f| quote!(&self.#f));
    let extra = extra.then(|| quote!(.field("additional_properties", &self.additional_properties)));
    let allow = fields
        .iter()
        .any(|f| f.deprecated)
        .then(|| quote!(#[allow(deprecated)]));
    quote! {
        #allow
        impl ::std::fmt::Debug for #id {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct(#name) #(#calls)* #extra .finish()
            }
        }
    }
}

/// A hand-written `Debug` for a tagged enum with sensitive fields: each
/// variant as derived, with `<redacted>` for them.
fn tagged_debug(id: &Ident, variants: &[(String, String, Vec<Field>)]) -> TokenStream {
    let arms = variants.iter().map(|(v, _, fields)| {
        let vid = ident(v);
        let vname = v.as_str();
        let bindings = fields.iter().map(|f| {
            let fid = ident(&f.ident);
            if f.sensitive {
                quote!(#fid: _)
            } else {
                quote!(#fid)
            }
        });
        let calls = debug_fields(fields, |f| quote!(#f));
        quote! {
            Self::#vid { #(#bindings),* } => f.debug_struct(#vname) #(#calls)* .finish(),
        }
    });
    let allow = variants
        .iter()
        .any(|(_, _, fs)| fs.iter().any(|f| f.deprecated))
        .then(|| quote!(#[allow(deprecated)]));
    quote! {
        #allow
        impl ::std::fmt::Debug for #id {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

/// The tokens of one generated item. `sensitive`: its value is sensitive as
/// a whole, so its `Debug` prints `Name(<redacted>)`; an item with sensitive
/// fields gets a `Debug` that prints `<redacted>` for those. Either way
/// `Debug` is written out instead of derived.
// Over 80 lines: one arm per kind of item (struct, enum, tagged and untagged union,
// alias), each a `quote!` template of that item.
pub fn item_tokens(
    item: &Item,
    paths: &Paths,
    extra: &dyn ExtraAttrs,
    sensitive: bool,
    dirs: Directions,
) -> TokenStream {
    let serde = serde_path();
    let ser = dirs.serialize.then(|| quote!(#serde::Serialize,));
    let de = dirs.deserialize.then(|| quote!(#serde::Deserialize,));
    let serde_crate = quote!(#[serde(crate = "::toolc_runtime::codegen::serde")]);
    let has_sensitive_fields = match item {
        Item::Struct { fields, .. } => fields.iter().any(|f| f.sensitive),
        Item::Tagged { variants, .. } => variants
            .iter()
            .any(|(_, _, fs)| fs.iter().any(|f| f.sensitive)),
        // A tuple's items are masked with it as a whole (the plan marks it sensitive).
        Item::Enum { .. } | Item::Untagged { .. } | Item::Newtype { .. } | Item::Tuple { .. } => {
            false
        }
    };
    let manual_debug = sensitive || has_sensitive_fields;
    let debug = (!manual_debug).then(|| quote!(Debug,));
    let derive = quote!(#[derive(#debug Clone, PartialEq, #ser #de)]);
    let user = extra.attrs_for(item.name());
    let debug_impl = if sensitive {
        redacted_debug(&ident(item.name()))
    } else {
        match item {
            Item::Struct {
                name,
                fields,
                extra,
                ..
            } if has_sensitive_fields => struct_debug(&ident(name), fields, extra.is_some()),
            Item::Tagged { name, variants, .. } if has_sensitive_fields => {
                tagged_debug(&ident(name), variants)
            }
            _ => quote!(),
        }
    };
    let item = match item {
        Item::Struct {
            name,
            doc,
            fields,
            deny_unknown,
            extra,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            // `Deserialize` is written out below, unless other properties flatten into a map
            // (serde's derive buffers the rest of the object for that), or the build script
            // put `#[serde(...)]` attributes of its own on the type, which the derive reads.
            let lean = dirs.deserialize && extra.is_none() && !user.to_string().contains("serde");
            let derived = Directions {
                serialize: dirs.serialize,
                deserialize: dirs.deserialize && !lean,
            };
            let fs = fields
                .iter()
                .map(|f| field_tokens(name, None, f, paths, (true, derived)));
            let extra_field = extra.as_ref().map(|t| {
                let t = ty_tokens(t, paths);
                quote! {
                    /// Properties beyond the named ones.
                    #[serde(flatten)]
                    pub additional_properties: ::std::collections::BTreeMap<::std::string::String, #t>,
                }
            });
            let deny = if *deny_unknown && derived.deserialize {
                quote!(#[serde(deny_unknown_fields)])
            } else {
                quote!()
            };
            let ser = derived.serialize.then(|| quote!(#serde::Serialize,));
            let de = derived.deserialize.then(|| quote!(#serde::Deserialize,));
            let derive = quote!(#[derive(#debug Clone, PartialEq, #ser #de)]);
            let serde_crate = (derived.serialize || derived.deserialize).then_some(&serde_crate);
            let read = lean.then(|| struct_deserialize(&id, fields, *deny_unknown));
            let with_variant: Vec<(Option<&str>, &Field)> =
                fields.iter().map(|f| (None, f)).collect();
            let defaults = default_fns(&id, &with_variant, paths);
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
                #read
            }
        }
        Item::Enum {
            name,
            doc,
            variants,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            // serde's attributes only where serde's derive reads them: `Deserialize` is
            // written out below, through the runtime's one visitor of enum values.
            let rename = |value: &str| dirs.serialize.then(|| quote!(#[serde(rename = #value)]));
            let vs = variants.iter().map(|(v, value)| {
                let v = ident(v);
                let d = format!(" `{value}`");
                let rename = rename(value);
                quote! {
                    #[doc = #d]
                    #rename
                    #v
                }
            });
            let serde_crate = dirs.serialize.then_some(serde_crate);
            let read = dirs.deserialize.then(|| enum_deserialize(&id, variants));
            quote! {
                #doc
                #[derive(#debug Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, #ser)]
                #serde_crate
                #user
                pub enum #id {
                    #(#vs,)*
                }
                #read
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
                let fs = fields
                    .iter()
                    .map(|f| field_tokens(name, Some(v), f, paths, (false, dirs)));
                let d = format!(" `{tag}: {value}`");
                quote! {
                    #[doc = #d]
                    #[serde(rename = #value)]
                    #vid {
                        #(#fs,)*
                    }
                }
            });
            let all_fields: Vec<(Option<&str>, &Field)> = variants
                .iter()
                .flat_map(|(v, _, fs)| fs.iter().map(move |f| (Some(v.as_str()), f)))
                .collect();
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
        Item::Tuple {
            name,
            doc,
            items,
            rest,
        } => {
            let id = ident(name);
            let doc = doc.as_deref().map(doc_attrs).unwrap_or_default();
            let fs = items.iter().map(|f| {
                let field = ident(&f.ident);
                let ty = ty_tokens(&f.ty, paths);
                let what = if f.required {
                    format!("The item at position {}.", f.name)
                } else {
                    format!(
                        "The item at position {}, `None` when the array ends before it.",
                        f.name
                    )
                };
                let doc = match &f.doc {
                    Some(d) => doc_attrs(&format!("{what}\n\n{d}")),
                    None => doc_attrs(&what),
                };
                let deprecated = f.deprecated.then(|| quote!(#[deprecated]));
                quote! {
                    #doc
                    #deprecated
                    pub #field: #ty
                }
            });
            let rest_field = rest.as_ref().map(|t| {
                let t = ty_tokens(t, paths);
                let d = format!(" The items after the first {}.", items.len());
                quote! {
                    #[doc = #d]
                    pub rest: ::std::vec::Vec<#t>,
                }
            });
            let open = rest.is_some();
            let ser = dirs
                .serialize
                .then(|| super::tuples::tuple_serialize(&id, items, open));
            let de = dirs
                .deserialize
                .then(|| super::tuples::tuple_deserialize(&id, items, open));
            let allow_deprecated = items
                .iter()
                .any(|f| f.deprecated)
                .then(|| quote!(#[allow(deprecated)]));
            quote! {
                #doc
                #[derive(#debug Clone, PartialEq)]
                #allow_deprecated
                #user
                pub struct #id {
                    #(#fs,)*
                    #rest_field
                }
                #allow_deprecated
                #ser
                #allow_deprecated
                #de
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
    };
    quote! {
        #item
        #debug_impl
    }
}
