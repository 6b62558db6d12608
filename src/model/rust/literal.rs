//! Defaults as Rust values: each `default` of the manifest, already checked
//! against its schema, becomes a literal of its field's Rust type
//! (`TicketStatus::Open`, `Vec::from([..])`, a struct with every field), so
//! the generated code applies it before the handler runs and the field needs
//! no `Option`.

use super::types::{FormatLit, Lit};
use super::types::{Item, Module, RustPlan, Ty, TypedFormat};
use crate::diag::{Code, Diagnostic};
use crate::model::names::RustIdent;
use crate::model::schema::{SchemaId, Schemas, is_integral};
use serde_json::Value;

/// A property's default: its own, or its referenced type's; none for a
/// `default: null` its schema does not accept (an absent value stays absent).
pub(super) fn default_of(schemas: &Schemas, id: SchemaId) -> Option<&serde_json::Value> {
    let n = schemas.get(id);
    n.default
        .as_ref()
        .or_else(|| schemas.resolved(id).default.as_ref())
        .map(|d| &d.value)
        .filter(|d| !d.is_null() || !crate::model::schema::null_default_unapplied(schemas, id))
}

/// Makes the default of every optional field a literal of its type, or
/// reports why it cannot be one.
pub(super) fn fill_defaults(schemas: &Schemas, plan: &mut RustPlan, diags: &mut Vec<Diagnostic>) {
    // (module, item, variant, field) → literal; filled in once all are made.
    type Key = (Option<(u8, usize)>, usize, Option<usize>, usize);
    let mut done: Vec<(Key, Lit)> = Vec::new();
    let keys: Vec<Option<(u8, usize)>> = std::iter::once(None)
        .chain((0..plan.toolboxes.len()).map(|i| Some((0, i))))
        .chain((0..plan.playbooks.len()).map(|i| Some((1, i))))
        .chain((0..plan.delegates.len()).map(|i| Some((2, i))))
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
            Some((0, i)) => &mut plan.toolboxes[i].module,
            Some((1, i)) => &mut plan.playbooks[i].module,
            Some((_, i)) => &mut plan.delegates[i].module,
        };
        let fields = match (&mut module.items[ii], vi) {
            (Item::Struct { fields, .. }, None) => fields,
            (Item::Tagged { variants, .. }, Some(v)) => &mut variants[v].2,
            _ => continue,
        };
        fields[fi].default = Some(lit);
    }
}

/// Whether the schema at `id` accepts `value`, as the generated dispatcher judges it.
fn schema_accepts(schemas: &Schemas, id: crate::model::schema::SchemaId, value: &Value) -> bool {
    schemas.validator(id).is_some_and(|v| v.accepts(value))
}

fn module_of(plan: &RustPlan, key: Option<(u8, usize)>) -> Option<&Module> {
    match key {
        None => Some(&plan.types),
        Some((0, i)) => plan.toolboxes.get(i).map(|g| &g.module),
        Some((1, i)) => plan.playbooks.get(i).map(|g| &g.module),
        Some((_, i)) => plan.delegates.get(i).map(|g| &g.module),
    }
}

struct Cx<'a> {
    schemas: &'a Schemas,
    plan: &'a RustPlan,
    /// The module `Local` types are looked up in.
    module: Option<(u8, usize)>,
}

