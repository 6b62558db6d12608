//! Names for Rust types too complex to write out: where generated code would write a type
//! that clippy's `type_complexity` lint finds too complex (an open map of open maps of open
//! maps, say, as a field or a handler's result), the module gets a `pub type` alias for it
//! and the code writes the alias instead.
//!
//! The lint scores a type as it is written, where it is written: each path or tuple counts ten
//! times its depth (1 for the outermost), a reference one, and a score past 250 (its default
//! `type-complexity-threshold`) is linted in struct and variant fields, function signatures
//! and closure parameters, but not in type aliases. [`score`] is that count over the tokens the
//! emitter writes for a [`Ty`]. Each place generated code writes a type of the plan is scored
//! with what it writes around the type (a handler's result sits inside
//! `Result<_, HandlerError>`); where the score is past the threshold, the type inside any
//! `Option` and `Box` gets an alias, named after the place as the items inside it are, and the
//! printer writes every occurrence of that type in the module by the alias's name. The places
//! are visited in the module's order, so the same plan gives the same aliases.

use super::{Alias, Field, Item, Module, Ty};
use crate::model::names::pascal_ident;

/// clippy's default `type-complexity-threshold`: a type scoring more is linted.
pub const THRESHOLD: u64 = 250;

/// How clippy's `type_complexity` scores `ty` written at depth `nest` (1 outermost), a type
/// with an alias in `aliases` scoring as the one path it is written as.
pub fn score(ty: &Ty, nest: u64, aliases: &[Alias]) -> u64 {
    if aliases.iter().any(|a| a.ty == *ty) {
        return 10 * nest;
    }
    let own = 10 * nest;
    let inner = |t: &Ty| score(t, nest + 1, aliases);
    match ty {
        Ty::String
        | Ty::Bool
        | Ty::I32
        | Ty::I64
        | Ty::U32
        | Ty::U64
        | Ty::F64
        | Ty::Json
        | Ty::Shared(_)
        | Ty::Local(_)
        // `()`: a tuple of nothing.
        | Ty::Unit => own,
        // `DateTime<FixedOffset>`; the other formats are one path.
        Ty::Format(f) => match f {
            super::TypedFormat::DateTime => own + 10 * (nest + 1),
            _ => own,
        },
        Ty::Vec(t) | Ty::Option(t) | Ty::Box(t) => own + inner(t),
        // `BTreeMap<String, T>`.
        Ty::Map(t) => own + 10 * (nest + 1) + inner(t),
        Ty::EnumMap(k, v) => own + inner(k) + inner(v),
        Ty::Tuple(ts) => own + ts.iter().map(inner).sum::<u64>(),
    }
}

/// Where generated code writes a type, by what it writes around it.
#[derive(Clone, Copy)]
enum Place {
    /// A struct's or variant's field, a newtype's, a function's result (a default), a
    /// parameter by value.
    Bare,
    /// `&T`: a closure's or a refinement's parameter.
    Borrowed,
    /// A handler's result: `impl Future<Output = Result<T, HandlerError>>`.
    Result,
    /// `BTreeMap<String, T>` or `Vec<T>`, written as a field of its own (a struct's flattened
    /// map of other properties, a tuple's `rest`): `extra` is what the collection adds.
    Inside { extra: u64 },
}

impl Place {
    /// The score of `ty` written here.
    fn score(self, ty: &Ty, aliases: &[Alias]) -> u64 {
        match self {
            Place::Bare => score(ty, 1, aliases),
            Place::Borrowed => 1 + score(ty, 1, aliases),
            // `Result` at depth 1, `HandlerError` at 2 beside the type.
            Place::Result => 10 + 20 + score(ty, 2, aliases),
            Place::Inside { extra } => extra + score(ty, 2, aliases),
        }
    }
}

/// The places whose type scores past [`THRESHOLD`] written out: how the type is written there,
/// the type, the alias's name if it gets one, and what the place is, for the alias's docs.
#[derive(Default)]
struct Places(Vec<(Place, Ty, String, String)>);

impl Places {
    /// Notes `ty` written at `place` when it may need an alias; `names` gives the alias's name
    /// and what the place is, made only then. An alias only lowers a score, so a type that fits
    /// written out never needs one.
    fn at(&mut self, place: Place, ty: &Ty, names: impl FnOnce() -> (String, String)) {
        if place.score(ty, &[]) > THRESHOLD {
            let (hint, what) = names();
            self.0.push((place, ty.clone(), hint, what));
        }
    }

    fn field(&mut self, owner: &str, what: &str, f: &Field) {
        self.at(Place::Bare, &f.ty, || {
            let hint = format!("{owner}{}", pascal_ident(&f.name));
            (hint, format!("field `{}` of {what}", f.ident.word()))
        });
    }
}

