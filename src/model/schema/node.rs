//! One schema node of the arena: every keyword toolc supports, typed, with
//! where it was written.

use super::keyword::Keyword;
use crate::diag::Span;
use serde_json::{Number, Value};

/// A node of [`super::Schemas`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct SchemaId(pub(crate) u32);

impl SchemaId {
    /// The node's index in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A JSON type, as the `type` keyword names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JsonType {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Integer,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    pub fn parse(s: &str) -> Option<JsonType> {
        JsonType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The type of a JSON value (`integer` for numbers without a fraction).
    pub fn of(v: &Value) -> JsonType {
        match v {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) if is_integral(n) => JsonType::Integer,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }
}

/// Whether a JSON number is an integer in JSON Schema's sense (`5.0` is).
pub fn is_integral(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// A named property of an object schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub schema: SchemaId,
    /// Where the property's name is written.
    pub span: Span,
}

/// A name in `required`, with where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Required {
    pub name: String,
    pub span: Span,
}

/// A `$ref` to a named type (`#/types/Name`) or to a definition of the
/// schema's own (`#/$defs/Name`, `#/definitions/Name`).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeRef {
    /// The name of the definition in the toolset: a named type's own name, or
    /// the name a local definition was given when it joined the toolset's
    /// definitions (its own, unless another definition already had it).
    pub name: String,
    /// The reference as written.
    pub written: String,
    /// Whether it points into the schema's own `$defs`/`definitions`.
    pub local: bool,
    /// The definition's root, once linked; `None` when no definition has the
    /// name (an error already reported).
    pub target: Option<SchemaId>,
    pub span: Span,
}

/// A definition of a schema's own, under `$defs` or `definitions`.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalDef {
    /// The name as written.
    pub name: String,
    pub schema: SchemaId,
    /// Where the name is written.
    pub span: Span,
}

/// One entry of `dependentRequired`: when the object has `name`, it must have each of
/// `required` too.
#[derive(Debug, Clone, PartialEq)]
pub struct Dependency {
    pub name: String,
    pub required: Vec<String>,
    /// Where the entry's name is written.
    pub span: Span,
}

/// OpenAPI's `discriminator`: the property that tells a union's branches apart, and the
/// object as written (with its `mapping`), which is listed back unchanged.
#[derive(Debug, Clone, PartialEq)]
pub struct Discriminator {
    pub property_name: String,
    pub written: Data,
}

/// A data value (`default`, `const`…) with where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub value: Value,
    pub span: Span,
}

/// How a node hangs from its parent: the keyword and, for maps and lists,
/// the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub keyword: Keyword,
    pub entry: Entry,
}

/// Which entry of a keyword's value a child is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// The keyword's value is the child itself.
    Whole,
    /// A list entry.
    Index(usize),
    /// A map entry.
    Name(String),
}

impl Step {
    /// The JSON-pointer suffix of this step: `/items`, `/anyOf/0`, `/properties/a~1b`.
    pub fn pointer(&self) -> String {
        let k = self.keyword.as_str();
        match &self.entry {
            Entry::Whole => format!("/{k}"),
            Entry::Index(i) => format!("/{k}/{i}"),
            Entry::Name(n) => format!("/{k}/{}", crate::manifest::node::escape_pointer_token(n)),
        }
    }
}

