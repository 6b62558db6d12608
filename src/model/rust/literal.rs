//! Defaults as Rust values: each `default` of the manifest, already checked
//! against its schema, becomes a literal of its field's Rust type
//! (`TicketStatus::Open`, `Vec::from([..])`, a struct with every field), so
//! the generated code applies it before the handler runs and the field needs
//! no `Option`.

use super::plan::default_of;
use super::{Item, Module, RustPlan, Ty};
use crate::diag::{Code, Diagnostic};
use crate::model::schema::{Schemas, is_integral};
use serde_json::Value;

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
        fields: Vec<(String, Lit)>,
        extra: Option<Vec<(String, Lit)>>,
    },
    /// A tagged union's variant with its fields.
    Tagged {
        ty: Ty,
        variant: String,
        fields: Vec<(String, Lit)>,
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
}

/// Makes the default of every optional field a literal of its type, or
/// reports why it cannot be one.
pub(super) fn fill_defaults(schemas: &Schemas, plan: &mut RustPlan, diags: &mut Vec<Diagnostic>) {
    // (module, item, variant, field) → literal; filled in once all are made.
    type Key = (Option<(bool, usize)>, usize, Option<usize>, usize);
    let mut done: Vec<(Key, Lit)> = Vec::new();
    let keys: Vec<Option<(bool, usize)>> = std::iter::once(None)
        .chain((0..plan.toolboxes.len()).map(|i| Some((false, i))))
        .chain((0..plan.playbooks.len()).map(|i| Some((true, i))))
        .collect();
    for key in keys {
        let Some(module) = module_of(plan, key) else {
            continue;
        };
        let cx = Cx {
            schemas,
            plan,
            module: key,
        };
        for (ii, item) in module.items.iter().enumerate() {
            let groups: Vec<(Option<usize>, &[super::Field])> = match item {
                Item::Struct { fields, .. } => vec![(None, fields.as_slice())],
                Item::Tagged { variants, .. } => variants
                    .iter()
                    .enumerate()
                    .map(|(vi, (_, _, f))| (Some(vi), f.as_slice()))
                    .collect(),
                _ => continue,
            };
            for (vi, fields) in groups {
                for (fi, f) in fields.iter().enumerate() {
                    if f.required {
                        continue;
                    }
                    let Some(value) = default_of(schemas, f.schema) else {
                        continue;
                    };
                    match cx.lit(&f.ty, value, 0) {
                        Ok(lit) => done.push(((key, ii, vi, fi), lit)),
                        // A default its schema refuses is reported by the
                        // schema checks already.
                        Err(_) if !schema_accepts(schemas, f.schema, value) => {}
                        Err(why) => {
                            let span = schemas
                                .get(f.schema)
                                .default
                                .as_ref()
                                .or(schemas.resolved(f.schema).default.as_ref())
                                .map_or(schemas.get(f.schema).span, |d| d.span);
                            diags.push(
                                Diagnostic::new(
                                    Code::InvalidDefault,
                                    format!("the default of `{}` cannot be used: {why}", f.name),
                                )
                                .at(span)
                                .help("give a default the property's schema accepts"),
                            );
                        }
                    }
                }
            }
        }
    }
    for ((key, ii, vi, fi), lit) in done {
        let module = match key {
            None => &mut plan.types,
            Some((false, i)) => &mut plan.toolboxes[i].module,
            Some((true, i)) => &mut plan.playbooks[i].module,
        };
        let fields = match (&mut module.items[ii], vi) {
            (Item::Struct { fields, .. }, None) => fields,
            (Item::Tagged { variants, .. }, Some(v)) => &mut variants[v].2,
            _ => continue,
        };
        fields[fi].default = Some(lit);
    }
}

/// Whether the schema at `id` (as written) accepts `value`.
fn schema_accepts(schemas: &Schemas, id: crate::model::schema::SchemaId, value: &Value) -> bool {
    jsonschema::draft202012::new(&schemas.bundle(id)).is_ok_and(|v| v.is_valid(value))
}