/// Gives `module` an alias for each type a place of its items writes (and each of `sigs`: a
/// tool's name, its name in PascalCase, and its parameters and result types) that would score
/// past [`THRESHOLD`], the places taken in the module's order.
pub(super) fn name_complex_types(module: &mut Module, sigs: &[(&str, &str, Option<&Ty>, &Ty)]) {
    let mut places = Places::default();
    for item in &module.items {
        match item {
            Item::Struct {
                name,
                fields,
                extra,
                ..
            } => {
                let what = format!("`{name}`");
                fields.iter().for_each(|f| places.field(name, &what, f));
                if let Some(t) = extra {
                    // `BTreeMap<String, T>`: the map and its key.
                    places.at(Place::Inside { extra: 10 + 20 }, t, || {
                        let what = format!("the values of the other properties of `{name}`");
                        (format!("{name}Value"), what)
                    });
                }
            }
            Item::Tagged { name, variants, .. } => {
                for (v, _, fields) in variants {
                    let (owner, what) = (format!("{name}{v}"), format!("`{name}::{v}`"));
                    fields.iter().for_each(|f| places.field(&owner, &what, f));
                }
            }
            Item::Tuple {
                name, items, rest, ..
            } => {
                for f in items {
                    places.at(Place::Bare, &f.ty, || {
                        let what = format!("`{name}::{}`", f.ident.word());
                        (format!("{name}Item{}", f.name), what)
                    });
                }
                if let Some(t) = rest {
                    places.at(Place::Inside { extra: 10 }, t, || {
                        (
                            format!("{name}Rest"),
                            format!("the items of `{name}::rest`"),
                        )
                    });
                }
            }
            Item::Untagged { name, variants, .. } => {
                for (v, t) in variants {
                    places.at(Place::Bare, t, || {
                        (format!("{name}{v}"), format!("the value of `{name}::{v}`"))
                    });
                }
            }
            Item::Newtype { name, ty, .. } => {
                places.at(Place::Bare, ty, || {
                    (format!("{name}Inner"), format!("the value of `{name}`"))
                });
            }
            Item::Enum { .. } => {}
        }
    }
    for (tool, pascal, params, returns) in sigs {
        if let Some(p) = params {
            places.at(Place::Borrowed, p, || {
                (
                    format!("{pascal}Params"),
                    format!("the parameters of `{tool}`"),
                )
            });
        }
        places.at(Place::Result, returns, || {
            (
                format!("{pascal}Returns"),
                format!("the result of `{tool}`"),
            )
        });
    }
    for (place, ty, hint, what) in places.0 {
        if place.score(&ty, &module.aliases) <= THRESHOLD {
            continue;
        }
        let inner = ty.strip().clone();
        if module.aliases.iter().any(|a| a.ty == inner) {
            continue;
        }
        let name = module.unique(&hint);
        let doc = format!(
            "The type of {what}, given a name because written out there it is more complex than clippy's `type_complexity` lint allows."
        );
        module.aliases.push(Alias {
            name,
            ty: inner,
            doc,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(t: Ty) -> Ty {
        Ty::Map(Box::new(t))
    }

    /// The scores clippy 1.95 gives (measured: each of these linted or not as said).
    #[test]
    fn scores_are_clippys() {
        // `Option<BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>>`: 270, linted.
        let deep = Ty::Option(Box::new(map(map(map(Ty::String)))));
        assert_eq!(score(&deep, 1, &[]), 270);
        // One map less: 170.
        let two = Ty::Option(Box::new(map(map(Ty::String))));
        assert_eq!(score(&two, 1, &[]), 170);
        // As a handler's result, `Result<Option<BTreeMap<String, BTreeMap<String, String>>>,
        // HandlerError>` in an `impl Future`: 260, linted.
        assert_eq!(Place::Result.score(&two, &[]), 260);
        // With the maps named, one path inside the `Option`.
        let named = [Alias {
            name: "Labels".into(),
            ty: map(map(map(Ty::String))),
            doc: String::new(),
        }];
        assert_eq!(score(&deep, 1, &named), 30);
    }

    /// A field too complex gets an alias of the type inside its `Option`, named after the
    /// field; the other places of the same type use it too.
    #[test]
    fn a_field_too_complex_is_named() {
        let deep = Ty::Option(Box::new(map(map(map(Ty::String)))));
        let field = |name: &str| Field {
            ident: crate::model::names::RustIdent::new(name.to_string()),
            name: name.to_string(),
            schema: crate::model::schema::SchemaId(0),
            ty: deep.clone(),
            doc: None,
            required: false,
            default: None,
            deprecated: false,
            sensitive: false,
        };
        let mut module = Module::default();
        module.items.push(Item::Struct {
            name: "IndexParams".into(),
            doc: None,
            fields: vec![field("labels"), field("other_labels")],
            deny_unknown: false,
            extra: None,
        });
        let returns = map(map(Ty::Bool));
        name_complex_types(&mut module, &[("index", "Index", None, &returns)]);
        let names: Vec<&str> = module.aliases.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["IndexParamsLabels"]);
        assert_eq!(module.aliases[0].ty, map(map(map(Ty::String))));
    }
}
