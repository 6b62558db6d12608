//! The schema rewriter behind every dialect: one walk over a bundled
//! canonical schema that builds the provider's form, remembers where each
//! output node came from, and refuses what it cannot express.

use crate::lint::walk::{
    ANNOTATIONS, LISTS, MAPS, MAX_WALK_DEPTH, SINGLE, accepts_null, esc, is_object, required, types,
};
use crate::lint::{Dialect, Hit};
use serde_json::{Map, Number, Value, json};
use std::collections::BTreeMap;

/// How many `$ref`s one schema may inline before the rewriter stops
/// inlining (a diamond of named types grows exponentially when inlined).
pub const INLINE_BUDGET: usize = 10_000;

/// Output pointer → source pointer (into the bundled canonical schema).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origins(BTreeMap<String, String>);

impl Origins {
    /// The source pointer of an output pointer: the nearest recorded
    /// ancestor's source, with the rest of the path appended.
    pub fn source(&self, out: &str) -> String {
        let mut cur = out;
        loop {
            if let Some(src) = self.0.get(cur) {
                return format!("{src}{}", &out[cur.len()..]);
            }
            match cur.rfind('/') {
                Some(i) => cur = &cur[..i],
                None => return out.to_string(),
            }
        }
    }
}

/// A schema in a dialect's form.
#[derive(Debug, Clone, PartialEq)]
pub struct Transformed {
    pub json: Value,
    pub origins: Origins,
    /// What could not be expressed, as hits located in the *source*.
    pub refusals: Vec<Hit>,
    /// Output pointers of nodes left as they were because of a refusal:
    /// rule hits at or under them repeat the refusal and are dropped.
    pub refused: Vec<String>,
}

impl Transformed {
    /// Is `out` at or under a refused node?
    pub fn is_refused(&self, out: &str) -> bool {
        self.refused
            .iter()
            .any(|r| out == r || out.starts_with(&format!("{r}/")))
    }
}

struct Flags {
    inline_refs: bool,
    json_nullable: bool,
    gemini: bool,
    strict_openai: bool,
    close_objects: bool,
    drop_additional_false: bool,
    wrap_ref_siblings: bool,
}

fn flags(d: Dialect) -> Flags {
    let gemini = d.is_gemini_openapi();
    Flags {
        inline_refs: gemini,
        json_nullable: !gemini,
        gemini,
        strict_openai: d.is_openai_strict(),
        close_objects: d.is_openai_strict() || d == Dialect::AnthropicStrict,
        drop_additional_false: d == Dialect::Gemini,
        wrap_ref_siblings: d.is_openai_strict() || d == Dialect::GeminiJsonSchema,
    }
}

struct Rewriter<'a> {
    f: Flags,
    defs: Option<&'a Map<String, Value>>,
    origins: BTreeMap<String, String>,
    refusals: Vec<Hit>,
    refused: Vec<String>,
    inlining: Vec<String>,
    budget: usize,
    /// Synthetic source pointers (of wrappers the rewriter made) → the real
    /// pointer they stand for.
    aliases: Vec<(String, String)>,
    depth: usize,
}

/// Inputs nested deeper than this (JSON levels) are refused whole; the
/// manifest loader never gives one.
pub const MAX_INPUT_DEPTH: usize = 160;

/// Rewrites a bundled canonical schema (named types under `$defs`) into the
/// form `dialect` accepts.
pub fn transform(bundled: &Value, dialect: Dialect) -> Transformed {
    if crate::lint::checks::deeper_than(bundled, MAX_INPUT_DEPTH) {
        let mut h = Hit::at(
            "",
            format!("the schema nests deeper than {MAX_INPUT_DEPTH} levels"),
        );
        h.rule = "nesting-depth";
        return Transformed {
            json: Value::Null,
            origins: Origins::default(),
            refusals: vec![h],
            refused: vec![String::new()],
        };
    }
    let defs = bundled.get("$defs").and_then(Value::as_object);
    let mut rw = Rewriter {
        f: flags(dialect),
        defs,
        origins: BTreeMap::new(),
        refusals: Vec::new(),
        refused: Vec::new(),
        inlining: Vec::new(),
        budget: INLINE_BUDGET,
        aliases: Vec::new(),
        depth: 0,
    };
    let json = rw.root(bundled);
    Transformed {
        json,
        origins: Origins(rw.origins),
        refusals: rw.refusals,
        refused: rw.refused,
    }
}

