//! The canonical JSON of a schema: its keywords as written, in the order
//! written, and bundled with the named types it reaches under `$defs`.

use super::Schemas;
use super::keyword::Keyword;
use super::node::{RustTypeHint, SchemaId};
use serde_json::{Map, Value};

/// How `$ref`s to named types are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefStyle {
    /// `#/types/Name`, as in the manifest.
    Types,
    /// `#/$defs/Name`, for a bundled, self-contained schema.
    Defs,
}

/// What the JSON of a schema holds besides the keywords that validate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonOptions {
    pub refs: RefStyle,
    /// Annotation keywords (`description`, `default`…) and `x-rust-type`.
    pub annotations: bool,
    /// `x-…` extension keys.
    pub extensions: bool,
    /// `sensitive`, even without the other annotations.
    pub sensitive: bool,
    /// An integer schema's `minimum` and `maximum` as the generated tables hold them: the Rust
    /// type's limits where the schema's own bounds do not keep values within it; and a
    /// draft-07 tuple (`items: [..]` with `additionalItems`) in the 2020-12 spelling the tables
    /// and the validator read (`prefixItems` with `items`).
    pub type_bounds: bool,
}

impl JsonOptions {
    /// Everything, refs as given.
    pub fn all(refs: RefStyle) -> Self {
        JsonOptions {
            refs,
            annotations: true,
            extensions: true,
            sensitive: true,
            type_bounds: false,
        }
    }

    /// Only what decides which values are valid: two schemas with the same
    /// JSON under these options validate alike.
    pub const VALIDATION: JsonOptions = JsonOptions {
        refs: RefStyle::Types,
        annotations: false,
        extensions: false,
        sensitive: false,
        type_bounds: false,
    };

    /// What a validation table holds: what decides which values are valid,
    /// and which are sensitive. Two schemas with the same JSON under these
    /// options share a table.
    pub const TABLE: JsonOptions = JsonOptions {
        sensitive: true,
        ..JsonOptions::VALIDATION
    };

    /// What the generated dispatcher validates against, as one self-contained schema: the
    /// table's keywords with the Rust types' integer bounds, named types under `$defs`. The
    /// values `toolc check` judges are judged against it.
    pub const DISPATCH: JsonOptions = JsonOptions {
        refs: RefStyle::Defs,
        type_bounds: true,
        ..JsonOptions::TABLE
    };
}

impl Schemas {
    /// The JSON of one node and everything under it.
    pub fn to_json(&self, id: SchemaId, style: RefStyle) -> Value {
        self.write_json(id, JsonOptions::all(style))
    }

    /// The JSON of one node and everything under it, with `options`.
    pub fn write_json(&self, id: SchemaId, options: JsonOptions) -> Value {
        let n = self.get(id);
        if let Some(b) = n.boolean {
            return Value::Bool(b);
        }
        let mut m = Map::new();
        for k in n.keywords() {
            let kept = match k {
                Keyword::Sensitive => options.annotations || options.sensitive,
                _ => options.annotations || !(k.is_annotation() || k == Keyword::RustType),
            };
            if !kept {
                continue;
            }
            if let Some(v) = self.keyword_json(id, k, options) {
                let key = match k {
                    Keyword::Items if options.type_bounds && n.draft07_tuple => "prefixItems",
                    Keyword::AdditionalItems if options.type_bounds => "items",
                    _ => k.as_str(),
                };
                m.insert(key.to_string(), v);
            }
        }
        if options.extensions {
            for (k, v) in &n.extensions {
                m.insert(k.clone(), v.clone());
            }
        }
        if options.type_bounds {
            let (least, greatest) = super::added_integer_bounds(n);
            for (k, bound) in [("minimum", least), ("maximum", greatest)] {
                if let Some(number) = bound.and_then(integer_number) {
                    m.insert(k.to_string(), Value::Number(number));
                }
            }
        }
        Value::Object(m)
    }

