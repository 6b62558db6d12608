//! The Rust type plan, decided during resolve: which Rust type each schema
//! becomes, the structs and enums generated for it, the identifiers of their
//! fields and variants, where recursion needs a `Box`, and the value of every
//! default. Everything that can go wrong with it (a construct with no Rust
//! type, two properties with one field name, a default the type cannot hold)
//! is a located diagnostic here, so `toolc check` reports it and emission
//! cannot fail.

mod literal;
mod plan;
mod variants;

pub use literal::Lit;
pub use plan::{added_integer_bounds, field_ident, integer_range, plan};
pub use variants::variant_idents;

use std::collections::BTreeSet;

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
    /// A tuple, for `prefixItems` of a fixed length.
    Tuple(Vec<Ty>),
    Map(Box<Ty>),
    /// A map keyed by an enum (`propertyNames` with an `enum`): key, value.
    EnumMap(Box<Ty>, Box<Ty>),
    Option(Box<Ty>),
    Box(Box<Ty>),
    /// A named type of the toolset (`types::X`).
    Shared(String),
    /// A type generated in the current module.
    Local(String),
}

impl Ty {
    pub fn is_option(&self) -> bool {
        matches!(self, Ty::Option(_))
    }
}

/// A field of a generated struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub ident: String,
    /// The JSON property name.
    pub name: String,
    /// The property's schema.
    pub schema: crate::model::schema::SchemaId,
    pub ty: Ty,
    pub doc: Option<String>,
    /// Required by the schema: always present (maybe `null`).
    pub required: bool,
    /// The value used when the property is absent.
    pub default: Option<Lit>,
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
    /// A string enum: (variant, wire value).
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
#[derive(Debug, Clone, Default, PartialEq)]
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

    /// The item called `name`.
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name() == name)
    }

    pub(crate) fn unique(&mut self, hint: &str) -> String {
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

/// The Rust types of one tool's parameters (`None` when it takes none) and
/// result.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    pub params: Option<Ty>,
    pub returns: Ty,
}

/// The module of one toolbox or playbook.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupPlan {
    pub module: Module,
    /// One per tool or play, in manifest order.
    pub ops: Vec<Signature>,
}

/// The whole plan: the named types' module and one module per toolbox and
/// playbook (in the toolset's order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RustPlan {
    pub types: Module,
    /// Each definition (named type, or a schema's own definition) → its Rust
    /// name in the `types` module.
    pub type_names: std::collections::BTreeMap<String, String>,
    pub toolboxes: Vec<GroupPlan>,
    pub playbooks: Vec<GroupPlan>,
}

impl RustPlan {
    /// Every generated type name, with its module (`types`, or the toolbox
    /// or playbook name): what extra attributes can select.
    pub fn type_names<'a>(
        &'a self,
        set: &'a super::Toolset,
    ) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let types = self.types.items.iter().map(|i| ("types", i.name()));
        let groups = set
            .toolboxes
            .iter()
            .map(|t| t.name.as_str())
            .zip(&self.toolboxes)
            .chain(
                set.playbooks
                    .iter()
                    .map(|p| p.name.as_str())
                    .zip(&self.playbooks),
            )
            .flat_map(|(m, g)| g.module.items.iter().map(move |i| (m, i.name())));
        types.chain(groups)
    }
}
