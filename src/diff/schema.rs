//! Two schemas compared by meaning, over the typed model: node by node,
//! `$ref`s followed (a reference to an unchanged named type is unchanged,
//! whatever the type is called), `required` as a set, unions paired by
//! branch, and each difference classified by whether the schema now takes
//! more or fewer values.

use super::kind::ChangeKind;
use crate::diag::Span;
use crate::model::schema::{JsonType, Keyword, MAX_DEPTH, Property, SchemaId, SchemaNode, Schemas};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};
use std::sync::LazyLock;

/// How many node pairs one comparison visits at most. Real schemas are far
/// below it; it keeps hostile ones (unions nested in unions) from running
/// away.
const BUDGET: usize = 200_000;

/// The schema that takes anything: what a missing `items`, a missing
/// `returns` or an absent `additionalProperties` means.
static ANY: LazyLock<SchemaNode> = LazyLock::new(SchemaNode::default);

/// A step from a tool's parameters or result down to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Property(String),
    Items,
    /// The item at one position of a tuple (`prefixItems`).
    Item(usize),
    /// The names of an object's properties (`propertyNames`).
    Names,
    /// The values of properties beyond the declared ones.
    Extra,
    /// A branch of `anyOf` or `oneOf`, by its index in the new schema (in
    /// the old one when only the old schema has the union).
    Branch(Keyword, usize),
    AllOf(usize),
    Not,
}

/// The path of a value, for people: `ticket.tags[]`.
pub fn path_text(path: &[Step]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Step::Property(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Step::Items => out.push_str("[]"),
            Step::Item(i) => out.push_str(&format!("[{i}]")),
            Step::Names => out.push_str("<propertyNames>"),
            Step::Extra => out.push_str(".*"),
            Step::Branch(k, i) => out.push_str(&format!("<{}/{i}>", k.as_str())),
            Step::AllOf(i) => out.push_str(&format!("<allOf/{i}>")),
            Step::Not => out.push_str("<not>"),
        }
    }
    out
}

/// The JSON pointer of a value in the schema, `$ref`s read as if inlined.
pub fn pointer(path: &[Step]) -> String {
    let mut out = String::new();
    for s in path {
        match s {
            Step::Property(name) => {
                out.push_str("/properties/");
                out.push_str(&crate::manifest::node::escape_pointer_token(name));
            }
            Step::Items => out.push_str("/items"),
            Step::Item(i) => out.push_str(&format!("/prefixItems/{i}")),
            Step::Names => out.push_str("/propertyNames"),
            Step::Extra => out.push_str("/additionalProperties"),
            Step::Branch(k, i) => out.push_str(&format!("/{}/{i}", k.as_str())),
            Step::AllOf(i) => out.push_str(&format!("/allOf/{i}")),
            Step::Not => out.push_str("/not"),
        }
    }
    out
}

/// One difference found, where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub kind: ChangeKind,
    pub path: Vec<Step>,
    /// What changed, said of the value at `path` ("no longer takes `null`").
    pub message: String,
    pub old: Option<Span>,
    pub new: Option<Span>,
}

/// Compares the schema `old` (in `old_schemas`) with `new`; `None` is the
/// schema that takes anything. Each pair of nodes is compared once, so a
/// change inside a named type is reported at the first place the walk
/// reaches it.
pub fn compare(
    old_schemas: &Schemas,
    old: Option<SchemaId>,
    new_schemas: &Schemas,
    new: Option<SchemaId>,
) -> Vec<Found> {
    let mut w = Walker {
        old: old_schemas,
        new: new_schemas,
        seen: HashSet::new(),
        path: Vec::new(),
        out: Vec::new(),
        budget: BUDGET,
    };
    w.pair(old, new, 0);
    w.out
}

struct Walker<'a> {
    old: &'a Schemas,
    new: &'a Schemas,
    seen: HashSet<(SchemaId, SchemaId)>,
    path: Vec<Step>,
    out: Vec<Found>,
    budget: usize,
}

fn node(schemas: &Schemas, id: Option<SchemaId>) -> &SchemaNode {
    match id {
        Some(id) => schemas.get(id),
        None => &ANY,
    }
}

