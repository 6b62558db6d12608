//! Validation tables: each schema as `static` `toolc_runtime::codegen::schema::Schema` items
//! that the runtime's validator walks at the call boundary. Named types get
//! one static each, so recursive references are plain `&STATIC` pointers.
//! Integer schemas carry the bounds of their Rust type, as every advertised
//! form does, so a value the type cannot hold is refused by the schema.

use crate::model::Toolset;
use crate::model::rust::added_integer_bounds;
use crate::model::schema::{JsonOptions, JsonType, Keyword, SchemaId, TypeRef};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Number, Value};
use std::collections::{BTreeMap, HashMap};

/// Collects the statics of the `__schemas` module.
pub struct Tables<'a> {
    set: &'a Toolset,
    statics: Vec<TokenStream>,
    next: usize,
    named: BTreeMap<String, proc_macro2::Ident>,
    /// Statics already emitted, by what their schema validates: schemas
    /// that validate alike (`{type: string}` above all) share one static.
    seen: HashMap<String, proc_macro2::Ident>,
}

fn rt() -> TokenStream {
    quote!(::toolc_runtime::codegen::schema)
}

/// The static holding a named type's schema.
pub fn type_static(name: &str) -> proc_macro2::Ident {
    format_ident!(
        "TYPE_{}",
        heck::ToShoutySnakeCase::to_shouty_snake_case(name)
    )
}

impl<'a> Tables<'a> {
    pub fn new(set: &'a Toolset) -> Self {
        // One static per definition, named after its Rust type, distinct.
        let mut taken = std::collections::BTreeSet::new();
        let named = set
            .schemas
            .named_types()
            .map(|(n, _)| {
                let rust = set.rust.type_names.get(n).map_or(n, String::as_str);
                let mut id = type_static(rust);
                let mut k = 2;
                while !taken.insert(id.to_string()) {
                    id = format_ident!("{}_{k}", type_static(rust));
                    k += 1;
                }
                (n.to_string(), id)
            })
            .collect();
        let mut t = Tables {
            set,
            statics: Vec::new(),
            next: 0,
            named,
            seen: HashMap::new(),
        };
        for (name, root) in set.schemas.named_types() {
            let id = t.named[name].clone();
            let body = t.body(root);
            let doc = format!(" Validation table of type `{name}`.");
            t.statics.push(quote! {
                #[doc = #doc]
                pub static #id: #body;
            });
        }
        t
    }

