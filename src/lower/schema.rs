//! One schema of a tool in a dialect's form, made from the typed model: the
//! provider's JSON, where each of its nodes came from, and what the dialect
//! cannot express. Each rewrite keeps the schema's meaning (docs/lint-rules.md
//! lists them); what no rewrite can express is left in place, for the lint to
//! report at its manifest line.

use super::Dialect;
use crate::model::schema::added_integer_bounds;
use crate::model::schema::{
    JsonOptions, JsonType, Keyword, MAX_DEPTH, RefStyle, SchemaId, SchemaNode, Schemas, TypeRef,
};
use serde_json::{Map, Number, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// How many `$ref`s one schema may inline before inlining stops (a diamond
/// of named types grows exponentially when inlined).
pub const INLINE_BUDGET: usize = 10_000;

/// What a dialect's form could not express.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RefusalKind {
    /// A named type that refers to itself, in a dialect that inlines every `$ref`.
    Recursive,
    /// A keyword beside `$ref` that differs from the named type's own, so the
    /// two cannot be merged when the reference is inlined.
    RefSiblings,
    /// Nesting deeper than any walk follows.
    TooDeep,
}

/// A construct left as it was, with why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub kind: RefusalKind,
    /// The node it is about, and the keyword when it is about one.
    pub at: SchemaId,
    pub keyword: Option<Keyword>,
    pub message: String,
}

/// A schema in a dialect's form.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub json: Value,
    /// Output pointer → the node it was made from.
    origins: BTreeMap<String, SchemaId>,
    pub refusals: Vec<Refusal>,
    /// Output pointers of nodes left as they were because of a refusal.
    refused: Vec<String>,
}

impl Form {
    /// The node an output pointer was made from (its nearest recorded
    /// ancestor) and the rest of the pointer below it.
    pub fn origin<'p>(&self, out: &'p str) -> Option<(SchemaId, &'p str)> {
        let mut cur = out;
        loop {
            if let Some(id) = self.origins.get(cur) {
                return Some((*id, &out[cur.len()..]));
            }
            match cur.rfind('/') {
                Some(i) => cur = &cur[..i],
                None => return None,
            }
        }
    }

    /// Frees the origins, which only lint reads (see [`Lowered::forget_origins`](super::Lowered::forget_origins)).
    pub fn forget_origins(&mut self) {
        self.origins = BTreeMap::new();
    }

    /// Whether `out` is at or under a node left as it was by a refusal.
    pub fn is_refused(&self, out: &str) -> bool {
        self.refused
            .iter()
            .any(|r| out == r || out.starts_with(&format!("{r}/")))
    }
}

/// Options of the lowering, from the config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep `x-` extension keys in the model-facing forms.
    pub extensions: bool,
    /// `[lower] close_objects`: an object that declares properties and takes other keys is
    /// listed closed where the dialect has no such object (a loss: the model cannot send
    /// the other keys).
    pub close_objects: bool,
    /// `[lower] describe_unsupported`: a keyword the dialect cannot state is said in the
    /// description (a loss: the provider no longer holds the model to it; the dispatcher
    /// still does).
    pub describe_unsupported: bool,
}

struct Flags {
    dialect: Dialect,
    inline_refs: bool,
    /// `nullable: true` written as JSON Schema says it (`null` in `type`, or a `null` branch).
    json_nullable: bool,
    /// The schema as written, OpenAPI's `nullable` and `discriminator` kept (MCP lists what
    /// a server sent).
    as_written: bool,
    gemini: bool,
    strict_openai: bool,
    close_objects: bool,
    drop_additional_false: bool,
    wrap_ref_siblings: bool,
    bounds: bool,
    /// Open maps as lists of `{key, value}` pairs (no open objects there).
    maps_as_pairs: bool,
    /// Tuples as objects with positional keys (no tuples there).
    tuples_as_objects: bool,
    /// Several types in one `type` as `anyOf` (a `type` is one value there).
    split_type_lists: bool,
    /// `allOf` of open objects merged into one (no `allOf` there, or every
    /// object closed, so that branches declaring different properties would
    /// admit nothing together).
    merge_all_of: bool,
}

fn flags(d: Dialect) -> Flags {
    let gemini = d.is_gemini_openapi();
    let as_written = d == Dialect::Mcp;
    Flags {
        dialect: d,
        inline_refs: gemini,
        json_nullable: !gemini && !as_written,
        as_written,
        gemini,
        strict_openai: d.is_openai_strict(),
        close_objects: d.is_openai_strict() || d == Dialect::AnthropicStrict,
        drop_additional_false: d == Dialect::Gemini,
        wrap_ref_siblings: d.is_openai_strict() || d == Dialect::GeminiJsonSchema,
        bounds: d.states_bounds(),
        maps_as_pairs: d.is_openai_strict() || d == Dialect::AnthropicStrict || gemini,
        tuples_as_objects: gemini,
        split_type_lists: gemini,
        merge_all_of: d.is_openai_strict() || d == Dialect::AnthropicStrict || gemini,
    }
}

/// The keywords a node is lowered from: a node's own, or a named type's
/// with the keywords written beside a `$ref` to it laid over them.
#[derive(Clone)]
struct View {
    /// The node the view stands for (origins point at it).
    id: SchemaId,
    parts: Vec<(Keyword, SchemaId)>,
    /// Nodes whose extensions are kept, in order.
    owners: Vec<SchemaId>,
}

impl View {
    fn of(schemas: &Schemas, id: SchemaId) -> View {
        View {
            id,
            parts: schemas.get(id).keywords().map(|k| (k, id)).collect(),
            owners: vec![id],
        }
    }

    /// The view without the keywords `drop`.
    fn without(&self, drop: &[Keyword]) -> View {
        View {
            id: self.id,
            parts: self
                .parts
                .iter()
                .filter(|(k, _)| !drop.contains(k))
                .copied()
                .collect(),
            owners: self.owners.clone(),
        }
    }

    /// The view with only the keywords `keep` (and annotations when `annotations`).
    fn only(&self, keep: impl Fn(Keyword) -> bool) -> View {
        View {
            id: self.id,
            parts: self
                .parts
                .iter()
                .filter(|(k, _)| keep(*k))
                .copied()
                .collect(),
            owners: Vec::new(),
        }
    }

    fn owner(&self, k: Keyword) -> Option<SchemaId> {
        self.parts
            .iter()
            .rev()
            .find(|(x, _)| *x == k)
            .map(|(_, o)| *o)
    }

    fn has(&self, k: Keyword) -> bool {
        self.owner(k).is_some()
    }

