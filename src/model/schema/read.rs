//! The one reader of schemas: a manifest's spanned tree → typed nodes in the
//! arena. Every keyword is checked as it is read: an unknown key is
//! `unknown-schema-keyword` (with a "did you mean"), a JSON Schema keyword
//! toolc does not support is `unsupported-schema`, a value of the wrong shape
//! is `invalid-schema`; each at the place it is written.

use super::keyword::{Keyword, Support, is_extension};
use super::node::*;
use super::{Schemas, TYPE_REF_PREFIX, ref_type_name};
use crate::diag::{Code, Diagnostic, Span, did_you_mean};
use crate::manifest::node::{Entry as MapEntry, Node, PointerSpans, Value as NodeValue};
use serde_json::{Number, Value};

/// Reads schemas into an arena, collecting diagnostics.
pub struct Reader<'a> {
    schemas: &'a mut Schemas,
    diags: &'a mut Vec<Diagnostic>,
    /// How deep the schema being read is.
    depth: usize,
}

/// How deep schemas may nest when read. A manifest cannot reach it (its own
/// nesting limit is lower); schemas given as JSON are held to it.
const MAX_READ_DEPTH: usize = crate::manifest::node::MAX_DEPTH;

fn invalid(message: impl Into<String>, at: Span, help: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::InvalidSchema, message)
        .at(at)
        .help(help)
}

fn found(node: &Node) -> &'static str {
    node.value.type_name()
}

/// A data value as JSON.
fn data(node: &Node) -> Data {
    Data {
        value: node.to_json("", &mut PointerSpans::new()),
        span: node.span,
    }
}

impl<'a> Reader<'a> {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A reader adding to `schemas` and reporting to `diags`.
    pub fn new(schemas: &'a mut Schemas, diags: &'a mut Vec<Diagnostic>) -> Self {
        Reader {
            schemas,
            diags,
            depth: 0,
        }
    }

    /// Reads a schema as a tree root.
    pub fn read(&mut self, node: &Node) -> SchemaId {
        self.node(node, None)
    }

    fn node(&mut self, node: &Node, parent: Option<(SchemaId, Step)>) -> SchemaId {
        // Every frame of this recursion stays small (the work is in
        // functions that are not inlined): schemas nest deep.
        let NodeValue::Map(entries) = &node.value else {
            return self.leaf(node, parent);
        };
        if self.depth > MAX_READ_DEPTH {
            return self.leaf(node, parent);
        }
        // Children are read first (they need this node's id as parent), so
        // the id is reserved now and the node filled in at the end.
        let id = self.reserve();
        let mut out = Box::new(SchemaNode {
            span: node.span,
            ..SchemaNode::default()
        });
        for e in entries {
            self.entry(id, e, &mut out);
        }
        if out.has(Keyword::AdditionalItems)
            && (!out.draft07_tuple || out.has(Keyword::PrefixItems))
        {
            self.lone_additional_items(&out);
        }
        out.parent = parent;
        self.schemas.set(id, out);
        id
    }

    /// `additionalItems` means something only beside a draft-07 tuple.
    #[inline(never)]
    fn lone_additional_items(&mut self, out: &SchemaNode) {
        self.push(
            invalid(
                "`additionalItems` means something only beside a draft-07 tuple (`items` as a list)",
                out.key_span(Keyword::AdditionalItems),
                "in JSON Schema 2020-12, write `prefixItems: [...]` with `items` for the items after them",
            ),
        );
    }

    #[inline(never)]
    fn reserve(&mut self) -> SchemaId {
        self.schemas.push(SchemaNode::default())
    }

    /// A schema that is not a mapping: `true`, `false`, or a wrong value
    /// (reported, and read as `true`); or one nested too deep.
    #[inline(never)]
    fn leaf(&mut self, node: &Node, parent: Option<(SchemaId, Step)>) -> SchemaId {
        let boolean = match &node.value {
            _ if self.depth > MAX_READ_DEPTH => {
                self.push(invalid(
                    format!("the schema nests deeper than {MAX_READ_DEPTH} levels"),
                    node.span,
                    "flatten the schema, or move nested parts into named types",
                ));
                true
            }
            NodeValue::Bool(b) => *b,
            _ => {
                self.push(invalid(
                    format!(
                        "a schema must be a mapping (or `true` or `false`), found {}",
                        found(node)
                    ),
                    node.span,
                    "write the schema as a mapping of keywords, such as `{type: string}`",
                ));
                true
            }
        };
        self.schemas.push(SchemaNode {
            span: node.span,
            boolean: Some(boolean),
            parent,
            ..SchemaNode::default()
        })
    }

