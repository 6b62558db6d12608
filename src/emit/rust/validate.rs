//! Validation tables: each schema as `static` `toolc_runtime::codegen::schema::Schema` items
//! that the runtime's validator walks at the call boundary. Named types get
//! one static each, so recursive references are plain `&STATIC` pointers.
//! Integer schemas carry the bounds of their Rust type, as every advertised
//! form does, so a value the type cannot hold is refused by the schema.

use super::texts::{self, Piece};
use crate::model::Toolset;
use crate::model::schema::added_integer_bounds;
use crate::model::schema::{JsonOptions, JsonType, Keyword, SchemaId, TypeRef};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Number, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A schema text descriptors carry.
#[derive(Default)]
struct Text {
    /// How many descriptors carry it.
    count: usize,
    /// The constant that holds it once several do.
    ident: Option<proc_macro2::Ident>,
    /// The text cut at its `$defs` entries; `None` when it has none.
    pieces: Option<Vec<Piece>>,
}

/// Collects the statics of the `__schemas` module.
///
/// Each static is named after what it validates, so a reader can go from a
/// descriptor to its table and back: a named type's table is `TYPE_<TYPE>`,
/// a tool's `<TOOL>_PARAMS` and `<TOOL>_RETURNS`, and a schema inside one
/// is its parent's name and where it stands (`LIST_MEETINGS_PARAMS_DAY`,
/// `…_ITEMS`, `…_VALUES`, `…_ANY_OF_0`, `…_PATTERN`). Schemas that validate
/// alike share one static, named after the first place that holds it in
/// manifest order, except the bare ones (a type and perhaps a format, or
/// `true`/`false`), which are named after what they are (`STRING`,
/// `STRING_DATE`, `ANY`). A name already taken gets `_2`, `_3`, … in the
/// same order, so the names are the same for the same manifests. The module
/// lists the statics sorted by name.
pub struct Tables<'a> {
    set: &'a Toolset,
    /// The statics by name, each `pub static NAME: …;` with its doc.
    statics: BTreeMap<String, TokenStream>,
    /// Every name given, so that no two statics share one.
    taken: BTreeSet<String>,
    named: BTreeMap<String, proc_macro2::Ident>,
    /// Statics already emitted, by what their schema validates: schemas
    /// that validate alike (`{type: string}` above all) share one static.
    seen: HashMap<String, proc_macro2::Ident>,
    /// The static of each operation's parameters and returns.
    roots: HashMap<SchemaId, proc_macro2::Ident>,
    /// Each schema text descriptors carry, with how many carry it, the
    /// constant that holds it once several do, and the text cut at its
    /// `$defs` entries (see [`texts::cut`]).
    texts: HashMap<String, Text>,
    /// Each `$defs` entry's value text, with how many distinct schema texts
    /// carry it and the constant that holds it once several do.
    defs: HashMap<String, (usize, Option<proc_macro2::Ident>)>,
    /// Each descriptor's policy, as its tokens, with how many descriptors
    /// carry it and the constant that holds it once several do.
    policies: HashMap<String, (usize, Option<proc_macro2::Ident>)>,
}

fn rt() -> TokenStream {
    quote!(::toolc_runtime::codegen::schema)
}

/// `name` as the words of a static's name: upper snake case, only ASCII
/// letters, digits and underscores (`customerId` → `CUSTOMER_ID`).
pub fn shout(name: &str) -> String {
    let words: String = heck::ToShoutySnakeCase::to_shouty_snake_case(name)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let words: Vec<&str> = words.split('_').filter(|w| !w.is_empty()).collect();
    words.join("_")
}

/// The static holding a named type's schema.
pub fn type_static(name: &str) -> String {
    format!("TYPE_{}", shout(name))
}

/// The name of a schema that is only a type (and perhaps a format), or
/// `true`/`false`, after what it is: `STRING`, `STRING_OR_NULL`,
/// `STRING_DATE_TIME`, `ANY`, `NOTHING`. `None` for any other schema.
fn bare_name(key: &Value) -> Option<String> {
    match key {
        Value::Bool(true) => return Some("ANY".into()),
        Value::Bool(false) => return Some("NOTHING".into()),
        _ => {}
    }
    let map = key.as_object()?;
    if map.is_empty() {
        return Some("ANY".into());
    }
    if !map.keys().all(|k| k == "type" || k == "format") {
        return None;
    }
    let types: Vec<&str> = match map.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let mut name = types.join("_OR_").to_uppercase();
    if let Some(f) = map.get("format").and_then(Value::as_str) {
        name.push('_');
        name.push_str(&shout(f));
    }
    Some(name)
}

