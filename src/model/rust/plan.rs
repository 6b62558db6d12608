//! Schema → Rust type: the mapping itself, over the typed schema model.
//!
//! A schema that has no Rust type is a located `unsupported-schema` error,
//! never a silent `serde_json::Value`; free-form JSON is opt-in with
//! `x-rust-type: json` or a schema without `type`.

use super::literal;
use super::{Field, GroupPlan, Item, Module, RustPlan, Signature, Ty, TypedFormat};
use crate::diag::{Code, Diagnostic, Span};
use crate::model::names::{pascal_ident, snake_ident};
use crate::model::schema::{
    JsonType, Keyword, RustTypeHint, SchemaId, SchemaNode, Schemas, is_integral,
};
use crate::model::{Tool, Toolset};
use std::collections::{BTreeMap, BTreeSet};

/// The range of the Rust integer type an integer schema becomes, by its
/// `format`.
pub fn integer_range(node: &SchemaNode) -> (i128, i128) {
    match node.format.as_deref() {
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

/// The bounds the Rust integer type adds to an integer schema, inclusive:
/// on each side, the type's own limit when the schema's bounds do not
/// already keep values within it (`None` when they do, or when the schema
/// is not integer-only). Validation tables and every advertised form carry
/// them, so a value the type cannot hold is refused by the schema.
pub fn added_integer_bounds(node: &SchemaNode) -> (Option<i128>, Option<i128>) {
    if !node.has_type(JsonType::Integer) || node.has_type(JsonType::Number) {
        return (None, None);
    }
    let (lo, hi) = integer_range(node);
    // A closed set of values keeps within the type when each value does.
    let within = |v: &serde_json::Value| {
        v.as_number()
            .and_then(|n| as_i128(n, false))
            .is_none_or(|i| lo <= i && i <= hi)
    };
    let listed = node
        .enum_values
        .as_ref()
        .and_then(|e| e.value.as_array())
        .map(|l| l.iter().all(within))
        .or_else(|| node.const_value.as_ref().map(|c| within(&c.value)));
    if listed == Some(true) {
        return (None, None);
    }
    // The least integer a lower bound lets through, the greatest an upper one.
    let least_above = |n: &serde_json::Number, exclusive: bool| -> Option<i128> {
        let v = as_i128(n, true)?;
        Some(if exclusive && is_integral(n) {
            v + 1
        } else {
            v
        })
    };
    let greatest_below = |n: &serde_json::Number, exclusive: bool| -> Option<i128> {
        let v = as_i128(n, false)?;
        Some(if exclusive && is_integral(n) {
            v - 1
        } else {
            v
        })
    };
    let least = [
        node.minimum.as_ref().and_then(|n| least_above(n, false)),
        node.exclusive_minimum
            .as_ref()
            .and_then(|n| least_above(n, true)),
    ]
    .into_iter()
    .flatten()
    .max();
    let greatest = [
        node.maximum.as_ref().and_then(|n| greatest_below(n, false)),
        node.exclusive_maximum
            .as_ref()
            .and_then(|n| greatest_below(n, true)),
    ]
    .into_iter()
    .flatten()
    .min();
    (
        (least.is_none_or(|l| l < lo)).then_some(lo),
        (greatest.is_none_or(|g| g > hi)).then_some(hi),
    )
}

/// A bound as an integer: rounded up (`up`) or down when it has a fraction;
/// `None` beyond any integer type.
fn as_i128(n: &serde_json::Number, up: bool) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    let r = if up { f.ceil() } else { f.floor() };
    (r.is_finite() && r.abs() < 1.0e38).then_some(r as i128)
}

fn integer_ty(node: &SchemaNode) -> Ty {
    match node.format.as_deref() {
        Some("int32") => Ty::I32,
        Some("uint32") => Ty::U32,
        Some("uint64") => Ty::U64,
        _ => Ty::I64,
    }
}

struct Gen<'a> {
    schemas: &'a Schemas,
    /// The formats read into their own Rust types.
    typed: &'a BTreeSet<TypedFormat>,
    /// Named types that are part of a reference cycle, with their cycle.
    cycles: BTreeMap<&'a str, BTreeSet<&'a str>>,
    /// Set while mapping an array item or map value: a recursive reference
    /// there needs no `Box`, the collection already is one.
    indirect: bool,
    /// The named type being defined, when inside one.
    within: Option<&'a str>,
    diags: Vec<Diagnostic>,
}