/// A JSON Schema node with every keyword typed. Keywords not set are
/// `None` or empty; [`SchemaNode::keys`] lists those that were written, in
/// order, so the node serializes as it was written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SchemaNode {
    /// The whole node.
    pub span: Span,
    /// Where the node hangs: its parent and the step from it (`None` for a root).
    pub parent: Option<(SchemaId, Step)>,
    /// `Some` for the boolean schemas `true` (anything) and `false` (nothing).
    pub boolean: Option<bool>,
    /// The keywords written, in order, each with where it is.
    pub keys: Vec<KeyAt>,

    pub reference: Option<Box<TypeRef>>,
    /// `type`, as written (one type or a list).
    pub types: Vec<JsonType>,
    /// Whether `type` was written as a list.
    pub types_as_list: bool,
    pub nullable: Option<bool>,
    /// `enum`, `const`, `default` and `examples` are boxed: most schemas have none, and a
    /// `Data` inline would make every node of the model 88 bytes larger.
    pub enum_values: Option<Box<Data>>,
    pub const_value: Option<Box<Data>>,

    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Box<Data>>,
    pub examples: Option<Box<Data>>,
    pub deprecated: Option<bool>,
    pub read_only: Option<bool>,
    pub write_only: Option<bool>,
    /// The string annotations no stage reads but the JSON writer (`$comment`, `$schema`, `$id`,
    /// `contentEncoding`, `contentMediaType`), by keyword: one list rather than a field each,
    /// as a schema of a toolset's thousands rarely has any (see [`SchemaNode::annotation`]).
    pub annotations: Vec<(Keyword, String)>,

    pub format: Option<String>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<String>,

    pub items: Option<SchemaId>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: Option<bool>,

    /// `properties`, in written order (`Some(empty)` for `properties: {}`).
    pub properties: Option<Vec<Property>>,
    pub required: Vec<Required>,
    pub additional_properties: Option<SchemaId>,
    /// `dependentRequired`, in written order.
    pub dependent_required: Vec<Dependency>,
    /// `dependentSchemas`, in written order: each property name with the schema the object
    /// must match when it has that property.
    pub dependent_schemas: Vec<Property>,
    /// OpenAPI's `discriminator` (boxed: rare, and not small).
    pub discriminator: Option<Box<Discriminator>>,

    pub any_of: Option<Vec<SchemaId>>,
    pub one_of: Option<Vec<SchemaId>>,
    pub all_of: Option<Vec<SchemaId>>,
    pub not: Option<SchemaId>,

    /// `$defs` (or `definitions`, whichever is written): the schema's own
    /// definitions, at its root only.
    pub defs: Vec<LocalDef>,
    /// `prefixItems` (or the draft-07 `items: [...]`): the schemas of the
    /// first items.
    pub prefix_items: Option<Vec<SchemaId>>,
    /// Whether the tuple was written in the draft-07 form (`items: [...]`,
    /// with `additionalItems` for the rest), kept to write it back as it was.
    pub draft07_tuple: bool,
    /// `propertyNames`.
    pub property_names: Option<SchemaId>,

    /// `x-rust-type`.
    pub rust_type: Option<RustTypeHint>,
    /// `sensitive` (toolc's own): the value is a secret.
    pub sensitive: Option<bool>,
    /// `x-…` extension keys, in written order.
    pub extensions: Vec<(String, Value)>,
}

/// A keyword as written: where its key and its value are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyAt {
    pub keyword: Keyword,
    pub key: Span,
    pub value: Span,
}

/// What `x-rust-type` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RustTypeHint {
    /// Free-form JSON: `serde_json::Value`.
    Json,
}

impl SchemaNode {
    /// The string annotation `k` (one of [`SchemaNode::annotations`]), if written.
    pub fn annotation(&self, k: Keyword) -> Option<&str> {
        self.annotations
            .iter()
            .find(|(kw, _)| *kw == k)
            .map(|(_, s)| s.as_str())
    }