    /// Adds a schema and returns the path of its static from the toolset root.
    pub fn add(&mut self, id: SchemaId) -> TokenStream {
        let id = self.node(id);
        quote!(__schemas::#id)
    }

    fn node(&mut self, id: SchemaId) -> proc_macro2::Ident {
        let schemas = &self.set.schemas;
        let n = schemas.get(id);
        // A bare `$ref` to a named type is that type's static (unless it
        // marks the value sensitive, which the type's static may not).
        if let Some(TypeRef {
            name,
            target: Some(_),
            ..
        }) = &n.reference
            && n.only_with_annotations(Keyword::Ref)
            && !n.is_sensitive()
            && let Some(s) = self.named.get(name)
        {
            return s.clone();
        }
        let key = schemas.write_json(id, JsonOptions::TABLE).to_string();
        if let Some(s) = self.seen.get(&key) {
            return s.clone();
        }
        let s = format_ident!("S{}", self.next);
        self.next += 1;
        let body = self.body(id);
        self.statics.push(quote!(pub static #s: #body;));
        self.seen.insert(key, s.clone());
        s
    }

    fn child(&mut self, id: SchemaId) -> TokenStream {
        let s = self.node(id);
        quote!(&#s)
    }

    /// `Type = initializer` for a static.
    fn body(&mut self, id: SchemaId) -> TokenStream {
        let rt = rt();
        let set = self.set;
        let n = set.schemas.get(id);
        match n.boolean {
            Some(false) => return quote!(#rt::Schema = #rt::Schema::NOTHING),
            Some(true) => return quote!(#rt::Schema = #rt::Schema::ANY),
            None => {}
        }
        let mut fields: Vec<TokenStream> = Vec::new();
        if let Some(t) = types(&n.types, n.nullable == Some(true)) {
            fields.push(quote!(types: #t));
        }
        if let Some(Value::Array(values)) = n.enum_values.as_ref().map(|d| &d.value) {
            let vs = values.iter().map(json_const);
            fields.push(quote!(enum_values: &[#(#vs),*]));
        }
        if let Some(c) = &n.const_value {
            let c = json_const(&c.value);
            fields.push(quote!(const_value: ::std::option::Option::Some(#c)));
        }
        let (least, greatest) = added_integer_bounds(n);
        let minimum = least.map(int_number).or_else(|| n.minimum.clone());
        let maximum = greatest.map(int_number).or_else(|| n.maximum.clone());
        for (field, value) in [
            ("minimum", &minimum),
            ("maximum", &maximum),
            ("exclusive_minimum", &n.exclusive_minimum),
            ("exclusive_maximum", &n.exclusive_maximum),
        ] {
            if let Some(v) = value {
                let f = format_ident!("{field}");
                let v = num(v);
                fields.push(quote!(#f: ::std::option::Option::Some(#v)));
            }
        }
        if let Some(m) = n.multiple_of.as_ref().and_then(Number::as_f64) {
            fields.push(quote!(multiple_of: ::std::option::Option::Some(#m)));
        }
        for (field, value) in [
            ("min_length", n.min_length),
            ("max_length", n.max_length),
            ("min_items", n.min_items),
            ("max_items", n.max_items),
        ] {
            if let Some(v) = value {
                let f = format_ident!("{field}");
                fields.push(quote!(#f: ::std::option::Option::Some(#v)));
            }
        }
        if let Some(p) = &n.pattern {
            let pid = format_ident!("P{}", self.next);
            self.next += 1;
            self.statics
                .push(quote!(pub static #pid: #rt::Pattern = #rt::Pattern::new(#p);));
            fields.push(quote!(pattern: ::std::option::Option::Some(&#pid)));
        }
        if let Some(f) = n.format.as_deref().and_then(format_variant) {
            let f = format_ident!("{f}");
            fields.push(quote!(format: ::std::option::Option::Some(#rt::Format::#f)));
        }
        if n.unique_items == Some(true) {
            fields.push(quote!(unique_items: true));
        }
        if let Some(prefix) = &n.prefix_items {
            let cs: Vec<TokenStream> = prefix.iter().map(|p| self.child(*p)).collect();
            fields.push(quote!(prefix_items: &[#(#cs),*]));
        }
        if let Some(items) = n.items {
            let c = self.child(items);
            fields.push(quote!(items: ::std::option::Option::Some(#c)));
        }
        if let Some(names) = n.property_names {
            let c = self.child(names);
            fields.push(quote!(property_names: ::std::option::Option::Some(#c)));
        }
        if let Some(props) = &n.properties {
            let ps: Vec<TokenStream> = props
                .iter()
                .map(|p| {
                    let c = self.child(p.schema);
                    let name = &p.name;
                    quote!((#name, #c))
                })
                .collect();
            fields.push(quote!(properties: &[#(#ps),*]));
        }
        if !n.required.is_empty() {
            let rs = n.required.iter().map(|r| &r.name);
            fields.push(quote!(required: &[#(#rs),*]));
        }
        if let Some(ap) = n.additional_properties {
            match set.schemas.get(ap).boolean {
                Some(false) => {
                    fields.push(quote!(additional_properties: #rt::Additional::Forbidden))
                }
                Some(true) => {}
                None => {
                    let c = self.child(ap);
                    fields.push(quote!(additional_properties: #rt::Additional::Schema(#c)));
                }
            }
        }
        for (field, list) in [
            ("any_of", &n.any_of),
            ("one_of", &n.one_of),
            ("all_of", &n.all_of),
        ] {
            if let Some(list) = list {
                let cs: Vec<TokenStream> = list.iter().map(|b| self.child(*b)).collect();
                let f = format_ident!("{field}");
                fields.push(quote!(#f: &[#(#cs),*]));
            }
        }
        if let Some(not) = n.not {
            let c = self.child(not);
            fields.push(quote!(not: ::std::option::Option::Some(#c)));
        }
        if let Some(TypeRef {
            name,
            target: Some(_),
            ..
        }) = &n.reference
            && let Some(s) = self.named.get(name)
        {
            fields.push(quote!(reference: ::std::option::Option::Some(&#s)));
        }
        if n.is_sensitive() {
            fields.push(quote!(sensitive: true));
        }
        quote!(#rt::Schema = #rt::Schema { #(#fields,)* ..#rt::Schema::ANY })
    }

    /// The `__schemas` module.
    pub fn module(self) -> TokenStream {
        let statics = self.statics;
        quote! {
            /// Validation tables the dispatchers check arguments and results against.
            #[doc(hidden)]
            #[allow(dead_code)]
            pub mod __schemas {
                #(#statics)*
            }
        }
    }
}

fn int_number(i: i128) -> Number {
    match (i64::try_from(i), u64::try_from(i)) {
        (Ok(v), _) => Number::from(v),
        (_, Ok(v)) => Number::from(v),
        _ => Number::from(0),
    }
}

/// A bound as an exact `toolc_runtime::codegen::schema::Num`.
fn num(n: &Number) -> TokenStream {
    let rt = rt();
    if let Some(i) = n.as_i64() {
        quote!(#rt::Num::Int(#i))
    } else if let Some(u) = n.as_u64() {
        quote!(#rt::Num::UInt(#u))
    } else {
        let f = n.as_f64().unwrap_or_default();
        quote!(#rt::Num::Float(#f))
    }
}

/// The `types` value: the union of the listed JSON types, plus null when nullable.
fn types(list: &[JsonType], nullable: bool) -> Option<TokenStream> {
    let rt = rt();
    let mut names: Vec<JsonType> = list.to_vec();
    if list.is_empty() {
        return None;
    }
    if nullable && !names.contains(&JsonType::Null) {
        names.push(JsonType::Null);
    }
    let consts: Vec<TokenStream> = names
        .iter()
        .map(|t| {
            let c = format_ident!("{}", t.as_str().to_uppercase());
            quote!(#rt::Types::#c)
        })
        .collect();
    let first = consts.first()?.clone();
    Some(
        consts[1..]
            .iter()
            .fold(first, |acc, c| quote!(#acc.union(#c))),
    )
}

fn format_variant(f: &str) -> Option<&'static str> {
    Some(match f {
        "date" => "Date",
        "date-time" => "DateTime",
        "time" => "Time",
        "uuid" => "Uuid",
        "email" => "Email",
        "uri" => "Uri",
        "ipv4" => "Ipv4",
        "ipv6" => "Ipv6",
        "hostname" => "Hostname",
        _ => return None,
    })
}

/// A JSON value as a `toolc_runtime::codegen::schema::Json` constant.
fn json_const(v: &Value) -> TokenStream {
    let rt = rt();
    match v {
        Value::Null => quote!(#rt::Json::Null),
        Value::Bool(b) => quote!(#rt::Json::Bool(#b)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                quote!(#rt::Json::Int(#i))
            } else if let Some(u) = n.as_u64() {
                quote!(#rt::Json::UInt(#u))
            } else {
                let f = n.as_f64().unwrap_or_default();
                quote!(#rt::Json::Float(#f))
            }
        }
        Value::String(s) => quote!(#rt::Json::Str(#s)),
        other => {
            let text = other.to_string();
            quote!(#rt::Json::Raw(#text))
        }
    }
}