/// Decides the Rust types of a toolset. Problems are added to `diags`.
pub fn plan(set: &Toolset, typed: &BTreeSet<TypedFormat>, diags: &mut Vec<Diagnostic>) -> RustPlan {
    let schemas = &set.schemas;
    let mut g = Gen {
        schemas,
        typed,
        cycles: schemas.cycles(),
        indirect: false,
        within: None,
        diags: Vec::new(),
    };
    let mut out = RustPlan::default();
    for name in set.types.keys() {
        out.types.reserve(name);
    }
    for (name, t) in &set.types {
        g.named_type(name, t.root, &mut out.types);
    }
    for tb in &set.toolboxes {
        out.toolboxes
            .push(g.group(&tb.idents.pascal, "Toolbox", &tb.tools));
    }
    for pb in &set.playbooks {
        out.playbooks
            .push(g.group(&pb.idents.pascal, "Playbook", &pb.plays));
    }
    literal::fill_defaults(schemas, &mut out, &mut g.diags);
    diags.append(&mut g.diags);
    out
}

impl<'a> Gen<'a> {
    fn unsupported(&mut self, at: Span, what: String, help: &str) {
        self.diags.push(
            Diagnostic::new(Code::UnsupportedSchema, what)
                .at(at)
                .help(help.to_string()),
        );
    }

    fn group(&mut self, pascal: &str, suffix: &str, ops: &[Tool]) -> GroupPlan {
        let trait_name = pascal.trim_start_matches("r#").to_string();
        let mut module = Module::default();
        module.reserve(&trait_name);
        module.reserve(&format!("{trait_name}{suffix}"));
        module.reserve("Scope");
        let ops = ops.iter().map(|t| self.signature(t, &mut module)).collect();
        GroupPlan { module, ops }
    }

    fn signature(&mut self, t: &Tool, module: &mut Module) -> Signature {
        self.within = None;
        let pascal = t.idents.pascal.trim_start_matches("r#");
        let params = t
            .takes_parameters(self.schemas)
            .then(|| self.ty(t.parameters, &format!("{pascal}Params"), module));
        let returns = match t.returns {
            Some(r) => self.ty(r, &format!("{pascal}Returns"), module),
            None => Ty::Json,
        };
        if let Some(p) = &params {
            module.document(p, || format!("Parameters of `{}`.", t.name));
        }
        module.document(&returns, || format!("Result of `{}`.", t.name));
        Signature { params, returns }
    }

    /// The item for a named type, generated into the `types` module (whose
    /// names must all have been reserved first).
    fn named_type(&mut self, name: &'a str, root: SchemaId, module: &mut Module) {
        self.within = Some(name);
        module.exact = Some(name.to_string());
        let ty = self.ty(root, name, module);
        module.exact = None;
        if ty != Ty::Local(name.to_string()) {
            module.items.push(Item::Newtype {
                name: name.to_string(),
                doc: self.schemas.get(root).description.clone(),
                ty,
            });
        }
    }

    /// The Rust type of the schema `id`; new items go to `module`, named
    /// after `hint`.
    fn ty(&mut self, id: SchemaId, hint: &str, module: &mut Module) -> Ty {
        let indirect = std::mem::replace(&mut self.indirect, false);
        let n = self.schemas.get(id);
        match n.boolean {
            Some(true) => return Ty::Json,
            Some(false) => {
                self.unsupported(
                    n.span,
                    "a `false` schema accepts nothing and has no Rust type".to_string(),
                    "remove the property, or give it a schema",
                );
                return Ty::Json;
            }
            None => {}
        }
        if n.rust_type == Some(RustTypeHint::Json) {
            return Ty::Json;
        }
        let base = self.base_ty(id, hint, module, indirect);
        if n.says_nullable() && !base.is_option() && base != Ty::Unit && base != Ty::Json {
            Ty::Option(Box::new(base))
        } else {
            base
        }
    }