    /// One key of a schema mapping, read into `out`.
    #[inline(never)]
    fn entry(&mut self, id: SchemaId, e: &MapEntry, out: &mut SchemaNode) {
        if is_extension(&e.key) {
            out.extensions
                .push((e.key.clone(), e.value.to_json("", &mut PointerSpans::new())));
            return;
        }
        let Some(k) = Keyword::parse(&e.key) else {
            self.unknown(e);
            return;
        };
        if k.support() == Support::Unsupported {
            self.unsupported(k, e);
            return;
        }
        let ok = if matches!(k.shape(), super::Shape::Scalar | super::Shape::Data) {
            self.keyword(k, e, out)
        } else {
            self.subschemas(id, k, e, out)
        };
        if ok {
            out.keys.push(KeyAt {
                keyword: k,
                key: e.key_span,
                value: e.value.span,
            });
        }
    }

    fn unknown(&mut self, e: &MapEntry) {
        let mut d = Diagnostic::new(
            Code::UnknownSchemaKeyword,
            format!("`{}` is not a schema keyword toolc knows", e.key),
        )
        .at(e.key_span);
        d = match did_you_mean(&e.key, Keyword::supported_names()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(
                "see the schema keywords in docs/manifest.md; keys of your own start with `x-`",
            ),
        };
        self.push(d);
    }

    fn unsupported(&mut self, k: Keyword, e: &MapEntry) {
        let help = match k {
            Keyword::Defs | Keyword::Definitions => {
                "define shared schemas under the manifest's `types:` and refer to them as `#/types/Name`"
            }
            Keyword::PrefixItems | Keyword::AdditionalItems => {
                "use an object with named properties instead of a positional tuple"
            }
            _ => {
                "restructure the schema without it, or mark the value free-form with `x-rust-type: json`"
            }
        };
        self.push(
            Diagnostic::new(
                Code::UnsupportedSchema,
                format!(
                    "`{k}` ({}) is not supported in toolc schemas",
                    k.summary().trim_end_matches('.').to_lowercase()
                ),
            )
            .at(e.key_span)
            .help(help),
        );
    }

