//! Schema → Rust type model: which Rust type each schema becomes, and the
//! structs and enums that have to be generated for it.
//!
//! A schema the generator cannot map is a located `unsupported-schema`
//! error, never a silent `serde_json::Value`; free-form JSON is opt-in with
//! `x-rust-type: json` or a schema without `type`.

use crate::diag::{Code, Diagnostic, Span};
use crate::model::Toolset;
use crate::model::names::{pascal_ident, snake_ident};
use crate::model::schema::{Schema, ref_type_name};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A Rust type.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    String,
    Bool,
    I32,
    I64,
    U32,
    U64,
    F64,
    Unit,
    Json,
    Vec(Box<Ty>),
    Map(Box<Ty>),
    Option(Box<Ty>),
    Box(Box<Ty>),
    /// A named type of the toolset (`types::X`).
    Shared(String),
    /// A type generated in the current module.
    Local(String),
}

impl Ty {
    fn is_option(&self) -> bool {
        matches!(self, Ty::Option(_))
    }
}

/// A field of a generated struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub ident: String,
    /// The JSON property name.
    pub name: String,
    pub ty: Ty,
    pub doc: Option<String>,
    /// Required by the schema: always present (maybe `null`).
    pub required: bool,
    /// A literal default for an optional property.
    pub default: Option<Value>,
    pub deprecated: bool,
}

/// A generated struct or enum.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Struct {
        name: String,
        doc: Option<String>,
        fields: Vec<Field>,
        /// `additionalProperties: false`.
        deny_unknown: bool,
        /// `additionalProperties` with a schema next to `properties`.
        extra: Option<Ty>,
    },
    /// A string enum.
    Enum {
        name: String,
        doc: Option<String>,
        variants: Vec<(String, String)>,
    },
    /// `oneOf`/`anyOf` with a `const` discriminator property.
    Tagged {
        name: String,
        doc: Option<String>,
        tag: String,
        variants: Vec<(String, String, Vec<Field>)>,
    },
    /// `oneOf`/`anyOf` without one: the first branch that parses wins.
    Untagged {
        name: String,
        doc: Option<String>,
        variants: Vec<(String, Ty)>,
    },
    /// A named type that is neither struct nor enum: a transparent newtype.
    Newtype {
        name: String,
        doc: Option<String>,
        ty: Ty,
    },
}

impl Item {
    /// The item's doc text, to fill in where the schema has no description.
    pub fn doc_mut(&mut self) -> &mut Option<String> {
        match self {
            Item::Struct { doc, .. }
            | Item::Enum { doc, .. }
            | Item::Tagged { doc, .. }
            | Item::Untagged { doc, .. }
            | Item::Newtype { doc, .. } => doc,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Item::Struct { name, .. }
            | Item::Enum { name, .. }
            | Item::Tagged { name, .. }
            | Item::Untagged { name, .. }
            | Item::Newtype { name, .. } => name,
        }
    }
}

/// The items generated into one module, with their names kept unique.
#[derive(Debug, Default)]
pub struct Module {
    pub items: Vec<Item>,
    names: BTreeSet<String>,
    /// A reserved name the next item with exactly this hint takes as is.
    exact: Option<String>,
}

impl Module {
    /// Gives the local item `ty` names a doc when its schema had none.
    pub fn document(&mut self, ty: &Ty, text: impl FnOnce() -> String) {
        if let Ty::Local(name) = ty
            && let Some(item) = self.items.iter_mut().find(|i| i.name() == name)
            && item.doc_mut().is_none()
        {
            *item.doc_mut() = Some(text());
        }
    }

    /// Reserves names the module defines itself (trait and server names).
    pub fn reserve(&mut self, name: &str) {
        self.names.insert(name.to_string());
    }

    fn unique(&mut self, hint: &str) -> String {
        if self.exact.as_deref() == Some(hint) {
            self.exact = None;
            return hint.to_string();
        }
        let mut name = hint.to_string();
        let mut n = 2;
        while self.names.contains(&name) {
            name = format!("{hint}{n}");
            n += 1;
        }
        self.names.insert(name.clone());
        name
    }
}

/// Keywords that matter to the type mapping; anything else outside this
/// list and the annotation keywords is refused.
const UNSUPPORTED: &[&str] = &[
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "minProperties",
    "maxProperties",
    "$dynamicRef",
    "$dynamicAnchor",
    "$anchor",
    "$defs",
    "definitions",
];