    fn base_ty(&mut self, id: SchemaId, hint: &str, module: &mut Module, indirect: bool) -> Ty {
        let n = self.schemas.get(id);
        if let Some(r) = &n.reference {
            if r.target.is_none() {
                // Reported when linking.
                return Ty::Json;
            }
            let ty = Ty::Shared(r.name.clone());
            let boxed = !indirect
                && self
                    .within
                    .and_then(|w| self.cycles.get(w))
                    .is_some_and(|c| c.contains(r.name.as_str()));
            return if boxed { Ty::Box(Box::new(ty)) } else { ty };
        }
        if let Some(all) = &n.all_of {
            if let [only] = all.as_slice() {
                return self.ty(*only, hint, module);
            }
            self.unsupported(
                n.value_span(Keyword::AllOf),
                "`allOf` with more than one schema has no Rust type".to_string(),
                "merge the schemas into one object, or use a named type",
            );
            return Ty::Json;
        }
        for (k, branches) in [(Keyword::OneOf, &n.one_of), (Keyword::AnyOf, &n.any_of)] {
            if let Some(b) = branches {
                return self.union(id, k, b, hint, module);
            }
        }
        let types: Vec<JsonType> = n.non_null_types().collect();
        let ty = match types.as_slice() {
            [] if !n.types.is_empty() => JsonType::Null,
            [] => {
                // No `type`: infer from `enum` or `properties`, or any JSON.
                if let Some(e) = &n.enum_values {
                    if string_values(&e.value).is_some() {
                        JsonType::String
                    } else {
                        return Ty::Json;
                    }
                } else if n.properties.is_some() {
                    JsonType::Object
                } else {
                    return Ty::Json;
                }
            }
            [one] => *one,
            _ => {
                let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
                self.unsupported(
                    n.value_span(Keyword::Type),
                    format!(
                        "a value of several types ({}) has no Rust type",
                        names.join(", ")
                    ),
                    "use one type (plus \"null\"), `oneOf`, or `x-rust-type: json`",
                );
                return Ty::Json;
            }
        };
        match ty {
            JsonType::String => {
                match n.enum_values.as_ref().and_then(|e| string_values(&e.value)) {
                    Some(values) => self.string_enum(id, &values, hint, module),
                    None => match n.format.as_deref().and_then(TypedFormat::parse) {
                        Some(f) if self.typed.contains(&f) => Ty::Format(f),
                        _ => Ty::String,
                    },
                }
            }
            JsonType::Integer => integer_ty(n),
            JsonType::Number => Ty::F64,
            JsonType::Boolean => Ty::Bool,
            JsonType::Null => Ty::Unit,
            JsonType::Array => match n.items {
                Some(items) => {
                    self.indirect = true;
                    Ty::Vec(Box::new(self.ty(items, &format!("{hint}Item"), module)))
                }
                None => Ty::Vec(Box::new(Ty::Json)),
            },
            JsonType::Object => self.object(id, hint, module),
        }
    }