/// A name not in `taken`, then added to it: `base`, else `base_2`,
/// `base_3`, …. A name that would not start as an identifier does starts
/// with `_`.
fn fresh(taken: &mut BTreeSet<String>, base: &str) -> proc_macro2::Ident {
    let base = if base.starts_with(|c: char| c.is_ascii_alphabetic()) {
        base.to_string()
    } else {
        format!("_{base}")
    };
    let mut name = base.clone();
    let mut k = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{k}");
        k += 1;
    }
    format_ident!("{name}")
}

impl<'a> Tables<'a> {
    /// The tables of every named type and of every operation's parameters
    /// and returns, in manifest order (which decides the names).
    pub fn new(set: &'a Toolset) -> Self {
        let mut t = Tables {
            set,
            statics: BTreeMap::new(),
            taken: BTreeSet::new(),
            named: BTreeMap::new(),
            seen: HashMap::new(),
            roots: HashMap::new(),
            texts: HashMap::new(),
            defs: HashMap::new(),
            policies: HashMap::new(),
        };
        // One static per definition, named after its Rust type, distinct.
        for (n, _) in set.schemas.named_types() {
            let rust = set.rust.type_names.get(n).map_or(n, String::as_str);
            let id = t.fresh(&type_static(rust));
            t.named.insert(n.to_string(), id);
        }
        for (name, root) in set.schemas.named_types() {
            let id = t.named[name].clone();
            let body = t.body(root, &id.to_string());
            let doc = format!(" Validation table of type `{name}`.");
            t.statics.insert(
                id.to_string(),
                quote! {
                    #[doc = #doc]
                    pub static #id: #body;
                },
            );
        }
        for op in set.operations() {
            let tool = shout(&op.name);
            let params = t.node(op.parameters, &format!("{tool}_PARAMS"));
            t.roots.insert(op.parameters, params);
            if let Some(r) = op.returns {
                let returns = t.node(r, &format!("{tool}_RETURNS"));
                t.roots.insert(r, returns);
            }
        }
        t
    }

    /// A name not given yet (see [`fresh`]).
    fn fresh(&mut self, base: &str) -> proc_macro2::Ident {
        fresh(&mut self.taken, base)
    }

    /// Counts one more descriptor that carries the schema text `text` of
    /// `schema`, and, the first time, one more text that carries each of its
    /// `$defs` entries.
    pub fn count_text(&mut self, text: &str, schema: Option<&serde_json::Value>) {
        let entry = self.texts.entry(text.to_string()).or_default();
        entry.count += 1;
        if entry.count > 1 {
            return;
        }
        entry.pieces = schema.and_then(|schema| texts::cut(schema, text));
        for piece in entry.pieces.iter().flatten() {
            if let Piece::Def { value, .. } = piece {
                self.defs.entry(value.clone()).or_default().0 += 1;
            }
        }
    }