/// Maps schemas to types for one toolset.
pub struct TypeGen<'a> {
    set: &'a Toolset,
    /// Named types that are part of a reference cycle, with their cycle.
    cycles: BTreeMap<String, BTreeSet<String>>,
    /// Set while mapping an array item or map value: a recursive reference
    /// there needs no `Box`, the collection already is one.
    indirect: bool,
    pub diags: Vec<Diagnostic>,
}

/// Where a schema being mapped sits: for spans and for naming.
#[derive(Clone, Copy)]
pub struct At<'s> {
    pub schema: &'s Schema,
    /// The named type being defined, when inside one.
    pub within: Option<&'s str>,
}

impl<'a> TypeGen<'a> {
    pub fn new(set: &'a Toolset) -> Self {
        TypeGen {
            set,
            cycles: find_cycles(set),
            indirect: false,
            diags: Vec::new(),
        }
    }

    fn unsupported(&mut self, at: At<'_>, pointer: &str, what: String, help: &str) {
        self.diags.push(
            Diagnostic::new(Code::UnsupportedSchema, what)
                .at(at.schema.span_at(pointer))
                .help(help.to_string()),
        );
    }

    fn span(&self, at: At<'_>, pointer: &str) -> Span {
        at.schema.span_at(pointer)
    }

    /// The Rust type of the schema `v` at `pointer`; new items go to `module`
    /// named after `hint`.
    pub fn ty(
        &mut self,
        at: At<'_>,
        v: &Value,
        pointer: &str,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let indirect = std::mem::replace(&mut self.indirect, false);
        let obj = match v {
            Value::Bool(true) => return Ty::Json,
            Value::Object(o) => o,
            _ => {
                self.unsupported(
                    at,
                    pointer,
                    "a `false` schema accepts nothing and has no Rust type".to_string(),
                    "remove the property, or give it a schema",
                );
                return Ty::Json;
            }
        };
        for k in UNSUPPORTED {
            if obj.contains_key(*k) {
                self.unsupported(
                    at,
                    &format!("{pointer}/{k}"),
                    format!("`{k}` is not supported in generated Rust types and validation"),
                    "restructure the schema without it, or mark the value free-form with `x-rust-type: json`",
                );
            }
        }
        if obj.get("x-rust-type").and_then(Value::as_str) == Some("json") {
            return Ty::Json;
        }
        let nullable = obj.get("nullable") == Some(&Value::Bool(true))
            || matches!(obj.get("type"), Some(Value::Array(t)) if t.iter().any(|x| x == "null"));
        let base = self.base_ty(at, obj, pointer, hint, module, indirect);
        if nullable && !base.is_option() && base != Ty::Unit && base != Ty::Json {
            Ty::Option(Box::new(base))
        } else {
            base
        }
    }

