//! Schema → Rust type: the mapping itself, over the typed schema model.
//!
//! A schema that has no Rust type is a located `unsupported-schema` error,
//! never a silent `serde_json::Value`; free-form JSON is opt-in with
//! `x-rust-type: json` or a schema without `type`.

use super::literal;
use super::literal::default_of;
use super::types::{Field, GroupPlan, Item, Module, RustPlan, Signature, Ty, TypedFormat};
use super::variants::variant_idents;
use crate::diag::{Code, Diagnostic, Span};
use crate::model::names::{RustIdent, pascal_ident, snake_ident};
use crate::model::schema::{
    JsonOptions, JsonType, Keyword, RustTypeHint, SchemaId, SchemaNode, Schemas,
};
use crate::model::{Tool, Toolset};
use std::collections::{BTreeMap, BTreeSet};

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
    /// Each definition's Rust name in the `types` module.
    rust_names: BTreeMap<String, String>,
    diags: Vec<Diagnostic>,
}

/// Decides the Rust types of a toolset. Problems are added to `diags`.
pub fn plan(set: &Toolset, typed: &BTreeSet<TypedFormat>, diags: &mut Vec<Diagnostic>) -> RustPlan {
    let schemas = &set.schemas;
    let mut out = RustPlan::default();
    // The manifest's named types keep their (PascalCase) names; a schema's
    // own definitions get theirs made PascalCase and distinct.
    for name in set.types.keys() {
        out.types.reserve(name);
    }
    let mut rust_names = BTreeMap::new();
    for (name, _) in schemas.named_types() {
        let rust = if set.types.contains_key(name) {
            name.to_string()
        } else {
            let pascal = pascal_ident(name);
            out.types.unique(if pascal.is_empty() {
                "Definition"
            } else {
                &pascal
            })
        };
        rust_names.insert(name.to_string(), rust);
    }
    let mut g = Gen {
        schemas,
        typed,
        cycles: schemas.cycles(),
        indirect: false,
        within: None,
        rust_names,
        diags: Vec::new(),
    };
    for (name, root) in schemas.named_types() {
        let rust = g.rust_names[name].clone();
        g.named_type(name, &rust, root, &mut out.types);
    }
    super::aliases::name_complex_types(&mut out.types, &[]);
    out.type_names = g.rust_names.clone();
    for tb in &set.toolboxes {
        out.toolboxes
            .push(g.group(&tb.idents.pascal, "Toolbox", &tb.tools));
    }
    for pb in &set.playbooks {
        out.playbooks
            .push(g.group(&pb.idents.pascal, "Playbook", &pb.plays));
    }
    for a in &set.agents {
        let tools: Vec<Tool> = a.delegates.iter().map(|d| d.tool.clone()).collect();
        let pascal = format!("{}Delegates", a.idents.pascal);
        out.delegates.push(g.group(&pascal, "Toolbox", &tools));
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
        let trait_name = pascal.to_string();
        let mut module = Module::default();
        module.reserve(&trait_name);
        module.reserve(&format!("{trait_name}{suffix}"));
        module.reserve("Scope");
        let sigs: Vec<Signature> = ops.iter().map(|t| self.signature(t, &mut module)).collect();
        let places: Vec<(&str, &str, Option<&Ty>, &Ty)> = ops
            .iter()
            .zip(&sigs)
            .map(|(t, s)| {
                let (name, pascal) = (t.name.as_str(), t.idents.pascal.as_str());
                (name, pascal, s.params.as_ref(), &s.returns)
            })
            .collect();
        super::aliases::name_complex_types(&mut module, &places);
        GroupPlan { module, ops: sigs }
    }

    fn signature(&mut self, t: &Tool, module: &mut Module) -> Signature {
        self.within = None;
        let pascal = &t.idents.pascal;
        let params = t
            .takes_parameters(self.schemas)
            .then(|| self.ty(t.parameters, &format!("{pascal}Params"), module));
        let returns = match t.returns {
            Some(r) => self.ty(r, &format!("{pascal}Returns"), module),
            None => Ty::Json,
        };
        if let Some(p) = &params {
            module.document(p, || format!("Parameters of `{}`.", t.name));
            if self.same_value_sensitive(t.parameters) {
                module.mark_sensitive(p);
            }
        }
        module.document(&returns, || format!("Result of `{}`.", t.name));
        if let Some(r) = t.returns
            && self.same_value_sensitive(r)
        {
            module.mark_sensitive(&returns);
        }
        Signature {
            params,
            returns,
            verbatim: t.sends_verbatim(),
        }
    }

    /// The item for a named type, generated into the `types` module (whose
    /// names must all have been reserved first).
    fn named_type(&mut self, name: &'a str, rust: &str, root: SchemaId, module: &mut Module) {
        self.within = Some(name);
        module.exact = Some(rust.to_string());
        let ty = self.ty(root, rust, module);
        module.exact = None;
        if ty != Ty::Local(rust.to_string()) {
            if self.exposes(root, &ty) {
                module.sensitive.insert(rust.to_string());
            }
            module.origins.insert(rust.to_string(), root);
            module.items.push(Item::Newtype {
                name: rust.to_string(),
                doc: self.schemas.get(root).description.clone(),
                ty,
            });
        } else {
            if self.same_value_sensitive(root) {
                module.sensitive.insert(rust.to_string());
            }
            // Made from a node under the root (the one branch of an `allOf` or a union): the
            // root says more than that node, so no one node says what its values are.
            if module.origins.get(rust) != Some(&root) {
                module.origins.remove(rust);
            }
        }
    }

    /// Whether the value of node `id` is sensitive as a whole: the node says
    /// so, or a node its Rust type is made from without going into the
    /// value does (the one branch of `allOf`, the one non-null branch of a
    /// union). References are not followed: a named type masks itself.
    fn same_value_sensitive(&self, id: SchemaId) -> bool {
        let mut id = id;
        for _ in 0..crate::model::schema::MAX_DEPTH {
            let n = self.schemas.get(id);
            if n.is_sensitive() {
                return true;
            }
            match self.same_value_child(id) {
                Some(next) => id = next,
                None => return false,
            }
        }
        false
    }

    /// The node the Rust type of `id` is made from instead of `id` itself:
    /// the one branch of `allOf`, or the one branch of a union that is
    /// neither `null` nor `false`.
    fn same_value_child(&self, id: SchemaId) -> Option<SchemaId> {
        let n = self.schemas.get(id);
        if n.reference.is_some() {
            return None;
        }
        if let Some(all) = &n.all_of {
            return match all.as_slice() {
                [only] => Some(*only),
                _ => None,
            };
        }
        let branches = n.one_of.as_ref().or(n.any_of.as_ref())?;
        let is_null =
            |b: &SchemaNode| b.types == [JsonType::Null] && b.only_with_annotations(Keyword::Type);
        let mut kept = branches.iter().filter(|b| {
            let b = self.schemas.get(**b);
            !(b.is_nothing() || is_null(b))
        });
        match (kept.next(), kept.next()) {
            (Some(only), None) => Some(*only),
            _ => None,
        }
    }

    /// Whether `Debug` of a value of `ty`, made from node `id`, could show a
    /// value the schema marks sensitive: the node's value is sensitive as a
    /// whole, or a part of it is and `ty` prints that part itself (a `Vec`,
    /// a map, a tuple or free-form JSON). Generated items (`Local`,
    /// `Shared`) mask what is theirs in their own `Debug`.
    fn exposes(&self, id: SchemaId, ty: &Ty) -> bool {
        if self.same_value_sensitive(id) {
            return true;
        }
        let mut base = id;
        while let Some(next) = self.same_value_child(base) {
            base = next;
        }
        let n = self.schemas.get(base);
        match ty.strip() {
            Ty::Local(_) | Ty::Shared(_) => false,
            Ty::Vec(t) => n.items.is_some_and(|i| self.exposes(i, t)),
            Ty::Map(t) | Ty::EnumMap(_, t) => {
                n.additional_properties.is_some_and(|a| self.exposes(a, t))
            }
            Ty::Tuple(ts) => n
                .prefix_items
                .iter()
                .flatten()
                .zip(ts)
                .any(|(p, t)| self.exposes(*p, t)),
            Ty::Json => self.schemas.reaches_sensitive(id),
            Ty::String
            | Ty::Format(_)
            | Ty::Bool
            | Ty::I32
            | Ty::I64
            | Ty::U32
            | Ty::U64
            | Ty::F64
            | Ty::Unit
            | Ty::Option(_)
            | Ty::Box(_) => false,
        }
    }

    /// The Rust type of the schema `id`; new items go to `module`, named
    /// after `hint`.
    fn ty(&mut self, id: SchemaId, hint: &str, module: &mut Module) -> Ty {
        let indirect = std::mem::replace(&mut self.indirect, false);
        let n = self.schemas.get(id);
        // `false` accepts nothing, so no value of its type is ever read:
        // where it stands (the items of an array that must be empty, say)
        // any type does.
        if n.boolean.is_some() {
            return Ty::Json;
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
            let ty = Ty::Shared(self.rust_names.get(&r.name).cloned().unwrap_or_default());
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
            return self.all_of(id, all.clone(), hint, module);
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
                // No `type`: infer from `enum`, `const` or `properties`, or any JSON.
                if let Some(e) = &n.enum_values {
                    if string_values(&e.value).is_some() {
                        JsonType::String
                    } else {
                        return Ty::Json;
                    }
                } else if let Some(c) = &n.const_value {
                    match c.value {
                        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
                            return Ty::Json;
                        }
                        ref v => JsonType::of(v),
                    }
                } else if n.properties.is_some() || n.property_names.is_some() {
                    JsonType::Object
                } else if n.prefix_items.is_some() {
                    JsonType::Array
                } else {
                    return Ty::Json;
                }
            }
            [one] => *one,
            several => return self.type_union(id, several, hint, module),
        };
        self.of_type(id, ty, hint, module)
    }

    /// The Rust type of the node `id` read as one JSON type.
    fn of_type(&mut self, id: SchemaId, ty: JsonType, hint: &str, module: &mut Module) -> Ty {
        let n = self.schemas.get(id);
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
            JsonType::Array => self.array(id, hint, module),
            JsonType::Object => self.object(id, hint, module),
        }
    }

    /// An array: a `Vec`; for `prefixItems`, a Rust tuple when every array has an item at
    /// each position and no more, else a struct read by position ([`Item::Tuple`]).
    fn array(&mut self, id: SchemaId, hint: &str, module: &mut Module) -> Ty {
        let n = self.schemas.get(id);
        let Some(prefix) = n.prefix_items.clone() else {
            return match n.items {
                Some(items) => {
                    self.indirect = true;
                    Ty::Vec(Box::new(self.ty(items, &format!("{hint}Item"), module)))
                }
                None => Ty::Vec(Box::new(Ty::Json)),
            };
        };
        let shape = TupleShape::of(self.schemas, n, prefix.len());
        let prefix = &prefix[..shape.positions];
        if shape.required == shape.positions && !shape.open && !prefix.is_empty() {
            let tys = prefix
                .iter()
                .enumerate()
                .map(|(i, p)| self.ty(*p, &format!("{hint}{i}"), module))
                .collect();
            return Ty::Tuple(tys);
        }
        let mut items = Vec::with_capacity(prefix.len());
        let mut exposed = false;
        for (i, p) in prefix.iter().enumerate() {
            let ty = self.ty(*p, &format!("{hint}{i}"), module);
            exposed |= self.exposes(*p, &ty);
            let required = i < shape.required;
            let sub = self.schemas.get(*p);
            items.push(Field {
                ident: RustIdent::new(format!("item_{i}")),
                name: i.to_string(),
                schema: *p,
                // An item that may be missing is `None` then: a `null` item is `Some(None)`.
                ty: if required {
                    ty
                } else {
                    Ty::Option(Box::new(ty))
                },
                doc: sub.description.clone(),
                required,
                default: None,
                deprecated: sub.deprecated == Some(true),
                sensitive: false,
            });
        }
        let rest = shape.open.then(|| match n.items {
            Some(after) => {
                self.indirect = true;
                let ty = self.ty(after, &format!("{hint}Item"), module);
                exposed |= self.exposes(after, &ty);
                ty
            }
            None => Ty::Json,
        });
        let name = module.unique(hint);
        if n.is_sensitive() || exposed {
            module.sensitive.insert(name.clone());
        }
        module.items.push(Item::Tuple {
            name: name.clone(),
            doc: n.description.clone(),
            items,
            rest,
        });
        Ty::Local(name)
    }

    /// `type: [a, b, …]` (besides null): an untagged enum, a variant per type.
    fn type_union(
        &mut self,
        id: SchemaId,
        types: &[JsonType],
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        // Integers before numbers: the first variant that takes a value wins.
        let mut order = types.to_vec();
        order.sort_by_key(|t| *t != JsonType::Integer);
        let mut variants = Vec::new();
        for t in order {
            let vname = match t {
                JsonType::String => "String",
                JsonType::Integer => "Integer",
                JsonType::Number => "Number",
                JsonType::Boolean => "Bool",
                JsonType::Array => "Array",
                JsonType::Object => "Object",
                JsonType::Null => continue,
            };
            let ty = self.of_type(id, t, &format!("{hint}{vname}"), module);
            variants.push((vname.to_string(), ty));
        }
        let name = module.unique(hint);
        if variants.iter().any(|(_, t)| self.exposes(id, t)) {
            module.sensitive.insert(name.clone());
        }
        module.items.push(Item::Untagged {
            name: name.clone(),
            doc: self.schemas.get(id).description.clone(),
            variants,
        });
        Ty::Local(name)
    }

    /// `allOf` of several schemas: one struct with the fields of every
    /// branch, when each branch is an object.
    fn all_of(
        &mut self,
        id: SchemaId,
        branches: Vec<SchemaId>,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let schemas = self.schemas;
        let n = schemas.get(id);
        let objects: Vec<SchemaId> = branches.iter().map(|b| schemas.deref(*b)).collect();
        let all_objects = objects.iter().all(|b| {
            let b = schemas.get(*b);
            (b.types == [JsonType::Object] || (b.types.is_empty() && b.properties.is_some()))
                && b.any_of.is_none()
                && b.one_of.is_none()
                && b.all_of.is_none()
        });
        if !all_objects {
            self.unsupported(
                n.value_span(Keyword::AllOf),
                "`allOf` of schemas that are not all objects has no Rust type".to_string(),
                "merge the schemas into one, or make each an object to be merged",
            );
            return Ty::Json;
        }
        let mut fields: Vec<Field> = Vec::new();
        for b in std::iter::once(id).chain(objects.iter().copied()) {
            for f in self.fields(b, hint, module, None) {
                match fields.iter().find(|x| x.name == f.name) {
                    Some(x)
                        if schemas.write_json(x.schema, JsonOptions::VALIDATION)
                            == schemas.write_json(f.schema, JsonOptions::VALIDATION) => {}
                    Some(_) => {
                        self.unsupported(
                            schemas.get(b).property(&f.name).map_or(n.span, |p| p.span),
                            format!(
                                "property `{}` is declared by two branches of `allOf` with different schemas",
                                f.name
                            ),
                            "declare the property once, or give it the same schema in each",
                        );
                    }
                    None => fields.push(f),
                }
            }
        }
        // A field required by any branch is required.
        for f in &mut fields {
            let required = std::iter::once(id)
                .chain(objects.iter().copied())
                .any(|b| schemas.get(b).is_required(&f.name));
            if required && !f.required {
                f.required = true;
                if let Ty::Option(inner) = &f.ty
                    && !schemas.get(f.schema).says_nullable()
                {
                    f.ty = (**inner).clone();
                }
            }
        }
        let name = module.unique(hint);
        if n.is_sensitive() {
            module.sensitive.insert(name.clone());
        }
        module.items.push(Item::Struct {
            name: name.clone(),
            doc: n.description.clone(),
            fields,
            deny_unknown: false,
            extra: None,
        });
        Ty::Local(name)
    }

    fn string_enum(
        &mut self,
        id: SchemaId,
        values: &[String],
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let n = self.schemas.get(id);
        let variants: Vec<(String, String)> = variant_idents(values)
            .into_iter()
            .zip(values.iter().cloned())
            .collect();
        let name = module.unique(hint);
        if n.is_sensitive() {
            module.sensitive.insert(name.clone());
        }
        module.origins.insert(name.clone(), id);
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
            let value = extra.unwrap_or(Ty::Json);
            // Names from an enum: a map keyed by that enum.
            if let Some(names) = n.property_names
                && let Some(values) = self
                    .schemas
                    .resolved(names)
                    .enum_values
                    .as_ref()
                    .and_then(|e| string_values(&e.value))
            {
                let key = match &self.schemas.get(names).reference {
                    Some(_) => self.ty(names, &format!("{hint}Key"), module),
                    None => self.string_enum(names, &values, &format!("{hint}Key"), module),
                };
                return Ty::EnumMap(Box::new(key), Box::new(value));
            }
            return Ty::Map(Box::new(value));
        }
        let fields = self.fields(id, hint, module, None);
        let name = module.unique(hint);
        // The map of extra properties is printed whole: a sensitive value in
        // it makes the struct's value sensitive as a whole.
        let extra_exposes = match (&extra, n.additional_properties) {
            (Some(t), Some(ap)) => self.exposes(ap, t),
            _ => false,
        };
        if n.is_sensitive() || extra_exposes {
            module.sensitive.insert(name.clone());
        }
        module.origins.insert(name.clone(), id);
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
            // A property whose schema is `false` may not be there at all:
            // validation refuses it, and the type has no field for it.
            if Some(p.name.as_str()) == skip || self.schemas.get(p.schema).is_nothing() {
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
                &format!("{hint}{}", pascal_ident(&p.name)),
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
            let sensitive = self.exposes(p.schema, &ty);
            fields.push(Field {
                ident,
                name: p.name.clone(),
                schema: p.schema,
                ty,
                doc: sub.description.clone(),
                required,
                default: None,
                deprecated: sub.deprecated == Some(true),
                sensitive,
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
        // `false` branches match nothing: no variant for them.
        let non_null: Vec<(usize, SchemaId)> = branches
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, b)| !is_null(*b) && !schemas.get(*b).is_nothing())
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
        // string property of the same name; OpenAPI's `discriminator` says which, when
        // several are.
        let derefed: Vec<SchemaId> = non_null.iter().map(|(_, b)| schemas.deref(*b)).collect();
        let named = n.discriminator.as_ref().map(|d| d.property_name.as_str());
        if let Some(tag) = discriminator(schemas, &derefed, named) {
            return wrap(self.tagged(id, &derefed, tag, hint, module));
        }
        let mut variants: Vec<(String, Ty)> = Vec::new();
        for (i, b) in &non_null {
            let vname = branch_name(schemas, &self.rust_names, *b, *i);
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
        let exposed = non_null
            .iter()
            .zip(&variants)
            .any(|((_, b), (_, t))| self.exposes(*b, t));
        if n.is_sensitive() || exposed {
            module.sensitive.insert(name.clone());
        }
        module.items.push(Item::Untagged {
            name: name.clone(),
            doc: n.description.clone(),
            variants,
        });
        wrap(Ty::Local(name))
    }

    /// A tagged union of the objects `branches` (named types resolved), told apart by the
    /// `const` of their property `tag`.
    fn tagged(
        &mut self,
        id: SchemaId,
        branches: &[SchemaId],
        tag: String,
        hint: &str,
        module: &mut Module,
    ) -> Ty {
        let schemas = self.schemas;
        let n = schemas.get(id);
        let values: Vec<String> = branches
            .iter()
            .map(|b| tag_value(schemas, *b, &tag).unwrap_or_default())
            .collect();
        let mut variants = Vec::new();
        for ((b, value), ident) in branches
            .iter()
            .zip(values.iter().cloned())
            .zip(variant_idents(&values))
        {
            let fields = self.fields(*b, &format!("{hint}{ident}"), module, Some(&tag));
            variants.push((ident, value, fields));
        }
        let name = module.unique(hint);
        if n.is_sensitive() {
            module.sensitive.insert(name.clone());
        }
        module.items.push(Item::Tagged {
            name: name.clone(),
            doc: n.description.clone(),
            tag,
            variants,
        });
        Ty::Local(name)
    }
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
pub fn field_ident(prop: &str, index: usize) -> RustIdent {
    let cleaned: String = prop
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let snake = snake_ident(&cleaned);
    if snake.word().trim_matches('_').is_empty() {
        RustIdent::new(format!("field_{index}"))
    } else {
        snake
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

/// The property every branch fixes to a distinct string, required in each: `named` (OpenAPI's
/// `discriminator.propertyName`) when it is one, else the first of the first branch's.
fn discriminator(schemas: &Schemas, branches: &[SchemaId], named: Option<&str>) -> Option<String> {
    let tells_apart = |key: &str| {
        let mut seen = BTreeSet::new();
        branches.iter().all(|b| {
            schemas.get(*b).is_required(key)
                && tag_value(schemas, *b, key).is_some_and(|v| seen.insert(v))
        })
    };
    if let Some(key) = named
        && tells_apart(key)
    {
        return Some(key.to_string());
    }
    let first = schemas.get(*branches.first()?);
    first
        .props()
        .iter()
        .find(|p| tells_apart(&p.name))
        .map(|p| p.name.clone())
}

fn branch_name(
    schemas: &Schemas,
    rust_names: &BTreeMap<String, String>,
    b: SchemaId,
    i: usize,
) -> String {
    let n = schemas.get(b);
    if let Some(r) = &n.reference {
        // The referenced type's Rust name: a schema's own definition may be
        // named in any case (`richTextRequest` is `RichTextRequest`).
        return rust_names
            .get(&r.name)
            .cloned()
            .unwrap_or_else(|| r.name.clone());
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

/// What arrays a `prefixItems` schema takes, as its Rust type holds them.
struct TupleShape {
    /// How many positions can hold an item: the prefix, cut at `maxItems` and at the first
    /// position whose schema is `false`.
    positions: usize,
    /// How many of them every array has an item at (`minItems`, up to `positions`).
    required: usize,
    /// Whether more items may follow the positions (`items` is not `false`, and neither
    /// `maxItems` nor a `false` position stops the array before).
    open: bool,
}

impl TupleShape {
    fn of(schemas: &Schemas, n: &SchemaNode, len: usize) -> TupleShape {
        let first_false = n
            .prefix_items
            .iter()
            .flatten()
            .position(|p| schemas.get(*p).is_nothing());
        let max = n
            .max_items
            .map(|m| usize::try_from(m).unwrap_or(usize::MAX));
        let positions = len.min(first_false.unwrap_or(len)).min(max.unwrap_or(len));
        let items_false = n.items.is_some_and(|i| schemas.get(i).is_nothing());
        let open = !items_false && first_false.is_none() && max.is_none_or(|m| m > len);
        let min = usize::try_from(n.min_items.unwrap_or(0)).unwrap_or(usize::MAX);
        TupleShape {
            positions,
            required: min.min(positions),
            open,
        }
    }
}
