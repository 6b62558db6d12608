//! The walk the streaming checks share: which schemas apply at each position of a value as
//! serde reads or writes it, and whether the value there can be accepted without seeing it
//! whole ([`Stop`] when not).

use serde_json::Number;

use super::summary::{needs_whole_value, summary};
use crate::number;
use crate::tree::{Additional, Json, MAX_VALIDATION_DEPTH, Schema, Types};

/// How many schemas may apply to one position at once (a `$ref` and its target, `allOf`
/// branches, a property's schema and a matching `patternProperties` one); more stops the
/// fast path.
const CAP: usize = 4;

/// The depth (values, references and branches followed, as the full walk counts it) past which
/// the fast path stops, well before the full walk's own [`MAX_VALIDATION_DEPTH`].
const DEPTH_LIMIT: usize = MAX_VALIDATION_DEPTH - 112;

/// The fast path cannot accept this value: it is invalid, or undecidable here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stop;

/// A scalar as it streams by.
#[derive(Debug, Clone)]
pub(crate) enum Scalar<'a> {
    Null,
    Bool(bool),
    Num(Number),
    Str(&'a str),
}

/// The schemas that apply to one position, `$ref`s and `allOf` branches expanded.
///
/// Its small fields are whole words: a `Conj` is copied often, and copying a word that was
/// just written in parts stalls the processor.
#[derive(Clone, Copy)]
pub(crate) struct Conj {
    schemas: [&'static Schema; CAP],
    len: usize,
    /// The deepest evaluation depth among the schemas (an upper bound of the full walk's).
    depth: usize,
    /// Arguments (not results): floats where an integer is wanted stop, as the arguments are
    /// normalized before the full walk.
    arguments: usize,
}

impl Conj {
    /// The position of the whole value.
    pub(crate) fn root(schema: &'static Schema, arguments: bool) -> Result<Conj, Stop> {
        let mut c = Conj::empty(0, arguments);
        c.push(schema, 0)?;
        Ok(c)
    }

    /// The position of a child value that `s` alone applies to (with its `$ref` and `allOf`
    /// branches), `depth` being the child's. Every slot holds `s`: the array is written in
    /// one store, not element by element, since the position is copied right after it is made,
    /// and copying words just written in parts stalls the processor.
    #[inline]
    fn of(s: &'static Schema, depth: usize, arguments: usize) -> Result<Conj, Stop> {
        if depth >= DEPTH_LIMIT {
            return Err(Stop);
        }
        let mut c = Conj {
            schemas: [s; CAP],
            len: 1,
            depth,
            arguments,
        };
        if s.target().is_some() || !s.all_of.is_empty() {
            c.push_applied(s, depth + 1)?;
        }
        Ok(c)
    }

    fn empty(depth: usize, arguments: bool) -> Conj {
        Conj {
            schemas: [&Schema::ANY; CAP],
            len: 0,
            depth,
            arguments: usize::from(arguments),
        }
    }

    fn members(&self) -> &[&'static Schema] {
        &self.schemas[..self.len]
    }

    fn arguments(&self) -> bool {
        self.arguments != 0
    }

    /// Adds `s`, evaluated at `depth`, with what applies with it to the same value.
    #[inline]
    fn push(&mut self, s: &'static Schema, depth: usize) -> Result<(), Stop> {
        if depth >= DEPTH_LIMIT || self.len == CAP {
            return Err(Stop);
        }
        self.schemas[self.len] = s;
        self.len += 1;
        if depth > self.depth {
            self.depth = depth;
        }
        if s.target().is_some() || !s.all_of.is_empty() {
            self.push_applied(s, depth + 1)?;
        }
        Ok(())
    }

    /// Adds the `$ref` and `allOf` branches of `s`.
    #[inline(never)]
    fn push_applied(&mut self, s: &'static Schema, depth: usize) -> Result<(), Stop> {
        if let Some(r) = s.target() {
            self.push(r, depth)?;
        }
        for a in s.all_of {
            self.push(a, depth)?;
        }
        Ok(())
    }

    /// The (empty) position of a child value; too deep a value stops the fast path, whatever
    /// applies to it (this also bounds the stack the adapters use).
    fn child(&self) -> Result<Conj, Stop> {
        let depth = self.depth + 1;
        if depth >= DEPTH_LIMIT {
            return Err(Stop);
        }
        Ok(Conj {
            schemas: [&Schema::ANY; CAP],
            len: 0,
            depth,
            arguments: self.arguments,
        })
    }