/// The most items an array takes: its `maxItems`, or the length of its tuple when `items`
/// takes nothing past it, whichever is fewer.
fn most_items(s: &Schemas, n: &SchemaNode) -> Option<u64> {
    let tuple = n.prefix_items.as_ref().map_or(0, Vec::len) as u64;
    let closed = n.items.is_some_and(|i| s.get(s.deref(i)).is_nothing());
    match (n.max_items, closed.then_some(tuple)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The types a node takes (`None`: any), `integer` included wherever
/// `number` is.
fn accepted(n: &SchemaNode) -> Option<BTreeSet<JsonType>> {
    if n.types.is_empty() {
        return None;
    }
    let mut set: BTreeSet<JsonType> = n.types.iter().copied().collect();
    if n.nullable == Some(true) {
        set.insert(JsonType::Null);
    }
    if set.contains(&JsonType::Number) {
        set.insert(JsonType::Integer);
    }
    Some(set)
}

fn accepts(n: &SchemaNode, t: JsonType) -> bool {
    accepted(n).is_none_or(|s| s.contains(&t))
}

/// `a` takes no type `b` does not (`None` is every type).
fn within(a: &Option<BTreeSet<JsonType>>, b: &Option<BTreeSet<JsonType>>) -> bool {
    match (a, b) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(a), Some(b)) => a.is_subset(b),
    }
}

fn types_text(t: &Option<BTreeSet<JsonType>>) -> String {
    match t {
        None => "any type".to_string(),
        Some(set) => {
            // `null` last: `string or null`.
            let names: Vec<&str> = set
                .iter()
                .filter(|t| **t != JsonType::Null)
                .filter(|t| !(**t == JsonType::Integer && set.contains(&JsonType::Number)))
                .chain(set.get(&JsonType::Null))
                .map(|t| t.as_str())
                .collect();
            names.join(" or ")
        }
    }
}

/// The values an `enum` or `const` allows (`None`: no such list).
fn listed(n: &SchemaNode) -> Option<Vec<Value>> {
    if let Some(c) = &n.const_value {
        return Some(vec![c.value.clone()]);
    }
    n.enum_values
        .as_ref()
        .and_then(|e| e.value.as_array())
        .cloned()
}

/// A property's default: its own, or its named type's.
fn default_of(s: &Schemas, id: SchemaId) -> Option<&Value> {
    s.get(id)
        .default
        .as_ref()
        .or_else(|| s.resolved(id).default.as_ref())
        .map(|d| &d.value)
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}

fn values_text(values: &[&Value]) -> String {
    values
        .iter()
        .map(|v| value_text(v))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A bound's value: a number to compare, and its text.
#[derive(Debug, Clone, PartialEq)]
struct Bound {
    value: f64,
    text: String,
    exclusive: bool,
}

impl Bound {
    fn of(n: &serde_json::Number, exclusive: bool) -> Bound {
        Bound {
            value: n.as_f64().unwrap_or(0.0),
            text: n.to_string(),
            exclusive,
        }
    }

    fn int(i: i128) -> Bound {
        Bound {
            value: i as f64,
            text: i.to_string(),
            exclusive: false,
        }
    }

    fn count(c: u64) -> Bound {
        Bound {
            value: c as f64,
            text: c.to_string(),
            exclusive: false,
        }
    }
}

/// Which way a bound moved: `Some(true)` tighter, `Some(false)` looser.
fn lower_moved(old: &Option<Bound>, new: &Option<Bound>) -> Option<bool> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        (Some(a), Some(b)) if b.value > a.value => Some(true),
        (Some(a), Some(b)) if b.value < a.value => Some(false),
        (Some(a), Some(b)) if a.exclusive != b.exclusive => Some(b.exclusive),
        _ => None,
    }
}

fn upper_moved(old: &Option<Bound>, new: &Option<Bound>) -> Option<bool> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(true),
        (Some(_), None) => Some(false),
        (Some(a), Some(b)) if b.value < a.value => Some(true),
        (Some(a), Some(b)) if b.value > a.value => Some(false),
        (Some(a), Some(b)) if a.exclusive != b.exclusive => Some(b.exclusive),
        _ => None,
    }
}

/// The greater of several lower bounds, or the lesser of upper ones.
fn strictest(bounds: Vec<Bound>, lower: bool) -> Option<Bound> {
    bounds.into_iter().reduce(|a, b| {
        let b_wins = if lower {
            b.value > a.value || (b.value == a.value && b.exclusive)
        } else {
            b.value < a.value || (b.value == a.value && b.exclusive)
        };
        if b_wins { b } else { a }
    })
}

/// A node's numeric bounds, and with `ranges` its integer type's range.
fn numeric_bounds(n: &SchemaNode, ranges: bool) -> (Option<Bound>, Option<Bound>) {
    let mut lower: Vec<Bound> = Vec::new();
    let mut upper: Vec<Bound> = Vec::new();
    lower.extend(n.minimum.as_ref().map(|m| Bound::of(m, false)));
    lower.extend(n.exclusive_minimum.as_ref().map(|m| Bound::of(m, true)));
    upper.extend(n.maximum.as_ref().map(|m| Bound::of(m, false)));
    upper.extend(n.exclusive_maximum.as_ref().map(|m| Bound::of(m, true)));
    if ranges {
        let (lo, hi) = crate::model::schema::integer_range(n);
        lower.push(Bound::int(lo));
        upper.push(Bound::int(hi));
    }
    (strictest(lower, true), strictest(upper, false))
}

