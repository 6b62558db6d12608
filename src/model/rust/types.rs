//! The types of the Rust plan: the Rust type each schema becomes, the items
//! and fields generated for it, the literals of defaults, and the plan of a
//! whole toolset.

use crate::model::names::RustIdent;
use serde_json::Value;
use std::collections::BTreeSet;

/// A string `format` that a build can read into a Rust type of its own
/// instead of `String` (typed formats, an opt-in of `toolc.toml` and the
/// build.rs API). The types come from `toolc-runtime`, some behind its
/// features.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypedFormat {
    /// `uuid` → `uuid::Uuid`.
    Uuid,
    /// `date-time` → `chrono::DateTime<chrono::FixedOffset>`.
    DateTime,
    /// `date` → `chrono::NaiveDate`.
    Date,
    /// `email` → `toolc_runtime::formats::Email`.
    Email,
    /// `uri` → `toolc_runtime::formats::Uri`.
    Uri,
}

impl TypedFormat {
    /// Every typed format, in documentation order.
    pub const ALL: [TypedFormat; 5] = [
        TypedFormat::Uuid,
        TypedFormat::DateTime,
        TypedFormat::Date,
        TypedFormat::Email,
        TypedFormat::Uri,
    ];

    /// The `format` keyword's value: `date-time`.
    pub fn as_str(self) -> &'static str {
        match self {
            TypedFormat::Uuid => "uuid",
            TypedFormat::DateTime => "date-time",
            TypedFormat::Date => "date",
            TypedFormat::Email => "email",
            TypedFormat::Uri => "uri",
        }
    }

    /// The typed format a `format` value names, if it is one.
    pub fn parse(name: &str) -> Option<TypedFormat> {
        TypedFormat::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The `toolc-runtime` feature that provides the type, when one does.
    pub fn runtime_feature(self) -> Option<&'static str> {
        match self {
            TypedFormat::Uuid => Some("uuid"),
            TypedFormat::DateTime | TypedFormat::Date => Some("chrono"),
            TypedFormat::Email | TypedFormat::Uri => None,
        }
    }

    /// The Rust type, as documentation names it.
    pub fn rust_type(self) -> &'static str {
        match self {
            TypedFormat::Uuid => "uuid::Uuid",
            TypedFormat::DateTime => "chrono::DateTime<chrono::FixedOffset>",
            TypedFormat::Date => "chrono::NaiveDate",
            TypedFormat::Email => "toolc_runtime::formats::Email",
            TypedFormat::Uri => "toolc_runtime::formats::Uri",
        }
    }
}

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
    /// A string in a typed format.
    Format(TypedFormat),
}

impl Ty {
    pub fn is_option(&self) -> bool {
        matches!(self, Ty::Option(_))
    }

    /// The type inside any `Option` and `Box`.
    pub fn strip(&self) -> &Ty {
        match self {
            Ty::Option(t) | Ty::Box(t) => t.strip(),
            t => t,
        }
    }

    /// Calls `f` on this type and every type inside it.
    pub fn visit(&self, f: &mut dyn FnMut(&Ty)) {
        f(self);
        match self {
            Ty::Vec(t) | Ty::Map(t) | Ty::Option(t) | Ty::Box(t) => t.visit(f),
            Ty::EnumMap(k, v) => {
                k.visit(f);
                v.visit(f);
            }
            Ty::Tuple(ts) => ts.iter().for_each(|t| t.visit(f)),
            _ => {}
        }
    }
}

/// A field of a generated struct.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub ident: crate::model::names::RustIdent,
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
    /// The field's value holds a value its schema marks `sensitive` that its
    /// own type's `Debug` does not mask: the struct's `Debug` prints
    /// `<redacted>` for it.
    pub sensitive: bool,
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
    /// An array read by position (`prefixItems`) whose items are not all always there, or
    /// after whose positions more items may follow: a struct read from and written as an
    /// array, a field per position that can hold an item (`item_0`, …; an `Option` past the
    /// ones `minItems` requires), and `rest` for the items after them when more may follow.
    Tuple {
        name: String,
        doc: Option<String>,
        /// One per position, in order: `name` is the position, `required` whether every
        /// array has an item there.
        items: Vec<Field>,
        /// The type of the items after the positions, when the array may have more.
        rest: Option<Ty>,
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
            | Item::Tuple { doc, .. }
            | Item::Enum { doc, .. }
            | Item::Tagged { doc, .. }
            | Item::Untagged { doc, .. }
            | Item::Newtype { doc, .. } => doc,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Item::Struct { name, .. }
            | Item::Tuple { name, .. }
            | Item::Enum { name, .. }
            | Item::Tagged { name, .. }
            | Item::Untagged { name, .. }
            | Item::Newtype { name, .. } => name,
        }
    }
}

/// A `pub type` a module defines for a type too complex to write out where generated code
/// uses it (see `aliases.rs`): the printer writes the type by this name in the module.
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    pub name: String,
    pub ty: Ty,
    pub doc: String,
}