    fn child_depth(&self) -> usize {
        self.depth + 1
    }

    /// Checks a complete scalar.
    #[inline]
    pub(crate) fn scalar(&self, v: Scalar<'_>) -> Result<(), Stop> {
        let depth = self.depth;
        for s in self.members() {
            if self.arguments()
                && let Scalar::Num(n) = &v
                && !(n.is_i64() || n.is_u64())
                && s.types.contains(Types::INTEGER)
                && !s.types.contains(Types::NUMBER)
            {
                // Normalization reads an integral float as an integer here: not ours to decide.
                return Err(Stop);
            }
            match own_scalar(s, &v, depth) {
                Some(true) => {}
                _ => return Err(Stop),
            }
        }
        Ok(())
    }

    /// Checks that an object may start here and starts following it.
    pub(crate) fn object(&self) -> Result<Obj, Stop> {
        for s in self.members() {
            // Which `dependentSchemas` apply is known only once every key is seen.
            if !s.types.contains(Types::OBJECT)
                || needs_whole_value(s)
                || !s.dependent_schemas.is_empty()
            {
                return Err(Stop);
            }
            // Normalization applies `additionalProperties` to keys a pattern matches; the
            // validator does not. Not ours to decide.
            if self.arguments()
                && !s.pattern_properties.is_empty()
                && matches!(s.additional_properties, Additional::Schema(_))
            {
                return Err(Stop);
            }
        }
        let primary = self
            .members()
            .iter()
            .copied()
            .find(|s| !s.properties.is_empty());
        Ok(Obj {
            conj: *self,
            primary,
            seen: 0,
            extra: Vec::new(),
            count: 0,
            cursor: 0,
        })
    }

    /// Checks that an array may start here and starts following it.
    pub(crate) fn array(&self) -> Result<Arr, Stop> {
        for s in self.members() {
            if !s.types.contains(Types::ARRAY)
                || needs_whole_value(s)
                || s.unique_items
                || s.contains.is_some()
            {
                return Err(Stop);
            }
        }
        Ok(Arr {
            conj: *self,
            count: 0,
        })
    }
}

/// An object being followed.
pub(crate) struct Obj {
    conj: Conj,
    /// The first schema with `properties`: its property indexes keep the keys seen.
    primary: Option<&'static Schema>,
    /// Keys seen that are the primary's properties (by index, the first 64).
    seen: u64,
    /// Other keys seen.
    extra: Vec<Box<str>>,
    count: u64,
    /// Where the next key is looked for first among the primary's properties: keys mostly
    /// come in the order of the properties.
    cursor: usize,
}

/// Equal strings; the same literal, as the property tables and serde's field names often are,
/// without comparing the bytes.
#[inline]
fn same(a: &str, b: &str) -> bool {
    (std::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()) || a == b
}

/// The index of the property `key`, looked for from `from` on, then from the start.
#[inline]
fn find(properties: &[(&'static str, &'static Schema)], key: &str, from: usize) -> Option<usize> {
    if let Some((name, _)) = properties.get(from)
        && same(name, key)
    {
        return Some(from);
    }
    properties.iter().position(|(name, _)| same(name, key))
}

impl Obj {
    /// The index of `key` among the primary's first 64 properties.
    fn index(&self, key: &str, from: usize) -> Option<usize> {
        find(self.primary?.properties, key, from).filter(|&i| i < 64)
    }

    fn has(&self, key: &str, from: usize) -> (bool, usize) {
        match self.index(key, from) {
            Some(i) => (self.seen & (1 << i) != 0, i + 1),
            None => (self.extra.iter().any(|k| &**k == key), from),
        }
    }

