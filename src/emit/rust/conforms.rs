//! Checks compiled per type: for each generated type, an impl of the runtime's
//! `codegen::Conforms`, and for each tool a check of its result type, that vouch for a value's
//! text without writing it, and one of its parameters type, that vouches for argument text
//! the type's own `Deserialize` read in full (see the runtime's `conforms` module).
//!
//! A check is a sufficient condition, read off the Rust plan and the schema node each type and
//! field was made from: what the type's `Serialize` writes has the structure the node asks for
//! by construction (a struct writes its fields, a required one always, an enum one of its
//! values), so only what the type cannot hold is checked on the value: bounds, lengths,
//! formats, counts of items, finite floats. Whatever the checks here do not know (a keyword
//! beyond those, unions, maps, tuples, typed formats, a type given attributes by the build
//! script that may change what it writes) makes the check answer `false`, and the contract
//! writes and validates that result as before.
//!
//! Arguments are vouched for by the same checks when what the parameters type reads is all the
//! text says: the runtime reads them with the type's own `Deserialize` and takes that reading
//! only when no struct on the way skipped a key or read an absent required field as `None`. A
//! type that reaches a JSON value (which reads a key given twice) or a required field with a
//! default (read when absent) is not vouched for that way: its arguments are validated as they
//! are read.

use super::items::{Paths, ty_tokens};
use crate::model::rust::{Field, Item, Module, Ty};
use crate::model::schema::integer_limits;
use crate::model::schema::{JsonType, Keyword, SchemaId, SchemaNode, Schemas};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

/// What the checks of every module read.
#[derive(Clone, Copy)]
pub(super) struct Inputs<'a> {
    pub schemas: &'a Schemas,
    /// The named types' module.
    pub types: &'a Module,
    /// Some attribute rule of the build script puts on types attributes that may change what
    /// they write (`may_change_writing`): no item's check is taken for granted then.
    pub rewriting_rules: bool,
}

impl<'a> Inputs<'a> {
    /// The checks of `module`, whose types are named from it by `paths`.
    pub fn of(self, module: &'a Module, paths: &'a Paths<'a>) -> Conformance<'a> {
        Conformance {
            inputs: self,
            module,
            paths,
            items: OnceCell::new(),
            shared: OnceCell::new(),
        }
    }
}

/// What the checks of one module read.
pub(super) struct Conformance<'a> {
    inputs: Inputs<'a>,
    /// The module being generated, where `Ty::Local` items are.
    module: &'a Module,
    paths: &'a Paths<'a>,
    /// The items of the module and of the named types' module by name, made when first asked:
    /// a module of thousands of tools has thousands of items.
    items: OnceCell<[HashMap<&'a str, &'a Item>; 2]>,
    /// The checks of the named types' module, for its items' own checks; made when first asked.
    shared: OnceCell<Box<Conformance<'a>>>,
}

/// Where a type's items are: the module being generated (`Ty::Local`) or the named types'
/// (`Ty::Shared`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Home {
    Local,
    Shared,
}

fn trait_path() -> TokenStream {
    quote!(::toolc_runtime::codegen::Conforms)
}

/// A value a check reads: a field of `self` (a place of type `T`), or a variable bound to a
/// `&T` by a closure or a pattern.
enum Place {
    Field(TokenStream),
    Ref(proc_macro2::Ident),
}