fn module_of(plan: &RustPlan, key: Option<(bool, usize)>) -> Option<&Module> {
    match key {
        None => Some(&plan.types),
        Some((false, i)) => plan.toolboxes.get(i).map(|g| &g.module),
        Some((true, i)) => plan.playbooks.get(i).map(|g| &g.module),
    }
}

struct Cx<'a> {
    schemas: &'a Schemas,
    plan: &'a RustPlan,
    /// The module `Local` types are looked up in.
    module: Option<(bool, usize)>,
}

impl<'a> Cx<'a> {
    fn item(&self, ty: &Ty) -> Option<(&'a Item, Option<(bool, usize)>)> {
        match ty {
            Ty::Shared(n) => self.plan.types.item(n).map(|i| (i, None)),
            Ty::Local(n) => module_of(self.plan, self.module)?
                .item(n)
                .map(|i| (i, self.module)),
            _ => None,
        }
    }

    /// A path to `name` that works from any module: a type of the `types`
    /// module is named as shared.
    fn path(&self, ty: &Ty, module: Option<(bool, usize)>) -> Ty {
        match (ty, module) {
            (Ty::Local(n), None) => Ty::Shared(n.clone()),
            _ => ty.clone(),
        }
    }

    fn lit(&self, ty: &Ty, v: &Value, depth: usize) -> Result<Lit, String> {
        if depth > crate::model::schema::MAX_DEPTH {
            return Err("it nests deeper than toolc follows".to_string());
        }
        let d = depth + 1;
        Ok(match (ty, v) {
            (Ty::Option(_), Value::Null) => Lit::None,
            (Ty::Option(inner), v) => Lit::Some(Box::new(self.lit(inner, v, d)?)),
            (Ty::Box(inner), v) => Lit::Box(Box::new(self.lit(inner, v, d)?)),
            (Ty::String, Value::String(s)) => Lit::Str(s.clone()),
            (Ty::Bool, Value::Bool(b)) => Lit::Bool(*b),
            (Ty::I32 | Ty::I64 | Ty::U32 | Ty::U64, Value::Number(n)) => {
                let (lo, hi) = int_range(ty);
                let i = integer(n).ok_or_else(|| format!("`{n}` is not an integer"))?;
                if i < lo || i > hi {
                    return Err(format!(
                        "`{n}` is outside the integers it can hold ({lo} to {hi})"
                    ));
                }
                Lit::Int(i)
            }
            (Ty::F64, Value::Number(n)) => Lit::Float(n.as_f64().unwrap_or_default()),
            (Ty::Unit, Value::Null) => Lit::Unit,
            (Ty::Json, v) => Lit::Json(v.clone()),
            (Ty::Vec(inner), Value::Array(items)) => Lit::Vec(
                items
                    .iter()
                    .map(|x| self.lit(inner, x, d))
                    .collect::<Result<_, _>>()?,
            ),
            (Ty::Tuple(tys), Value::Array(items)) if tys.len() == items.len() => Lit::Tuple(
                tys.iter()
                    .zip(items)
                    .map(|(t, x)| self.lit(t, x, d))
                    .collect::<Result<_, _>>()?,
            ),
            (Ty::EnumMap(key, inner), Value::Object(m)) => Lit::EnumMap(
                m.iter()
                    .map(|(k, x)| {
                        Ok((
                            self.lit(key, &Value::String(k.clone()), d)?,
                            self.lit(inner, x, d)?,
                        ))
                    })
                    .collect::<Result<_, String>>()?,
            ),
            (Ty::Map(inner), Value::Object(m)) => Lit::Map(
                m.iter()
                    .map(|(k, x)| Ok((k.clone(), self.lit(inner, x, d)?)))
                    .collect::<Result<_, String>>()?,
            ),
            (Ty::Shared(_) | Ty::Local(_), v) => {
                let (item, module) = self
                    .item(ty)
                    .ok_or_else(|| "its type is not generated".to_string())?;
                let inner = Cx {
                    schemas: self.schemas,
                    plan: self.plan,
                    module,
                };
                inner.item_lit(&self.path(ty, module), item, v, d)?
            }
            (ty, v) => return Err(format!("{} is not {}", kind(v), expected(ty))),
        })
    }