    fn string_enum(
        &mut self,
        id: SchemaId,
        values: &[String],
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let n = self.schemas.get(id);
        let mut variants: Vec<(String, String)> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let mut ident = variant_ident(v);
            if ident.is_empty() {
                ident = format!("Variant{i}");
            }
            if let Some((_, other)) = variants.iter().find(|(id, _)| *id == ident) {
                let other = other.clone();
                self.unsupported(
                    n.enum_values.as_ref().map_or(n.span, |e| e.span),
                    format!(
                        "enum values `{other}` and `{v}` both become the Rust variant `{ident}`"
                    ),
                    "make the enum values differ by more than case and punctuation",
                );
                continue;
            }
            variants.push((ident, v.clone()));
        }
        let name = module.unique(hint);
        module.items.push(Item::Enum {
            name: name.clone(),
            doc: n.description.clone(),
            variants,
        });
        Ty::Local(name)
    }

    fn object(&mut self, id: SchemaId, hint: &str, module: &mut Module) -> Ty {
        let n = self.schemas.get(id);
        let has_props = !n.props().is_empty();
        let closed = n.closed(self.schemas);
        // The type of properties beyond the named ones, when a schema gives
        // it: a map's values, or a flattened map beside the named fields.
        // Either way they sit behind a map, so recursion needs no `Box`.
        let extra = match n.additional_properties {
            Some(ap) if self.schemas.get(ap).boolean.is_none() => {
                self.indirect = true;
                Some(self.ty(ap, &format!("{hint}Value"), module))
            }
            _ => None,
        };
        if !has_props && !closed {
            return Ty::Map(Box::new(extra.unwrap_or(Ty::Json)));
        }
        let fields = self.fields(id, hint, module, None);
        let name = module.unique(hint);
        module.items.push(Item::Struct {
            name: name.clone(),
            doc: n.description.clone(),
            fields,
            deny_unknown: closed,
            extra,
        });
        Ty::Local(name)
    }

    /// The fields of an object schema, skipping the property `skip` (a
    /// union's tag).
    fn fields(
        &mut self,
        id: SchemaId,
        hint: &str,
        module: &mut Module,
        skip: Option<&str>,
    ) -> Vec<Field> {
        let n = self.schemas.get(id);
        let mut fields: Vec<Field> = Vec::new();
        for (i, p) in n.props().iter().enumerate() {
            if Some(p.name.as_str()) == skip {
                continue;
            }
            let ident = field_ident(&p.name, i);
            if let Some(other) = fields.iter().find(|f| f.ident == ident) {
                let other_name = other.name.clone();
                let other_span = n.property(&other_name).map_or(n.span, |o| o.span);
                self.diags.push(
                    Diagnostic::new(
                        Code::IdentCollision,
                        format!(
                            "properties `{other_name}` and `{}` both become the Rust field `{ident}`",
                            p.name
                        ),
                    )
                    .at(p.span)
                    .secondary(other_span, format!("`{other_name}` is here"))
                    .help("rename one of the properties"),
                );
                continue;
            }
            let ty = self.ty(
                p.schema,
                &format!("{hint}{}", pascal_ident(&p.name).trim_start_matches("r#")),
                module,
            );
            let required = n.is_required(&p.name);
            let has_default = !required && default_of(self.schemas, p.schema).is_some();
            let ty = if required || ty.is_option() || has_default || ty == Ty::Json {
                ty
            } else {
                Ty::Option(Box::new(ty))
            };
            let sub = self.schemas.get(p.schema);
            fields.push(Field {
                ident,
                name: p.name.clone(),
                schema: p.schema,
                ty,
                doc: sub.description.clone(),
                required,
                default: None,
                deprecated: sub.deprecated == Some(true),
            });
        }
        fields
    }

    fn union(
        &mut self,
        id: SchemaId,
        k: Keyword,
        branches: &[SchemaId],
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let schemas = self.schemas;
        let n = schemas.get(id);
        let is_null = |b: SchemaId| {
            let b = schemas.get(b);
            b.types == [JsonType::Null] && b.only_with_annotations(Keyword::Type)
        };
        let non_null: Vec<(usize, SchemaId)> = branches
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, b)| !is_null(*b))
            .collect();
        let nullable = non_null.len() < branches.len();
        let wrap = |t: Ty| {
            if nullable && !t.is_option() {
                Ty::Option(Box::new(t))
            } else {
                t
            }
        };
        if let [(_, only)] = non_null.as_slice() {
            let t = self.ty(*only, hint, module);
            return wrap(t);
        }
        if non_null.is_empty() {
            return Ty::Unit;
        }
        let _ = k;
        // A tagged union: every branch an object with a required `const`
        // string property of the same name.
        let derefed: Vec<SchemaId> = non_null.iter().map(|(_, b)| schemas.deref(*b)).collect();
        if let Some(tag) = discriminator(schemas, &derefed) {
            let mut variants = Vec::new();
            for b in &derefed {
                let value = tag_value(schemas, *b, &tag).unwrap_or_default();
                let ident = variant_ident(&value);
                let fields = self.fields(*b, &format!("{hint}{ident}"), module, Some(&tag));
                variants.push((ident, value, fields));
            }
            let name = module.unique(hint);
            module.items.push(Item::Tagged {
                name: name.clone(),
                doc: n.description.clone(),
                tag,
                variants,
            });
            return wrap(Ty::Local(name));
        }
        let mut variants: Vec<(String, Ty)> = Vec::new();
        for (i, b) in &non_null {
            let vname = branch_name(schemas, *b, *i);
            let t = self.ty(*b, &format!("{hint}{vname}"), module);
            let mut ident = vname.clone();
            let mut k = 2;
            while variants.iter().any(|(v, _)| *v == ident) {
                ident = format!("{vname}{k}");
                k += 1;
            }
            variants.push((ident, t));
        }
        let name = module.unique(hint);
        module.items.push(Item::Untagged {
            name: name.clone(),
            doc: n.description.clone(),
            variants,
        });
        wrap(Ty::Local(name))
    }
}

