//! Validation tables: each schema as `static` `toolc_runtime::Schema` items
//! that the runtime's validator walks at the call boundary. Named types get
//! one static each, so recursive references are plain `&STATIC` pointers.

use crate::model::Toolset;
use crate::model::schema::ref_type_name;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Collects the statics of the `__schemas` module.
pub struct Tables<'a> {
    set: &'a Toolset,
    statics: Vec<TokenStream>,
    next: usize,
    named: BTreeMap<String, proc_macro2::Ident>,
    /// Statics already emitted, by their schema's JSON text: a schema that
    /// recurs (`{type: string}` above all) is one static, pointed at again.
    seen: std::collections::HashMap<String, proc_macro2::Ident>,
}

fn rt() -> TokenStream {
    quote!(::toolc_runtime::schema)
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
        let named = set
            .types
            .keys()
            .map(|n| (n.clone(), type_static(n)))
            .collect();
        let mut t = Tables {
            set,
            statics: Vec::new(),
            next: 0,
            named,
            seen: Default::default(),
        };
        for (name, ty) in &set.types {
            let id = t.named[name].clone();
            let body = t.body(&ty.schema.json);
            let doc = format!(" Validation table of type `{name}`.");
            t.statics.push(quote! {
                #[doc = #doc]
                pub static #id: #body;
            });
        }
        t
    }

    /// Adds a schema and returns the path of its static from the toolset root.
    pub fn add(&mut self, v: &Value) -> TokenStream {
        let id = self.node(v);
        quote!(__schemas::#id)
    }

    fn node(&mut self, v: &Value) -> proc_macro2::Ident {
        // A bare `$ref` to a named type is that type's static.
        if let Some(obj) = v.as_object()
            && obj.len() == 1
            && let Some(name) = obj
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(ref_type_name)
            && let Some(id) = self.named.get(name)
        {
            return id.clone();
        }
        let key = validation_key(v).to_string();
        if let Some(id) = self.seen.get(&key) {
            return id.clone();
        }
        let id = format_ident!("S{}", self.next);
        self.next += 1;
        let body = self.body(v);
        self.statics.push(quote!(pub static #id: #body;));
        self.seen.insert(key, id.clone());
        id
    }

    fn child(&mut self, v: &Value) -> TokenStream {
        let id = self.node(v);
        quote!(&#id)
    }

    /// `Type = initializer` for a static.
    fn body(&mut self, v: &Value) -> TokenStream {
        let rt = rt();
        let obj = match v {
            Value::Object(o) => o,
            Value::Bool(false) => return quote!(#rt::Schema = #rt::Schema::NOTHING),
            _ => return quote!(#rt::Schema = #rt::Schema::ANY),
        };
        let mut fields: Vec<TokenStream> = Vec::new();
        if let Some(t) = types(obj) {
            fields.push(quote!(types: #t));
        }
        if let Some(Value::Array(values)) = obj.get("enum") {
            let vs = values.iter().map(json_const);
            fields.push(quote!(enum_values: &[#(#vs),*]));
        }
        if let Some(c) = obj.get("const") {
            let c = json_const(c);
            fields.push(quote!(const_value: ::std::option::Option::Some(#c)));
        }
        for (key, field) in [
            ("minimum", "minimum"),
            ("maximum", "maximum"),
            ("exclusiveMinimum", "exclusive_minimum"),
            ("exclusiveMaximum", "exclusive_maximum"),
            ("multipleOf", "multiple_of"),
        ] {
            if let Some(n) = obj.get(key).and_then(Value::as_f64) {
                let f = format_ident!("{field}");
                fields.push(quote!(#f: ::std::option::Option::Some(#n)));
            }
        }
        for (key, field) in [
            ("minLength", "min_length"),
            ("maxLength", "max_length"),
            ("minItems", "min_items"),
            ("maxItems", "max_items"),
        ] {
            if let Some(n) = obj.get(key).and_then(Value::as_u64) {
                let f = format_ident!("{field}");
                fields.push(quote!(#f: ::std::option::Option::Some(#n)));
            }
        }
        if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
            let id = format_ident!("P{}", self.next);
            self.next += 1;
            self.statics
                .push(quote!(pub static #id: #rt::Pattern = #rt::Pattern::new(#p);));
            fields.push(quote!(pattern: ::std::option::Option::Some(&#id)));
        }
        if let Some(f) = obj
            .get("format")
            .and_then(Value::as_str)
            .and_then(format_variant)
        {
            let f = format_ident!("{f}");
            fields.push(quote!(format: ::std::option::Option::Some(#rt::Format::#f)));
        }
        if obj.get("uniqueItems") == Some(&Value::Bool(true)) {
            fields.push(quote!(unique_items: true));
        }
        if let Some(items) = obj.get("items").filter(|i| !i.is_array()) {
            let c = self.child(items);
            fields.push(quote!(items: ::std::option::Option::Some(#c)));
        }
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            let ps: Vec<TokenStream> = props
                .iter()
                .map(|(k, v)| {
                    let c = self.child(v);
                    quote!((#k, #c))
                })
                .collect();
            fields.push(quote!(properties: &[#(#ps),*]));
        }
        if let Some(Value::Array(req)) = obj.get("required") {
            let rs = req.iter().filter_map(Value::as_str);
            fields.push(quote!(required: &[#(#rs),*]));
        }
        match obj.get("additionalProperties") {
            Some(Value::Bool(false)) => {
                fields.push(quote!(additional_properties: #rt::Additional::Forbidden))
            }
            Some(ap @ Value::Object(_)) => {
                let c = self.child(ap);
                fields.push(quote!(additional_properties: #rt::Additional::Schema(#c)));
            }
            _ => {}
        }
        for (key, field) in [
            ("anyOf", "any_of"),
            ("oneOf", "one_of"),
            ("allOf", "all_of"),
        ] {
            if let Some(Value::Array(list)) = obj.get(key) {
                let cs: Vec<TokenStream> = list.iter().map(|b| self.child(b)).collect();
                let f = format_ident!("{field}");
                fields.push(quote!(#f: &[#(#cs),*]));
            }
        }
        if let Some(n) = obj.get("not") {
            let c = self.child(n);
            fields.push(quote!(not: ::std::option::Option::Some(#c)));
        }
        if let Some(name) = obj
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(ref_type_name)
            && let Some(id) = self.named.get(name)
        {
            fields.push(quote!(reference: ::std::option::Option::Some(&#id)));
        }
        quote!(#rt::Schema = #rt::Schema { #(#fields,)* ..#rt::Schema::ANY })
    }

    /// The `__schemas` module.
    pub fn module(self) -> TokenStream {
        let _ = self.set;
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

/// Keywords that annotate a schema without changing what it accepts.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// A schema without its annotations, at every depth: two schemas with the
/// same key validate alike, so they can share a static.
fn validation_key(v: &Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-"))
                .map(|(k, child)| {
                    let child = match (k.as_str(), child) {
                        // `enum` and `const` hold data, kept as written.
                        ("enum" | "const", _) => child.clone(),
                        // Keys here are property names, not keywords.
                        ("properties" | "patternProperties", Value::Object(props)) => {
                            Value::Object(
                                props
                                    .iter()
                                    .map(|(name, s)| (name.clone(), validation_key(s)))
                                    .collect(),
                            )
                        }
                        _ => validation_key(child),
                    };
                    (k.clone(), child)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(validation_key).collect()),
        other => other.clone(),
    }
}

/// The `types` value: the union of the listed JSON types, plus null when nullable.
fn types(obj: &Map<String, Value>) -> Option<TokenStream> {
    let rt = rt();
    let mut names: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    if obj.get("nullable") == Some(&Value::Bool(true)) {
        names.push("null");
    }
    let consts: Vec<TokenStream> = names
        .iter()
        .filter_map(|n| {
            let c = match *n {
                "null" => "NULL",
                "boolean" => "BOOLEAN",
                "integer" => "INTEGER",
                "number" => "NUMBER",
                "string" => "STRING",
                "array" => "ARRAY",
                "object" => "OBJECT",
                _ => return None,
            };
            let c = format_ident!("{c}");
            Some(quote!(#rt::Types::#c))
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

/// A JSON value as a `toolc_runtime::schema::Json` constant.
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
    use super::validation_key;
    use serde_json::json;

    #[test]
    fn keys_drop_annotations_but_not_property_names_or_data() {
        let a = json!({
            "type": "object",
            "description": "one",
            "properties": {"description": {"type": "string", "title": "t"}},
            "enum": [{"description": 1}]
        });
        let b = json!({
            "type": "object",
            "description": "two",
            "properties": {"description": {"type": "string"}},
            "enum": [{"description": 1}]
        });
        assert_eq!(validation_key(&a), validation_key(&b));
        assert_eq!(
            validation_key(&a),
            json!({"type": "object", "properties": {"description": {"type": "string"}}, "enum": [{"description": 1}]})
        );
        assert_ne!(
            validation_key(&json!({"type": "string"})),
            validation_key(&json!({"type": "integer"}))
        );
    }
}