    fn item_lit(&self, path: &Ty, item: &Item, v: &Value, d: usize) -> Result<Lit, String> {
        Ok(match (item, v) {
            (Item::Enum { variants, .. }, Value::String(s)) => {
                let (variant, _) = variants
                    .iter()
                    .find(|(_, wire)| wire == s)
                    .ok_or_else(|| format!("`{s}` is not one of the enum's values"))?;
                Lit::Enum {
                    ty: path.clone(),
                    variant: variant.clone(),
                }
            }
            (Item::Struct { fields, extra, .. }, Value::Object(m)) => {
                let fs = self.fields(fields, m, d)?;
                let extra = match extra {
                    Some(t) => Some(
                        m.iter()
                            .filter(|(k, _)| !fields.iter().any(|f| f.name == **k))
                            .map(|(k, x)| Ok((k.clone(), self.lit(t, x, d)?)))
                            .collect::<Result<Vec<_>, String>>()?,
                    ),
                    None => None,
                };
                Lit::Struct {
                    ty: path.clone(),
                    fields: fs,
                    extra,
                }
            }
            (Item::Tagged { tag, variants, .. }, Value::Object(m)) => {
                let wire = m
                    .get(tag)
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("it has no `{tag}`"))?;
                let (variant, _, fields) = variants
                    .iter()
                    .find(|(_, w, _)| w == wire)
                    .ok_or_else(|| format!("`{tag}: {wire}` is not one of the union's variants"))?;
                Lit::Tagged {
                    ty: path.clone(),
                    variant: variant.clone(),
                    fields: self.fields(fields, m, d)?,
                }
            }
            (Item::Untagged { variants, .. }, v) => {
                // The variant serde would pick: the first that holds the value.
                let (variant, value) = variants
                    .iter()
                    .find_map(|(name, t)| self.lit(t, v, d).ok().map(|l| (name, l)))
                    .ok_or_else(|| "no variant of the union holds it".to_string())?;
                Lit::Untagged {
                    ty: path.clone(),
                    variant: variant.clone(),
                    value: Box::new(value),
                }
            }
            (Item::Newtype { ty, .. }, v) => Lit::Newtype {
                ty: path.clone(),
                value: Box::new(self.lit(ty, v, d)?),
            },
            (_, v) => return Err(format!("{} is not {}", kind(v), "a value of its type")),
        })
    }

    /// Every field of a struct or variant from an object: given, defaulted,
    /// or absent.
    fn fields(
        &self,
        fields: &[super::Field],
        m: &serde_json::Map<String, Value>,
        d: usize,
    ) -> Result<Vec<(String, Lit)>, String> {
        fields
            .iter()
            .map(|f| {
                let lit = match m.get(&f.name) {
                    Some(x) => self.lit(&f.ty, x, d)?,
                    None => match default_of(self.schemas, f.schema) {
                        Some(x) => self.lit(&f.ty, x, d)?,
                        None => match &f.ty {
                            Ty::Option(_) => Lit::None,
                            Ty::Json => Lit::Json(Value::Null),
                            _ => return Err(format!("it has no `{}`", f.name)),
                        },
                    },
                };
                Ok((f.ident.clone(), lit))
            })
            .collect()
    }
}

fn int_range(ty: &Ty) -> (i128, i128) {
    match ty {
        Ty::I32 => (i32::MIN.into(), i32::MAX.into()),
        Ty::U32 => (0, u32::MAX.into()),
        Ty::U64 => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

fn integer(n: &serde_json::Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    (is_integral(n) && f.abs() < 1.0e38).then_some(f as i128)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn expected(ty: &Ty) -> &'static str {
    match ty {
        Ty::String => "a string",
        Ty::Bool => "a boolean",
        Ty::I32 | Ty::I64 | Ty::U32 | Ty::U64 => "an integer",
        Ty::F64 => "a number",
        Ty::Unit => "null",
        Ty::Vec(_) => "a list",
        Ty::Map(_) => "an object",
        _ => "a value of its type",
    }
}