fn def_name(target: &str) -> Option<&str> {
    target.strip_prefix("#/$defs/").filter(|n| !n.contains('/'))
}

fn only_annotations(m: &Map<String, Value>, except: &[&str]) -> bool {
    m.keys()
        .all(|k| except.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()))
}

fn annotations_of(m: &Map<String, Value>) -> Map<String, Value> {
    m.iter()
        .filter(|(k, _)| ANNOTATIONS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn null_schema() -> Value {
    json!({"type": "null"})
}

fn is_null_schema(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| types(m) == ["null"] && only_annotations(m, &["type"]))
}

impl Rewriter<'_> {
    fn real(&self, src: &str) -> String {
        let mut s = src.to_string();
        for _ in 0..8 {
            let Some((from, to)) = self
                .aliases
                .iter()
                .filter(|(a, _)| s == *a || s.starts_with(&format!("{a}/")))
                .max_by_key(|(a, _)| a.len())
            else {
                break;
            };
            s = format!("{to}{}", &s[from.len()..]);
        }
        s
    }

    fn alias(&mut self, synthetic: String, real: &str) {
        let real = self.real(real);
        if !self.aliases.iter().any(|(a, _)| *a == synthetic) {
            self.aliases.push((synthetic, real));
        }
    }

    #[inline(never)]
    fn record(&mut self, out: &str, src: &str) {
        let real = self.real(src);
        self.origins.insert(out.to_string(), real);
    }

    fn refuse(&mut self, rule: &'static str, src: &str, out: &str, message: String) {
        let mut h = Hit::at(self.real(src), message);
        h.rule = rule;
        self.refusals.push(h);
        self.refused.push(out.to_string());
    }

    fn root(&mut self, bundled: &Value) -> Value {
        let Some(m) = bundled.as_object() else {
            return self.node(bundled, "", "");
        };
        let mut body = m.clone();
        body.remove("$defs");
        // A root `$ref` is inlined for every dialect: providers want the
        // root itself to say `type: object`.
        let mut src = String::new();
        if !self.f.inline_refs
            && let Some(Value::String(t)) = body.get("$ref")
            && let Some(name) = def_name(t)
            && let Some(Value::Object(def)) = self.defs.and_then(|d| d.get(name))
        {
            let mut merged = def.clone();
            for (k, v) in body.iter().filter(|(k, _)| *k != "$ref") {
                merged.insert(k.clone(), v.clone());
            }
            src = format!("/$defs/{}", esc(name));
            body = merged;
        }
        let mut out = self.node(&Value::Object(body), &src, "");
        if !self.f.inline_refs
            && let Some(defs) = self.defs
            && let Value::Object(o) = &mut out
        {
            // Only the definitions still referred to (an inlined root's own
            // definition may be left unused).
            let mut needed = std::collections::BTreeSet::new();
            let mut stack = Vec::new();
            collect_defs(&Value::Object(o.clone()), &mut stack, 0);
            while let Some(name) = stack.pop() {
                if let Some(def) = defs.get(&name)
                    && needed.insert(name)
                {
                    collect_defs(def, &mut stack, 0);
                }
            }
            let mut new_defs = Map::new();
            for (name, def) in defs {
                if needed.contains(name) {
                    let p = format!("/$defs/{}", esc(name));
                    new_defs.insert(name.clone(), self.node(def, &p, &p));
                }
            }
            if !new_defs.is_empty() {
                o.insert("$defs".to_string(), Value::Object(new_defs));
            }
        }
        out
    }

    fn node(&mut self, v: &Value, src: &str, out: &str) -> Value {
        if self.depth > MAX_WALK_DEPTH {
            self.refuse(
                "nesting-depth",
                src,
                out,
                format!("the schema nests deeper than {MAX_WALK_DEPTH} levels"),
            );
            return Value::Null;
        }
        self.depth += 1;
        let r = self.node_inner(v, src, out);
        self.depth -= 1;
        r
    }

    fn node_inner(&mut self, v: &Value, src: &str, out: &str) -> Value {
        self.record(out, src);
        let Value::Object(m) = v else {
            return v.clone();
        };
        if let Some(done) = self.special(m, src, out) {
            return done;
        }
        let mut o = self.children(m, src, out);
        self.post(&mut o);
        Value::Object(o)
    }

    /// The rewrites that replace a node before its children are walked.
    /// Kept out of [`Rewriter::node_inner`] so the frame on every level of
    /// the recursion stays small.
    #[inline(never)]
    fn special(&mut self, m: &Map<String, Value>, src: &str, out: &str) -> Option<Value> {
        if self.f.inline_refs
            && let Some(Value::String(t)) = m.get("$ref")
        {
            return Some(self.inline(m, t, src, out));
        }
        if self.f.json_nullable && m.get("nullable") == Some(&Value::Bool(true)) {
            let mut s = m.clone();
            s.remove("nullable");
            return Some(self.nullable(&s, src, out));
        }
        if self.f.json_nullable && m.get("nullable") == Some(&Value::Bool(false)) {
            let mut s = m.clone();
            s.remove("nullable");
            return Some(self.node(&Value::Object(s), src, out));
        }
        if self.f.gemini
            && let Some(Value::Array(branches)) = m.get("anyOf")
            && branches.iter().any(is_null_schema)
        {
            let others: Vec<(usize, &Value)> = branches
                .iter()
                .enumerate()
                .filter(|(_, b)| !is_null_schema(b))
                .collect();
            if let [(i, Value::Object(b))] = others.as_slice()
                && only_annotations(m, &["anyOf"])
            {
                let mut merged = b.clone();
                merged.extend(annotations_of(m));
                merged.insert("nullable".into(), Value::Bool(true));
                return Some(self.node(&Value::Object(merged), &format!("{src}/anyOf/{i}"), out));
            }
        }
        if self.f.wrap_ref_siblings
            && let Some(Value::String(t)) = m.get("$ref")
            && m.keys()
                .any(|k| k != "$ref" && !(out.is_empty() && k == "$defs"))
            && !m.contains_key("anyOf")
        {
            let mut s = m.clone();
            s.remove("$ref");
            s.insert("anyOf".into(), json!([{"$ref": t}]));
            self.alias(format!("{src}/anyOf/0"), src);
            return Some(self.node(&Value::Object(s), src, out));
        }
        None
    }

    fn inline(&mut self, m: &Map<String, Value>, target: &str, src: &str, out: &str) -> Value {
        let Some(name) = def_name(target) else {
            return Value::Object(m.clone());
        };
        let Some(Value::Object(def)) = self.defs.and_then(|d| d.get(name)) else {
            // Left as is: `ref-dangling` / `gemini-ref-defs` report it.
            return Value::Object(m.clone());
        };
        if self.inlining.iter().any(|n| n == name) {
            self.refuse(
                "recursive-lazy",
                &format!("{src}/$ref"),
                out,
                crate::lint::checks::recursion_message(target),
            );
            return Value::Object(m.clone());
        }
        if self.budget == 0 {
            return Value::Object(m.clone());
        }
        self.budget -= 1;
        let mut merged = def.clone();
        for (k, v) in m.iter().filter(|(k, _)| *k != "$ref") {
            match merged.get(k) {
                Some(existing)
                    if existing != v && !ANNOTATIONS.contains(&k.as_str()) && k != "nullable" =>
                {
                    self.refuse(
                        "ref-with-siblings",
                        &format!("{src}/{}", esc(k)),
                        out,
                        format!("`{k}` beside `$ref: {target}` differs from the `{k}` of type `{name}`, so the two cannot be merged"),
                    );
                    return Value::Object(m.clone());
                }
                _ => {
                    merged.insert(k.clone(), v.clone());
                }
            }
        }
        self.inlining.push(name.to_string());
        let v = self.node(
            &Value::Object(merged),
            &format!("/$defs/{}", esc(name)),
            out,
        );
        self.inlining.pop();
        v
    }

    /// A schema accepting what `s` accepts, and null.
    #[inline(never)]
    fn nullable(&mut self, s: &Map<String, Value>, src: &str, out: &str) -> Value {
        if accepts_null(s) {
            return self.node(&Value::Object(s.clone()), src, out);
        }
        if let Some(Value::String(t)) = s.get("$ref")
            && only_annotations(s, &["$ref"])
        {
            let mut s2 = annotations_of(s);
            s2.insert("anyOf".into(), json!([{"$ref": t}, null_schema()]));
            self.alias(format!("{src}/anyOf/0"), src);
            return self.node(&Value::Object(s2), src, out);
        }
        if let Some(Value::Array(branches)) = s.get("anyOf")
            && only_annotations(s, &["anyOf"])
        {
            let mut s2 = s.clone();
            let mut b = branches.clone();
            b.push(null_schema());
            s2.insert("anyOf".into(), Value::Array(b));
            return self.node(&Value::Object(s2), src, out);
        }
        let composite = ["$ref", "anyOf", "oneOf", "allOf", "not", "const", "if"]
            .iter()
            .any(|k| s.contains_key(*k));
        if !composite && !types(s).is_empty() {
            let mut s2 = s.clone();
            let mut t: Vec<Value> = types(s)
                .into_iter()
                .map(|t| Value::String(t.into()))
                .collect();
            t.push(Value::String("null".into()));
            s2.insert("type".into(), Value::Array(t));
            if let Some(Value::Array(e)) = s2.get_mut("enum") {
                e.push(Value::Null);
            }
            return self.node(&Value::Object(s2), src, out);
        }
        let mut inner = s.clone();
        inner.retain(|k, _| !ANNOTATIONS.contains(&k.as_str()));
        let mut s2 = annotations_of(s);
        s2.insert("anyOf".into(), json!([inner, null_schema()]));
        self.alias(format!("{src}/anyOf/0"), src);
        self.node(&Value::Object(s2), src, out)
    }

    fn strip(&self, k: &str) -> bool {
        if k.starts_with("x-rust-") {
            return true;
        }
        self.f.gemini
            && (k.starts_with("x-") || matches!(k, "$schema" | "$id" | "$comment" | "$anchor"))
    }

    #[inline(never)]
    fn children(&mut self, m: &Map<String, Value>, src: &str, out: &str) -> Map<String, Value> {
        let one_of_as_any_of = (self.f.strict_openai || self.f.gemini)
            && !m.contains_key("anyOf")
            && m.get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|b| disjoint(b, self.defs));
        let req = required(m);
        let mut o = Map::new();
        for (k, v) in m {
            if self.strip(k) || (k == "$defs" && out.is_empty()) {
                continue;
            }
            let key = if k == "oneOf" && one_of_as_any_of {
                "anyOf"
            } else {
                k.as_str()
            };
            let nv = self.child(k, key, v, &req, src, out, &mut o);
            o.insert(key.to_string(), nv);
        }
        o
    }

    /// One keyword of a node: subschemas walked, data copied.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        k: &str,
        key: &str,
        v: &Value,
        req: &[&str],
        src: &str,
        out: &str,
        o: &mut Map<String, Value>,
    ) -> Value {
        let ks = esc(k);
        let ko = esc(key);
        match v {
            Value::Object(sub) if k == "properties" => {
                let mut props = Map::new();
                for (name, p) in sub {
                    let ps = format!("{src}/properties/{}", esc(name));
                    let po = format!("{out}/properties/{}", esc(name));
                    let optional = !req.contains(&name.as_str());
                    let nv = match p {
                        Value::Object(pm) if self.f.strict_openai && optional => {
                            self.nullable(pm, &ps, &po)
                        }
                        _ => self.node(p, &ps, &po),
                    };
                    props.insert(name.clone(), nv);
                }
                Value::Object(props)
            }
            Value::Object(sub) if MAPS.contains(&k) => {
                let mut mm = Map::new();
                for (name, p) in sub {
                    let ps = format!("{src}/{ks}/{}", esc(name));
                    let po = format!("{out}/{ko}/{}", esc(name));
                    mm.insert(name.clone(), self.node(p, &ps, &po));
                }
                Value::Object(mm)
            }
            Value::Array(items) if LISTS.contains(&k) => {
                let mut list = Vec::new();
                let drop_null = self.f.gemini && k == "anyOf";
                for (i, item) in items.iter().enumerate() {
                    if drop_null && is_null_schema(item) {
                        continue;
                    }
                    let ps = format!("{src}/{ks}/{i}");
                    let po = format!("{out}/{ko}/{}", list.len());
                    list.push(self.node(item, &ps, &po));
                }
                if drop_null && list.len() < items.len() {
                    o.insert("nullable".into(), Value::Bool(true));
                }
                Value::Array(list)
            }
            Value::Object(_) | Value::Bool(_) if SINGLE.contains(&k) => {
                self.node(v, &format!("{src}/{ks}"), &format!("{out}/{ko}"))
            }
            _ => v.clone(),
        }
    }

    /// Rewrites of one node whose children are done.
    #[inline(never)]
    fn post(&mut self, o: &mut Map<String, Value>) {
        if self.f.strict_openai {
            if let Some(Value::Object(props)) = o.get("properties") {
                let all: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
                o.insert("required".into(), Value::Array(all));
            }
            if let Some(d) = o.get("default").cloned()
                && !d.is_null()
            {
                o.remove("default");
                append_description(o, &format!("Default: {d}."));
            }
            int_format_to_bounds(o);
        }
        if self.f.close_objects
            && is_object(o)
            && o.contains_key("properties")
            && !o.contains_key("additionalProperties")
        {
            o.insert("additionalProperties".into(), Value::Bool(false));
        }
        if self.f.gemini {
            if let Some(Value::Array(ts)) = o.get("type") {
                let non_null: Vec<Value> = ts
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if non_null.len() == 1 && ts.len() == 2 {
                    o.insert("type".into(), non_null[0].clone());
                    o.insert("nullable".into(), Value::Bool(true));
                    if let Some(Value::Array(e)) = o.get_mut("enum") {
                        e.retain(|v| !v.is_null());
                    }
                }
            }
            if let Some(Value::String(c)) = o.get("const").cloned() {
                let ok = match o.get("enum") {
                    None => true,
                    Some(Value::Array(e)) => e.contains(&Value::String(c.clone())),
                    Some(_) => false,
                };
                if ok && types(o).iter().all(|t| *t == "string") {
                    o.remove("const");
                    o.insert("enum".into(), json!([c]));
                    if !o.contains_key("type") {
                        o.insert("type".into(), json!("string"));
                    }
                }
            }
            if types(o) == ["integer"] {
                exclusive_to_inclusive(o);
            }
            if self.f.drop_additional_false
                && o.get("additionalProperties") == Some(&Value::Bool(false))
            {
                o.remove("additionalProperties");
            }
            match o.get("deprecated") {
                Some(Value::Bool(true)) => {
                    o.remove("deprecated");
                    append_description(o, "Deprecated.");
                }
                Some(Value::Bool(false)) => {
                    o.remove("deprecated");
                }
                _ => {}
            }
        }
    }
}