fn bound_text(b: &Option<Bound>, lower: bool) -> Option<String> {
    b.as_ref().map(|b| {
        let op = match (lower, b.exclusive) {
            (true, false) => ">=",
            (true, true) => ">",
            (false, false) => "<=",
            (false, true) => "<",
        };
        format!("{op} {}", b.text)
    })
}

impl Walker<'_> {
    fn push(&mut self, kind: ChangeKind, message: String, old: Option<Span>, new: Option<Span>) {
        self.out.push(Found {
            kind,
            path: self.path.clone(),
            message,
            old,
            new,
        });
    }

    /// Where keyword `k` of a side is written (its node when it is not);
    /// `None` for the implicit schema that takes anything.
    fn at(id: Option<SchemaId>, n: &SchemaNode, k: Keyword) -> Option<Span> {
        id.map(|_| n.value_span(k))
    }

    fn pair(&mut self, o: Option<SchemaId>, n: Option<SchemaId>, depth: usize) {
        if depth > MAX_DEPTH || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        self.annotations(o, n);
        let o = o.map(|i| self.old.deref(i));
        let n = n.map(|i| self.new.deref(i));
        if let (Some(a), Some(b)) = (o, n)
            && !self.seen.insert((a, b))
        {
            return;
        }
        let (on, nn) = (node(self.old, o), node(self.new, n));
        // A `$ref` beside other keywords: its type's constraints apply too.
        let target = |x: &SchemaNode| x.reference.as_ref().and_then(|r| r.target);
        if target(on).is_some() || target(nn).is_some() {
            self.pair(target(on), target(nn), depth + 1);
        }
        if on.is_nothing() || nn.is_nothing() {
            if on.is_nothing() != nn.is_nothing() {
                let (kind, text) = if on.is_nothing() {
                    (ChangeKind::TypeWidened, "took nothing, now takes values")
                } else {
                    (ChangeKind::TypeNarrowed, "takes nothing any more")
                };
                self.push(
                    kind,
                    text.to_string(),
                    Self::at(o, on, Keyword::Type),
                    Self::at(n, nn, Keyword::Type),
                );
            }
            return;
        }
        let union = |x: &SchemaNode| x.any_of.is_some() || x.one_of.is_some();
        match (union(on), union(nn)) {
            (false, false) => self.facets(o, on, n, nn, depth),
            (true, true) => {
                self.facets(o, on, n, nn, depth);
                self.branches(o, n, depth);
            }
            _ => self.branches(o, n, depth),
        }
    }

    /// Descriptions, titles and deprecation, as each side wrote them (on the
    /// reference, else on its type).
    fn annotations(&mut self, o: Option<SchemaId>, n: Option<SchemaId>) {
        let (Some(o), Some(n)) = (o, n) else {
            return;
        };
        let (old, new) = (self.old, self.new);
        let pick = |s: &Schemas, id: SchemaId, f: fn(&SchemaNode) -> Option<String>| {
            f(s.get(id)).or_else(|| f(s.resolved(id)))
        };
        let (on, nn) = (old.get(o), new.get(n));
        let what = [
            (
                ChangeKind::DescriptionChanged,
                "description",
                Keyword::Description,
                (|x: &SchemaNode| x.description.clone()) as fn(&SchemaNode) -> Option<String>,
            ),
            (
                ChangeKind::TitleChanged,
                "title",
                Keyword::Title,
                |x: &SchemaNode| x.title.clone(),
            ),
        ];
        for (kind, name, k, f) in what {
            let (a, b) = (pick(old, o, f), pick(new, n, f));
            if a != b {
                let text = match (&a, &b) {
                    (None, Some(_)) => format!("now has a {name}"),
                    (Some(_), None) => format!("no longer has a {name}"),
                    _ => format!("has a new {name}"),
                };
                self.push(kind, text, Some(on.value_span(k)), Some(nn.value_span(k)));
            }
        }
        let deprecated = |s: &Schemas, id: SchemaId| {
            s.get(id).deprecated.or(s.resolved(id).deprecated) == Some(true)
        };
        if !deprecated(old, o) && deprecated(new, n) {
            self.push(
                ChangeKind::Deprecated,
                "is now deprecated".to_string(),
                None,
                Some(nn.value_span(Keyword::Deprecated)),
            );
        }
    }

    /// Everything but unions, of one pair of nodes.
    fn facets(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let (ta, tb) = (accepted(on), accepted(nn));
        if ta != tb {
            let kind = match (within(&ta, &tb), within(&tb, &ta)) {
                (true, _) => ChangeKind::TypeWidened,
                (_, true) => ChangeKind::TypeNarrowed,
                _ => ChangeKind::TypeChanged,
            };
            self.push(
                kind,
                format!("took {}, now takes {}", types_text(&ta), types_text(&tb)),
                Self::at(o, on, Keyword::Type),
                Self::at(n, nn, Keyword::Type),
            );
        }
        self.listed(o, on, n, nn);
        let both = |t: JsonType| accepts(on, t) && accepts(nn, t);
        if both(JsonType::Integer) || both(JsonType::Number) {
            self.numbers(o, on, n, nn);
        }
        if both(JsonType::String) {
            self.strings(o, on, n, nn);
        }
        if both(JsonType::Array) {
            self.arrays(o, on, n, nn, depth);
        }
        if both(JsonType::Object) {
            self.objects(o, on, n, nn, depth);
        }
        self.all_of_and_not(o, on, n, nn, depth);
    }

    fn listed(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
    ) {
        let k = |x: &SchemaNode| {
            if x.const_value.is_some() {
                Keyword::Const
            } else {
                Keyword::Enum
            }
        };
        let (old_at, new_at) = (Self::at(o, on, k(on)), Self::at(n, nn, k(nn)));
        match (listed(on), listed(nn)) {
            (None, None) => {}
            (None, Some(b)) => {
                let b: Vec<&Value> = b.iter().collect();
                self.push(
                    ChangeKind::EnumNarrowed,
                    format!("is now limited to {}", values_text(&b)),
                    old_at,
                    new_at,
                );
            }
            (Some(_), None) => self.push(
                ChangeKind::EnumWidened,
                "is no longer limited to a list of values".to_string(),
                old_at,
                new_at,
            ),
            (Some(a), Some(b)) => {
                let gone: Vec<&Value> = a.iter().filter(|v| !b.contains(v)).collect();
                let came: Vec<&Value> = b.iter().filter(|v| !a.contains(v)).collect();
                if !gone.is_empty() {
                    self.push(
                        ChangeKind::EnumNarrowed,
                        format!("no longer allows {}", values_text(&gone)),
                        old_at,
                        new_at,
                    );
                }
                if !came.is_empty() {
                    self.push(
                        ChangeKind::EnumWidened,
                        format!("now also allows {}", values_text(&came)),
                        old_at,
                        new_at,
                    );
                }
            }
        }
    }

    /// A bound that moved, as a change of the right kind; `None` is no
    /// bound.
    #[allow(clippy::too_many_arguments)]
    fn moved(
        &mut self,
        tighter: Option<bool>,
        what: &str,
        before: Option<String>,
        after: Option<String>,
        old: Option<Span>,
        new: Option<Span>,
    ) {
        let Some(tighter) = tighter else {
            return;
        };
        let kind = if tighter {
            ChangeKind::BoundTightened
        } else {
            ChangeKind::BoundLoosened
        };
        let text = match (before, after) {
            (None, Some(a)) => format!("now has a {what} {a}"),
            (Some(b), None) => format!("no longer has a {what} (it was {b})"),
            (Some(b), Some(a)) => format!("now has the {what} {a} (it was {b})"),
            (None, None) => return,
        };
        self.push(kind, text, old, new);
    }

    fn numbers(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
    ) {
        // An integer type's range is a bound where both sides are integers;
        // a type that widened to `number` says the rest.
        let integer =
            |x: &SchemaNode| x.has_type(JsonType::Integer) && !x.has_type(JsonType::Number);
        let ranges = integer(on) && integer(nn);
        let (ol, ou) = numeric_bounds(on, ranges);
        let (nl, nu) = numeric_bounds(nn, ranges);
        let span = |id, x: &SchemaNode, ks: [Keyword; 3]| {
            let k = ks.into_iter().find(|k| x.has(*k)).unwrap_or(Keyword::Type);
            Self::at(id, x, k)
        };
        let lows = [Keyword::Minimum, Keyword::ExclusiveMinimum, Keyword::Format];
        let highs = [Keyword::Maximum, Keyword::ExclusiveMaximum, Keyword::Format];
        self.moved(
            lower_moved(&ol, &nl),
            "lower bound",
            bound_text(&ol, true),
            bound_text(&nl, true),
            span(o, on, lows),
            span(n, nn, lows),
        );
        self.moved(
            upper_moved(&ou, &nu),
            "upper bound",
            bound_text(&ou, false),
            bound_text(&nu, false),
            span(o, on, highs),
            span(n, nn, highs),
        );
        let (a, b) = (&on.multiple_of, &nn.multiple_of);
        let tighter = match (a, b) {
            (None, None) => None,
            (None, Some(_)) => Some(Some(true)),
            (Some(_), None) => Some(Some(false)),
            (Some(a), Some(b)) => {
                let (a, b) = (a.as_f64().unwrap_or(1.0), b.as_f64().unwrap_or(1.0));
                let whole = |x: f64| x.is_finite() && x.fract() == 0.0;
                if a == b {
                    None
                } else if a != 0.0 && whole(b / a) {
                    Some(Some(true))
                } else if b != 0.0 && whole(a / b) {
                    Some(Some(false))
                } else {
                    Some(None)
                }
            }
        };
        let text = |m: &Option<serde_json::Number>| m.as_ref().map(|m| m.to_string());
        let (at_o, at_n) = (
            Self::at(o, on, Keyword::MultipleOf),
            Self::at(n, nn, Keyword::MultipleOf),
        );
        match tighter {
            None => {}
            Some(None) => self.push(
                ChangeKind::BoundChanged,
                format!(
                    "now has the `multipleOf` {} (it was {})",
                    text(b).unwrap_or_default(),
                    text(a).unwrap_or_default()
                ),
                at_o,
                at_n,
            ),
            Some(t) => self.moved(t, "`multipleOf`", text(a), text(b), at_o, at_n),
        }
    }

    /// A keyword whose value is text (`pattern`, `format`): added tightens,
    /// removed loosens, replaced is neither.
    fn text_bound(
        &mut self,
        k: Keyword,
        a: Option<&str>,
        b: Option<&str>,
        old: Option<Span>,
        new: Option<Span>,
    ) {
        let name = k.as_str();
        match (a, b) {
            (None, None) => {}
            (a, b) if a == b => {}
            (None, Some(b)) => self.push(
                ChangeKind::BoundTightened,
                format!("now has a `{name}` `{b}`"),
                old,
                new,
            ),
            (Some(a), None) => self.push(
                ChangeKind::BoundLoosened,
                format!("no longer has a `{name}` (it was `{a}`)"),
                old,
                new,
            ),
            (Some(a), Some(b)) => self.push(
                ChangeKind::BoundChanged,
                format!("now has the `{name}` `{b}` (it was `{a}`)"),
                old,
                new,
            ),
        }
    }

    fn strings(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
    ) {
        let count = |c: Option<u64>| c.map(Bound::count);
        let text = |b: &Option<Bound>| b.as_ref().map(|b| b.text.clone());
        let (a, b) = (count(on.min_length), count(nn.min_length));
        self.moved(
            lower_moved(&a, &b),
            "`minLength`",
            text(&a),
            text(&b),
            Self::at(o, on, Keyword::MinLength),
            Self::at(n, nn, Keyword::MinLength),
        );
        let (a, b) = (count(on.max_length), count(nn.max_length));
        self.moved(
            upper_moved(&a, &b),
            "`maxLength`",
            text(&a),
            text(&b),
            Self::at(o, on, Keyword::MaxLength),
            Self::at(n, nn, Keyword::MaxLength),
        );
        self.text_bound(
            Keyword::Pattern,
            on.pattern.as_deref(),
            nn.pattern.as_deref(),
            Self::at(o, on, Keyword::Pattern),
            Self::at(n, nn, Keyword::Pattern),
        );
        // An integer's `format` is its range, compared with the bounds.
        let string_only = |x: &SchemaNode| !accepts(x, JsonType::Integer);
        if string_only(on) || string_only(nn) {
            self.text_bound(
                Keyword::Format,
                on.format.as_deref(),
                nn.format.as_deref(),
                Self::at(o, on, Keyword::Format),
                Self::at(n, nn, Keyword::Format),
            );
        }
    }

    fn arrays(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let count = |c: Option<u64>| c.map(Bound::count);
        let text = |b: &Option<Bound>| b.as_ref().map(|b| b.text.clone());
        let (a, b) = (count(on.min_items), count(nn.min_items));
        self.moved(
            lower_moved(&a, &b),
            "`minItems`",
            text(&a),
            text(&b),
            Self::at(o, on, Keyword::MinItems),
            Self::at(n, nn, Keyword::MinItems),
        );
        // The most items it takes: `maxItems`, or fewer when a tuple closed by
        // `items: false` ends first (the two spellings of one tuple compare equal).
        let (ma, mb) = (most_items(self.old, on), most_items(self.new, nn));
        let (a, b) = (count(ma), count(mb));
        self.moved(
            upper_moved(&a, &b),
            "`maxItems`",
            text(&a),
            text(&b),
            Self::at(o, on, Keyword::MaxItems),
            Self::at(n, nn, Keyword::MaxItems),
        );
        let unique = |x: &SchemaNode| x.unique_items == Some(true);
        if unique(on) != unique(nn) {
            let (kind, text) = if unique(nn) {
                (ChangeKind::BoundTightened, "its items must now be unique")
            } else {
                (
                    ChangeKind::BoundLoosened,
                    "its items no longer need to be unique",
                )
            };
            self.push(
                kind,
                text.to_string(),
                Self::at(o, on, Keyword::UniqueItems),
                Self::at(n, nn, Keyword::UniqueItems),
            );
        }
        // A tuple, position by position: an item is its `prefixItems` entry, or past
        // them what `items` says of the rest.
        let (po, pn) = (
            on.prefix_items.as_deref().unwrap_or_default(),
            nn.prefix_items.as_deref().unwrap_or_default(),
        );
        // A position one side cannot reach is told by the change of `maxItems` above.
        let reaches = |most: Option<u64>, i: usize| most.is_none_or(|m| (i as u64) < m);
        for i in 0..po.len().max(pn.len()) {
            if !(reaches(ma, i) && reaches(mb, i)) {
                continue;
            }
            self.path.push(Step::Item(i));
            self.pair(
                po.get(i).copied().or(on.items),
                pn.get(i).copied().or(nn.items),
                depth + 1,
            );
            self.path.pop();
        }
        // Items past the tuple, when both sides take some.
        if reaches(ma, po.len()) && reaches(mb, pn.len()) {
            self.path.push(Step::Items);
            self.pair(on.items, nn.items, depth + 1);
            self.path.pop();
        }
    }

    fn objects(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let (old, new) = (self.old, self.new);
        for p in on.props() {
            let required = on.is_required(&p.name);
            match nn.property(&p.name) {
                None => {
                    self.path.push(Step::Property(p.name.clone()));
                    self.push(
                        ChangeKind::PropertyRemoved,
                        "was removed".to_string(),
                        Some(p.span),
                        Self::at(n, nn, Keyword::Properties),
                    );
                    self.path.pop();
                }
                Some(q) => {
                    self.path.push(Step::Property(p.name.clone()));
                    self.kept_property(p, required, q, nn, depth);
                    self.path.pop();
                }
            }
        }
        for q in nn.props() {
            if on.property(&q.name).is_some() {
                continue;
            }
            self.path.push(Step::Property(q.name.clone()));
            let (kind, text) = if nn.is_required(&q.name) {
                (ChangeKind::PropertyNowRequired, "is new and required")
            } else {
                (ChangeKind::PropertyAdded, "was added")
            };
            self.push(
                kind,
                text.to_string(),
                Self::at(o, on, Keyword::Properties),
                Some(q.span),
            );
            self.path.pop();
        }
        // Property names are strings: only their values and string bounds can change.
        let names = |s: &Schemas, x: &SchemaNode| x.property_names.map(|i| s.deref(i));
        let (na, nb) = (names(old, on), names(new, nn));
        if na.is_some() || nb.is_some() {
            let (a, b) = (node(old, na), node(new, nb));
            self.path.push(Step::Names);
            self.listed(na, a, nb, b);
            self.strings(na, a, nb, b);
            self.path.pop();
        }
        self.extra_properties(o, on, n, nn, depth);
        self.dependencies(o, on, n, nn);
    }

    /// `dependentRequired`: each property a present one now requires beside it tightens what
    /// the object takes, each it no longer requires loosens it; `dependentSchemas` likewise,
    /// a schema changed being `bound-changed`.
    fn dependencies(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
    ) {
        let pairs = |x: &SchemaNode| -> BTreeSet<(String, String)> {
            x.dependent_required
                .iter()
                .flat_map(|d| d.required.iter().map(|r| (d.name.clone(), r.clone())))
                .collect()
        };
        let (a, b) = (pairs(on), pairs(nn));
        let (at_o, at_n) = (
            Self::at(o, on, Keyword::DependentRequired),
            Self::at(n, nn, Keyword::DependentRequired),
        );
        for (given, wanted) in b.difference(&a) {
            self.push(
                ChangeKind::BoundTightened,
                format!("now requires `{wanted}` when `{given}` is given"),
                at_o,
                at_n,
            );
        }
        for (given, wanted) in a.difference(&b) {
            self.push(
                ChangeKind::BoundLoosened,
                format!("no longer requires `{wanted}` when `{given}` is given"),
                at_o,
                at_n,
            );
        }
        // `dependentSchemas`: a schema the object must match when it has a property, compared
        // by what it validates.
        let applied = |s: &Schemas, x: &SchemaNode| -> std::collections::BTreeMap<String, Value> {
            x.dependent_schemas
                .iter()
                .map(|p| {
                    let json =
                        s.write_json(p.schema, crate::model::schema::JsonOptions::VALIDATION);
                    (p.name.clone(), json)
                })
                .collect()
        };
        let (a, b) = (applied(self.old, on), applied(self.new, nn));
        let (at_o, at_n) = (
            Self::at(o, on, Keyword::DependentSchemas),
            Self::at(n, nn, Keyword::DependentSchemas),
        );
        for name in a.keys().chain(b.keys()).collect::<BTreeSet<_>>() {
            let (kind, text) = match (a.get(name), b.get(name)) {
                (None, Some(_)) => (
                    ChangeKind::BoundTightened,
                    format!("must now match a schema when `{name}` is given"),
                ),
                (Some(_), None) => (
                    ChangeKind::BoundLoosened,
                    format!("no longer has a schema to match when `{name}` is given"),
                ),
                (Some(x), Some(y)) if x != y => (
                    ChangeKind::BoundChanged,
                    format!("has another schema to match when `{name}` is given"),
                ),
                _ => continue,
            };
            self.push(kind, text, at_o, at_n);
        }
    }

    /// A property both versions have: whether it is required, its default, and its schema.
    fn kept_property(
        &mut self,
        p: &Property,
        required: bool,
        q: &Property,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let (old, new) = (self.old, self.new);
        let now = nn.is_required(&q.name);
        if required != now {
            let (kind, text) = if now {
                (ChangeKind::PropertyNowRequired, "is now required")
            } else {
                (ChangeKind::PropertyNowOptional, "is no longer required")
            };
            self.push(kind, text.to_string(), Some(p.span), Some(q.span));
        }
        let (da, db) = (default_of(old, p.schema), default_of(new, q.schema));
        if da != db {
            let text = match (da, db) {
                (None, Some(b)) => format!("now defaults to {}", value_text(b)),
                (Some(a), None) => {
                    format!("no longer has a default (it was {})", value_text(a))
                }
                (Some(a), Some(b)) => format!(
                    "now defaults to {} (it defaulted to {})",
                    value_text(b),
                    value_text(a)
                ),
                (None, None) => String::new(),
            };
            self.push(
                ChangeKind::DefaultChanged,
                text,
                Some(old.get(p.schema).value_span(Keyword::Default)),
                Some(new.get(q.schema).value_span(Keyword::Default)),
            );
        }
        self.pair(Some(p.schema), Some(q.schema), depth + 1);
    }

    /// `additionalProperties`: closed or open, and the schema of the extra properties.
    fn extra_properties(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let (old, new) = (self.old, self.new);
        let (ca, cb) = (on.closed(old), nn.closed(new));
        let (at_o, at_n) = (
            Self::at(o, on, Keyword::AdditionalProperties),
            Self::at(n, nn, Keyword::AdditionalProperties),
        );
        match (ca, cb) {
            (false, true) => self.push(
                ChangeKind::ExtraPropertiesRefused,
                "no longer takes properties beyond the ones it declares".to_string(),
                at_o,
                at_n,
            ),
            (true, false) => self.push(
                ChangeKind::ExtraPropertiesAllowed,
                "now takes properties beyond the ones it declares".to_string(),
                at_o,
                at_n,
            ),
            (true, true) => {}
            (false, false) => {
                // `true` and an absent keyword both take anything.
                let extra = |s: &Schemas, x: &SchemaNode| {
                    x.additional_properties
                        .filter(|a| s.get(*a).boolean != Some(true))
                };
                let (ea, eb) = (extra(old, on), extra(new, nn));
                if ea.is_some() || eb.is_some() {
                    self.path.push(Step::Extra);
                    self.pair(ea, eb, depth + 1);
                    self.path.pop();
                }
            }
        }
    }

    fn all_of_and_not(
        &mut self,
        o: Option<SchemaId>,
        on: &SchemaNode,
        n: Option<SchemaId>,
        nn: &SchemaNode,
        depth: usize,
    ) {
        let (a, b) = (
            on.all_of.clone().unwrap_or_default(),
            nn.all_of.clone().unwrap_or_default(),
        );
        for i in 0..a.len().max(b.len()) {
            match (a.get(i), b.get(i)) {
                (Some(x), Some(y)) => {
                    self.path.push(Step::AllOf(i));
                    self.pair(Some(*x), Some(*y), depth + 1);
                    self.path.pop();
                }
                (None, Some(y)) => self.push(
                    ChangeKind::BoundTightened,
                    format!("has a new `allOf` schema (entry {i})"),
                    Self::at(o, on, Keyword::AllOf),
                    Some(self.new.get(*y).span),
                ),
                (Some(x), None) => self.push(
                    ChangeKind::BoundLoosened,
                    format!("no longer has its `allOf` schema (entry {i})"),
                    Some(self.old.get(*x).span),
                    Self::at(n, nn, Keyword::AllOf),
                ),
                (None, None) => {}
            }
        }
        let (at_o, at_n) = (Self::at(o, on, Keyword::Not), Self::at(n, nn, Keyword::Not));
        match (on.not, nn.not) {
            (None, None) => {}
            (None, Some(_)) => self.push(
                ChangeKind::BoundTightened,
                "now has a `not`".to_string(),
                at_o,
                at_n,
            ),
            (Some(_), None) => self.push(
                ChangeKind::BoundLoosened,
                "no longer has its `not`".to_string(),
                at_o,
                at_n,
            ),
            (Some(x), Some(y)) => {
                if !self.same(Some(x), Some(y), depth) {
                    self.path.push(Step::Not);
                    self.push(
                        ChangeKind::BoundChanged,
                        "has a new `not`".to_string(),
                        at_o,
                        at_n,
                    );
                    self.path.pop();
                }
            }
        }
    }

    /// Whether two schemas mean the same, annotations aside.
    fn same(&mut self, o: Option<SchemaId>, n: Option<SchemaId>, depth: usize) -> bool {
        let mut w = Walker {
            old: self.old,
            new: self.new,
            seen: self.seen.clone(),
            path: Vec::new(),
            out: Vec::new(),
            budget: self.budget,
        };
        w.pair(o, n, depth + 1);
        self.budget = w.budget;
        w.out.iter().all(|f| {
            matches!(
                f.kind,
                ChangeKind::DescriptionChanged | ChangeKind::TitleChanged | ChangeKind::Deprecated
            )
        })
    }

    /// Unions, branch by branch. A side that is no union is one branch.
    fn branches(&mut self, o: Option<SchemaId>, n: Option<SchemaId>, depth: usize) {
        let (old, new) = (self.old, self.new);
        let list = |s: &Schemas,
                    id: Option<SchemaId>|
         -> (Option<Keyword>, Vec<Option<SchemaId>>) {
            let x = node(s, id);
            match (&x.any_of, &x.one_of) {
                (Some(b), _) => (Some(Keyword::AnyOf), b.iter().copied().map(Some).collect()),
                (None, Some(b)) => (Some(Keyword::OneOf), b.iter().copied().map(Some).collect()),
                (None, None) => (None, vec![id]),
            }
        };
        let (ok, ob) = list(old, o);
        let (nk, nb) = list(new, n);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut old_left: Vec<usize> = (0..ob.len()).collect();
        let mut new_left: Vec<usize> = (0..nb.len()).collect();
        // Branches that mean the same, then branches of the same kind, then
        // the rest in order.
        let mut take = |w: &mut Self, matches: &mut dyn FnMut(&mut Self, usize, usize) -> bool| {
            let mut i = 0;
            while i < old_left.len() {
                let a = old_left[i];
                if let Some(j) = new_left.iter().position(|&b| matches(w, a, b)) {
                    pairs.push((a, new_left.remove(j)));
                    old_left.remove(i);
                } else {
                    i += 1;
                }
            }
        };
        take(self, &mut |w, a, b| w.same(ob[a], nb[b], depth));
        let key = |s: &Schemas, id: Option<SchemaId>| {
            let x = node(s, id.map(|i| s.deref(i)));
            let tag = x.props().iter().find_map(|p| {
                s.resolved(p.schema)
                    .const_value
                    .as_ref()
                    .map(|c| (p.name.clone(), c.value.to_string()))
            });
            (accepted(x), tag)
        };
        take(self, &mut |_, a, b| key(old, ob[a]) == key(new, nb[b]));
        take(self, &mut |_, _, _| true);
        for &(a, b) in &pairs {
            self.path.push(match (ok, nk) {
                (_, Some(k)) => Step::Branch(k, b),
                (Some(k), None) => Step::Branch(k, a),
                (None, None) => Step::Branch(Keyword::AnyOf, b),
            });
            self.pair(ob[a], nb[b], depth + 1);
            self.path.pop();
        }
        for a in old_left {
            let span = ob[a].map(|id| old.get(id).span);
            self.path
                .push(Step::Branch(ok.unwrap_or(Keyword::AnyOf), a));
            self.push(
                ChangeKind::VariantRemoved,
                "was removed from the union".to_string(),
                span,
                n.map(|id| new.get(id).span),
            );
            self.path.pop();
        }
        for b in new_left {
            let span = nb[b].map(|id| new.get(id).span);
            self.path
                .push(Step::Branch(nk.unwrap_or(Keyword::AnyOf), b));
            self.push(
                ChangeKind::VariantAdded,
                "was added to the union".to_string(),
                o.map(|id| old.get(id).span),
                span,
            );
            self.path.pop();
        }
    }
}