    fn base_ty(
        &mut self,
        at: At<'_>,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
        module: &mut Module,
        indirect: bool,
    ) -> Ty {
        if let Some(Value::String(target)) = obj.get("$ref") {
            let Some(name) = ref_type_name(target).filter(|n| self.set.types.contains_key(*n))
            else {
                // Reported by resolve.
                return Ty::Json;
            };
            let ty = Ty::Shared(name.to_string());
            let boxed = !indirect
                && at
                    .within
                    .and_then(|w| self.cycles.get(w))
                    .is_some_and(|c| c.contains(name));
            return if boxed { Ty::Box(Box::new(ty)) } else { ty };
        }
        if let Some(all) = obj.get("allOf").and_then(Value::as_array) {
            if all.len() == 1 {
                return self.ty(at, &all[0], &format!("{pointer}/allOf/0"), hint, module);
            }
            self.unsupported(
                at,
                &format!("{pointer}/allOf"),
                "`allOf` with more than one schema has no Rust type".to_string(),
                "merge the schemas into one object, or use a named type",
            );
            return Ty::Json;
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = obj.get(key).and_then(Value::as_array) {
                return self.union(at, obj, branches, &format!("{pointer}/{key}"), hint, module);
            }
        }
        let types: Vec<&str> = match obj.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect(),
            _ => Vec::new(),
        };
        let ty = match types.as_slice() {
            [] if matches!(obj.get("type"), Some(Value::Array(_))) => "null",
            [] => {
                // No `type`: infer from enum/const/properties, or any JSON.
                if let Some(Value::Array(values)) = obj.get("enum") {
                    if !values.is_empty() && values.iter().all(Value::is_string) {
                        "string"
                    } else {
                        return Ty::Json;
                    }
                } else if obj.contains_key("properties") {
                    "object"
                } else {
                    return Ty::Json;
                }
            }
            [one] => one,
            _ => {
                self.unsupported(
                    at,
                    &format!("{pointer}/type"),
                    format!(
                        "a value of several types ({}) has no Rust type",
                        types.join(", ")
                    ),
                    "use one type (plus \"null\"), `oneOf`, or `x-rust-type: json`",
                );
                return Ty::Json;
            }
        };
        match ty {
            "string" => match obj.get("enum") {
                Some(Value::Array(values))
                    if !values.is_empty() && values.iter().all(Value::is_string) =>
                {
                    let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                    self.string_enum(at, obj, &strings, pointer, hint, module)
                }
                _ => Ty::String,
            },
            "integer" => match obj.get("format").and_then(Value::as_str) {
                Some("int32") => Ty::I32,
                Some("uint32") => Ty::U32,
                Some("uint64") => Ty::U64,
                _ => Ty::I64,
            },
            "number" => Ty::F64,
            "boolean" => Ty::Bool,
            "null" => Ty::Unit,
            "array" => match obj.get("items") {
                Some(Value::Array(_)) => {
                    self.unsupported(
                        at,
                        &format!("{pointer}/items"),
                        "tuple `items` (a list of schemas) is not supported".to_string(),
                        "use an object with named properties instead of a positional tuple",
                    );
                    Ty::Json
                }
                Some(items) => Ty::Vec(Box::new({
                    self.indirect = true;
                    self.ty(
                        at,
                        items,
                        &format!("{pointer}/items"),
                        &format!("{hint}Item"),
                        module,
                    )
                })),
                None => Ty::Vec(Box::new(Ty::Json)),
            },
            "object" => self.object(at, obj, pointer, hint, module),
            other => {
                self.unsupported(
                    at,
                    &format!("{pointer}/type"),
                    format!("unknown type `{other}`"),
                    "use string, integer, number, boolean, array, object or null",
                );
                Ty::Json
            }
        }
    }

    fn string_enum(
        &mut self,
        at: At<'_>,
        obj: &Map<String, Value>,
        values: &[&str],
        pointer: &str,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let mut variants: Vec<(String, String)> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let mut ident = variant_ident(v);
            if ident.is_empty() {
                ident = format!("Variant{i}");
            }
            if let Some((_, other)) = variants.iter().find(|(id, _)| *id == ident) {
                self.unsupported(
                    at,
                    &format!("{pointer}/enum/{i}"),
                    format!(
                        "enum values `{other}` and `{v}` both become the Rust variant `{ident}`"
                    ),
                    "make the enum values differ by more than case and punctuation",
                );
                continue;
            }
            variants.push((ident, (*v).to_string()));
        }
        let name = module.unique(hint);
        module.items.push(Item::Enum {
            name: name.clone(),
            doc: description(obj),
            variants,
        });
        Ty::Local(name)
    }

    fn object(
        &mut self,
        at: At<'_>,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let props = obj.get("properties").and_then(Value::as_object);
        let additional = obj.get("additionalProperties");
        let has_props = props.is_some_and(|p| !p.is_empty());
        // The type of properties beyond the named ones, when a schema gives
        // it: a map's values, or a flattened map beside the named fields.
        // Either way they sit behind a map, so recursion needs no `Box`.
        let extra = match additional {
            Some(ap @ Value::Object(_)) => {
                self.indirect = true;
                Some(self.ty(
                    at,
                    ap,
                    &format!("{pointer}/additionalProperties"),
                    &format!("{hint}Value"),
                    module,
                ))
            }
            _ => None,
        };
        if !has_props && additional != Some(&Value::Bool(false)) {
            return Ty::Map(Box::new(extra.unwrap_or(Ty::Json)));
        }
        let fields = self.fields(at, obj, pointer, hint, module, None);
        let name = module.unique(hint);
        module.items.push(Item::Struct {
            name: name.clone(),
            doc: description(obj),
            fields,
            deny_unknown: additional == Some(&Value::Bool(false)),
            extra,
        });
        Ty::Local(name)
    }

    /// The fields of an object schema, skipping the property `skip` (a
    /// union's tag).
    fn fields(
        &mut self,
        at: At<'_>,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
        module: &mut Module,
        skip: Option<&str>,
    ) -> Vec<Field> {
        let empty = Map::new();
        let props = obj
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: BTreeSet<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields: Vec<Field> = Vec::new();
        for (i, (prop, sub)) in props.iter().enumerate() {
            if Some(prop.as_str()) == skip {
                continue;
            }
            let p = format!(
                "{pointer}/properties/{}",
                crate::manifest::node::escape_pointer_token(prop)
            );
            let ident = field_ident(prop, i);
            if let Some(other) = fields.iter().find(|f| f.ident == ident) {
                let other_name = other.name.clone();
                self.diags.push(
                    Diagnostic::new(
                        Code::IdentCollision,
                        format!("properties `{other_name}` and `{prop}` both become the Rust field `{ident}`"),
                    )
                    .at(self.span(at, &p))
                    .help("rename one of the properties"),
                );
                continue;
            }
            let ty = self.ty(
                at,
                sub,
                &p,
                &format!("{hint}{}", pascal_ident(prop).trim_start_matches("r#")),
                module,
            );
            let is_required = required.contains(prop.as_str());
            let sub_obj = sub.as_object();
            let default = sub_obj
                .and_then(|o| o.get("default"))
                .cloned()
                .filter(|d| default_fits(&ty, d));
            let ty = if is_required || ty.is_option() || default.is_some() || ty == Ty::Json {
                ty
            } else {
                Ty::Option(Box::new(ty))
            };
            fields.push(Field {
                ident,
                name: prop.clone(),
                ty,
                doc: sub_obj.and_then(description),
                required: is_required,
                default: if is_required { None } else { default },
                deprecated: sub_obj.and_then(|o| o.get("deprecated")) == Some(&Value::Bool(true)),
            });
        }
        fields
    }

    fn union(
        &mut self,
        at: At<'_>,
        obj: &Map<String, Value>,
        branches: &[Value],
        pointer: &str,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let is_null = |b: &Value| b.get("type").and_then(Value::as_str) == Some("null");
        let non_null: Vec<(usize, &Value)> = branches
            .iter()
            .enumerate()
            .filter(|(_, b)| !is_null(b))
            .collect();
        let nullable = non_null.len() < branches.len();
        let wrap = |t: Ty| {
            if nullable && !t.is_option() {
                Ty::Option(Box::new(t))
            } else {
                t
            }
        };
        if let [(i, only)] = non_null.as_slice() {
            let t = self.ty(at, only, &format!("{pointer}/{i}"), hint, module);
            return wrap(t);
        }
        if non_null.is_empty() {
            return Ty::Unit;
        }
        // A tagged union: every branch an object with a required `const`
        // string property of the same name.
        let set = self.set;
        let derefed: Vec<&Value> = non_null
            .iter()
            .map(|(_, b)| crate::model::schema::deref_root(b, &set.types))
            .collect();
        if let Some(tag) = discriminator(&derefed) {
            let mut variants = Vec::new();
            for ((i, _), b) in non_null.iter().zip(&derefed) {
                let Some(bo) = b.as_object() else { continue };
                let value = tag_value(bo, &tag).unwrap_or_default();
                let ident = variant_ident(&value);
                let fields = self.fields(
                    at,
                    bo,
                    &format!("{pointer}/{i}"),
                    &format!("{hint}{ident}"),
                    module,
                    Some(&tag),
                );
                variants.push((ident, value, fields));
            }
            let name = module.unique(hint);
            module.items.push(Item::Tagged {
                name: name.clone(),
                doc: description(obj),
                tag,
                variants,
            });
            return wrap(Ty::Local(name));
        }
        let mut variants: Vec<(String, Ty)> = Vec::new();
        for (i, b) in &non_null {
            let vname = branch_name(b, *i);
            let t = self.ty(
                at,
                b,
                &format!("{pointer}/{i}"),
                &format!("{hint}{vname}"),
                module,
            );
            let mut ident = vname.clone();
            let mut n = 2;
            while variants.iter().any(|(v, _)| *v == ident) {
                ident = format!("{vname}{n}");
                n += 1;
            }
            variants.push((ident, t));
        }
        let name = module.unique(hint);
        module.items.push(Item::Untagged {
            name: name.clone(),
            doc: description(obj),
            variants,
        });
        wrap(Ty::Local(name))
    }

    /// The item for a named type, generated into the `types` module (whose
    /// names must all have been reserved first).
    pub fn named_type(&mut self, name: &str, module: &mut Module) {
        let Some(t) = self.set.types.get(name) else {
            return;
        };
        let at = At {
            schema: &t.schema,
            within: Some(&t.name),
        };
        module.exact = Some(name.to_string());
        let ty = self.ty(at, &t.schema.json, "", name, module);
        module.exact = None;
        if ty != Ty::Local(name.to_string()) {
            module.items.push(Item::Newtype {
                name: name.to_string(),
                doc: t.schema.json.as_object().and_then(description),
                ty,
            });
        }
    }
}