fn append_description(o: &mut Map<String, Value>, note: &str) {
    let text = match o.get("description").and_then(Value::as_str) {
        Some(d) if !d.trim().is_empty() => format!("{} {note}", d.trim_end()),
        _ => note.to_string(),
    };
    o.insert("description".into(), Value::String(text));
}

/// Integer formats as the bounds they stand for.
fn int_format_range(f: &str) -> Option<(Number, Number)> {
    Some(match f {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" => (0.into(), u64::MAX.into()),
        _ => return None,
    })
}

fn num_f64(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn int_format_to_bounds(o: &mut Map<String, Value>) {
    if types(o).contains(&"integer")
        && let Some(Value::String(f)) = o.get("format")
        && let Some((lo, hi)) = int_format_range(f)
    {
        o.remove("format");
        let tighter_min = o
            .get("minimum")
            .and_then(num_f64)
            .is_none_or(|m| m < lo.as_f64().unwrap_or(f64::MIN));
        if tighter_min {
            o.insert("minimum".into(), Value::Number(lo));
        }
        let tighter_max = o
            .get("maximum")
            .and_then(num_f64)
            .is_none_or(|m| m > hi.as_f64().unwrap_or(f64::MAX));
        if tighter_max {
            o.insert("maximum".into(), Value::Number(hi));
        }
    }
}

/// The inclusive integer bound equal to an exclusive one.
fn inclusive(n: &Number, up: bool) -> Option<Number> {
    if let Some(i) = n.as_i64() {
        return if up {
            i.checked_add(1)
        } else {
            i.checked_sub(1)
        }
        .map(Number::from);
    }
    if let Some(u) = n.as_u64() {
        return if up {
            u.checked_add(1)
        } else {
            u.checked_sub(1)
        }
        .map(Number::from);
    }
    let f = n.as_f64()?;
    let b = if up { f.floor() + 1.0 } else { f.ceil() - 1.0 };
    if b.is_finite() && b.abs() < 9.0e15 {
        Some(Number::from(b as i64))
    } else {
        None
    }
}

fn exclusive_to_inclusive(o: &mut Map<String, Value>) {
    for (ex, inc, up) in [
        ("exclusiveMinimum", "minimum", true),
        ("exclusiveMaximum", "maximum", false),
    ] {
        let Some(Value::Number(n)) = o.get(ex).cloned() else {
            continue;
        };
        let Some(b) = inclusive(&n, up) else { continue };
        let bf = b.as_f64().unwrap_or(0.0);
        let keep_existing = o
            .get(inc)
            .and_then(num_f64)
            .is_some_and(|m| if up { m >= bf } else { m <= bf });
        o.remove(ex);
        if !keep_existing {
            o.insert(inc.into(), Value::Number(b));
        }
    }
}

/// A branch with `$ref`s to named types followed.
fn deref<'a>(v: &'a Value, defs: Option<&'a Map<String, Value>>) -> Option<&'a Map<String, Value>> {
    let mut cur = v;
    for _ in 0..16 {
        match cur.get("$ref").and_then(Value::as_str).and_then(def_name) {
            Some(name) => cur = defs?.get(name)?,
            None => return cur.as_object(),
        }
    }
    None
}

/// A property's single allowed value, from `const` or a one-value `enum`.
fn tag(p: &Value) -> Option<&Value> {
    let m = p.as_object()?;
    m.get("const").or_else(|| match m.get("enum") {
        Some(Value::Array(e)) if e.len() == 1 => e.first(),
        _ => None,
    })
}

/// Do the `oneOf` branches exclude each other, so `anyOf` means the same?
/// Yes when each has a distinct tag on one required property, or each is
/// one distinct primitive type.
pub fn disjoint(branches: &[Value], defs: Option<&Map<String, Value>>) -> bool {
    let maps: Option<Vec<&Map<String, Value>>> = branches.iter().map(|b| deref(b, defs)).collect();
    let Some(maps) = maps else { return false };
    if maps.len() < 2 {
        return !maps.is_empty();
    }
    // A discriminator property.
    if let Some(Value::Object(first)) = maps[0].get("properties") {
        for key in first.keys() {
            let mut tags = Vec::new();
            let ok = maps.iter().all(|m| {
                let req = required(m).contains(&key.as_str());
                match m.get("properties").and_then(|p| p.get(key)).and_then(tag) {
                    Some(t) if req && !tags.contains(&t) => {
                        tags.push(t);
                        true
                    }
                    _ => false,
                }
            });
            if ok {
                return true;
            }
        }
    }
    // Distinct primitive types.
    let mut seen: Vec<&str> = Vec::new();
    for m in &maps {
        match types(m).as_slice() {
            [t] if !seen.contains(t) => seen.push(t),
            _ => return false,
        }
    }
    !(seen.contains(&"integer") && seen.contains(&"number"))
}

/// Is the schema (a transformed root) anything but a plain `type: "object"`,
/// so that it cannot be an MCP `outputSchema`?
pub fn needs_object_wrap(v: &Value) -> bool {
    match v.as_object() {
        Some(m) => {
            m.get("type") != Some(&Value::String("object".into()))
                || accepts_null(m)
                || m.contains_key("anyOf")
                || m.contains_key("oneOf")
        }
        None => true,
    }
}

/// The `$defs` names a schema refers to (data keywords aside).
fn collect_defs(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                if k == "$ref" {
                    if let Some(name) = child.as_str().and_then(def_name) {
                        out.push(name.to_string());
                    }
                } else if !matches!(k.as_str(), "const" | "enum" | "default" | "examples") {
                    collect_defs(child, out, depth + 1);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_defs(i, out, depth + 1)),
        _ => {}
    }
}