    /// A key: refused when it is a duplicate or not allowed; otherwise the position of its
    /// value.
    pub(crate) fn key(&mut self, key: &str) -> Result<Conj, Stop> {
        let index = self.index(key, self.cursor);
        match index {
            Some(i) => {
                if self.seen & (1 << i) != 0 {
                    return Err(Stop);
                }
                self.seen |= 1 << i;
                self.cursor = i + 1;
            }
            None => {
                if self.extra.iter().any(|k| &**k == key) {
                    return Err(Stop);
                }
                self.extra.push(key.into());
            }
        }
        self.count += 1;
        let depth = self.conj.child_depth();
        // One schema here, and the key one of its properties, with no keyword but
        // `properties` applying to keys: the property's schema alone applies to the value.
        if let (1, Some(i), Some(p)) = (self.conj.len, index, self.primary)
            && p.pattern_properties.is_empty()
            && p.property_names.is_none()
        {
            return Conj::of(p.properties[i].1, depth, self.conj.arguments);
        }
        let mut child = self.conj.child()?;
        for s in self.conj.members() {
            let mut matched = false;
            match (index, self.primary) {
                (Some(i), Some(p)) if std::ptr::eq(*s, p) => {
                    // Property names are unique: the one found is the only one.
                    matched = true;
                    child.push(p.properties[i].1, depth)?;
                }
                _ => {
                    for (name, sub) in s.properties {
                        if same(name, key) {
                            matched = true;
                            child.push(sub, depth)?;
                        }
                    }
                }
            }
            for (pattern, sub) in s.pattern_properties {
                match pattern.is_match(key) {
                    Ok(true) => {
                        matched = true;
                        child.push(sub, depth)?;
                    }
                    Ok(false) => {}
                    Err(_) => return Err(Stop),
                }
            }
            if !matched {
                match s.additional_properties {
                    Additional::Allowed => {}
                    Additional::Forbidden => return Err(Stop),
                    Additional::Schema(sub) => child.push(sub, depth)?,
                }
            }
            if let Some(names) = s.property_names
                && full_scalar(names, &Scalar::Str(key), depth) != Some(true)
            {
                return Err(Stop);
            }
        }
        Ok(child)
    }

    /// The end of the object: `required`, `minProperties`, `maxProperties`,
    /// `dependentRequired`.
    pub(crate) fn end(&self) -> Result<(), Stop> {
        let has = |key: &str| self.has(key, 0).0;
        for s in self.conj.members() {
            let known = summary(s);
            match known.required {
                // The primary's keys seen are bits of their indexes, as its required ones are.
                Some(mask) if self.primary.is_some_and(|p| std::ptr::eq(p, *s)) => {
                    if self.seen & mask != mask {
                        return Err(Stop);
                    }
                }
                _ => {
                    // `required` mostly lists properties in their order: look from the last
                    // one found.
                    let mut from = 0;
                    for r in s.required {
                        let (found, next) = self.has(r, from);
                        if !found {
                            return Err(Stop);
                        }
                        from = next;
                    }
                }
            }
            if known.plain_object {
                continue;
            }
            if s.min_properties.is_some_and(|min| self.count < min)
                || s.max_properties.is_some_and(|max| self.count > max)
                || s.dependent_required
                    .iter()
                    .any(|(k, deps)| has(k) && deps.iter().any(|d| !has(d)))
            {
                return Err(Stop);
            }
        }
        Ok(())
    }
}

/// An array being followed.
pub(crate) struct Arr {
    conj: Conj,
    count: u64,
}

impl Arr {
    /// The position of the next item.
    pub(crate) fn item(&mut self) -> Result<Conj, Stop> {
        let i = usize::try_from(self.count).map_err(|_| Stop)?;
        self.count += 1;
        let depth = self.conj.child_depth();
        // One schema here, whose `items` applies to this item.
        if self.conj.len == 1
            && let Some(items) = self.conj.schemas[0].items
            && self.conj.schemas[0].prefix_items.len() <= i
        {
            return Conj::of(items, depth, self.conj.arguments);
        }
        let mut child = self.conj.child()?;
        for s in self.conj.members() {
            let sub = match s.prefix_items.get(i) {
                Some(p) => Some(*p),
                None => s.items,
            };
            if let Some(sub) = sub {
                child.push(sub, depth)?;
            }
        }
        Ok(child)
    }

    /// The position of the next item, when it may not exist: the count is taken back with
    /// [`Arr::none`] if it does not.
    pub(crate) fn none(&mut self) {
        self.count -= 1;
    }