    fn string(&mut self, k: Keyword, v: &Node) -> Option<String> {
        match v.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.push(invalid(
                    format!("`{k}` must be a string, found {}", found(v)),
                    v.span,
                    format!("write `{k}` as a string"),
                ));
                None
            }
        }
    }

    fn boolean(&mut self, k: Keyword, v: &Node) -> Option<bool> {
        match v.value {
            NodeValue::Bool(b) => Some(b),
            _ => {
                self.push(invalid(
                    format!("`{k}` must be true or false, found {}", found(v)),
                    v.span,
                    format!("write `{k}: true` or `{k}: false`"),
                ));
                None
            }
        }
    }

    fn number(&mut self, k: Keyword, v: &Node) -> Option<Number> {
        match &v.value {
            NodeValue::Number(n) => Some(n.clone()),
            NodeValue::Bool(_)
                if matches!(k, Keyword::ExclusiveMinimum | Keyword::ExclusiveMaximum) =>
            {
                let bound = if k == Keyword::ExclusiveMinimum {
                    "minimum"
                } else {
                    "maximum"
                };
                self.push(invalid(
                    format!("`{k}` must be a number in JSON Schema 2020-12, found a boolean (the draft-04 form)"),
                    v.span,
                    format!("write the bound itself: `{k}: 0` instead of `{bound}: 0` with `{k}: true`"),
                ));
                None
            }
            _ => {
                self.push(invalid(
                    format!("`{k}` must be a number, found {}", found(v)),
                    v.span,
                    format!("write `{k}` as a number"),
                ));
                None
            }
        }
    }

    fn count(&mut self, k: Keyword, v: &Node) -> Option<u64> {
        match &v.value {
            NodeValue::Number(n) if n.as_u64().is_some() => n.as_u64(),
            NodeValue::Number(n)
                if n.as_f64()
                    .is_some_and(|f| f >= 0.0 && f.fract() == 0.0 && f < 9.0e15) =>
            {
                n.as_f64().map(|f| f as u64)
            }
            _ => {
                self.push(invalid(
                    format!("`{k}` must be a non-negative integer, found {}", show(v)),
                    v.span,
                    format!("write `{k}` as a whole number, 0 or more"),
                ));
                None
            }
        }
    }

    fn child(&mut self, parent: SchemaId, k: Keyword, entry: Entry, v: &Node) -> SchemaId {
        self.depth += 1;
        let id = self.node(v, Some((parent, Step { keyword: k, entry })));
        self.depth -= 1;
        id
    }

    fn list(&mut self, parent: SchemaId, k: Keyword, v: &Node) -> Option<Vec<SchemaId>> {
        let NodeValue::Seq(items) = &v.value else {
            self.push(invalid(
                format!("`{k}` must be a list of schemas, found {}", found(v)),
                v.span,
                format!(
                    "write `{k}` as a list, such as `{k}: [{{type: string}}, {{type: integer}}]`"
                ),
            ));
            return None;
        };
        if items.is_empty() {
            self.push(invalid(
                format!("`{k}` must list at least one schema"),
                v.span,
                format!("add the schemas, or remove `{k}`"),
            ));
            return None;
        }
        let mut ids = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            ids.push(self.child(parent, k, Entry::Index(i), item));
        }
        Some(ids)
    }

    /// Reads a keyword whose value holds subschemas into `out`; false when
    /// its value was refused. Kept apart from [`Reader::keyword`] so the
    /// frames of the recursion stay small.
    /// One arm per keyword with subschemas (long for the same reason as
    /// [`Reader::keyword`]).
    #[inline(never)]
    fn subschemas(&mut self, id: SchemaId, k: Keyword, e: &MapEntry, out: &mut SchemaNode) -> bool {
        let v = &e.value;
        match k {
            Keyword::Items => match &v.value {
                NodeValue::Seq(_) => {
                    let Some(list) = self.list(id, k, v) else {
                        return false;
                    };
                    self.push(
                        Diagnostic::new(
                            Code::LegacyKeyword,
                            "`items` as a list is the draft-07 spelling of a tuple: read as `prefixItems` (and `additionalItems` as `items`)",
                        )
                        .severity(crate::diag::Severity::Note)
                        .at(e.key_span)
                        .help("in JSON Schema 2020-12, write `prefixItems: [...]`, and `items` for the items after them"),
                    );
                    out.prefix_items = Some(list);
                    out.draft07_tuple = true;
                    true
                }
                _ => {
                    out.items = Some(self.child(id, k, Entry::Whole, v));
                    true
                }
            },
            Keyword::AdditionalItems => {
                // The items after a draft-07 tuple: 2020-12's `items`.
                out.items = Some(self.child(id, k, Entry::Whole, v));
                true
            }
            Keyword::PrefixItems => self
                .list(id, k, v)
                .map(|l| out.prefix_items = Some(l))
                .is_some(),
            Keyword::PropertyNames => {
                out.property_names = Some(self.child(id, k, Entry::Whole, v));
                true
            }
            Keyword::Defs | Keyword::Definitions => {
                if self.depth > 0 {
                    self.push(
                        Diagnostic::new(
                            Code::UnsupportedSchema,
                            format!("`{k}` is read at the root of a schema only: `#/{k}/Name` refers there"),
                        )
                        .at(e.key_span)
                        .help(format!("move these definitions to the `{k}` at the schema's root")),
                    );
                    return false;
                }
                if !out.defs.is_empty() {
                    self.push(invalid(
                        "a schema has one place for its definitions: `$defs` and `definitions` both written",
                        e.key_span,
                        "keep one of them",
                    ));
                    return false;
                }
                let Some(entries) = v.as_map() else {
                    self.push(invalid(
                        format!("`{k}` must map names to schemas, found {}", found(v)),
                        v.span,
                        format!("write `{k}: {{Name: {{type: string}}}}`"),
                    ));
                    return false;
                };
                for d in entries {
                    let schema = self.child(id, k, Entry::Name(d.key.clone()), &d.value);
                    out.defs.push(LocalDef {
                        name: d.key.clone(),
                        schema,
                        span: d.key_span,
                    });
                }
                true
            }
            Keyword::AdditionalProperties => {
                out.additional_properties = Some(self.child(id, k, Entry::Whole, v));
                true
            }
            Keyword::Not => {
                out.not = Some(self.child(id, k, Entry::Whole, v));
                true
            }
            Keyword::Properties => {
                let Some(entries) = v.as_map() else {
                    self.push(invalid(
                        format!("`properties` must map names to schemas, found {}", found(v)),
                        v.span,
                        "write `properties: {name: {type: string}}`",
                    ));
                    return false;
                };
                let mut props = Vec::with_capacity(entries.len());
                for p in entries {
                    let schema = self.child(id, k, Entry::Name(p.key.clone()), &p.value);
                    props.push(Property {
                        name: p.key.clone(),
                        schema,
                        span: p.key_span,
                    });
                }
                out.properties = Some(props);
                true
            }
            Keyword::DependentSchemas => {
                let Some(entries) = v.as_map() else {
                    self.push(invalid(
                        format!(
                            "`dependentSchemas` must map property names to schemas, found {}",
                            found(v)
                        ),
                        v.span,
                        "write `dependentSchemas: {card: {required: [billing_address]}}`",
                    ));
                    return false;
                };
                for p in entries {
                    let schema = self.child(id, k, Entry::Name(p.key.clone()), &p.value);
                    out.dependent_schemas.push(Property {
                        name: p.key.clone(),
                        schema,
                        span: p.key_span,
                    });
                }
                true
            }
            Keyword::AnyOf => self.list(id, k, v).map(|l| out.any_of = Some(l)).is_some(),
            Keyword::OneOf => self.list(id, k, v).map(|l| out.one_of = Some(l)).is_some(),
            Keyword::AllOf => self.list(id, k, v).map(|l| out.all_of = Some(l)).is_some(),
            _ => false,
        }
    }

    /// Reads one keyword with a scalar or data value into `out`; false when
    /// its value was refused.
    /// One arm per keyword, which makes it long; split, what each keyword
    /// reads would no longer be in one place.
    #[inline(never)]
    fn keyword(&mut self, k: Keyword, e: &MapEntry, out: &mut SchemaNode) -> bool {
        let v = &e.value;
        match k {
            Keyword::Ref => {
                let Some(target) = self.string(k, v) else {
                    return false;
                };
                let (name, local) = match (ref_type_name(&target), local_def_name(&target)) {
                    (Some(name), _) => (name.to_string(), false),
                    (None, Some(name)) => (name, true),
                    (None, None) => {
                        self.push(
                            Diagnostic::new(
                                Code::UnresolvedRef,
                                format!(
                                    "`$ref: {target:?}` is neither a named type nor a definition of this schema"
                                ),
                            )
                            .at(v.span)
                            .help(format!(
                                "refer to named types as `{TYPE_REF_PREFIX}Name` (defined under `types:`), or to the schema's own definitions as `#/$defs/Name`"
                            )),
                        );
                        return false;
                    }
                };
                out.reference = Some(Box::new(TypeRef {
                    name,
                    written: target,
                    local,
                    target: None,
                    span: v.span,
                }));
                true
            }
            Keyword::Type => self.types(v, out),
            Keyword::Nullable => self.boolean(k, v).map(|b| out.nullable = Some(b)).is_some(),
            Keyword::Enum => match &v.value {
                NodeValue::Seq(items) if !items.is_empty() => {
                    out.enum_values = Some(Box::new(data(v)));
                    true
                }
                NodeValue::Seq(_) => {
                    self.push(invalid(
                        "`enum` must list at least one value: an empty `enum` accepts nothing",
                        v.span,
                        "list the values allowed",
                    ));
                    false
                }
                _ => {
                    self.push(invalid(
                        format!("`enum` must be a list of values, found {}", found(v)),
                        v.span,
                        "write `enum: [a, b]`; for one value, `const: a`",
                    ));
                    false
                }
            },
            Keyword::Const => {
                out.const_value = Some(Box::new(data(v)));
                true
            }
            Keyword::Default => {
                out.default = Some(Box::new(data(v)));
                true
            }
            Keyword::Examples => match &v.value {
                NodeValue::Seq(_) => {
                    out.examples = Some(Box::new(data(v)));
                    true
                }
                _ => {
                    self.push(invalid(
                        format!("`examples` must be a list of values, found {}", found(v)),
                        v.span,
                        "write `examples: [a, b]`",
                    ));
                    false
                }
            },
            Keyword::Title => self.string(k, v).map(|s| out.title = Some(s)).is_some(),
            Keyword::Description => self
                .string(k, v)
                .map(|s| out.description = Some(s))
                .is_some(),
            Keyword::Comment
            | Keyword::SchemaDialect
            | Keyword::Id
            | Keyword::ContentEncoding
            | Keyword::ContentMediaType => self
                .string(k, v)
                .map(|s| out.annotations.push((k, s)))
                .is_some(),
            Keyword::Format => self.string(k, v).map(|s| out.format = Some(s)).is_some(),
            Keyword::Pattern => self.string(k, v).map(|s| out.pattern = Some(s)).is_some(),
            Keyword::Deprecated => self
                .boolean(k, v)
                .map(|b| out.deprecated = Some(b))
                .is_some(),
            Keyword::ReadOnly => self
                .boolean(k, v)
                .map(|b| out.read_only = Some(b))
                .is_some(),
            Keyword::WriteOnly => self
                .boolean(k, v)
                .map(|b| out.write_only = Some(b))
                .is_some(),
            Keyword::UniqueItems => self
                .boolean(k, v)
                .map(|b| out.unique_items = Some(b))
                .is_some(),
            Keyword::Sensitive => self
                .boolean(k, v)
                .map(|b| out.sensitive = Some(b))
                .is_some(),
            Keyword::Minimum => self.number(k, v).map(|n| out.minimum = Some(n)).is_some(),
            Keyword::Maximum => self.number(k, v).map(|n| out.maximum = Some(n)).is_some(),
            Keyword::ExclusiveMinimum => self
                .number(k, v)
                .map(|n| out.exclusive_minimum = Some(n))
                .is_some(),
            Keyword::ExclusiveMaximum => self
                .number(k, v)
                .map(|n| out.exclusive_maximum = Some(n))
                .is_some(),
            Keyword::MultipleOf => match self.number(k, v) {
                Some(n) if n.as_f64().is_some_and(|f| f > 0.0) => {
                    out.multiple_of = Some(n);
                    true
                }
                Some(n) => {
                    self.push(invalid(
                        format!("`multipleOf` must be greater than 0, found {n}"),
                        v.span,
                        "write a positive number, such as `multipleOf: 0.01`",
                    ));
                    false
                }
                None => false,
            },
            Keyword::MinLength => self.count(k, v).map(|n| out.min_length = Some(n)).is_some(),
            Keyword::MaxLength => self.count(k, v).map(|n| out.max_length = Some(n)).is_some(),
            Keyword::MinItems => self.count(k, v).map(|n| out.min_items = Some(n)).is_some(),
            Keyword::MaxItems => self.count(k, v).map(|n| out.max_items = Some(n)).is_some(),
            Keyword::Required => {
                let NodeValue::Seq(items) = &v.value else {
                    self.push(invalid(
                        format!("`required` must be a list of property names, found {}", found(v)),
                        v.span,
                        "write `required: [name, other]`; in JSON Schema 2020-12 `required` belongs to the object, not to a property",
                    ));
                    return false;
                };
                for item in items {
                    match item.as_str() {
                        Some(name) if out.required.iter().any(|r| r.name == name) => {
                            self.push(invalid(
                                format!("`required` lists `{name}` twice"),
                                item.span,
                                "remove the second entry",
                            ))
                        }
                        Some(name) => out.required.push(Required {
                            name: name.to_string(),
                            span: item.span,
                        }),
                        None => self.push(invalid(
                            format!("`required` lists {}, not a property name", found(item)),
                            item.span,
                            "list property names as strings",
                        )),
                    }
                }
                true
            }
            Keyword::DependentRequired => self.dependent_required(v, out),
            Keyword::Discriminator => self.discriminator(v, out),
            Keyword::RustType => match v.as_str() {
                Some("json") => {
                    out.rust_type = Some(RustTypeHint::Json);
                    true
                }
                _ => {
                    self.push(invalid(
                        format!("`x-rust-type` must be `json`, found {}", show(v)),
                        v.span,
                        "`x-rust-type: json` keeps the value as free-form JSON in Rust",
                    ));
                    false
                }
            },
            // Unsupported keywords never reach here.
            _ => false,
        }
    }

    /// `dependentRequired`: a mapping of property names to lists of distinct property names.
    #[inline(never)]
    fn dependent_required(&mut self, v: &Node, out: &mut SchemaNode) -> bool {
        let Some(entries) = v.as_map() else {
            self.push(invalid(
                format!(
                    "`dependentRequired` must map property names to lists of names, found {}",
                    found(v)
                ),
                v.span,
                "write `dependentRequired: {card: [billing_address]}`: with `card`, `billing_address` is required",
            ));
            return false;
        };
        let mut ok = true;
        for e in entries {
            let NodeValue::Seq(items) = &e.value.value else {
                self.push(invalid(
                    format!(
                        "`dependentRequired` must give `{}` a list of property names, found {}",
                        e.key,
                        found(&e.value)
                    ),
                    e.value.span,
                    format!("write `{}: [name, other]`", e.key),
                ));
                ok = false;
                continue;
            };
            let mut required: Vec<String> = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str() {
                    Some(name) if required.iter().any(|r| r == name) => {
                        self.push(invalid(
                            format!("`dependentRequired` lists `{name}` twice for `{}`", e.key),
                            item.span,
                            "remove the second entry",
                        ));
                        ok = false;
                    }
                    Some(name) => required.push(name.to_string()),
                    None => {
                        self.push(invalid(
                            format!(
                                "`dependentRequired` lists {}, not a property name",
                                found(item)
                            ),
                            item.span,
                            "list property names as strings",
                        ));
                        ok = false;
                    }
                }
            }
            out.dependent_required.push(Dependency {
                name: e.key.clone(),
                required,
                span: e.key_span,
            });
        }
        if !ok {
            out.dependent_required.clear();
        }
        ok
    }

    /// OpenAPI's `discriminator`: `propertyName` (a string), and optionally `mapping` (values
    /// to schema references), `defaultMapping` (a reference) and `x-` extension keys.
    #[inline(never)]
    fn discriminator(&mut self, v: &Node, out: &mut SchemaNode) -> bool {
        const HELP: &str = "write `discriminator: {propertyName: kind, mapping: {a: \"#/$defs/A\"}}`, or remove it";
        let Some(entries) = v.as_map() else {
            self.push(invalid(
                format!(
                    "`discriminator` must be a mapping with `propertyName`, found {}",
                    found(v)
                ),
                v.span,
                HELP,
            ));
            return false;
        };
        let mut property_name = None;
        let mut ok = true;
        for e in entries {
            let well_formed = match e.key.as_str() {
                "propertyName" => match e.value.as_str() {
                    Some(name) => {
                        property_name = Some(name.to_string());
                        true
                    }
                    None => false,
                },
                "defaultMapping" => e.value.as_str().is_some(),
                "mapping" => e
                    .value
                    .as_map()
                    .is_some_and(|m| m.iter().all(|x| x.value.as_str().is_some())),
                key if key.starts_with(super::keyword::EXTENSION_PREFIX) => true,
                key => {
                    self.push(invalid(
                        format!(
                            "`{key}` is not a key of `discriminator`, which takes `propertyName`, `mapping` and `defaultMapping`"
                        ),
                        e.key_span,
                        HELP,
                    ));
                    ok = false;
                    continue;
                }
            };
            if !well_formed {
                let what = if e.key == "mapping" {
                    "a mapping of values to schema references (strings)"
                } else {
                    "a string"
                };
                self.push(invalid(
                    format!(
                        "`discriminator.{}` must be {what}, found {}",
                        e.key,
                        show(&e.value)
                    ),
                    e.value.span,
                    HELP,
                ));
                ok = false;
            }
        }
        let Some(property_name) = property_name.filter(|_| ok) else {
            if ok {
                self.push(invalid(
                    "`discriminator` has no `propertyName`",
                    v.span,
                    "name the property that tells the branches apart: `propertyName: kind`",
                ));
            }
            return false;
        };
        out.discriminator = Some(Box::new(Discriminator {
            property_name,
            written: data(v),
        }));
        true
    }

    fn types(&mut self, v: &Node, out: &mut SchemaNode) -> bool {
        let (names, as_list): (Vec<&Node>, bool) = match &v.value {
            NodeValue::String(_) => (vec![v], false),
            NodeValue::Seq(items) if !items.is_empty() => (items.iter().collect(), true),
            _ => {
                self.push(invalid(
                    format!(
                        "`type` must be a type name or a list of them, found {}",
                        show(v)
                    ),
                    v.span,
                    "write `type: string`, or `type: [string, \"null\"]`",
                ));
                return false;
            }
        };
        let mut types = Vec::new();
        for n in names {
            let Some(s) = n.as_str() else {
                self.push(invalid(
                    format!("`type` lists {}, not a type name", found(n)),
                    n.span,
                    "list type names as strings",
                ));
                continue;
            };
            match JsonType::parse(s) {
                Some(t) if types.contains(&t) => self.push(invalid(
                    format!("`type` lists `{s}` twice"),
                    n.span,
                    "remove the second entry",
                )),
                Some(t) => types.push(t),
                None => {
                    let help = match did_you_mean(s, JsonType::ALL.map(JsonType::as_str)) {
                        Some(m) => format!("did you mean `{m}`?"),
                        None => {
                            "the types are null, boolean, integer, number, string, array and object"
                                .to_string()
                        }
                    };
                    self.push(invalid(format!("`{s}` is not a JSON type"), n.span, help));
                }
            }
        }
        if types.is_empty() {
            return false;
        }
        out.types = types;
        out.types_as_list = as_list;
        true
    }
}