    fn node<'s>(&self, schemas: &'s Schemas, k: Keyword) -> Option<&'s SchemaNode> {
        self.owner(k).map(|o| schemas.get(o))
    }

    fn only_with_annotations(&self, keys: &[Keyword]) -> bool {
        self.parts
            .iter()
            .all(|(k, _)| keys.contains(k) || k.is_annotation())
    }

    fn types<'s>(&self, schemas: &'s Schemas) -> &'s [JsonType] {
        self.node(schemas, Keyword::Type)
            .map_or(&[], |n| n.types.as_slice())
    }

    fn is_required(&self, schemas: &Schemas, name: &str) -> bool {
        self.node(schemas, Keyword::Required)
            .is_some_and(|n| n.is_required(name))
    }

    /// Whether the node accepts `null` by its JSON Schema keywords (not
    /// counting `nullable`, which JSON Schema has not).
    fn accepts_null(&self, schemas: &Schemas) -> bool {
        if self.types(schemas).contains(&JsonType::Null) {
            return true;
        }
        let untyped = self.types(schemas).is_empty();
        if let Some(n) = self.node(schemas, Keyword::Const)
            && n.const_value.as_ref().is_some_and(|c| c.value.is_null())
        {
            return true;
        }
        if untyped
            && let Some(Value::Array(e)) = self
                .node(schemas, Keyword::Enum)
                .and_then(|n| n.enum_values.as_ref())
                .map(|d| &d.value)
            && e.contains(&Value::Null)
        {
            return true;
        }
        untyped
            && self
                .node(schemas, Keyword::AnyOf)
                .and_then(|n| n.any_of.as_ref())
                .is_some_and(|b| b.iter().any(|b| is_null_schema(schemas, *b)))
    }

    /// A node with the typed facts of the view, for checks made on one node.
    fn facts(&self, schemas: &Schemas) -> SchemaNode {
        let get = |k| self.node(schemas, k);
        SchemaNode {
            types: self.types(schemas).to_vec(),
            format: get(Keyword::Format).and_then(|n| n.format.clone()),
            minimum: get(Keyword::Minimum).and_then(|n| n.minimum.clone()),
            maximum: get(Keyword::Maximum).and_then(|n| n.maximum.clone()),
            exclusive_minimum: get(Keyword::ExclusiveMinimum)
                .and_then(|n| n.exclusive_minimum.clone()),
            exclusive_maximum: get(Keyword::ExclusiveMaximum)
                .and_then(|n| n.exclusive_maximum.clone()),
            enum_values: get(Keyword::Enum).and_then(|n| n.enum_values.clone()),
            const_value: get(Keyword::Const).and_then(|n| n.const_value.clone()),
            ..SchemaNode::default()
        }
    }
}

/// Whether keyword `k` says something about values of type `t` (for
/// splitting a `type` list into branches).
fn applies_to(k: Keyword, t: JsonType) -> bool {
    use Keyword::*;
    match k {
        Minimum | Maximum | ExclusiveMinimum | ExclusiveMaximum | MultipleOf => {
            matches!(t, JsonType::Integer | JsonType::Number)
        }
        MinLength | MaxLength | Pattern | ContentEncoding | ContentMediaType => {
            t == JsonType::String
        }
        Format => matches!(t, JsonType::String | JsonType::Integer | JsonType::Number),
        Items | PrefixItems | AdditionalItems | MinItems | MaxItems | UniqueItems => {
            t == JsonType::Array
        }
        Properties | Required | AdditionalProperties | PropertyNames | DependentRequired
        | DependentSchemas => t == JsonType::Object,
        Enum | Const => true,
        _ => false,
    }
}

/// Whether a node is `{type: null}` (annotations aside).
fn is_null_schema(schemas: &Schemas, id: SchemaId) -> bool {
    let n = schemas.get(id);
    n.types == [JsonType::Null] && n.only_with_annotations(Keyword::Type)
}

fn null_schema() -> Value {
    json!({"type": "null"})
}

/// Which keywords [`Lowerer::body`] leaves out.
#[derive(Clone, Copy, Default)]
struct Skip {
    annotations: bool,
    nullable: bool,
    reference: bool,
}

struct Lowerer<'a> {
    schemas: &'a Schemas,
    f: Flags,
    options: Options,
    origins: BTreeMap<String, SchemaId>,
    refusals: Vec<Refusal>,
    refused: Vec<String>,
    /// Named types being inlined (Gemini), innermost last.
    inlining: Vec<SchemaId>,
    budget: usize,
    depth: usize,
    /// Named types referred to by the output (JSON dialects).
    referred: BTreeSet<String>,
}

/// Lowers the schema `root` into `dialect`'s form.
pub fn lower(schemas: &Schemas, root: SchemaId, dialect: Dialect, options: Options) -> Form {
    let mut l = Lowerer {
        schemas,
        f: flags(dialect),
        options,
        origins: BTreeMap::new(),
        refusals: Vec::new(),
        refused: Vec::new(),
        inlining: Vec::new(),
        budget: INLINE_BUDGET,
        depth: 0,
        referred: BTreeSet::new(),
    };
    let json = l.root(root);
    Form {
        json,
        origins: l.origins,
        refusals: l.refusals,
        refused: l.refused,
    }
}