fn description(obj: &Map<String, Value>) -> Option<String> {
    obj.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Whether a default literal can be written as a Rust expression of `ty`.
fn default_fits(ty: &Ty, d: &Value) -> bool {
    match ty {
        Ty::String => d.is_string(),
        Ty::Bool => d.is_boolean(),
        Ty::I64 => d.is_i64(),
        Ty::I32 => d.as_i64().is_some_and(|v| i32::try_from(v).is_ok()),
        Ty::U32 => d.as_u64().is_some_and(|v| u32::try_from(v).is_ok()),
        Ty::U64 => d.is_u64(),
        Ty::F64 => d.is_number(),
        _ => false,
    }
}

/// A Rust field name for a property: snake_case, ASCII, keyword-escaped.
pub fn field_ident(prop: &str, index: usize) -> String {
    let cleaned: String = prop
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let snake = snake_ident(&cleaned);
    let bare = snake.trim_start_matches("r#").trim_matches('_');
    if bare.is_empty() {
        format!("field_{index}")
    } else {
        snake
    }
}

/// A Rust variant name for an enum value or tag.
pub fn variant_ident(value: &str) -> String {
    let cleaned: String = value
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect();
    let p = pascal_ident(cleaned.trim());
    let p = p.trim_start_matches("r#").to_string();
    if p.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{p}")
    } else if p == "Self_" || p == "Self" {
        "SelfValue".to_string()
    } else {
        p
    }
}