/// The items generated into one module, with their names kept unique.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    pub items: Vec<Item>,
    /// The module's type aliases, in the order they were made.
    pub aliases: Vec<Alias>,
    /// The items whose value is sensitive as a whole (their schema says
    /// `sensitive: true`, or a part their `Debug` would show does): their
    /// `Debug` prints `Name(<redacted>)`.
    pub sensitive: BTreeSet<String>,
    /// The schema node each struct, string enum and newtype was made from, when one node alone
    /// says what its values are (a struct merged from `allOf` branches has none): what the
    /// checks compiled per result type read (`emit::rust::conforms`).
    pub origins: std::collections::BTreeMap<String, crate::model::schema::SchemaId>,
    names: BTreeSet<String>,
    /// A reserved name the next item with exactly this hint takes as is.
    pub(super) exact: Option<String>,
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

    /// Marks the item `ty` names (a local item) as sensitive as a whole.
    pub(crate) fn mark_sensitive(&mut self, ty: &Ty) {
        if let Ty::Local(name) = ty.strip() {
            self.sensitive.insert(name.clone());
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
    /// The result is sent as it is written (`validate_returns: false` with a `returns`): the
    /// method returns `toolc_runtime::Verbatim<returns>`, which may add keys the schema does
    /// not declare.
    pub verbatim: bool,
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
    /// One per agent (in the toolset's order): the module of its delegates
    /// (empty for an agent without any).
    pub delegates: Vec<GroupPlan>,
}

impl RustPlan {
    /// The typed formats the plan uses anywhere, which decide the runtime
    /// features the generated code needs.
    pub fn typed_formats(&self) -> BTreeSet<TypedFormat> {
        let mut out = BTreeSet::new();
        let mut note = |t: &Ty| {
            if let Ty::Format(f) = t {
                out.insert(*f);
            }
        };
        let modules = std::iter::once(&self.types).chain(
            self.toolboxes
                .iter()
                .chain(&self.playbooks)
                .chain(&self.delegates)
                .map(|g| &g.module),
        );
        for module in modules {
            for item in &module.items {
                match item {
                    Item::Struct { fields, extra, .. } => {
                        fields.iter().for_each(|f| f.ty.visit(&mut note));
                        if let Some(t) = extra {
                            t.visit(&mut note);
                        }
                    }
                    Item::Tagged { variants, .. } => variants
                        .iter()
                        .flat_map(|(_, _, fs)| fs)
                        .for_each(|f| f.ty.visit(&mut note)),
                    Item::Untagged { variants, .. } => {
                        variants.iter().for_each(|(_, t)| t.visit(&mut note))
                    }
                    Item::Tuple { items, rest, .. } => {
                        items.iter().for_each(|f| f.ty.visit(&mut note));
                        if let Some(t) = rest {
                            t.visit(&mut note);
                        }
                    }
                    Item::Newtype { ty, .. } => ty.visit(&mut note),
                    Item::Enum { .. } => {}
                }
            }
        }
        for sig in self
            .toolboxes
            .iter()
            .chain(&self.playbooks)
            .chain(&self.delegates)
            .flat_map(|g| &g.ops)
        {
            if let Some(p) = &sig.params {
                p.visit(&mut note);
            }
            sig.returns.visit(&mut note);
        }
        out
    }
}

/// A Rust value of a generated type.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    Str(String),
    Bool(bool),
    /// An integer of the field's integer type.
    Int(i128),
    Float(f64),
    Unit,
    /// Free-form JSON.
    Json(Value),
    Vec(Vec<Lit>),
    Tuple(Vec<Lit>),
    Map(Vec<(String, Lit)>),
    /// A map keyed by an enum: each key a literal of the enum.
    EnumMap(Vec<(Lit, Lit)>),
    Some(Box<Lit>),
    None,
    Box(Box<Lit>),
    /// A string enum's variant; `ty` is `Shared` or `Local`.
    Enum {
        ty: Ty,
        variant: String,
    },
    /// A struct: every field by identifier, and the map of further properties.
    Struct {
        ty: Ty,
        fields: Vec<(RustIdent, Lit)>,
        extra: Option<Vec<(String, Lit)>>,
    },
    /// A tagged union's variant with its fields.
    Tagged {
        ty: Ty,
        variant: String,
        fields: Vec<(RustIdent, Lit)>,
    },
    /// An untagged union's variant.
    Untagged {
        ty: Ty,
        variant: String,
        value: Box<Lit>,
    },
    Newtype {
        ty: Ty,
        value: Box<Lit>,
    },
    /// A string in a typed format, read at build time.
    Format(FormatLit),
}

/// A default in a typed format, checked against its format and read into
/// the parts its Rust type is built from, so the generated code builds it
/// without parsing (and cannot fail when it runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatLit {
    /// The UUID as one number: `Uuid::from_u128`.
    Uuid(u128),
    /// A calendar date: `NaiveDate::from_ymd_opt`.
    Date { year: i32, month: u32, day: u32 },
    /// An RFC 3339 date-time as chrono holds it: the instant as a UTC date
    /// and time (a leap second is second 59 with `nano` of a billion or
    /// more), and the offset it was written with, in seconds east of UTC.
    DateTime {
        utc: Box<(i32, u32, u32, u32, u32, u32)>,
        nano: u32,
        offset: i32,
    },
    /// An email address, as written.
    Email(String),
    /// A URI, as written.
    Uri(String),
}