impl Lowerer<'_> {
    fn record(&mut self, out: &str, id: SchemaId) {
        self.origins.insert(out.to_string(), id);
    }

    fn refuse(
        &mut self,
        kind: RefusalKind,
        at: SchemaId,
        keyword: Option<Keyword>,
        out: &str,
        message: String,
    ) {
        self.refusals.push(Refusal {
            kind,
            at,
            keyword,
            message,
        });
        self.refused.push(out.to_string());
    }

    fn root(&mut self, root: SchemaId) -> Value {
        let n = self.schemas.get(root);
        // A root `$ref` is inlined for every dialect: providers want the
        // root itself to say `type: object`.
        let mut out = match n.reference.as_deref() {
            Some(TypeRef {
                target: Some(t), ..
            }) if !self.f.inline_refs => match self.merged(*t, root, "") {
                Some(view) => {
                    self.record("", *t);
                    self.shaped(view, "", false)
                }
                None => self.node(root, "", false),
            },
            _ => self.node(root, "", false),
        };
        if self.f.inline_refs {
            return out;
        }
        // `$defs`: every named type the output refers to, lowered once.
        let mut defs = Map::new();
        let mut done = BTreeSet::new();
        loop {
            let pending: Vec<String> = self.referred.difference(&done).cloned().collect();
            if pending.is_empty() {
                break;
            }
            for name in pending {
                done.insert(name.clone());
                if let Some(def) = self.schemas.named(&name) {
                    let p = format!(
                        "/$defs/{}",
                        crate::manifest::node::escape_pointer_token(&name)
                    );
                    let v = self.node(def, &p, false);
                    defs.insert(name, v);
                }
            }
        }
        if !defs.is_empty()
            && let Value::Object(o) = &mut out
        {
            let sorted: Map<String, Value> = {
                let mut entries: Vec<(String, Value)> = defs.into_iter().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                entries.into_iter().collect()
            };
            o.insert("$defs".to_string(), Value::Object(sorted));
        }
        out
    }

    /// The view of named type `target` with the keywords written beside
    /// the `$ref` of node `id` laid over it; `None` (and a refusal) when a
    /// keyword beside the `$ref` differs from the type's own.
    fn merged(&mut self, target: SchemaId, id: SchemaId, out: &str) -> Option<View> {
        let mut view = View::of(self.schemas, target);
        let n = self.schemas.get(id);
        for k in n.keywords().filter(|k| *k != Keyword::Ref) {
            if view.has(k) && !k.is_annotation() && k != Keyword::Nullable {
                let mine = self
                    .schemas
                    .keyword_json(id, k, JsonOptions::all(RefStyle::Defs));
                let theirs = self
                    .schemas
                    .keyword_json(target, k, JsonOptions::all(RefStyle::Defs));
                if mine != theirs {
                    let name = n.reference.as_ref().map_or("", |r| r.name.as_str());
                    self.refuse(
                        RefusalKind::RefSiblings,
                        id,
                        Some(k),
                        out,
                        format!("`{k}` beside `$ref: #/types/{name}` differs from the `{k}` of type `{name}`, so the two cannot be merged"),
                    );
                    return None;
                }
            }
            view.parts.push((k, id));
        }
        view.owners.push(id);
        Some(view)
    }

    fn node(&mut self, id: SchemaId, out: &str, make_nullable: bool) -> Value {
        if self.depth > MAX_DEPTH {
            self.refuse(
                RefusalKind::TooDeep,
                id,
                None,
                out,
                format!("the schema nests deeper than {MAX_DEPTH} levels"),
            );
            return Value::Null;
        }
        self.depth += 1;
        let v = self.node_inner(id, out, make_nullable);
        self.depth -= 1;
        v
    }

    fn node_inner(&mut self, id: SchemaId, out: &str, make_nullable: bool) -> Value {
        self.record(out, id);
        let n = self.schemas.get(id);
        if let Some(b) = n.boolean {
            return Value::Bool(b);
        }
        if self.f.inline_refs
            && let Some(r) = &n.reference
        {
            return self.inline(id, (**r).clone(), out, make_nullable);
        }
        let view = View::of(self.schemas, id);
        self.shaped(view, out, make_nullable)
    }

    /// Gemini: a `$ref` replaced by its named type, with the keywords beside it.
    fn inline(&mut self, id: SchemaId, r: TypeRef, out: &str, make_nullable: bool) -> Value {
        let canonical = || json!({"$ref": format!("#/$defs/{}", r.name)});
        let Some(target) = r.target else {
            return canonical();
        };
        if self.inlining.contains(&target) {
            self.refuse(
                RefusalKind::Recursive,
                id,
                Some(Keyword::Ref),
                out,
                format!(
                    "type `{}` refers to itself: this dialect has no recursive schemas",
                    r.name
                ),
            );
            return canonical();
        }
        if self.budget == 0 {
            return canonical();
        }
        self.budget -= 1;
        let Some(view) = self.merged(target, id, out) else {
            return canonical();
        };
        self.record(out, target);
        self.inlining.push(target);
        let v = self.shaped(view, out, make_nullable);
        self.inlining.pop();
        v
    }

    /// A node's form, wrapped where the dialect needs it.
    fn shaped(&mut self, view: View, out: &str, make_nullable: bool) -> Value {
        if self.wants_null(&view, make_nullable) {
            return self.nullable(view, out);
        }
        if self.ref_with_siblings(&view) {
            return self.wrap_ref(view, out);
        }
        if let Some(only) = self.gemini_null_branch(&view) {
            return self.gemini_nullable(view, only, out);
        }
        self.plain(view, out)
    }

    /// JSON dialects: whether the node must be made to accept `null`.
    #[inline(never)]
    fn wants_null(&self, view: &View, make_nullable: bool) -> bool {
        self.f.json_nullable
            && (make_nullable
                || view
                    .node(self.schemas, Keyword::Nullable)
                    .is_some_and(|n| n.nullable == Some(true)))
            && !view.accepts_null(self.schemas)
    }

    /// A `$ref` with other keywords beside it, where the dialect wants the
    /// reference alone.
    #[inline(never)]
    fn ref_with_siblings(&self, view: &View) -> bool {
        self.f.wrap_ref_siblings
            && view.has(Keyword::Ref)
            && view
                .parts
                .iter()
                .any(|(k, _)| *k != Keyword::Ref && !self.strips(*k))
            && !view.has(Keyword::AnyOf)
    }

    /// `{$ref: X, …}` → `{…, anyOf: [{$ref: X}]}`.
    #[inline(never)]
    fn wrap_ref(&mut self, view: View, out: &str) -> Value {
        let mut m = self.body(
            &view,
            out,
            Skip {
                reference: true,
                ..Skip::default()
            },
        );
        let inner = self.reference(&view, &format!("{out}/anyOf/0"));
        m.insert("anyOf".into(), Value::Array(vec![inner]));
        self.post(&mut m, &view);
        Value::Object(m)
    }

    /// Gemini: the one branch of `anyOf: [X, {type: null}]` (annotations
    /// aside), when the node is nothing else.
    #[inline(never)]
    fn gemini_null_branch(&self, view: &View) -> Option<SchemaId> {
        let schemas = self.schemas;
        if !self.f.gemini || !view.only_with_annotations(&[Keyword::AnyOf]) {
            return None;
        }
        let branches = view.node(schemas, Keyword::AnyOf)?.any_of.as_ref()?;
        if !branches.iter().any(|b| is_null_schema(schemas, *b)) {
            return None;
        }
        let others: Vec<SchemaId> = branches
            .iter()
            .copied()
            .filter(|b| !is_null_schema(schemas, *b))
            .collect();
        match others.as_slice() {
            [only] if schemas.get(*only).boolean.is_none() => Some(*only),
            _ => None,
        }
    }

    /// Gemini: `anyOf: [X, {type: null}]` → X itself, `nullable: true`.
    #[inline(never)]
    fn gemini_nullable(&mut self, view: View, only: SchemaId, out: &str) -> Value {
        let mut m = match self.node(only, out, false) {
            Value::Object(m) => m,
            other => return other,
        };
        m.extend(self.annotations(&view));
        m.insert("nullable".into(), Value::Bool(true));
        Value::Object(m)
    }

    /// A node as it is, rewritten keyword by keyword.
    #[inline(never)]
    fn plain(&mut self, view: View, out: &str) -> Value {
        let mut m = self.content(&view, out, Skip::default());
        self.post(&mut m, &view);
        Value::Object(m)
    }

    /// JSON dialects: a node made to accept `null` too: only a `$ref` (and
    /// annotations) becomes `anyOf: [{$ref}, {type: null}]`; only a union
    /// gets one more branch; a plain typed node a type list; anything else
    /// `anyOf: [the node, {type: null}]`, annotations outside.
    #[inline(never)]
    fn nullable(&mut self, view: View, out: &str) -> Value {
        if view.only_with_annotations(&[Keyword::Ref, Keyword::Nullable]) && view.has(Keyword::Ref)
        {
            return self.nullable_ref(view, out);
        }
        for k in [Keyword::AnyOf, Keyword::OneOf] {
            if view.only_with_annotations(&[k, Keyword::Nullable]) && view.has(k) {
                return self.nullable_union(view, out);
            }
        }
        let composite = [
            Keyword::Ref,
            Keyword::AnyOf,
            Keyword::OneOf,
            Keyword::AllOf,
            Keyword::Not,
            Keyword::Const,
        ]
        .iter()
        .any(|k| view.has(*k));
        if !composite && !view.types(self.schemas).is_empty() {
            return self.nullable_typed(view, out);
        }
        self.nullable_wrapped(view, out)
    }

    const NULLABLE_SKIP: Skip = Skip {
        annotations: false,
        nullable: true,
        reference: false,
    };

    #[inline(never)]
    fn nullable_ref(&mut self, view: View, out: &str) -> Value {
        let mut m = self.body(
            &view,
            out,
            Skip {
                reference: true,
                ..Self::NULLABLE_SKIP
            },
        );
        let inner = self.reference(&view, &format!("{out}/anyOf/0"));
        m.insert("anyOf".into(), Value::Array(vec![inner, null_schema()]));
        self.post(&mut m, &view);
        Value::Object(m)
    }

    #[inline(never)]
    fn nullable_union(&mut self, view: View, out: &str) -> Value {
        let mut m = self.body(&view, out, Self::NULLABLE_SKIP);
        self.post(&mut m, &view);
        for list in ["anyOf", "oneOf"] {
            if let Some(Value::Array(b)) = m.get_mut(list) {
                b.push(null_schema());
            }
        }
        Value::Object(m)
    }

    #[inline(never)]
    fn nullable_typed(&mut self, view: View, out: &str) -> Value {
        let mut m = self.content(&view, out, Self::NULLABLE_SKIP);
        if let Some(t) = m.get("type").cloned() {
            let mut list = match t {
                Value::Array(l) => l,
                one => vec![one],
            };
            list.push("null".into());
            m.insert("type".into(), Value::Array(list));
        }
        if let Some(Value::Array(e)) = m.get_mut("enum") {
            e.push(Value::Null);
        }
        self.post(&mut m, &view);
        Value::Object(m)
    }

    #[inline(never)]
    fn nullable_wrapped(&mut self, view: View, out: &str) -> Value {
        let mut m = self.annotations(&view);
        let inner_out = format!("{out}/anyOf/0");
        self.record(&inner_out, view.id);
        let mut inner = self.content(
            &view,
            &inner_out,
            Skip {
                annotations: true,
                ..Self::NULLABLE_SKIP
            },
        );
        self.post(&mut inner, &view);
        self.post(&mut m, &view);
        m.insert(
            "anyOf".into(),
            Value::Array(vec![Value::Object(inner), null_schema()]),
        );
        Value::Object(m)
    }

    /// `{"$ref": …}` for the view's reference, at `out`.
    fn reference(&mut self, view: &View, out: &str) -> Value {
        self.record(out, view.id);
        let mut m = Map::new();
        if let Some(v) = self.value(view, Keyword::Ref, out) {
            m.insert("$ref".into(), v);
        }
        Value::Object(m)
    }

    /// The view's annotation keywords (they have no subschemas).
    fn annotations(&mut self, view: &View) -> Map<String, Value> {
        let mut m = Map::new();
        for (k, _) in view.parts.clone() {
            if k.is_annotation()
                && !self.strips(k)
                && let Some(v) = self.value(view, k, "")
            {
                m.insert(k.as_str().to_string(), v);
            }
        }
        m
    }

    fn strips(&self, k: Keyword) -> bool {
        // A schema's own definitions go under the root's `$defs` when reached;
        // toolc's own keywords are for the compiler and the runtime, never the model.
        matches!(
            k,
            Keyword::RustType | Keyword::Sensitive | Keyword::Defs | Keyword::Definitions
        ) || (self.f.gemini && matches!(k, Keyword::SchemaDialect | Keyword::Id | Keyword::Comment))
            // OpenAPI's hint for code generators: validates nothing, and no provider but an
            // MCP client (shown what the server sent) reads it.
            || (k == Keyword::Discriminator && !self.f.as_written)
    }

    /// The node's content: its keywords in the dialect's form, or, where the
    /// dialect has no place for a construct but has an equivalent, the
    /// equivalent (docs/lint-rules.md lists each, and the reading that turns
    /// the model's arguments back).
    fn content(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let at_root = out.is_empty();
        if self.f.maps_as_pairs && !at_root && self.is_open_map(view) {
            return self.map_pairs(view, out, skip);
        }
        if self.f.tuples_as_objects && self.is_tuple(view) {
            return self.tuple_object(view, out, skip);
        }
        if self.f.split_type_lists && self.type_list(view).len() > 1 {
            return self.type_any_of(view, out, skip);
        }
        if self.f.merge_all_of && self.mergeable_all_of(view).is_some() {
            return self.merged_all_of(view, out, skip);
        }
        if (self.f.strict_openai || self.f.close_objects) && !at_root && self.redundant_object(view)
        {
            return self.body(&view.without(&[Keyword::Type]), out, skip);
        }
        self.body(view, out, skip)
    }

    /// An object with no named properties that takes other keys: a map.
    fn is_open_map(&self, view: &View) -> bool {
        let schemas = self.schemas;
        // A map that may be null too is a list of pairs that may be null.
        let types: Vec<JsonType> = view
            .types(schemas)
            .iter()
            .copied()
            .filter(|t| *t != JsonType::Null)
            .collect();
        let objecty = types == [JsonType::Object]
            || (view.types(schemas).is_empty()
                && (view.has(Keyword::AdditionalProperties) || view.has(Keyword::PropertyNames)));
        let no_props = view
            .node(schemas, Keyword::Properties)
            .is_none_or(|n| n.props().is_empty());
        let open = view
            .node(schemas, Keyword::AdditionalProperties)
            .and_then(|n| n.additional_properties)
            .is_none_or(|a| !schemas.get(a).is_nothing());
        // A list of pairs cannot say which keys need others.
        let plain = ![
            Keyword::Ref,
            Keyword::AnyOf,
            Keyword::OneOf,
            Keyword::AllOf,
            Keyword::Not,
            Keyword::DependentRequired,
            Keyword::DependentSchemas,
        ]
        .iter()
        .any(|k| view.has(*k));
        objecty && no_props && open && plain
    }

    /// A map as a list of `{key, value}` pairs.
    #[inline(never)]
    fn map_pairs(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let schemas = self.schemas;
        let mut m = if skip.annotations {
            Map::new()
        } else {
            self.annotations(view)
        };
        if !skip.annotations {
            append_description(
                &mut m,
                "Given as a list of `{key, value}` pairs, each key once.",
            );
        }
        let pair = format!("{out}/items");
        self.record(&pair, view.id);
        let key = match view
            .node(schemas, Keyword::PropertyNames)
            .and_then(|n| n.property_names)
        {
            Some(names) => {
                let mut k = self.node(names, &format!("{pair}/properties/key"), false);
                // Property names are strings, whether or not the schema says so.
                if let Value::Object(k) = &mut k {
                    k.entry("type").or_insert_with(|| json!("string"));
                }
                k
            }
            None => json!({"type": "string"}),
        };
        let value = match view
            .node(schemas, Keyword::AdditionalProperties)
            .and_then(|n| n.additional_properties)
        {
            Some(v) => self.node(v, &format!("{pair}/properties/value"), false),
            None => json!({}),
        };
        let mut item = Map::new();
        item.insert("type".into(), json!("object"));
        item.insert("properties".into(), json!({"key": key, "value": value}));
        item.insert("required".into(), json!(["key", "value"]));
        if self.f.close_objects {
            item.insert("additionalProperties".into(), Value::Bool(false));
        }
        m.insert("type".into(), self.with_null(view, "array"));
        m.insert("items".into(), Value::Object(item));
        self.nullable_flag(view, &mut m);
        m
    }

    /// The `type` of an equivalent form of type `t`: with `null` beside it
    /// where the node takes `null` and the dialect is JSON Schema.
    fn with_null(&self, view: &View, t: &str) -> Value {
        if self.f.json_nullable && view.types(self.schemas).contains(&JsonType::Null) {
            json!([t, "null"])
        } else {
            json!(t)
        }
    }

    /// Gemini: `nullable: true` on an equivalent form whose node takes `null`
    /// (by its `type`, or by the manifest's `nullable: true`).
    fn nullable_flag(&self, view: &View, m: &mut Map<String, Value>) {
        let schemas = self.schemas;
        let nullable = view.types(schemas).contains(&JsonType::Null)
            || view
                .node(schemas, Keyword::Nullable)
                .is_some_and(|n| n.nullable == Some(true));
        if self.f.gemini && nullable {
            m.insert("nullable".into(), Value::Bool(true));
        }
    }

    /// A tuple (`prefixItems`, or the draft-07 list `items`) that an object keyed by its
    /// positions can stand for: one that takes an array with an item at each position and no
    /// more (`maxItems` and `minItems` let that length through, no `uniqueItems`), which is
    /// what the object spells.
    fn is_tuple(&self, view: &View) -> bool {
        let schemas = self.schemas;
        let prefix = view
            .node(schemas, Keyword::PrefixItems)
            .or_else(|| {
                view.node(schemas, Keyword::Items)
                    .filter(|n| n.draft07_tuple)
            })
            .and_then(|n| n.prefix_items.as_ref());
        // The arrays the object stands for have an item at every position and no more: each
        // must be one the tuple takes.
        let fits = |len: usize| {
            let len = len as u64;
            let max = view
                .node(schemas, Keyword::MaxItems)
                .and_then(|n| n.max_items);
            let min = view
                .node(schemas, Keyword::MinItems)
                .and_then(|n| n.min_items);
            max.is_none_or(|m| m >= len)
                && min.is_none_or(|m| m <= len)
                && !view.has(Keyword::UniqueItems)
        };
        prefix.is_some_and(|p| fits(p.len()))
    }

    /// A tuple as an object whose keys are the positions: `{"0": a, "1": b}`.
    #[inline(never)]
    fn tuple_object(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let schemas = self.schemas;
        let prefix = view
            .node(schemas, Keyword::PrefixItems)
            .or_else(|| view.node(schemas, Keyword::Items))
            .and_then(|n| n.prefix_items.clone())
            .unwrap_or_default();
        let mut m = if skip.annotations {
            Map::new()
        } else {
            self.annotations(view)
        };
        if !skip.annotations {
            append_description(
                &mut m,
                "Given as an object whose keys are the positions, from \"0\".",
            );
        }
        let mut props = Map::new();
        for (i, p) in prefix.iter().enumerate() {
            let v = self.node(*p, &format!("{out}/properties/{i}"), false);
            props.insert(i.to_string(), v);
        }
        let keys: Vec<Value> = (0..prefix.len())
            .map(|i| Value::String(i.to_string()))
            .collect();
        m.insert("type".into(), self.with_null(view, "object"));
        m.insert("properties".into(), Value::Object(props));
        m.insert("required".into(), Value::Array(keys));
        self.nullable_flag(view, &mut m);
        m
    }

    /// The non-null types of a `type` list.
    fn type_list(&self, view: &View) -> Vec<JsonType> {
        let composite = [Keyword::Ref, Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf]
            .iter()
            .any(|k| view.has(*k));
        if composite {
            return Vec::new();
        }
        view.types(self.schemas)
            .iter()
            .copied()
            .filter(|t| *t != JsonType::Null)
            .collect()
    }

    /// Several types as `anyOf`, each branch with the keywords of its type.
    #[inline(never)]
    fn type_any_of(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let types = self.type_list(view);
        let mut m = if skip.annotations {
            Map::new()
        } else {
            self.annotations(view)
        };
        let mut branches = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let branch_out = format!("{out}/anyOf/{i}");
            self.record(&branch_out, view.id);
            let t = *t;
            let part = view.only(|k| applies_to(k, t));
            let mut b = self.body(
                &part,
                &branch_out,
                Skip {
                    annotations: true,
                    ..skip
                },
            );
            b.insert("type".into(), json!(t.as_str()));
            for k in ["enum"] {
                if let Some(Value::Array(values)) = b.get_mut(k) {
                    values.retain(|v| {
                        JsonType::of(v) == t || (t == JsonType::Number && v.is_number())
                    });
                }
            }
            self.post(&mut b, &part);
            if self.f.bounds && t == JsonType::Integer {
                // The branch's integers keep within the Rust type, as a lone integer does
                // (`post` sees no `type` in the branch's keywords).
                let mut facts = part.facts(self.schemas);
                facts.types = vec![JsonType::Integer];
                let (least, greatest) = added_integer_bounds(&facts);
                if let Some(l) = least {
                    b.insert("minimum".into(), int_value(l));
                }
                if let Some(g) = greatest {
                    b.insert("maximum".into(), int_value(g));
                }
            }
            branches.push(Value::Object(b));
        }
        m.insert("anyOf".into(), Value::Array(branches));
        if view.types(self.schemas).contains(&JsonType::Null) {
            m.insert("nullable".into(), Value::Bool(true));
        }
        m
    }

    /// The branches of an `allOf` that can be merged into one object: open
    /// objects (no `additionalProperties: false`, so merging keeps what they
    /// accept together), each property declared once or alike.
    fn mergeable_all_of(&self, view: &View) -> Option<Vec<SchemaId>> {
        let schemas = self.schemas;
        let branches = view.node(schemas, Keyword::AllOf)?.all_of.clone()?;
        if branches.len() < 2
            || [
                Keyword::Ref,
                Keyword::AnyOf,
                Keyword::OneOf,
                Keyword::Properties,
            ]
            .iter()
            .any(|k| view.has(*k))
        {
            return None;
        }
        let mut seen: std::collections::BTreeMap<String, Value> = Default::default();
        for b in &branches {
            let n = schemas.resolved(*b);
            let object =
                n.types == [JsonType::Object] || (n.types.is_empty() && n.properties.is_some());
            let simple = n.keywords().all(|k| {
                matches!(k, Keyword::Type | Keyword::Properties | Keyword::Required)
                    || k.is_annotation()
            });
            if !object || !simple {
                return None;
            }
            for p in n.props() {
                let j = schemas.write_json(p.schema, JsonOptions::VALIDATION);
                if seen.get(&p.name).is_some_and(|x| *x != j) {
                    return None;
                }
                seen.insert(p.name.clone(), j);
            }
        }
        Some(branches.iter().map(|b| schemas.deref(*b)).collect())
    }

    /// `allOf` of open objects as one object with every branch's properties.
    #[inline(never)]
    fn merged_all_of(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let schemas = self.schemas;
        let branches = self.mergeable_all_of(view).unwrap_or_default();
        let mut m = self.body(&view.without(&[Keyword::AllOf, Keyword::Type]), out, skip);
        let required: Vec<String> = branches
            .iter()
            .flat_map(|b| {
                schemas
                    .get(*b)
                    .required_names()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .fold(Vec::new(), |mut acc, r| {
                if !acc.contains(&r) {
                    acc.push(r);
                }
                acc
            });
        let mut props = Map::new();
        for b in &branches {
            for p in schemas.get(*b).props().to_vec() {
                if props.contains_key(&p.name) || self.never_sent(p.schema) {
                    continue;
                }
                let optional = self.f.strict_openai && !required.contains(&p.name);
                let po = format!(
                    "{out}/properties/{}",
                    crate::manifest::node::escape_pointer_token(&p.name)
                );
                let v = self.node(p.schema, &po, optional);
                props.insert(p.name.clone(), v);
            }
        }
        m.insert("type".into(), json!("object"));
        m.insert("properties".into(), Value::Object(props));
        m.insert(
            "required".into(),
            Value::Array(required.into_iter().map(Value::String).collect()),
        );
        m
    }

    /// `type: object` over a union whose every branch is an object: the type
    /// says nothing the branches do not, and strict forms read a typed
    /// object without properties as an open map.
    fn redundant_object(&self, view: &View) -> bool {
        let schemas = self.schemas;
        if view.types(schemas) != [JsonType::Object] || view.has(Keyword::Properties) {
            return false;
        }
        let branches = view
            .node(schemas, Keyword::OneOf)
            .and_then(|n| n.one_of.clone())
            .or_else(|| {
                view.node(schemas, Keyword::AnyOf)
                    .and_then(|n| n.any_of.clone())
            });
        branches.is_some_and(|b| {
            b.iter().all(|x| {
                let n = schemas.resolved(*x);
                n.types == [JsonType::Object] || (n.types.is_empty() && n.properties.is_some())
            })
        })
    }

    /// The node's keywords in the dialect's form, children lowered.
    fn body(&mut self, view: &View, out: &str, skip: Skip) -> Map<String, Value> {
        let mut m = Map::new();
        let parts = view.parts.clone();
        for (k, _) in &parts {
            let k = *k;
            if (skip.annotations && k.is_annotation())
                || (skip.reference && k == Keyword::Ref)
                || (k == Keyword::Nullable && (skip.nullable || self.f.json_nullable))
                || self.strips(k)
            {
                continue;
            }
            if let Some(v) = self.value(view, k, out) {
                m.insert(self.key(view, k).to_string(), v);
            }
        }
        // Gemini's schema is a closed set of fields: extensions never go there.
        if self.options.extensions && !skip.annotations && !self.f.gemini {
            for owner in &view.owners {
                for (k, v) in &self.schemas.get(*owner).extensions {
                    m.insert(k.clone(), v.clone());
                }
            }
        }
        m
    }

    /// Whether a disjoint `oneOf` is written `anyOf` (the same, where the
    /// dialect has no `oneOf`).
    fn one_of_as_any_of(&self, view: &View) -> bool {
        (self.f.strict_openai || self.f.gemini)
            && !view.has(Keyword::AnyOf)
            && view
                .node(self.schemas, Keyword::OneOf)
                .and_then(|n| n.one_of.as_ref())
                .is_some_and(|b| disjoint(self.schemas, b))
    }

    /// One keyword's value in the dialect's form. Its frame, like every
    /// frame of the recursion, stays small: the work is in helpers.
    fn value(&mut self, view: &View, k: Keyword, out: &str) -> Option<Value> {
        let owner = view.owner(k)?;
        let at = self.keyword_pointer(view, k, out);
        let n = self.schemas.get(owner);
        match k {
            // The draft-07 tuple keeps its spelling.
            Keyword::Items if n.draft07_tuple => self.list(n.prefix_items.clone()?, &at),
            Keyword::Items | Keyword::AdditionalItems => Some(self.node(n.items?, &at, false)),
            Keyword::PrefixItems => self.list(n.prefix_items.clone()?, &at),
            Keyword::PropertyNames => Some(self.node(n.property_names?, &at, false)),
            Keyword::AdditionalProperties => Some(self.node(n.additional_properties?, &at, false)),
            Keyword::Not => Some(self.node(n.not?, &at, false)),
            Keyword::Properties => Some(self.properties(view, owner, &at)),
            Keyword::DependentSchemas => Some(self.dependent_schemas(owner, &at)),
            Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf => self.branches(owner, k, &at),
            _ => self.scalar(owner, k),
        }
    }

    /// The key keyword `k` of the view is written under: `anyOf` for a
    /// disjoint `oneOf` where the dialect has no `oneOf`, and the 2020-12
    /// spelling of a draft-07 tuple (`prefixItems`, with `items` for the rest).
    fn key(&self, view: &View, k: Keyword) -> &'static str {
        let draft07 = view
            .node(self.schemas, Keyword::Items)
            .is_some_and(|n| n.draft07_tuple);
        match k {
            Keyword::OneOf if self.one_of_as_any_of(view) => "anyOf",
            Keyword::Items if draft07 => "prefixItems",
            Keyword::AdditionalItems => "items",
            k => k.as_str(),
        }
    }

    /// Where keyword `k` of the view goes in the output.
    #[inline(never)]
    fn keyword_pointer(&self, view: &View, k: Keyword, out: &str) -> String {
        format!("{out}/{}", self.key(view, k))
    }

    /// A keyword with no subschema: its JSON (a `$ref` noted for `$defs`).
    #[inline(never)]
    fn scalar(&mut self, owner: SchemaId, k: Keyword) -> Option<Value> {
        if k == Keyword::Ref {
            let r = self.schemas.get(owner).reference.as_ref()?;
            self.referred.insert(r.name.clone());
            return Some(Value::String(format!("#/$defs/{}", r.name)));
        }
        self.schemas
            .keyword_json(owner, k, JsonOptions::all(RefStyle::Defs))
    }

    /// `properties`, each lowered; OpenAI strict makes optional ones nullable.
    #[inline(never)]
    fn properties(&mut self, view: &View, owner: SchemaId, at: &str) -> Value {
        let props = self.schemas.get(owner).props().to_vec();
        let mut m = Map::new();
        for p in props {
            if self.never_sent(p.schema) {
                continue;
            }
            let optional = self.f.strict_openai && !view.is_required(self.schemas, &p.name);
            let po = format!(
                "{at}/{}",
                crate::manifest::node::escape_pointer_token(&p.name)
            );
            let v = self.node(p.schema, &po, optional);
            m.insert(p.name.clone(), v);
        }
        Value::Object(m)
    }

    /// `dependentSchemas`, each schema lowered.
    #[inline(never)]
    fn dependent_schemas(&mut self, owner: SchemaId, at: &str) -> Value {
        let entries = self.schemas.get(owner).dependent_schemas.clone();
        let mut m = Map::new();
        for p in entries {
            let po = format!(
                "{at}/{}",
                crate::manifest::node::escape_pointer_token(&p.name)
            );
            let v = self.node(p.schema, &po, false);
            m.insert(p.name.clone(), v);
        }
        Value::Object(m)
    }

    /// A property whose schema is `false` in an object the dialect's form
    /// closes (strict modes) or reads as closed (Gemini): left out, since
    /// leaving it out says the same. Strict modes would make it required,
    /// and then no object at all would match.
    fn never_sent(&self, id: SchemaId) -> bool {
        (self.f.close_objects || self.f.gemini) && self.schemas.resolved(id).is_nothing()
    }

    /// A list of subschemas, each lowered in place.
    #[inline(never)]
    fn list(&mut self, ids: Vec<SchemaId>, at: &str) -> Option<Value> {
        let items = ids
            .into_iter()
            .enumerate()
            .map(|(i, id)| self.node(id, &format!("{at}/{i}"), false))
            .collect();
        Some(Value::Array(items))
    }

    /// `anyOf`, `oneOf` or `allOf`, each branch lowered; Gemini drops `null`
    /// branches from `anyOf` (the node says `nullable` instead).
    #[inline(never)]
    fn branches(&mut self, owner: SchemaId, k: Keyword, at: &str) -> Option<Value> {
        let n = self.schemas.get(owner);
        let list = match k {
            Keyword::AnyOf => n.any_of.clone(),
            Keyword::OneOf => n.one_of.clone(),
            _ => n.all_of.clone(),
        }?;
        let drop_null = self.f.gemini && k == Keyword::AnyOf;
        let mut items = Vec::new();
        for id in list {
            if drop_null && is_null_schema(self.schemas, id) {
                continue;
            }
            let v = self.node(id, &format!("{at}/{}", items.len()), false);
            items.push(v);
        }
        Some(Value::Array(items))
    }

    /// Rewrites of one node whose children are done.
    fn post(&mut self, o: &mut Map<String, Value>, view: &View) {
        let schemas = self.schemas;
        // Gemini: `null` branches dropped from `anyOf` make the node nullable.
        if self.f.gemini
            && let Some(branches) = view
                .node(schemas, Keyword::AnyOf)
                .and_then(|n| n.any_of.as_ref())
            && branches.iter().any(|b| is_null_schema(schemas, *b))
        {
            o.insert("nullable".into(), Value::Bool(true));
        }
        let facts = view.facts(schemas);
        if self.f.bounds && types_of(o).contains(&"integer") {
            let (least, greatest) = added_integer_bounds(&facts);
            if let Some(l) = least {
                o.insert("minimum".into(), int_value(l));
            }
            if let Some(g) = greatest {
                o.insert("maximum".into(), int_value(g));
            }
        }
        if self.f.strict_openai {
            strict_openai_forms(o);
        }
        if self.f.close_objects
            && is_object(o)
            && o.contains_key("properties")
            && !o.contains_key("additionalProperties")
        {
            o.insert("additionalProperties".into(), Value::Bool(false));
        }
        if self.f.gemini {
            gemini_forms(o, self.f.drop_additional_false);
        }
        unstated_annotations(o, self.f.dialect);
        if self.options.close_objects {
            close_open_object(o, self.f.dialect);
        }
        if self.options.describe_unsupported {
            describe_unsupported(o, self.f.dialect);
        }
    }
}