impl Place {
    /// A `&T`.
    fn reference(&self) -> TokenStream {
        match self {
            Place::Field(p) => quote!(&#p),
            Place::Ref(x) => quote!(#x),
        }
    }

    /// What a method is called on (auto-deref does the rest).
    fn receiver(&self) -> TokenStream {
        match self {
            Place::Field(p) => quote!(#p),
            Place::Ref(x) => quote!(#x),
        }
    }

    /// The value, for a `Copy` type.
    fn value(&self) -> TokenStream {
        match self {
            Place::Field(p) => quote!(#p),
            Place::Ref(x) => quote!(*#x),
        }
    }

    /// The value's own `Conforms` impl.
    fn own(&self) -> Check {
        Check::Own {
            reference: self.reference(),
            bare: matches!(self, Place::Ref(_)),
        }
    }

    /// The own `Conforms` impl of the value inside a `Box<T>` this place holds.
    fn own_unboxed(&self) -> Check {
        let reference = match self {
            Place::Field(p) => quote!(&*#p),
            Place::Ref(x) => quote!(&**#x),
        };
        Check::Own {
            reference,
            bare: false,
        }
    }
}

impl<'a> Conformance<'a> {
    /// Whether `item`, an item of the module, needs a `Conforms` impl: every type but a string
    /// enum whose values need no check (a check of a value of one is `true`, never a call).
    pub fn needs_impl(&self, item: &Item) -> bool {
        !self.plain_enum(Home::Local, item.name())
    }

    /// The `Conforms` impl of `item`, a type results are written from or arguments read into;
    /// `rewritten`: the build script put attributes on it that may change what it writes or
    /// reads.
    pub fn item_impl(&self, item: &Item, rewritten: bool) -> TokenStream {
        let name = super::idents::ident(item.name());
        let check = if rewritten {
            None
        } else {
            self.item_check(self.module, item)
        };
        let deprecated =
            matches!(item, Item::Struct { fields, .. } if fields.iter().any(|f| f.deprecated))
                .then(|| quote!(#[allow(deprecated)]));
        let body = check.map_or_else(|| quote!(false), Check::tokens);
        let path = trait_path();
        quote! {
            #deprecated
            impl #path for #name {
                fn conforms(&self) -> bool {
                    #body
                }
            }
        }
    }

    /// The check of a tool's result, of type `ty` made from node `id`: a function the
    /// dispatcher binds, or the runtime's `unvouched` when nothing can be vouched for.
    pub fn result_check(&self, ty: &Ty, id: Option<SchemaId>) -> TokenStream {
        self.check_fn("result", ty, id)
            .unwrap_or_else(|| quote!(::toolc_runtime::codegen::unvouched))
    }

    /// The check of a tool's arguments, read into `ty` (made from node `id`) by its own
    /// `Deserialize`: `Some` function the dispatcher binds when what `ty` reads is all the
    /// text says (see the module's docs), else `None`.
    pub fn arguments_check(&self, ty: &Ty, id: SchemaId) -> TokenStream {
        let check = self
            .reads_in_full(Home::Local, ty, &mut HashSet::new())
            .then(|| self.check_fn("params", ty, Some(id)))
            .flatten();
        match check {
            Some(check) => quote!(::std::option::Option::Some(#check)),
            None => quote!(::std::option::Option::None),
        }
    }

    /// A function from `&T` (`ty`) to whether the value at `id` is vouched for, its argument
    /// named `var`; `None` when nothing can be.
    fn check_fn(&self, var: &str, ty: &Ty, id: Option<SchemaId>) -> Option<TokenStream> {
        let x = format_ident!("{var}");
        let check = self.value(&Place::Ref(x.clone()), ty, id?, 0)?;
        let t = ty_tokens(ty, self.paths);
        Some(match check {
            Check::Always => quote!(|_: &#t| true),
            Check::Own { bare: true, .. } => {
                let path = trait_path();
                quote!(<#t as #path>::conforms)
            }
            c => {
                let c = c.tokens();
                quote!(|#x: &#t| #c)
            }
        })
    }

    /// Whether what `ty` (whose local items are in `home`) reads of JSON text is all the text
    /// says, but for what the runtime's reading watches for (a key skipped, an absent
    /// required field read as `None`): no JSON value, which reads a key given twice and any
    /// depth, and no required field with a default, which reads its absence. Items in `seen`
    /// are being answered already.
    fn reads_in_full(&self, home: Home, ty: &Ty, seen: &mut HashSet<(Home, String)>) -> bool {
        match ty {
            Ty::String | Ty::Bool | Ty::I32 | Ty::I64 | Ty::U32 | Ty::U64 | Ty::F64 => true,
            Ty::Option(inner) | Ty::Vec(inner) | Ty::Box(inner) => {
                self.reads_in_full(home, inner, seen)
            }
            Ty::Local(name) => self.item_reads_in_full(home, name, seen),
            Ty::Shared(name) => self.item_reads_in_full(Home::Shared, name, seen),
            // Maps read a key given twice too; the rest have no check.
            Ty::Json | Ty::Map(_) | Ty::EnumMap(..) | Ty::Tuple(_) | Ty::Unit | Ty::Format(_) => {
                false
            }
        }
    }

    fn item_reads_in_full(
        &self,
        home: Home,
        name: &str,
        seen: &mut HashSet<(Home, String)>,
    ) -> bool {
        if !seen.insert((home, name.to_owned())) {
            return true;
        }
        let Some(item) = self.item(home, name) else {
            return false;
        };
        // A type whose own check is `false` would make every call read the text twice.
        if !self.may_hold(home, item) {
            return false;
        }
        match item {
            Item::Struct { fields, .. } => fields.iter().all(|f| {
                !(f.required && f.default.is_some()) && self.reads_in_full(home, &f.ty, seen)
            }),
            Item::Newtype { ty, .. } => self.reads_in_full(home, ty, seen),
            Item::Enum { .. } => true,
            _ => false,
        }
    }

    /// Whether the check of `item`, an item of `home`, may hold: its impl is not `false`.
    fn may_hold(&self, home: Home, item: &Item) -> bool {
        match home {
            Home::Local => self.item_check(self.module, item).is_some(),
            Home::Shared => {
                let types = self
                    .shared
                    .get_or_init(|| Box::new(self.inputs.of(self.inputs.types, self.paths)));
                types.item_check(self.inputs.types, item).is_some()
            }
        }
    }

    /// The item called `name` in `home`.
    fn item(&self, home: Home, name: &str) -> Option<&'a Item> {
        let [local, shared] = self.items.get_or_init(|| {
            let index = |m: &'a Module| m.items.iter().map(|i| (i.name(), i)).collect();
            [index(self.module), index(self.inputs.types)]
        });
        match home {
            Home::Local => local.get(name).copied(),
            Home::Shared => shared.get(name).copied(),
        }
    }

    /// The check of `item`, an item of `module`.
    fn item_check(&self, module: &Module, item: &Item) -> Option<Check> {
        let id = *module.origins.get(item.name())?;
        let n = self.inputs.schemas.get(id);
        match item {
            Item::Struct {
                fields,
                extra: None,
                ..
            } => {
                if !admits(n, JsonType::Object, &[]) {
                    return None;
                }
                // Every required property is a field, and a required field is always written.
                if !n
                    .required_names()
                    .all(|r| fields.iter().any(|f| f.name == r && f.required))
                {
                    return None;
                }
                let checks = fields
                    .iter()
                    .map(|f| self.field(f))
                    .collect::<Option<Vec<_>>>()?;
                Some(all(checks))
            }
            Item::Enum { variants, .. } => {
                let listed = n.enum_values.as_ref()?.value.as_array()?;
                let each_listed = variants
                    .iter()
                    .all(|(_, value)| listed.iter().any(|l| l.as_str() == Some(value.as_str())));
                // Nothing but the listed values may constrain them (no length, no format).
                let only_listed = !n
                    .keywords()
                    .any(|k| read_beside(JsonType::String).contains(&k));
                (each_listed && only_listed && admits(n, JsonType::String, &[Keyword::Enum]))
                    .then_some(Check::Always)
            }
            // A value that always holds one of its own type (a `Box` not under an `Option` or
            // a `Vec`) cannot be made, and checking it would recurse without end.
            Item::Newtype { ty: Ty::Box(_), .. } => None,
            Item::Newtype { ty, .. } => self.value(&Place::Field(quote!(self.0)), ty, id, 0),
            Item::Struct { .. }
            | Item::Tagged { .. }
            | Item::Untagged { .. }
            | Item::Tuple { .. } => None,
        }
    }

    /// Whether `name` in `home` is a string enum whose every value its schema lists: its
    /// values need no check at all.
    fn plain_enum(&self, home: Home, name: &str) -> bool {
        let module = match home {
            Home::Local => self.module,
            Home::Shared => self.inputs.types,
        };
        !self.inputs.rewriting_rules
            && self
                .item(home, name)
                .filter(|i| matches!(i, Item::Enum { .. }))
                .is_some_and(|i| self.item_check(module, i).is_some())
    }

    /// The check of one field of a struct, as its `Serialize` writes it.
    fn field(&self, f: &Field) -> Option<Check> {
        let id = super::idents::ident(&f.ident);
        let place = Place::Field(quote!(self.#id));
        // An optional property without a default is skipped when absent (`None`); otherwise
        // the field is always written, `None` as `null`.
        let skipped = !f.required && f.default.is_none();
        match &f.ty {
            // As a newtype of a `Box` above.
            Ty::Box(_) => None,
            Ty::Option(inner) if skipped => {
                let x = format_ident!("x0");
                let some = self.value(&Place::Ref(x.clone()), inner, f.schema, 1)?;
                Some(none_or(&place, &x, some))
            }
            ty => self.value(&place, ty, f.schema, 0),
        }
    }

    /// The check of the value at `v`, of type `ty`, against node `id`; `depth` names the
    /// variables of nested closures apart.
    fn value(&self, v: &Place, ty: &Ty, id: SchemaId, depth: usize) -> Option<Check> {
        let n = self.inputs.schemas.get(id);
        match n.boolean {
            Some(true) => return Some(Check::Always),
            Some(false) => return None,
            None => {}
        }
        if n.reference.is_some() {
            // A named type checks its own node; the reference may add nothing.
            if !n
                .keywords()
                .all(|k| k == Keyword::Ref || k == Keyword::RustType || k.is_annotation())
            {
                return None;
            }
            return match ty {
                Ty::Shared(name) if self.plain_enum(Home::Shared, name) => Some(Check::Always),
                Ty::Shared(_) => Some(v.own()),
                Ty::Box(inner) => match &**inner {
                    Ty::Shared(name) if self.plain_enum(Home::Shared, name) => Some(Check::Always),
                    Ty::Shared(_) => Some(v.own_unboxed()),
                    _ => None,
                },
                _ => None,
            };
        }
        match ty {
            Ty::Box(inner) => match &**inner {
                Ty::Local(name) if self.module.origins.get(name) == Some(&id) => {
                    if self.plain_enum(Home::Local, name) {
                        Some(Check::Always)
                    } else {
                        Some(v.own_unboxed())
                    }
                }
                _ => None,
            },
            Ty::Option(inner) => {
                // `None` is written `null`.
                let x = format_ident!("x{depth}");
                let some = self.value(&Place::Ref(x.clone()), inner, id, depth + 1)?;
                Some(if null_valid(n) {
                    none_or(v, &x, some)
                } else {
                    some_and(v, &x, some)
                })
            }
            Ty::Local(name) if self.module.origins.get(name) == Some(&id) => {
                if self.plain_enum(Home::Local, name) {
                    Some(Check::Always)
                } else {
                    Some(v.own())
                }
            }
            Ty::Local(_) => None,
            Ty::Json => n
                .keywords()
                .all(Keyword::is_annotation)
                .then_some(Check::Always),
            Ty::Bool => admits(n, JsonType::Boolean, &[]).then_some(Check::Always),
            Ty::String => string(v, n),
            Ty::I32 | Ty::I64 | Ty::U32 | Ty::U64 => integer(v, ty, n),
            Ty::F64 => float(v, n),
            Ty::Vec(item) => {
                if !admits(n, JsonType::Array, &[]) || n.unique_items == Some(true) {
                    return None;
                }
                let list = v.receiver();
                let mut checks = vec![count(&list, n.min_items.unwrap_or(0), n.max_items)?];
                if let Some(items) = n.items {
                    let x = format_ident!("x{depth}");
                    let each = self.value(&Place::Ref(x.clone()), item, items, depth + 1)?;
                    match each {
                        Check::Always => {}
                        Check::Own { bare: true, .. } => {
                            let path = trait_path();
                            checks.push(Check::Expr(quote!(#list.iter().all(#path::conforms))));
                        }
                        each => {
                            let each = each.tokens();
                            checks.push(Check::Expr(quote!(#list.iter().all(|#x| #each))));
                        }
                    }
                }
                Some(all(checks))
            }
            // What these write is not read off the type alone; the contract validates it.
            Ty::Shared(_)
            | Ty::Unit
            | Ty::Tuple(_)
            | Ty::Map(_)
            | Ty::EnumMap(..)
            | Ty::Format(_) => None,
        }
    }
}

/// `true` when the `Option` at `v` is `None`, or `some` (which reads the value as `x`) holds.
fn none_or(v: &Place, x: &proc_macro2::Ident, some: Check) -> Check {
    let option = v.receiver();
    match some {
        Check::Always => Check::Always,
        Check::Own { bare: true, .. } => {
            let path = trait_path();
            Check::Expr(quote!(#option.as_ref().is_none_or(#path::conforms)))
        }
        some => {
            let some = some.tokens();
            Check::Expr(quote!(#option.as_ref().is_none_or(|#x| #some)))
        }
    }
}

/// `true` when the `Option` at `v` is `Some` and `some` (which reads the value as `x`) holds.
fn some_and(v: &Place, x: &proc_macro2::Ident, some: Check) -> Check {
    let option = v.receiver();
    Check::Expr(match some {
        Check::Always => quote!(#option.is_some()),
        Check::Own { bare: true, .. } => {
            let path = trait_path();
            quote!(#option.as_ref().is_some_and(#path::conforms))
        }
        some => {
            let some = some.tokens();
            quote!(#option.as_ref().is_some_and(|#x| #some))
        }
    })
}

/// Whether `null` is valid against node `n`, whose other keywords a check reads on the values
/// that are not `null`: the node admits `null`, and lists it when it lists values.
fn null_valid(n: &SchemaNode) -> bool {
    let listed = n
        .enum_values
        .as_ref()
        .is_none_or(|e| e.value.as_array().is_some_and(|l| l.contains(&Value::Null)));
    n.says_nullable() && listed && n.const_value.is_none()
}

/// The keywords a check reads beside a value written as JSON type `t`.
fn read_beside(t: JsonType) -> &'static [Keyword] {
    match t {
        JsonType::Object => &[
            Keyword::Properties,
            Keyword::Required,
            Keyword::AdditionalProperties,
        ],
        JsonType::Array => &[
            Keyword::Items,
            Keyword::MinItems,
            Keyword::MaxItems,
            Keyword::UniqueItems,
        ],
        JsonType::String => &[Keyword::MinLength, Keyword::MaxLength, Keyword::Format],
        JsonType::Integer | JsonType::Number => &[
            Keyword::Minimum,
            Keyword::Maximum,
            Keyword::ExclusiveMinimum,
            Keyword::ExclusiveMaximum,
            Keyword::Format,
        ],
        JsonType::Boolean | JsonType::Null => &[],
    }
}

/// Whether node `n` admits what a value written as JSON type `t` is, with no keyword but
/// `type`, those a check reads beside `t` and `also`, `nullable`, `x-rust-type`, definitions
/// and annotations: `type` absent or naming `t`, and a `format` beside a type other than
/// string one the validator does not assert.
fn admits(n: &SchemaNode, t: JsonType, also: &[Keyword]) -> bool {
    let typed = n.types.is_empty()
        || n.has_type(t)
        || (t == JsonType::Integer && n.has_type(JsonType::Number));
    let known = n.keywords().all(|k| {
        k.is_annotation()
            || matches!(
                k,
                Keyword::Type
                    | Keyword::Nullable
                    | Keyword::RustType
                    | Keyword::Defs
                    | Keyword::Definitions
            )
            || read_beside(t).contains(&k)
            || also.contains(&k)
    });
    let format_asserted = t != JsonType::String
        && n.format
            .as_deref()
            .is_some_and(|f| super::validate::format_variant(f).is_some());
    typed && known && !format_asserted
}

fn string(v: &Place, n: &SchemaNode) -> Option<Check> {
    if !admits(n, JsonType::String, &[]) {
        return None;
    }
    let text = v.reference();
    let mut checks = Vec::new();
    let (min, max) = (n.min_length.unwrap_or(0), n.max_length);
    if min > 0 || max.is_some() {
        let max = max.unwrap_or(u64::MAX);
        checks.push(Check::Expr(quote!(
            ::toolc_runtime::codegen::chars_within(#text, #min, #max)
        )));
    }
    if let Some(f) = n
        .format
        .as_deref()
        .and_then(super::validate::format_variant)
    {
        let f = format_ident!("{f}");
        checks.push(Check::Expr(quote!(
            ::toolc_runtime::codegen::schema::Format::#f.is_valid(#text)
        )));
    }
    Some(all(checks))
}

fn integer(v: &Place, ty: &Ty, n: &SchemaNode) -> Option<Check> {
    if !admits(n, JsonType::Integer, &[]) {
        return None;
    }
    let (least, greatest) = integer_limits(n);
    // A bound beyond any integer type reads as none: vouch for nothing then.
    let has_lower = n.minimum.is_some() || n.exclusive_minimum.is_some();
    let has_upper = n.maximum.is_some() || n.exclusive_maximum.is_some();
    if (has_lower && least.is_none()) || (has_upper && greatest.is_none()) {
        return None;
    }
    // The range of the Rust type the plan gave the node.
    let (lo, hi) = match ty {
        Ty::I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Ty::U32 => (0, i128::from(u32::MAX)),
        Ty::U64 => (0, i128::from(u64::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    let lit = |x: i128| -> Option<Literal> {
        Some(match ty {
            Ty::I32 => Literal::i32_suffixed(i32::try_from(x).ok()?),
            Ty::U32 => Literal::u32_suffixed(u32::try_from(x).ok()?),
            Ty::U64 => Literal::u64_suffixed(u64::try_from(x).ok()?),
            _ => Literal::i64_suffixed(i64::try_from(x).ok()?),
        })
    };
    let (least, greatest) = (least.unwrap_or(lo), greatest.unwrap_or(hi));
    if least > hi || greatest < lo || least > greatest {
        // No value of the type is valid: leave it to the validator to say why.
        return None;
    }
    let value = v.value();
    // One value left, or a bound at the type's own limit: `==`, which reads as what it is.
    if least == greatest {
        let only = lit(least)?;
        return Some(Check::Expr(quote!(#value == #only)));
    }
    if greatest == lo || least == hi {
        let only = lit(if greatest == lo { lo } else { hi })?;
        return Some(Check::Expr(quote!(#value == #only)));
    }
    Some(Check::Expr(match (least > lo, greatest < hi) {
        (true, true) => {
            let (l, g, r) = (lit(least)?, lit(greatest)?, v.reference());
            quote!((#l..=#g).contains(#r))
        }
        (true, false) => {
            let l = lit(least)?;
            quote!(#value >= #l)
        }
        (false, true) => {
            let g = lit(greatest)?;
            quote!(#value <= #g)
        }
        (false, false) => return Some(Check::Always),
    }))
}

fn float(v: &Place, n: &SchemaNode) -> Option<Check> {
    if !admits(n, JsonType::Number, &[]) || !n.has_type(JsonType::Number) {
        return None;
    }
    let (receiver, value) = (v.receiver(), v.value());
    // serde_json writes a float that is not finite as `null`.
    let mut checks = vec![Check::Expr(quote!(#receiver.is_finite()))];
    let bounded = [
        &n.minimum,
        &n.maximum,
        &n.exclusive_minimum,
        &n.exclusive_maximum,
    ]
    .iter()
    .any(|b| b.is_some());
    if bounded {
        // Argument text may hold an integer a float only rounds to (past 2^53), which the
        // validator compares exactly: beside a bound, vouch only below that.
        checks.push(Check::Expr(
            quote!(#receiver.abs() < 9_007_199_254_740_992f64),
        ));
    }
    for (bound, op) in [
        (&n.minimum, quote!(>=)),
        (&n.maximum, quote!(<=)),
        (&n.exclusive_minimum, quote!(>)),
        (&n.exclusive_maximum, quote!(<)),
    ] {
        if let Some(b) = bound {
            // Only a bound a float holds exactly compares alike on both sides.
            let exact = b.is_f64() || b.as_i64().is_some_and(|i| i.unsigned_abs() <= 1 << 53);
            let f = b.as_f64().filter(|_| exact)?;
            let f = Literal::f64_suffixed(f);
            checks.push(Check::Expr(quote!(#value #op #f)));
        }
    }
    Some(all(checks))
}

/// The check of the number of items of `list` (`true` for none).
fn count(list: &TokenStream, min: u64, max: Option<u64>) -> Option<Check> {
    Some(Check::Expr(match (min, max) {
        (0, None) => return Some(Check::Always),
        (1, None) => quote!(!#list.is_empty()),
        (min, None) => {
            let min = usize_lit(min)?;
            quote!(#list.len() >= #min)
        }
        (_, Some(max)) if min > max => return None,
        (0, Some(0)) => quote!(#list.is_empty()),
        (0, Some(max)) => {
            let max = usize_lit(max)?;
            quote!(#list.len() <= #max)
        }
        (1, Some(max)) => {
            let max = usize_lit(max)?;
            quote!(!#list.is_empty() && #list.len() <= #max)
        }
        (min, Some(max)) => {
            let (min, max) = (usize_lit(min)?, usize_lit(max)?);
            quote!((#min..=#max).contains(&#list.len()))
        }
    }))
}

fn usize_lit(n: u64) -> Option<Literal> {
    usize::try_from(n).ok().map(Literal::usize_suffixed)
}

/// Whether attributes a build script put on a type may change what its `Serialize` writes or
/// its `Deserialize` reads: anything but docs, lints and derives of traits other than serde's
/// (a `#[serde(...)]`, an attribute macro such as `#[skip_serializing_none]`, a `cfg_attr` that
/// may hold either).
pub(super) fn may_change_writing(attributes: &TokenStream) -> bool {
    if attributes.is_empty() {
        return false;
    }
    let parser = syn::Attribute::parse_outer;
    let Ok(attrs) = syn::parse::Parser::parse2(parser, attributes.clone()) else {
        return true;
    };
    attrs.iter().any(|a| {
        let path = a.path();
        let harmless = [
            "doc",
            "allow",
            "warn",
            "expect",
            "must_use",
            "non_exhaustive",
        ]
        .iter()
        .any(|h| path.is_ident(h));
        // A derive of a trait of serde's kind (`Serialize`, `SerializeDisplay`,
        // `DeserializeFromStr`, …) writes or reads too.
        let derive = path.is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths.iter().all(|p| {
                    p.segments
                        .last()
                        .is_none_or(|s| !s.ident.to_string().contains("erialize"))
                })
            });
        !(harmless || derive)
    })
}

/// A check, made while it is worked out so that a value needing none, or only its own type's,
/// is known without reading tokens back.
enum Check {
    /// Every value of the type is valid.
    Always,
    /// What the value's own `Conforms` impl answers, given `&T` as `reference`; `bare`: that
    /// reference is a variable of its own, so the impl can stand for a closure over it.
    Own { reference: TokenStream, bare: bool },
    /// A boolean expression.
    Expr(TokenStream),
}

impl Check {
    fn tokens(self) -> TokenStream {
        match self {
            Check::Always => quote!(true),
            Check::Own { reference, .. } => {
                let path = trait_path();
                quote!(#path::conforms(#reference))
            }
            Check::Expr(e) => e,
        }
    }
}

/// The checks joined by `&&`; `Always` for none.
fn all(checks: Vec<Check>) -> Check {
    let checks: Vec<TokenStream> = checks
        .into_iter()
        .filter(|c| !matches!(c, Check::Always))
        .map(Check::tokens)
        .collect();
    if checks.is_empty() {
        Check::Always
    } else {
        Check::Expr(quote!(#(#checks)&&*))
    }
}

#[cfg(test)]
mod tests {
    use super::may_change_writing;
    use proc_macro2::TokenStream;

    fn changes(attributes: &str) -> bool {
        may_change_writing(&attributes.parse::<TokenStream>().expect("tokens"))
    }

    /// Docs, lints and derives of other traits leave what a type writes alone; serde's own
    /// attributes, attribute macros, `cfg_attr` and derives of serde's kind may not.
    #[test]
    fn only_attributes_that_cannot_change_what_a_type_writes_keep_its_check() {
        for kept in [
            "",
            "#[derive(Hash)]",
            "#[derive(Eq, Hash, schemars::JsonSchema)]",
            "#[doc = \"x\"] #[allow(dead_code)]",
        ] {
            assert!(!changes(kept), "{kept}");
        }
        for changed in [
            "#[serde(rename_all = \"camelCase\")]",
            "#[serde_with::skip_serializing_none]",
            "#[skip_serializing_none]",
            "#[cfg_attr(feature = \"x\", serde(rename = \"y\"))]",
            "#[derive(Hash)] #[serde(deny_unknown_fields)]",
            "#[derive(serde_with::SerializeDisplay)]",
            "#[derive(serde_with::DeserializeFromStr)]",
            "#[derive(Hash) x]",
        ] {
            assert!(changes(changed), "{changed}");
        }
    }
}