    /// The JSON of one keyword of a node (`None` when the node does not
    /// have it), children written with `options`. One arm per keyword,
    /// which makes it long; split, a keyword's JSON would not be in one place.
    pub fn keyword_json(&self, id: SchemaId, k: Keyword, options: JsonOptions) -> Option<Value> {
        let style = options.refs;
        let n = self.get(id);
        let ids = |list: &Option<Vec<SchemaId>>| -> Value {
            Value::Array(
                list.iter()
                    .flatten()
                    .map(|c| self.write_json(*c, options))
                    .collect(),
            )
        };
        let v = match k {
            Keyword::Ref => match &n.reference {
                Some(r) => Value::String(match style {
                    RefStyle::Types => r.written.clone(),
                    RefStyle::Defs => format!("#/$defs/{}", r.name),
                }),
                None => return None,
            },
            Keyword::Type => {
                if n.types_as_list {
                    Value::Array(n.types.iter().map(|t| t.as_str().into()).collect())
                } else {
                    match n.types.first() {
                        Some(t) => t.as_str().into(),
                        None => return None,
                    }
                }
            }
            Keyword::Nullable => opt(n.nullable),
            Keyword::Enum => data(&n.enum_values),
            Keyword::Const => data(&n.const_value),
            Keyword::Title => opt(n.title.clone()),
            Keyword::Description => opt(n.description.clone()),
            Keyword::Default => data(&n.default),
            Keyword::Examples => data(&n.examples),
            Keyword::Deprecated => opt(n.deprecated),
            Keyword::ReadOnly => opt(n.read_only),
            Keyword::WriteOnly => opt(n.write_only),
            Keyword::Comment
            | Keyword::SchemaDialect
            | Keyword::Id
            | Keyword::ContentEncoding
            | Keyword::ContentMediaType => opt(n.annotation(k)),
            Keyword::Format => opt(n.format.clone()),
            Keyword::Minimum => opt(n.minimum.clone()),
            Keyword::Maximum => opt(n.maximum.clone()),
            Keyword::ExclusiveMinimum => opt(n.exclusive_minimum.clone()),
            Keyword::ExclusiveMaximum => opt(n.exclusive_maximum.clone()),
            Keyword::MultipleOf => opt(n.multiple_of.clone()),
            Keyword::MinLength => opt(n.min_length),
            Keyword::MaxLength => opt(n.max_length),
            Keyword::Pattern => opt(n.pattern.clone()),
            // The draft-07 tuple is written back as it was.
            Keyword::Items if n.draft07_tuple => ids(&n.prefix_items),
            Keyword::Items | Keyword::AdditionalItems => match n.items {
                Some(c) => self.write_json(c, options),
                None => return None,
            },
            Keyword::PrefixItems => ids(&n.prefix_items),
            Keyword::PropertyNames => match n.property_names {
                Some(c) => self.write_json(c, options),
                None => return None,
            },
            // In a bundle, every definition reached is under the root's
            // `$defs` already.
            Keyword::Defs | Keyword::Definitions if style == RefStyle::Defs => return None,
            Keyword::Defs | Keyword::Definitions => Value::Object(
                n.defs
                    .iter()
                    .map(|d| (d.name.clone(), self.write_json(d.schema, options)))
                    .collect(),
            ),
            Keyword::MinItems => opt(n.min_items),
            Keyword::MaxItems => opt(n.max_items),
            Keyword::UniqueItems => opt(n.unique_items),
            Keyword::Properties => Value::Object(
                n.props()
                    .iter()
                    .map(|p| (p.name.clone(), self.write_json(p.schema, options)))
                    .collect(),
            ),
            Keyword::Required => Value::Array(
                n.required
                    .iter()
                    .map(|r| Value::String(r.name.clone()))
                    .collect(),
            ),
            Keyword::AdditionalProperties => match n.additional_properties {
                Some(c) => self.write_json(c, options),
                None => return None,
            },
            Keyword::AnyOf => ids(&n.any_of),
            Keyword::OneOf => ids(&n.one_of),
            Keyword::AllOf => ids(&n.all_of),
            Keyword::Not => match n.not {
                Some(c) => self.write_json(c, options),
                None => return None,
            },
            Keyword::RustType => match n.rust_type {
                Some(RustTypeHint::Json) => Value::String("json".into()),
                None => return None,
            },
            Keyword::Sensitive => opt(n.sensitive),
            Keyword::DependentRequired => Value::Object(
                n.dependent_required
                    .iter()
                    .map(|d| {
                        let names = d.required.iter().cloned().map(Value::String).collect();
                        (d.name.clone(), Value::Array(names))
                    })
                    .collect(),
            ),
            Keyword::DependentSchemas => Value::Object(
                n.dependent_schemas
                    .iter()
                    .map(|p| (p.name.clone(), self.write_json(p.schema, options)))
                    .collect(),
            ),
            Keyword::Discriminator => match &n.discriminator {
                Some(d) => d.written.value.clone(),
                None => return None,
            },
            // Unsupported keywords are never stored.
            _ => return None,
        };
        (!v.is_null() || matches!(k, Keyword::Const | Keyword::Default)).then_some(v)
    }

    /// A self-contained schema: refs written `#/$defs/X`, and `$defs`
    /// holding every named type reachable from `id`, in name order.
    pub fn bundle(&self, id: SchemaId) -> Value {
        self.bundle_with(id, JsonOptions::all(RefStyle::Defs))
    }

    /// [`bundle`](Self::bundle), each node written with `options` (whose
    /// `refs` must be [`RefStyle::Defs`]).
    pub fn bundle_with(&self, id: SchemaId, options: JsonOptions) -> Value {
        let mut out = self.write_json(id, options);
        let names = self.reachable_types(id);
        if names.is_empty() {
            return out;
        }
        let defs: Map<String, Value> = names
            .into_iter()
            .filter_map(|n| {
                let root = self.named(n)?;
                Some((n.to_string(), self.write_json(root, options)))
            })
            .collect();
        match &mut out {
            Value::Object(map) => {
                map.insert("$defs".to_string(), Value::Object(defs));
                out
            }
            // A boolean root cannot hold `$defs`; wrap it.
            other => serde_json::json!({ "allOf": [other.clone()], "$defs": defs }),
        }
    }
}

/// An integer as a JSON number, `None` beyond `u64` and `i64`.
fn integer_number(i: i128) -> Option<serde_json::Number> {
    i64::try_from(i)
        .map(serde_json::Number::from)
        .or_else(|_| u64::try_from(i).map(serde_json::Number::from))
        .ok()
}

fn opt<T: Into<Value>>(v: Option<T>) -> Value {
    v.map_or(Value::Null, Into::into)
}

fn data(d: &Option<Box<super::node::Data>>) -> Value {
    d.as_ref().map_or(Value::Null, |d| d.value.clone())
}

/// The arena serializes as the canonical JSON of every node, in arena order
/// (for dumps of the IR that leave spans out).
impl serde::Serialize for Schemas {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for i in 0..self.len() {
            seq.serialize_element(&self.to_json(SchemaId(i as u32), RefStyle::Types))?;
        }
        seq.end()
    }
}