/// The string formats toolc's validator checks at the call boundary; any other `format` is an
/// annotation, which says nothing about the values accepted.
pub const VALIDATED_FORMATS: &[&str] = &[
    "date",
    "date-time",
    "time",
    "uuid",
    "email",
    "uri",
    "ipv4",
    "ipv6",
    "hostname",
];

/// The string formats a dialect's form may carry, where it has a closed list: OpenAI's
/// strict mode (Structured Outputs guide) and Anthropic's (anthropic-sdk-python
/// `lib/_parse/_transform.py` `SupportedStringFormats`).
fn stated_formats(d: Dialect) -> Option<&'static [&'static str]> {
    match d {
        Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict => Some(&[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
        ]),
        Dialect::AnthropicStrict => Some(&[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        ]),
        _ => None,
    }
}

/// Annotations a dialect has no field for, said in the description or in its own field
/// (they never change which values are accepted, so nothing is lost): a `format` the strict
/// modes do not list and toolc does not validate (an integer format is kept: it names the
/// handler's Rust type, whose range the dispatcher holds integers to), and Gemini's missing
/// `examples` (its own `example` takes the first), `readOnly`, `writeOnly`,
/// `contentEncoding` and `contentMediaType`.
fn unstated_annotations(o: &mut Map<String, Value>, d: Dialect) {
    if let Some(stated) = stated_formats(d)
        && let Some(Value::String(f)) = o.get("format")
        && !stated.contains(&f.as_str())
        && !VALIDATED_FORMATS.contains(&f.as_str())
        && int_format_range(f).is_none()
    {
        let note = format!("Format: {f}.");
        o.remove("format");
        append_description(o, &note);
    }
    if !d.is_gemini_openapi() {
        return;
    }
    if let Some(Value::Array(examples)) = o.remove("examples")
        && let Some(first) = examples.into_iter().next()
    {
        o.entry("example").or_insert(first);
    }
    for (key, note) in [("readOnly", "Read-only."), ("writeOnly", "Write-only.")] {
        if o.remove(key) == Some(Value::Bool(true)) {
            append_description(o, note);
        }
    }
    for (key, what) in [
        ("contentEncoding", "Content encoding"),
        ("contentMediaType", "Media type"),
    ] {
        if let Some(v) = o.remove(key) {
            let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            append_description(o, &format!("{what}: {text}."));
        }
    }
}