    /// A schema text of a descriptor in a module two levels below the root:
    /// the literal where no other descriptor carries it and it has no
    /// `$defs` entry another text carries, else the constant that holds it
    /// once, named `name` after the first descriptor that asked for it.
    pub fn text(&mut self, text: &str, name: &str) -> TokenStream {
        let (count, ident) = self
            .texts
            .get(text)
            .map_or((1, None), |t| (t.count, t.ident.clone()));
        if let Some(ident) = ident {
            return quote!(super::super::__schemas::#ident);
        }
        let parts = self.shared_parts(text);
        if count < 2 && parts.is_none() {
            return quote!(#text);
        }
        let ident = self.fresh(name);
        let (doc, value) = match parts {
            Some(parts) if count < 2 => (
                " A schema text with shared `$defs` entries.".to_string(),
                quote!(::toolc_runtime::codegen::join_str!(#(#parts),*)),
            ),
            Some(parts) => (
                format!(" A schema text {count} descriptors carry, with shared `$defs` entries."),
                quote!(::toolc_runtime::codegen::join_str!(#(#parts),*)),
            ),
            None => (
                format!(" A schema text {count} descriptors carry."),
                quote!(#text),
            ),
        };
        self.statics.insert(
            ident.to_string(),
            quote! {
                #[doc = #doc]
                pub const #ident: &str = #value;
            },
        );
        if let Some(entry) = self.texts.get_mut(text) {
            entry.ident = Some(ident.clone());
        }
        quote!(super::super::__schemas::#ident)
    }

    /// Counts one more descriptor with the policy `policy` (its tokens).
    pub fn count_policy(&mut self, policy: &TokenStream) {
        self.policies.entry(policy.to_string()).or_default().0 += 1;
    }

    /// A descriptor's policy: the expression where no other descriptor has
    /// the same, else the constant that holds it once, named `name` after
    /// the first descriptor that asked for it.
    pub fn policy(&mut self, policy: TokenStream, name: &str) -> TokenStream {
        let key = policy.to_string();
        let (count, ident) = self.policies.get(&key).cloned().unwrap_or((1, None));
        if count < 2 {
            return policy;
        }
        let ident = match ident {
            Some(ident) => ident,
            None => {
                let ident = self.fresh(name);
                let doc = format!(" A policy {count} descriptors carry.");
                self.statics.insert(
                    ident.to_string(),
                    quote! {
                        #[doc = #doc]
                        pub const #ident: ::toolc_runtime::Policy = #policy;
                    },
                );
                if let Some(entry) = self.policies.get_mut(&key) {
                    entry.1 = Some(ident.clone());
                }
                ident
            }
        };
        quote!(super::super::__schemas::#ident)
    }

    /// The parts of `text` as `join_str!` takes them, each `$defs` entry that
    /// other texts carry too named by its constant; `None` when it has none.
    fn shared_parts(&mut self, text: &str) -> Option<Vec<TokenStream>> {
        let pieces = self.texts.get(text)?.pieces.clone()?;
        let shared = |v: &String| self.defs.get(v).is_some_and(|d| d.0 > 1);
        if !pieces
            .iter()
            .any(|p| matches!(p, Piece::Def { value, .. } if shared(value)))
        {
            return None;
        }
        let mut parts = Vec::new();
        let mut literal = String::new();
        for piece in pieces {
            match piece {
                Piece::Def { name, value } if self.defs[&value].0 > 1 => {
                    parts.push(quote!(#literal));
                    literal.clear();
                    let ident = self.def_const(&name, &value);
                    parts.push(quote!(#ident));
                }
                Piece::Def { value: text, .. } | Piece::Text(text) => literal.push_str(&text),
            }
        }
        parts.push(quote!(#literal));
        Some(parts)
    }

    /// The constant holding the value of the `$defs` entry `name`, written
    /// the first time it is asked for.
    fn def_const(&mut self, name: &str, value: &str) -> proc_macro2::Ident {
        let (count, ident) = self.defs[value].clone();
        if let Some(ident) = ident {
            return ident;
        }
        let ident = self.fresh(&format!("DEF_{}", shout(name)));
        let doc = format!(" The `$defs` entry `{name}`, in {count} schema texts.");
        self.statics.insert(
            ident.to_string(),
            quote! {
                #[doc = #doc]
                pub const #ident: &str = #value;
            },
        );
        if let Some(entry) = self.defs.get_mut(value) {
            entry.1 = Some(ident.clone());
        }
        ident
    }

    /// The path of the static of an operation's parameters or returns from
    /// the toolset root.
    pub fn add(&mut self, id: SchemaId) -> TokenStream {
        let id = match self.roots.get(&id) {
            Some(s) => s.clone(),
            None => self.node(id, "SCHEMA"),
        };
        quote!(__schemas::#id)
    }

    /// The static of schema `id`, named `name` if it needs a new one.
    fn node(&mut self, id: SchemaId, name: &str) -> proc_macro2::Ident {
        let schemas = &self.set.schemas;
        let n = schemas.get(id);
        // A bare `$ref` to a named type is that type's static (unless it
        // marks the value sensitive, which the type's static may not).
        if let Some(TypeRef {
            name,
            target: Some(_),
            ..
        }) = n.reference.as_deref()
            && n.only_with_annotations(Keyword::Ref)
            && !n.is_sensitive()
            && let Some(s) = self.named.get(name)
        {
            return s.clone();
        }
        let json = schemas.write_json(id, JsonOptions::TABLE);
        let key = json.to_string();
        if let Some(s) = self.seen.get(&key) {
            return s.clone();
        }
        let s = self.fresh(&bare_name(&json).unwrap_or_else(|| name.to_string()));
        let body = self.body(id, &s.to_string());
        self.statics
            .insert(s.to_string(), quote!(pub static #s: #body;));
        self.seen.insert(key, s.clone());
        s
    }

    /// A reference to the static of `id`, which stands in `parent` at `at`.
    fn child(&mut self, id: SchemaId, parent: &str, at: &str) -> TokenStream {
        let s = self.node(id, &format!("{parent}_{at}"));
        quote!(&#s)
    }

    /// `Type = initializer` for a static.
    // Over 80 lines: one field of the validation table per keyword, in the table's order.
    fn body(&mut self, id: SchemaId, name: &str) -> TokenStream {
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
            let pid = self.fresh(&format!("{name}_PATTERN"));
            self.statics.insert(
                pid.to_string(),
                quote!(pub static #pid: #rt::Pattern = #rt::Pattern::new(#p);),
            );
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
            let cs: Vec<TokenStream> = prefix
                .iter()
                .enumerate()
                .map(|(i, p)| self.child(*p, name, &i.to_string()))
                .collect();
            fields.push(quote!(prefix_items: &[#(#cs),*]));
        }
        if let Some(items) = n.items {
            let c = self.child(items, name, "ITEMS");
            fields.push(quote!(items: ::std::option::Option::Some(#c)));
        }
        if let Some(names) = n.property_names {
            let c = self.child(names, name, "KEYS");
            fields.push(quote!(property_names: ::std::option::Option::Some(#c)));
        }
        if let Some(props) = &n.properties {
            let ps: Vec<TokenStream> = props
                .iter()
                .map(|p| {
                    let c = self.child(p.schema, name, &shout(&p.name));
                    let property = &p.name;
                    quote!((#property, #c))
                })
                .collect();
            fields.push(quote!(properties: &[#(#ps),*]));
        }
        if !n.required.is_empty() {
            let rs = n.required.iter().map(|r| &r.name);
            fields.push(quote!(required: &[#(#rs),*]));
        }
        if !n.dependent_required.is_empty() {
            let ds = n.dependent_required.iter().map(|d| {
                let (name, names) = (&d.name, &d.required);
                quote!((#name, &[#(#names),*]))
            });
            fields.push(quote!(dependent_required: &[#(#ds),*]));
        }
        if !n.dependent_schemas.is_empty() {
            let ds: Vec<TokenStream> = n
                .dependent_schemas
                .iter()
                .map(|p| {
                    let c = self.child(p.schema, name, &format!("WITH_{}", shout(&p.name)));
                    let property = &p.name;
                    quote!((#property, #c))
                })
                .collect();
            fields.push(quote!(dependent_schemas: &[#(#ds),*]));
        }
        if let Some(ap) = n.additional_properties {
            match set.schemas.get(ap).boolean {
                Some(false) => {
                    fields.push(quote!(additional_properties: #rt::Additional::Forbidden))
                }
                Some(true) => {}
                None => {
                    let c = self.child(ap, name, "VALUES");
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
                let at = field.to_uppercase();
                let cs: Vec<TokenStream> = list
                    .iter()
                    .enumerate()
                    .map(|(i, b)| self.child(*b, name, &format!("{at}_{i}")))
                    .collect();
                let f = format_ident!("{field}");
                fields.push(quote!(#f: &[#(#cs),*]));
            }
        }
        if let Some(not) = n.not {
            let c = self.child(not, name, "NOT");
            fields.push(quote!(not: ::std::option::Option::Some(#c)));
        }
        if let Some(TypeRef {
            name,
            target: Some(_),
            ..
        }) = n.reference.as_deref()
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
        let statics = self.statics.into_values();
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

pub(super) fn format_variant(f: &str) -> Option<&'static str> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_words_of_what_they_validate() {
        assert_eq!(shout("list_meetings"), "LIST_MEETINGS");
        assert_eq!(shout("customerId"), "CUSTOMER_ID");
        assert_eq!(shout("in-transit.v2"), "IN_TRANSIT_V2");
        assert_eq!(shout("día"), "D_A");
        assert_eq!(type_static("TicketStatus"), "TYPE_TICKET_STATUS");
    }

    #[test]
    fn bare_schemas_are_named_after_what_they_are() {
        let name = |v: Value| bare_name(&v);
        assert_eq!(
            name(serde_json::json!({"type": "string"})).as_deref(),
            Some("STRING")
        );
        assert_eq!(
            name(serde_json::json!({"type": "string", "format": "date-time"})).as_deref(),
            Some("STRING_DATE_TIME")
        );
        assert_eq!(
            name(serde_json::json!({"type": ["string", "null"]})).as_deref(),
            Some("STRING_OR_NULL")
        );
        assert_eq!(name(serde_json::json!(true)).as_deref(), Some("ANY"));
        assert_eq!(name(serde_json::json!({})).as_deref(), Some("ANY"));
        assert_eq!(name(serde_json::json!(false)).as_deref(), Some("NOTHING"));
        assert_eq!(
            name(serde_json::json!({"type": "string", "minLength": 1})),
            None
        );
        assert_eq!(name(serde_json::json!({"format": "date"})), None);
    }

    #[test]
    fn taken_names_get_numbers_in_the_order_asked() {
        let mut taken = BTreeSet::new();
        let names: Vec<String> = [
            "A_PARAMS",
            "A_PARAMS",
            "1PASSWORD",
            "A_PARAMS",
            "A_PARAMS_2",
        ]
        .iter()
        .map(|n| fresh(&mut taken, n).to_string())
        .collect();
        assert_eq!(
            names,
            [
                "A_PARAMS",
                "A_PARAMS_2",
                "_1PASSWORD",
                "A_PARAMS_3",
                "A_PARAMS_2_2"
            ]
        );
    }
}