fn tag_value(obj: &Map<String, Value>, tag: &str) -> Option<String> {
    let p = obj.get("properties")?.get(tag)?;
    if let Some(Value::String(s)) = p.get("const") {
        return Some(s.clone());
    }
    match p.get("enum") {
        Some(Value::Array(v)) if v.len() == 1 => v[0].as_str().map(str::to_string),
        _ => None,
    }
}

/// The property every branch fixes to a distinct string, required in each.
fn discriminator(branches: &[&Value]) -> Option<String> {
    let first = branches.first()?.as_object()?;
    let candidates = first.get("properties")?.as_object()?.keys();
    'next: for key in candidates {
        let mut seen = BTreeSet::new();
        for b in branches {
            let o = b.as_object()?;
            let required = o
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x == key));
            match tag_value(o, key) {
                Some(v) if required && seen.insert(variant_ident(&v)) => {}
                _ => continue 'next,
            }
        }
        return Some(key.clone());
    }
    None
}

fn branch_name(b: &Value, i: usize) -> String {
    if let Some(name) = b
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_type_name)
    {
        return name.to_string();
    }
    match b.get("type").and_then(Value::as_str) {
        Some("string") => "String".into(),
        Some("integer") => "Integer".into(),
        Some("number") => "Number".into(),
        Some("boolean") => "Bool".into(),
        Some("array") => "Array".into(),
        Some("object") => "Object".into(),
        _ => format!("Variant{i}"),
    }
}

/// Named types on a reference cycle, each with the members of its cycle.
fn find_cycles(set: &Toolset) -> BTreeMap<String, BTreeSet<String>> {
    let edges: BTreeMap<&str, BTreeSet<String>> = set
        .types
        .iter()
        .map(|(name, t)| {
            let targets = t
                .schema
                .type_refs()
                .into_iter()
                .filter_map(|(_, target)| ref_type_name(&target).map(str::to_string))
                .collect();
            (name.as_str(), targets)
        })
        .collect();
    let mut out = BTreeMap::new();
    for start in edges.keys() {
        // Types reachable from `start`; `start` is on a cycle when it reaches itself.
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> = edges[start].iter().cloned().collect();
        while let Some(n) = stack.pop() {
            if seen.insert(n.clone())
                && let Some(next) = edges.get(n.as_str())
            {
                stack.extend(next.iter().cloned());
            }
        }
        if seen.contains(*start) {
            // The members of the cycle: those reachable that reach back.
            out.insert(start.to_string(), seen);
        }
    }
    // Keep only members that also reach `start`.
    let reach = out.clone();
    for (start, members) in out.iter_mut() {
        members.retain(|m| m == start || reach.get(m).is_some_and(|r| r.contains(start)));
    }
    out
}