/// `[lower] close_objects`: an object that declares properties and takes other keys too,
/// listed closed where the dialect has no such object: `additionalProperties: false` in the
/// strict modes, none at all for Gemini's Developer API (its objects have only their
/// properties). The model can then send only the declared properties; the dispatcher still
/// takes the others.
fn close_open_object(o: &mut Map<String, Value>, d: Dialect) {
    let declares = o
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if !declares || !is_object(o) {
        return;
    }
    match (d, o.get("additionalProperties")) {
        (_, None | Some(Value::Bool(false))) => {}
        (Dialect::OpenAiStrict | Dialect::AzureOpenAiStrict | Dialect::AnthropicStrict, _) => {
            o.insert("additionalProperties".into(), Value::Bool(false));
        }
        (Dialect::Gemini, _) => {
            o.remove("additionalProperties");
        }
        _ => {}
    }
}

/// Whether keyword `key` (with value `v`) of an output node is one the dialect's form cannot
/// state: only keywords that narrow a value, never ones that give it its shape.
fn unstatable(d: Dialect, key: &str, v: &Value) -> bool {
    let strict_openai = d.is_openai_strict();
    match key {
        "format" => stated_formats(d).is_some_and(|s| !v.as_str().is_some_and(|f| s.contains(&f))),
        "uniqueItems" => strict_openai || d.is_gemini_openapi() || d == Dialect::AnthropicStrict,
        "multipleOf" => d.is_gemini_openapi() || d == Dialect::AnthropicStrict,
        "exclusiveMinimum" | "exclusiveMaximum" => {
            d.is_gemini_openapi() || d == Dialect::AnthropicStrict
        }
        "const" => d.is_gemini_openapi(),
        "minimum" | "maximum" => d == Dialect::AnthropicStrict,
        "minLength" | "maxLength" => {
            d == Dialect::AnthropicStrict || d == Dialect::AzureOpenAiStrict
        }
        "minItems" => d == Dialect::AnthropicStrict && !matches!(v.as_u64(), Some(0 | 1)),
        "maxItems" => d == Dialect::AnthropicStrict,
        _ => false,
    }
}