    /// The end of the array: `minItems`, `maxItems`.
    pub(crate) fn end(&self) -> Result<(), Stop> {
        for s in self.conj.members() {
            if s.min_items.is_some_and(|min| self.count < min)
                || s.max_items.is_some_and(|max| self.count > max)
            {
                return Err(Stop);
            }
        }
        Ok(())
    }
}

/// Validity of a scalar against `s` and everything under it (`$ref`, `allOf` included); `None`
/// when too deep to decide.
fn full_scalar(s: &'static Schema, v: &Scalar<'_>, depth: usize) -> Option<bool> {
    if depth >= DEPTH_LIMIT {
        return None;
    }
    if let Some(r) = s.target()
        && !full_scalar(r, v, depth + 1)?
    {
        return Some(false);
    }
    for a in s.all_of {
        if !full_scalar(a, v, depth + 1)? {
            return Some(false);
        }
    }
    own_scalar(s, v, depth)
}

/// Validity of a scalar against the keywords of `s` itself (not its `$ref` or `allOf`, which
/// a [`Conj`] holds beside it); `None` when too deep to decide.
fn own_scalar(s: &'static Schema, v: &Scalar<'_>, depth: usize) -> Option<bool> {
    if s.types != Types::ANY && !admits(s.types, v) {
        return Some(false);
    }
    if summary(s).plain_scalar {
        return Some(true);
    }
    if !s.enum_values.is_empty() && !s.enum_values.iter().any(|e| matches(e, v)) {
        return Some(false);
    }
    if let Some(c) = &s.const_value
        && !matches(c, v)
    {
        return Some(false);
    }
    let ok = match v {
        Scalar::Num(n) => number_ok(s, n),
        Scalar::Str(text) => string_ok(s, text),
        Scalar::Null | Scalar::Bool(_) => true,
    };
    if !ok {
        return Some(false);
    }
    let d = depth + 1;
    if !s.any_of.is_empty() {
        let mut any = false;
        for b in s.any_of {
            if full_scalar(b, v, d)? {
                any = true;
                break;
            }
        }
        if !any {
            return Some(false);
        }
    }
    if !s.one_of.is_empty() {
        let mut n = 0;
        for b in s.one_of {
            if full_scalar(b, v, d)? {
                n += 1;
            }
        }
        if n != 1 {
            return Some(false);
        }
    }
    if let Some(n) = s.not
        && full_scalar(n, v, d)?
    {
        return Some(false);
    }
    if let Some(cond) = s.if_ {
        let branch = if full_scalar(cond, v, d)? {
            s.then
        } else {
            s.else_
        };
        if let Some(b) = branch
            && !full_scalar(b, v, d)?
        {
            return Some(false);
        }
    }
    Some(true)
}

fn admits(types: Types, v: &Scalar<'_>) -> bool {
    match v {
        Scalar::Null => types.contains(Types::NULL),
        Scalar::Bool(_) => types.contains(Types::BOOLEAN),
        Scalar::Num(n) => {
            types.contains(Types::NUMBER)
                || (types.contains(Types::INTEGER) && number::is_integer(n))
        }
        Scalar::Str(_) => types.contains(Types::STRING),
    }
}

/// [`Json::matches`] for a scalar.
fn matches(j: &Json, v: &Scalar<'_>) -> bool {
    match (*j, v) {
        (Json::Null, Scalar::Null) => true,
        (Json::Bool(a), Scalar::Bool(b)) => a == *b,
        (Json::Int(a), Scalar::Num(n)) => number::eq_i128(n, i128::from(a)),
        (Json::UInt(a), Scalar::Num(n)) => number::eq_i128(n, i128::from(a)),
        (Json::Float(a), Scalar::Num(n)) => number::eq_f64(n, a),
        (Json::Str(a), Scalar::Str(b)) => same(a, b),
        _ => false,
    }
}

fn number_ok(s: &Schema, n: &Number) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let breaks = |b: Option<crate::tree::Num>, bad: &[std::cmp::Ordering]| {
        b.is_some_and(|b| number::cmp_bound(n, b).is_some_and(|o| bad.contains(&o)))
    };
    !(breaks(s.minimum, &[Less])
        || breaks(s.maximum, &[Greater])
        || breaks(s.exclusive_minimum, &[Less, Equal])
        || breaks(s.exclusive_maximum, &[Greater, Equal])
        || s.multiple_of.is_some_and(|m| !number::is_multiple_of(n, m)))
}

fn string_ok(s: &Schema, text: &str) -> bool {
    if s.min_length.is_some() || s.max_length.is_some() {
        let bytes = text.len() as u64;
        // A code point takes one to four bytes: decide from the byte length when it can.
        let short = s.max_length.is_none_or(|max| bytes <= max);
        let long = s.min_length.is_none_or(|min| bytes / 4 >= min);
        if !(short && long) {
            let len = text.chars().count() as u64;
            if s.min_length.is_some_and(|min| len < min)
                || s.max_length.is_some_and(|max| len > max)
            {
                return false;
            }
        }
    }
    if let Some(p) = s.pattern
        && p.is_match(text) != Ok(true)
    {
        return false;
    }
    if let Some(f) = s.format
        && !f.is_valid(text)
    {
        return false;
    }
    true
}