    /// The keywords written, in order.
    pub fn keywords(&self) -> impl Iterator<Item = Keyword> + '_ {
        self.keys.iter().map(|k| k.keyword)
    }

    /// Where keyword `k`'s key is written, or the node's own span.
    pub fn key_span(&self, k: Keyword) -> Span {
        self.keys
            .iter()
            .find(|x| x.keyword == k)
            .map_or(self.span, |x| x.key)
    }

    /// Where keyword `k`'s value is written, or the node's own span.
    pub fn value_span(&self, k: Keyword) -> Span {
        self.keys
            .iter()
            .find(|x| x.keyword == k)
            .map_or(self.span, |x| x.value)
    }

    /// Whether keyword `k` was written.
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords().any(|kw| kw == k)
    }

    /// Whether every keyword written is `k` or an annotation.
    pub fn only_with_annotations(&self, k: Keyword) -> bool {
        self.keywords().all(|kw| kw == k || kw.is_annotation())
    }

    /// The `true` schema or an object schema without any keyword that
    /// constrains (annotations aside).
    pub fn is_any(&self) -> bool {
        match self.boolean {
            Some(b) => b,
            None => self.keywords().all(Keyword::is_annotation),
        }
    }

    /// Whether the node says `sensitive: true` (its own keyword; references are not
    /// followed).
    pub fn is_sensitive(&self) -> bool {
        self.sensitive == Some(true)
    }

    /// The `false` schema.
    pub fn is_nothing(&self) -> bool {
        self.boolean == Some(false)
    }

    /// Whether `type` names `t` (an integer type also counts for `number`
    /// only when written so).
    pub fn has_type(&self, t: JsonType) -> bool {
        self.types.contains(&t)
    }

    /// `type` without `null`.
    pub fn non_null_types(&self) -> impl Iterator<Item = JsonType> + '_ {
        self.types.iter().copied().filter(|t| *t != JsonType::Null)
    }

    /// Whether the node says `null` is allowed by its own `type` or
    /// `nullable` (unions and references are not looked into).
    pub fn says_nullable(&self) -> bool {
        self.nullable == Some(true) || self.has_type(JsonType::Null)
    }

    /// The names in `required`.
    pub fn required_names(&self) -> impl Iterator<Item = &str> {
        self.required.iter().map(|r| r.name.as_str())
    }

    pub fn is_required(&self, name: &str) -> bool {
        self.required.iter().any(|r| r.name == name)
    }

    /// The property called `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.as_ref()?.iter().find(|p| p.name == name)
    }

    /// The properties (empty when none are declared).
    pub fn props(&self) -> &[Property] {
        self.properties.as_deref().unwrap_or(&[])
    }

    /// The direct subschemas, each with its step.
    pub fn children(&self) -> Vec<(Step, SchemaId)> {
        let mut out = Vec::new();
        let whole = |k| Step {
            keyword: k,
            entry: Entry::Whole,
        };
        let list = |out: &mut Vec<(Step, SchemaId)>, k, ids: &Option<Vec<SchemaId>>| {
            for (i, id) in ids.iter().flatten().enumerate() {
                out.push((
                    Step {
                        keyword: k,
                        entry: Entry::Index(i),
                    },
                    *id,
                ));
            }
        };
        // In written order, so walks meet children as a reader does.
        for k in self.keywords() {
            match k {
                // A draft-07 tuple: `items` lists the first items' schemas, and
                // `additionalItems` holds the schema of the rest.
                Keyword::Items if self.draft07_tuple => list(&mut out, k, &self.prefix_items),
                Keyword::Items => out.extend(self.items.map(|i| (whole(k), i))),
                Keyword::AdditionalItems if self.draft07_tuple => {
                    out.extend(self.items.map(|i| (whole(k), i)))
                }
                Keyword::AdditionalProperties => {
                    out.extend(self.additional_properties.map(|i| (whole(k), i)))
                }
                Keyword::Not => out.extend(self.not.map(|i| (whole(k), i))),
                Keyword::Properties => {
                    for p in self.props() {
                        out.push((
                            Step {
                                keyword: k,
                                entry: Entry::Name(p.name.clone()),
                            },
                            p.schema,
                        ));
                    }
                }
                Keyword::DependentSchemas => {
                    for p in &self.dependent_schemas {
                        out.push((
                            Step {
                                keyword: k,
                                entry: Entry::Name(p.name.clone()),
                            },
                            p.schema,
                        ));
                    }
                }
                Keyword::AnyOf => list(&mut out, k, &self.any_of),
                Keyword::OneOf => list(&mut out, k, &self.one_of),
                Keyword::AllOf => list(&mut out, k, &self.all_of),
                Keyword::PrefixItems => list(&mut out, k, &self.prefix_items),
                Keyword::PropertyNames => out.extend(self.property_names.map(|i| (whole(k), i))),
                Keyword::Defs | Keyword::Definitions => {
                    for d in &self.defs {
                        out.push((
                            Step {
                                keyword: k,
                                entry: Entry::Name(d.name.clone()),
                            },
                            d.schema,
                        ));
                    }
                }
                _ => {}
            }
        }
        out
    }
}