/// `[lower] describe_unsupported`: the keywords of an output node the dialect cannot state,
/// said in its description instead (as anthropic-sdk-python's `transform_schema` does for
/// strict tools), and a `oneOf` whose branches may overlap written `anyOf` where the dialect
/// has no `oneOf`, the description saying that exactly one applies. The provider no longer
/// holds the model to them; the dispatcher still checks the manifest's schema.
fn describe_unsupported(o: &mut Map<String, Value>, d: Dialect) {
    let keys: Vec<String> = o
        .iter()
        .filter(|(k, v)| unstatable(d, k, v))
        .map(|(k, _)| k.clone())
        .collect();
    let mut said = Vec::new();
    for k in keys {
        if let Some(v) = o.remove(&k) {
            said.push(format!("`{k}: {v}`"));
        }
    }
    if !said.is_empty() {
        append_description(o, &format!("Must also hold: {}.", said.join(", ")));
    }
    if (d.is_openai_strict() || d.is_gemini_openapi())
        && !o.contains_key("anyOf")
        && let Some(branches) = o.remove("oneOf")
    {
        o.insert("anyOf".into(), branches);
        append_description(o, "Exactly one of the alternatives applies.");
    }
}

/// OpenAI's strict mode: every property required, a default said in the description instead,
/// and integer formats written as bounds.
fn strict_openai_forms(o: &mut Map<String, Value>) {
    if let Some(Value::Object(props)) = o.get("properties") {
        let all: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
        o.insert("required".into(), Value::Array(all));
    }
    if let Some(d) = o.get("default").cloned()
        && !d.is_null()
    {
        o.remove("default");
        append_description(o, &format!("Default: {d}."));
    }
    int_format_to_bounds(o);
}