/// The definition a local `$ref` names: `#/$defs/Name` or `#/definitions/Name`
/// (a JSON pointer token, `~0`/`~1` unescaped).
fn local_def_name(target: &str) -> Option<String> {
    let rest = target
        .strip_prefix("#/$defs/")
        .or_else(|| target.strip_prefix("#/definitions/"))?;
    if rest.is_empty() || rest.contains('/') {
        return None;
    }
    Some(rest.replace("~1", "/").replace("~0", "~"))
}

/// A value as it reads in a message: scalars shown, others by kind.
fn show(v: &Node) -> String {
    match &v.value {
        NodeValue::Number(n) => format!("`{n}`"),
        NodeValue::String(s) => format!("{s:?}"),
        NodeValue::Bool(b) => format!("`{b}`"),
        _ => found(v).to_string(),
    }
}

/// Links every `$ref` under `root`: `#/types/Name` to the named type,
/// `#/$defs/Name` to the root's own definition; a name nothing has is
/// `unresolved-ref` with a "did you mean". Named types must all be
/// registered first. `what` names the schema in messages ("type `Ticket`").
pub fn link(schemas: &mut Schemas, root: SchemaId, what: &str, diags: &mut Vec<Diagnostic>) {
    let mut refs = Vec::new();
    schemas.walk(root, &mut |id, _| {
        if schemas.get(id).reference.is_some() {
            refs.push(id);
        }
    });
    let defs = schemas.get(root).defs.clone();
    for id in refs {
        let Some(r) = &schemas.get(id).reference else {
            continue;
        };
        let (name, span, local) = (r.name.clone(), r.span, r.local);
        let target = if local {
            defs.iter().find(|d| d.name == name).map(|d| d.schema)
        } else {
            schemas.named(&name)
        };
        match target {
            Some(target) => {
                if let Some(r) = &mut schemas.get_mut(id).reference {
                    r.target = Some(target);
                }
            }
            None if local => {
                let mut d = Diagnostic::new(
                    Code::UnresolvedRef,
                    format!(
                        "{what} refers to its definition `{name}`, which its `$defs` does not hold"
                    ),
                )
                .at(span);
                d = match did_you_mean(&name, defs.iter().map(|d| d.name.as_str())) {
                    Some(s) => d.help(format!("did you mean `#/$defs/{s}`?")),
                    None => d.help("define it under the `$defs` at the schema's root"),
                };
                diags.push(d);
            }
            None => {
                let mut d = Diagnostic::new(
                    Code::UnresolvedRef,
                    format!("{what} refers to type `{name}`, which is not defined"),
                )
                .at(span);
                let names: Vec<&str> = schemas.named_types().map(|(n, _)| n).collect();
                d = match did_you_mean(&name, names.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{TYPE_REF_PREFIX}{s}`?")),
                    None => d.help("define it under `types:`, or fix the name"),
                };
                diags.push(d);
            }
        }
    }
}

/// Makes the definitions of `root`'s own `$defs` definitions of the
/// toolset: each is named as written, unless another definition has the
/// name already (then a number follows it), and two identical definitions
/// (their text and that of every definition they reach) are one. The local
/// `$ref`s of the tree then point at the toolset's definitions.
pub fn promote(schemas: &mut Schemas, root: SchemaId) {
    let defs = schemas.get(root).defs.clone();
    if defs.is_empty() {
        return;
    }
    let mut renamed: std::collections::BTreeMap<String, String> = Default::default();
    for d in &defs {
        let key = closure_key(schemas, root, d.schema);
        let mut candidate = d.name.clone();
        let mut n = 2;
        loop {
            match schemas.named(&candidate) {
                None => {
                    schemas.name_local(&candidate, d.schema, key);
                    break;
                }
                Some(_) if schemas.local_key(&candidate) == Some(key.as_str()) => break,
                Some(_) => {
                    candidate = format!("{}{n}", d.name);
                    n += 1;
                }
            }
        }
        renamed.insert(d.name.clone(), candidate);
    }
    let mut refs = Vec::new();
    schemas.walk(root, &mut |id, _| {
        if schemas.get(id).reference.as_ref().is_some_and(|r| r.local) {
            refs.push(id);
        }
    });
    for id in refs {
        let Some(written) = schemas
            .get(id)
            .reference
            .as_ref()
            .and_then(|r| local_def_name(&r.written))
        else {
            continue;
        };
        let Some(name) = renamed.get(&written) else {
            continue;
        };
        let target = schemas.named(name);
        if let Some(r) = &mut schemas.get_mut(id).reference {
            r.name = name.clone();
            if target.is_some() {
                r.target = target;
            }
        }
    }
}

/// What makes a local definition the same as another: its JSON and that of
/// every local definition it reaches, as written.
fn closure_key(schemas: &Schemas, root: SchemaId, def: SchemaId) -> String {
    let defs = &schemas.get(root).defs;
    let mut seen = std::collections::BTreeSet::new();
    let mut pending = vec![def];
    let mut parts = std::collections::BTreeMap::new();
    while let Some(id) = pending.pop() {
        if !seen.insert(id) {
            continue;
        }
        let text = schemas.to_json(id, super::RefStyle::Types).to_string();
        let name = defs
            .iter()
            .find(|d| d.schema == id)
            .map_or(String::new(), |d| d.name.clone());
        parts.insert(name, text);
        schemas.walk(id, &mut |n, _| {
            if let Some(r) = &schemas.get(n).reference
                && r.local
                && let Some(w) = local_def_name(&r.written)
                && let Some(d) = defs.iter().find(|d| d.name == w)
            {
                pending.push(d.schema);
            }
        });
    }
    serde_json::to_string(&parts).unwrap_or_default()
}

/// A schema from JSON, with no spans: for schemas toolc makes itself and
/// for tests. Problems are returned, not located.
pub fn from_json(schemas: &mut Schemas, v: &Value, span: Span) -> (SchemaId, Vec<Diagnostic>) {
    let node = Node::from_json(v, span);
    let mut diags = Vec::new();
    let id = Reader::new(schemas, &mut diags).read(&node);
    (id, diags)
}