/// A property's default: its own, or its referenced type's.
pub(super) fn default_of(schemas: &Schemas, id: SchemaId) -> Option<&serde_json::Value> {
    let n = schemas.get(id);
    n.default
        .as_ref()
        .or_else(|| schemas.resolved(id).default.as_ref())
        .map(|d| &d.value)
}

/// The values of an enum when they are all strings.
fn string_values(v: &serde_json::Value) -> Option<Vec<String>> {
    let list = v.as_array()?;
    if list.is_empty() {
        return None;
    }
    list.iter()
        .map(|x| x.as_str().map(str::to_string))
        .collect()
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

/// A property's single allowed string value, from `const` or a one-value `enum`.
pub(super) fn tag_value(schemas: &Schemas, object: SchemaId, tag: &str) -> Option<String> {
    let p = schemas.get(object).property(tag)?;
    let p = schemas.resolved(p.schema);
    if let Some(c) = &p.const_value {
        return c.value.as_str().map(str::to_string);
    }
    match p.enum_values.as_ref().and_then(|e| e.value.as_array()) {
        Some(v) if v.len() == 1 => v[0].as_str().map(str::to_string),
        _ => None,
    }
}

/// The property every branch fixes to a distinct string, required in each.
fn discriminator(schemas: &Schemas, branches: &[SchemaId]) -> Option<String> {
    let first = schemas.get(*branches.first()?);
    'next: for p in first.props() {
        let key = &p.name;
        let mut seen = BTreeSet::new();
        for b in branches {
            let required = schemas.get(*b).is_required(key);
            match tag_value(schemas, *b, key) {
                Some(v) if required && seen.insert(variant_ident(&v)) => {}
                _ => continue 'next,
            }
        }
        return Some(key.clone());
    }
    None
}

fn branch_name(schemas: &Schemas, b: SchemaId, i: usize) -> String {
    let n = schemas.get(b);
    if let Some(r) = &n.reference {
        return r.name.clone();
    }
    match n.types.as_slice() {
        [JsonType::String] => "String".into(),
        [JsonType::Integer] => "Integer".into(),
        [JsonType::Number] => "Number".into(),
        [JsonType::Boolean] => "Bool".into(),
        [JsonType::Array] => "Array".into(),
        [JsonType::Object] => "Object".into(),
        _ => format!("Variant{i}"),
    }
}