/// Gemini's forms: a nullable type instead of a `null` in `type`, a string `const` as a
/// one-value `enum`, a numeric `const` as equal bounds, inclusive integer bounds,
/// `additionalProperties: false` dropped where the dialect refuses it, and `deprecated` said
/// in the description.
fn gemini_forms(o: &mut Map<String, Value>, drop_additional_false: bool) {
    if let Some(Value::Array(ts)) = o.get("type") {
        let non_null: Vec<Value> = ts
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .cloned()
            .collect();
        if non_null.len() == 1 && ts.len() == 2 {
            o.insert("type".into(), non_null[0].clone());
            o.insert("nullable".into(), Value::Bool(true));
            if let Some(Value::Array(e)) = o.get_mut("enum") {
                e.retain(|v| !v.is_null());
            }
        }
    }
    if let Some(Value::String(c)) = o.get("const").cloned() {
        let ok = match o.get("enum") {
            None => true,
            Some(Value::Array(e)) => e.contains(&Value::String(c.clone())),
            Some(_) => false,
        };
        if ok && types_of(o).iter().all(|t| *t == "string") {
            o.remove("const");
            o.insert("enum".into(), json!([c]));
            if !o.contains_key("type") {
                o.insert("type".into(), json!("string"));
            }
        }
    }
    // A numeric `const`: the one number both bounds allow.
    if let Some(Value::Number(c)) = o.get("const").cloned()
        && !o.contains_key("enum")
    {
        o.remove("const");
        let t = if is_integral_number(&c) {
            "integer"
        } else {
            "number"
        };
        o.entry("type").or_insert_with(|| json!(t));
        o.insert("minimum".into(), Value::Number(c.clone()));
        o.insert("maximum".into(), Value::Number(c));
    }
    if types_of(o) == ["integer"] {
        exclusive_to_inclusive(o);
    }
    if drop_additional_false && o.get("additionalProperties") == Some(&Value::Bool(false)) {
        o.remove("additionalProperties");
    }
    match o.get("deprecated") {
        Some(Value::Bool(true)) => {
            o.remove("deprecated");
            append_description(o, "Deprecated.");
        }
        Some(Value::Bool(false)) => {
            o.remove("deprecated");
        }
        _ => {}
    }
}