impl<'a> Cx<'a> {
    fn item(&self, ty: &Ty) -> Option<(&'a Item, Option<(u8, usize)>)> {
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
    fn path(&self, ty: &Ty, module: Option<(u8, usize)>) -> Ty {
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
            (Ty::Format(f), Value::String(s)) => Lit::Format(format_lit(*f, s)?),
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
            (Item::Tuple { items, rest, .. }, Value::Array(values)) => {
                let mut fields = Vec::with_capacity(items.len() + 1);
                for (i, f) in items.iter().enumerate() {
                    let lit = match (values.get(i), &f.ty) {
                        (Some(x), _) if f.required => self.lit(&f.ty, x, d)?,
                        // Present in the array: `Some`, whatever the item (`null` too).
                        (Some(x), Ty::Option(inner)) => Lit::Some(Box::new(self.lit(inner, x, d)?)),
                        (None, _) if !f.required => Lit::None,
                        _ => return Err(format!("it has no item {i}")),
                    };
                    fields.push((f.ident.clone(), lit));
                }
                match rest {
                    Some(t) => {
                        let after = values
                            .get(items.len()..)
                            .unwrap_or_default()
                            .iter()
                            .map(|x| self.lit(t, x, d))
                            .collect::<Result<_, _>>()?;
                        fields.push((RustIdent::new("rest".to_string()), Lit::Vec(after)));
                    }
                    None if values.len() > items.len() => {
                        return Err(format!("it has more than {} items", items.len()));
                    }
                    None => {}
                }
                Lit::Struct {
                    ty: path.clone(),
                    fields,
                    extra: None,
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
    ) -> Result<Vec<(RustIdent, Lit)>, String> {
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
        Ty::Format(_) => "a string",
        _ => "a value of its type",
    }
}

/// A default in a typed format: checked against the format with the
/// validator the dispatcher runs, then read into its parts.
fn format_lit(f: TypedFormat, s: &str) -> Result<FormatLit, String> {
    let valid = toolc_schema::Format::from_name(f.as_str()).is_valid(s);
    let invalid = || format!("`{s}` is not a valid `{}`", f.as_str());
    if !valid {
        return Err(invalid());
    }
    match f {
        TypedFormat::Uuid => {
            let hex: String = s.chars().filter(|c| *c != '-').collect();
            u128::from_str_radix(&hex, 16)
                .map(FormatLit::Uuid)
                .map_err(|_| invalid())
        }
        TypedFormat::Date => {
            let (year, month, day) = date_parts(s).ok_or_else(invalid)?;
            Ok(FormatLit::Date { year, month, day })
        }
        TypedFormat::DateTime => date_time_parts(s).ok_or_else(invalid),
        TypedFormat::Email => Ok(FormatLit::Email(s.to_string())),
        TypedFormat::Uri => Ok(FormatLit::Uri(s.to_string())),
    }
}

/// `YYYY-MM-DD`.
fn date_parts(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    Some((
        s[0..4].parse().ok()?,
        s[5..7].parse().ok()?,
        s[8..10].parse().ok()?,
    ))
}

/// Days from 1970-01-01 to a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// An RFC 3339 date-time, already checked, as the UTC instant and offset
/// chrono's `DateTime<FixedOffset>` holds. Fraction digits past the ninth
/// are dropped, as chrono does when it reads one.
fn date_time_parts(s: &str) -> Option<FormatLit> {
    let (date, time) = (s.get(..10)?, s.get(11..)?);
    let (year, month, day) = date_parts(date)?;
    let t = time.as_bytes();
    let num = |r: std::ops::Range<usize>| time.get(r)?.parse::<i64>().ok();
    let (hour, minute, second) = (num(0..2)?, num(3..5)?, num(6..8)?);
    let mut i = 8;
    let mut nano: u32 = 0;
    if t.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while t.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let digits = &time[start..i];
        let kept: String = digits.chars().take(9).collect();
        nano = format!("{kept:0<9}").parse().ok()?;
    }
    let offset_minutes: i64 = match t.get(i)? {
        b'Z' | b'z' => 0,
        sign @ (b'+' | b'-') => {
            let m = num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?;
            if *sign == b'+' { m } else { -m }
        }
        _ => return None,
    };
    // The instant in UTC; a leap second (second 60) is second 59 held a
    // billion nanoseconds longer, as chrono keeps it.
    let leap = second == 60;
    let local = days_from_civil(year.into(), month.into(), day.into()) * 86_400
        + hour * 3600
        + minute * 60
        + if leap { 59 } else { second };
    let utc = local - offset_minutes * 60;
    let (y, mo, d) = civil_from_days(utc.div_euclid(86_400));
    let secs = utc.rem_euclid(86_400);
    Some(FormatLit::DateTime {
        utc: Box::new((
            i32::try_from(y).ok()?,
            u32::try_from(mo).ok()?,
            u32::try_from(d).ok()?,
            u32::try_from(secs / 3600).ok()?,
            u32::try_from(secs % 3600 / 60).ok()?,
            u32::try_from(secs % 60).ok()?,
        )),
        nano: if leap { nano + 1_000_000_000 } else { nano },
        offset: i32::try_from(offset_minutes * 60).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_become_the_utc_instant_and_the_offset() {
        let lit = |s| format_lit(TypedFormat::DateTime, s).unwrap();
        assert_eq!(
            lit("2024-03-01T00:30:00.25+01:00"),
            FormatLit::DateTime {
                utc: Box::new((2024, 2, 29, 23, 30, 0)),
                nano: 250_000_000,
                offset: 3600
            }
        );
        // A leap second at 23:59:60 UTC, written in another offset.
        assert_eq!(
            lit("1990-12-31T15:59:60.1234567891-08:00"),
            FormatLit::DateTime {
                utc: Box::new((1990, 12, 31, 23, 59, 59)),
                nano: 1_123_456_789,
                offset: -8 * 3600
            }
        );
        assert_eq!(
            lit("0000-01-01T00:00:00+23:59"),
            FormatLit::DateTime {
                utc: Box::new((-1, 12, 31, 0, 1, 0)),
                nano: 0,
                offset: 23 * 3600 + 59 * 60
            }
        );
        assert!(format_lit(TypedFormat::DateTime, "2024-02-30T00:00:00Z").is_err());
    }

    #[test]
    fn other_formats_are_checked_and_read() {
        assert_eq!(
            format_lit(TypedFormat::Uuid, "123E4567-e89b-12d3-a456-426614174000"),
            Ok(FormatLit::Uuid(0x123e4567_e89b_12d3_a456_426614174000))
        );
        assert_eq!(
            format_lit(TypedFormat::Date, "2024-02-29"),
            Ok(FormatLit::Date {
                year: 2024,
                month: 2,
                day: 29
            })
        );
        assert_eq!(
            format_lit(TypedFormat::Email, "a..b@example.com"),
            Err("`a..b@example.com` is not a valid `email`".to_string())
        );
        assert!(format_lit(TypedFormat::Uri, "/relative").is_err());
        assert!(format_lit(TypedFormat::Uuid, "123e4567e89b12d3a456426614174000").is_err());
        for days in [-719_528, -1, 0, 19_782, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