fn is_integral_number(n: &Number) -> bool {
    crate::model::schema::is_integral(n)
}

fn int_value(i: i128) -> Value {
    match (i64::try_from(i), u64::try_from(i)) {
        (Ok(v), _) => Value::from(v),
        (_, Ok(v)) => Value::from(v),
        _ => Value::Null,
    }
}

/// The `type` of an output node as a list of names.
fn types_of(o: &Map<String, Value>) -> Vec<&str> {
    match o.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The output node describes objects.
fn is_object(o: &Map<String, Value>) -> bool {
    let t = types_of(o);
    t.contains(&"object") || (t.is_empty() && o.contains_key("properties"))
}

/// Adds a sentence to a node's description.
pub(crate) fn append_description(o: &mut Map<String, Value>, note: &str) {
    let text = match o.get("description").and_then(Value::as_str) {
        Some(d) if !d.trim().is_empty() => {
            let d = d.trim_end();
            let stop = if d.ends_with(['.', '!', '?', ':']) {
                ""
            } else {
                "."
            };
            format!("{d}{stop} {note}")
        }
        _ => note.to_string(),
    };
    o.insert("description".into(), Value::String(text));
}

/// Integer formats as the bounds they stand for.
fn int_format_range(f: &str) -> Option<(Number, Number)> {
    Some(match f {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" => (0.into(), u64::MAX.into()),
        _ => return None,
    })
}

fn int_format_to_bounds(o: &mut Map<String, Value>) {
    if types_of(o).contains(&"integer")
        && let Some(Value::String(f)) = o.get("format")
        && let Some((lo, hi)) = int_format_range(f)
    {
        o.remove("format");
        let tighter_min = o
            .get("minimum")
            .and_then(Value::as_f64)
            .is_none_or(|m| m < lo.as_f64().unwrap_or(f64::MIN));
        if tighter_min {
            o.insert("minimum".into(), Value::Number(lo));
        }
        let tighter_max = o
            .get("maximum")
            .and_then(Value::as_f64)
            .is_none_or(|m| m > hi.as_f64().unwrap_or(f64::MAX));
        if tighter_max {
            o.insert("maximum".into(), Value::Number(hi));
        }
    }
}

/// The inclusive integer bound equal to an exclusive one.
fn inclusive(n: &Number, up: bool) -> Option<Number> {
    if let Some(i) = n.as_i64() {
        return if up {
            i.checked_add(1)
        } else {
            i.checked_sub(1)
        }
        .map(Number::from);
    }
    if let Some(u) = n.as_u64() {
        return if up {
            u.checked_add(1)
        } else {
            u.checked_sub(1)
        }
        .map(Number::from);
    }
    let f = n.as_f64()?;
    let b = if up { f.floor() + 1.0 } else { f.ceil() - 1.0 };
    if b.is_finite() && b.abs() < 9.0e15 {
        Some(Number::from(b as i64))
    } else {
        None
    }
}

fn exclusive_to_inclusive(o: &mut Map<String, Value>) {
    for (ex, inc, up) in [
        ("exclusiveMinimum", "minimum", true),
        ("exclusiveMaximum", "maximum", false),
    ] {
        let Some(Value::Number(n)) = o.get(ex).cloned() else {
            continue;
        };
        let Some(b) = inclusive(&n, up) else { continue };
        let bf = b.as_f64().unwrap_or(0.0);
        let keep_existing = o
            .get(inc)
            .and_then(Value::as_f64)
            .is_some_and(|m| if up { m >= bf } else { m <= bf });
        o.remove(ex);
        if !keep_existing {
            o.insert(inc.into(), Value::Number(b));
        }
    }
}

/// A property's single allowed value, from `const` or a one-value `enum`.
fn tag(schemas: &Schemas, id: SchemaId) -> Option<&Value> {
    let n = schemas.resolved(id);
    n.const_value.as_ref().map(|c| &c.value).or_else(|| {
        match n.enum_values.as_ref().map(|d| &d.value) {
            Some(Value::Array(e)) if e.len() == 1 => e.first(),
            _ => None,
        }
    })
}

/// Do the `oneOf` branches exclude each other, so `anyOf` means the same?
/// Yes when each has a distinct tag on one required property, when each is
/// a closed object requiring a property the others do not declare, or when
/// each is one distinct primitive type.
pub fn disjoint(schemas: &Schemas, branches: &[SchemaId]) -> bool {
    let nodes: Vec<&SchemaNode> = branches.iter().map(|b| schemas.resolved(*b)).collect();
    if nodes.len() < 2 {
        return !nodes.is_empty();
    }
    // A discriminator property.
    for p in nodes[0].props() {
        let mut tags = Vec::new();
        let ok =
            nodes.iter().all(
                |n| match n.property(&p.name).and_then(|q| tag(schemas, q.schema)) {
                    Some(t) if n.is_required(&p.name) && !tags.contains(&t) => {
                        tags.push(t);
                        true
                    }
                    _ => false,
                },
            );
        if ok {
            return true;
        }
    }
    // Closed objects, each requiring a property no other declares: an
    // object matching one has a key the others refuse.
    let closed = |n: &SchemaNode| {
        n.additional_properties
            .is_some_and(|a| schemas.get(a).is_nothing())
    };
    if nodes.iter().all(|n| closed(n)) {
        let own_key = |i: usize| {
            nodes[i].required_names().any(|r| {
                nodes
                    .iter()
                    .enumerate()
                    .all(|(j, other)| j == i || other.property(r).is_none())
            })
        };
        if (0..nodes.len()).all(own_key) {
            return true;
        }
    }
    // Distinct primitive types.
    let mut seen: Vec<JsonType> = Vec::new();
    for n in &nodes {
        match n.types.as_slice() {
            [t] if !seen.contains(t) => seen.push(*t),
            _ => return false,
        }
    }
    !(seen.contains(&JsonType::Integer) && seen.contains(&JsonType::Number))
}
