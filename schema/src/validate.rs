//! The interpreter behind [`Schema::validate`](super::Schema::validate).

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::pointer::push_pointer;
use crate::tree::{Additional, MAX_VALIDATION_DEPTH, Schema, Types};
use crate::violation::Violation;
use crate::{equal, number};

impl Schema {
    /// Every violation of `value` against this schema, each with its JSON pointer; empty
    /// when `value` is valid.
    pub fn validate(&self, value: &serde_json::Value) -> Vec<Violation> {
        validate(self, value)
    }

    /// Whether `value` is valid; stops at the first violation.
    pub fn is_valid(&self, value: &serde_json::Value) -> bool {
        is_valid(self, value)
    }
}

fn validate(schema: &Schema, value: &Value) -> Vec<Violation> {
    let mut w = Walker::new(true, 0);
    w.eval(schema, value);
    w.out
}

fn is_valid(schema: &Schema, value: &Value) -> bool {
    Walker::new(false, 0).eval(schema, value)
}

enum Seg<'v> {
    Key(&'v str),
    Index(usize),
}

struct Walker<'v> {
    path: Vec<Seg<'v>>,
    out: Vec<Violation>,
    collect: bool,
    depth: usize,
    /// How many `sensitive` schemas the walk is inside: messages there never quote the
    /// value (a number, a length, a property name), only what the schema asks.
    secret: usize,
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if number::is_integer(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn admits(types: Types, v: &Value) -> bool {
    match v {
        Value::Null => types.contains(Types::NULL),
        Value::Bool(_) => types.contains(Types::BOOLEAN),
        Value::Number(n) => {
            types.contains(Types::NUMBER)
                || (types.contains(Types::INTEGER) && number::is_integer(n))
        }
        Value::String(_) => types.contains(Types::STRING),
        Value::Array(_) => types.contains(Types::ARRAY),
        Value::Object(_) => types.contains(Types::OBJECT),
    }
}

fn list<T: std::fmt::Display>(items: &[T]) -> String {
    let mut s = String::new();
    for (i, item) in items.iter().enumerate() {
        if i == 10 {
            let _ = write!(s, ", … ({} more)", items.len() - 10);
            break;
        }
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{item}");
    }
    s
}

/// `, got …` to end a message, or nothing inside a sensitive value (`secret > 0`).
fn got(secret: usize, what: impl std::fmt::Display) -> String {
    if secret > 0 {
        String::new()
    } else {
        format!(", got {what}")
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

impl<'v> Walker<'v> {
    fn new(collect: bool, depth: usize) -> Walker<'v> {
        Walker {
            path: Vec::new(),
            out: Vec::new(),
            collect,
            depth,
            secret: 0,
        }
    }

    fn pointer(&self) -> String {
        let mut p = String::new();
        for seg in &self.path {
            match seg {
                Seg::Key(k) => push_pointer(&mut p, k),
                Seg::Index(i) => {
                    let _ = write!(p, "/{i}");
                }
            }
        }
        p
    }

    fn report(&mut self, message: String) {
        let pointer = self.pointer();
        self.out.push(Violation { pointer, message });
    }

    fn report_at(&mut self, key: &str, message: String) {
        let mut pointer = self.pointer();
        push_pointer(&mut pointer, key);
        self.out.push(Violation { pointer, message });
    }

    /// Validity of `v` against `s` without recording violations.
    fn test(&mut self, s: &Schema, v: &'v Value) -> bool {
        let saved = self.collect;
        self.collect = false;
        let ok = self.eval(s, v);
        self.collect = saved;
        ok
    }

    /// The violations of `v` against `s`, recorded apart.
    fn violations_of(&mut self, s: &Schema, v: &'v Value) -> Vec<Violation> {
        let saved_out = std::mem::take(&mut self.out);
        let saved = self.collect;
        self.collect = true;
        self.eval(s, v);
        self.collect = saved;
        std::mem::replace(&mut self.out, saved_out)
    }

    fn child(&mut self, seg: Seg<'v>, s: &Schema, v: &'v Value) -> bool {
        self.path.push(seg);
        let ok = self.eval(s, v);
        self.path.pop();
        ok
    }

    fn eval(&mut self, s: &Schema, v: &'v Value) -> bool {
        if self.depth >= MAX_VALIDATION_DEPTH {
            if self.collect {
                self.report(format!(
                    "nested too deeply to validate (more than {MAX_VALIDATION_DEPTH} levels of values and references)"
                ));
            }
            return false;
        }
        self.depth += 1;
        let secret = usize::from(s.sensitive);
        self.secret += secret;
        let ok = self.eval_here(s, v);
        self.secret -= secret;
        self.depth -= 1;
        ok
    }

    #[allow(clippy::too_many_lines)]
    fn eval_here(&mut self, s: &Schema, v: &'v Value) -> bool {
        let mut ok = true;
        if let Some(r) = s.target()
            && !self.eval(r, v)
        {
            ok = false;
            if !self.collect {
                return false;
            }
        }

        if !self.basics(s, v) {
            ok = false;
            if !self.collect {
                return false;
            }
        }

        let typed = match v {
            Value::Number(n) => self.number(s, n),
            Value::String(text) => self.string(s, text),
            Value::Array(items) => self.array(s, items),
            Value::Object(map) => self.object(s, map),
            Value::Null | Value::Bool(_) => true,
        };
        if !typed {
            ok = false;
            if !self.collect {
                return false;
            }
        }
        if !self.applicators(s, v) {
            ok = false;
        }
        ok
    }

    /// `type`, `enum` and `const`.
    fn basics(&mut self, s: &Schema, v: &Value) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }

        if s.types != Types::ANY && !admits(s.types, v) {
            if s.types == Types::NONE {
                fail!("no value is allowed here");
            } else {
                fail!(
                    "expected {}, got {}",
                    s.types.names().join(" or "),
                    type_of(v)
                );
            }
        }

        if !s.enum_values.is_empty() && !s.enum_values.iter().any(|e| e.matches(v)) {
            fail!("must be one of {}", list(s.enum_values));
        }
        if let Some(c) = &s.const_value
            && !c.matches(v)
        {
            fail!("must equal {c}");
        }
        ok
    }

    fn applicators(&mut self, s: &Schema, v: &'v Value) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }

        for sub in s.all_of {
            if !self.eval(sub, v) {
                ok = false;
                if !self.collect {
                    return false;
                }
            }
        }
        // `dependentSchemas`: the object matches the schema of each property it has.
        if let Value::Object(map) = v {
            for (key, sub) in s.dependent_schemas {
                if map.contains_key(*key) && !self.eval(sub, v) {
                    ok = false;
                    if !self.collect {
                        return false;
                    }
                }
            }
        }

        if !s.any_of.is_empty() && !s.any_of.iter().any(|b| self.test(b, v)) {
            fail!(
                "does not match any of the {} `anyOf` alternatives",
                s.any_of.len()
            );
            self.explain_closest(s.any_of, v);
        }

        if !s.one_of.is_empty() {
            let matching: Vec<usize> = (0..s.one_of.len())
                .filter(|&i| self.test(s.one_of[i], v))
                .collect();
            match matching.len() {
                1 => {}
                0 => {
                    fail!(
                        "does not match any of the {} `oneOf` alternatives",
                        s.one_of.len()
                    );
                    self.explain_closest(s.one_of, v);
                }
                _ => fail!(
                    "matches {} `oneOf` alternatives (#{}); exactly one must match",
                    matching.len(),
                    list(&matching).replace(", ", ", #")
                ),
            }
        }

        if let Some(n) = s.not
            && self.test(n, v)
        {
            fail!("must not match the `not` schema");
        }

        if let Some(cond) = s.if_ {
            let branch = if self.test(cond, v) { s.then } else { s.else_ };
            if let Some(b) = branch
                && !self.eval(b, v)
            {
                ok = false;
                if !self.collect {
                    return false;
                }
            }
        }

        ok
    }

    fn number(&mut self, s: &Schema, n: &serde_json::Number) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }
        let below = |b: Option<super::Num>, bad: &[Ordering]| {
            b.filter(|b| number::cmp_bound(n, *b).is_some_and(|o| bad.contains(&o)))
        };
        let secret = self.secret;
        if let Some(m) = below(s.minimum, &[Ordering::Less]) {
            fail!("must be >= {m}{}", got(secret, n));
        }
        if let Some(m) = below(s.maximum, &[Ordering::Greater]) {
            fail!("must be <= {m}{}", got(secret, n));
        }
        if let Some(m) = below(s.exclusive_minimum, &[Ordering::Less, Ordering::Equal]) {
            fail!("must be > {m}{}", got(secret, n));
        }
        if let Some(m) = below(s.exclusive_maximum, &[Ordering::Greater, Ordering::Equal]) {
            fail!("must be < {m}{}", got(secret, n));
        }
        if let Some(m) = s.multiple_of
            && !number::is_multiple_of(n, m)
        {
            fail!("must be a multiple of {m}{}", got(secret, n));
        }

        ok
    }

    fn string(&mut self, s: &Schema, text: &str) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }
        if s.min_length.is_some() || s.max_length.is_some() {
            let len = text.chars().count() as u64;
            let secret = self.secret;
            if let Some(min) = s.min_length
                && len < min
            {
                fail!(
                    "must be at least {} long{}",
                    plural(min, "character", "characters"),
                    got(secret, len)
                );
            }
            if let Some(max) = s.max_length
                && len > max
            {
                fail!(
                    "must be at most {} long{}",
                    plural(max, "character", "characters"),
                    got(secret, len)
                );
            }
        }
        if let Some(p) = s.pattern {
            match p.is_match(text) {
                Ok(true) => {}
                Ok(false) => fail!("does not match the pattern {:?}", p.source()),
                Err(e) => fail!(
                    "cannot be checked: the pattern {:?} does not compile: {e}",
                    p.source()
                ),
            }
        }
        if let Some(f) = s.format
            && !f.is_valid(text)
        {
            fail!("is not a valid {}", f.name().unwrap_or("value"));
        }

        ok
    }

    fn array(&mut self, s: &Schema, items: &'v [Value]) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }
        let len = items.len() as u64;
        if let Some(min) = s.min_items
            && len < min
        {
            fail!(
                "must have at least {}, got {len}",
                plural(min, "item", "items")
            );
        }
        if let Some(max) = s.max_items
            && len > max
        {
            fail!(
                "must have at most {}, got {len}",
                plural(max, "item", "items")
            );
        }
        if s.unique_items
            && let Some((i, j)) = equal::first_duplicate(items)
        {
            fail!("items {i} and {j} are equal; items must be unique");
        }
        for (i, item) in items.iter().enumerate() {
            let sub = match s.prefix_items.get(i) {
                Some(p) => Some(*p),
                None => s.items,
            };
            if let Some(sub) = sub
                && !self.child(Seg::Index(i), sub, item)
            {
                ok = false;
                if !self.collect {
                    return false;
                }
            }
        }
        if let Some(c) = s.contains {
            let count = items.iter().filter(|item| self.test(c, item)).count() as u64;
            let min = s.min_contains.unwrap_or(1);
            if count < min {
                fail!(
                    "must contain at least {} matching the `contains` schema, found {count}",
                    plural(min, "item", "items")
                );
            }
            if let Some(max) = s.max_contains
                && count > max
            {
                fail!(
                    "must contain at most {} matching the `contains` schema, found {count}",
                    plural(max, "item", "items")
                );
            }
        }

        ok
    }

    /// After an `anyOf`/`oneOf` miss, records the violations of the closest alternative.
    fn explain_closest(&mut self, branches: &[&Schema], v: &'v Value) {
        let best = branches
            .iter()
            .map(|b| self.violations_of(b, v))
            .min_by_key(Vec::len);
        if let Some(best) = best {
            self.out.extend(best);
        }
    }

    // Over 80 lines: one pass over the object that checks every object keyword. Split, each part
    // would repeat the stop-at-the-first-violation bookkeeping that `fail!` and `sub!` keep here.
    fn object(&mut self, s: &Schema, map: &'v Map<String, Value>) -> bool {
        let mut ok = true;
        macro_rules! fail {
            ($($arg:tt)*) => {{
                ok = false;
                if !self.collect {
                    return false;
                }
                self.report(format!($($arg)*));
            }};
        }
        macro_rules! sub {
            ($e:expr) => {
                if !$e {
                    ok = false;
                    if !self.collect {
                        return false;
                    }
                }
            };
        }

        for r in s.required {
            if !map.contains_key(*r) {
                fail!("missing required property '{r}'");
            }
        }
        let n = map.len() as u64;
        if let Some(min) = s.min_properties
            && n < min
        {
            fail!(
                "must have at least {}, got {n}",
                plural(min, "property", "properties")
            );
        }
        if let Some(max) = s.max_properties
            && n > max
        {
            fail!(
                "must have at most {}, got {n}",
                plural(max, "property", "properties")
            );
        }
        for (key, deps) in s.dependent_required {
            if map.contains_key(*key) {
                for d in *deps {
                    if !map.contains_key(*d) {
                        fail!("property '{key}' requires property '{d}'");
                    }
                }
            }
        }

        for (key, value) in map {
            let mut matched = false;
            for (name, sub) in s.properties {
                if name == key {
                    matched = true;
                    sub!(self.child(Seg::Key(key), sub, value));
                }
            }
            for (pattern, sub) in s.pattern_properties {
                match pattern.is_match(key) {
                    Ok(true) => {
                        matched = true;
                        sub!(self.child(Seg::Key(key), sub, value));
                    }
                    Ok(false) => {}
                    Err(e) => {
                        let message = format!(
                            "cannot be checked: the pattern {:?} does not compile: {e}",
                            pattern.source()
                        );
                        ok = false;
                        if !self.collect {
                            return false;
                        }
                        self.report_at(key, message);
                    }
                }
            }
            if !matched {
                match s.additional_properties {
                    Additional::Allowed => {}
                    Additional::Forbidden => {
                        ok = false;
                        if !self.collect {
                            return false;
                        }
                        let allowed: Vec<&str> = s.properties.iter().map(|(k, _)| *k).collect();
                        let message = if allowed.is_empty() {
                            format!("property '{key}' is not allowed")
                        } else {
                            format!(
                                "property '{key}' is not allowed (expected one of: {})",
                                list(&allowed)
                            )
                        };
                        self.report_at(key, message);
                    }
                    Additional::Schema(sub) => sub!(self.child(Seg::Key(key), sub, value)),
                }
            }
            if let Some(names) = s.property_names {
                // The name is checked as a string instance located at the object.
                let name = Value::String(key.clone());
                let mut w = Walker::new(self.collect, self.depth);
                w.secret = self.secret;
                if !w.eval(names, &name) {
                    ok = false;
                    if !self.collect {
                        return false;
                    }
                    let base = self.pointer();
                    for mut violation in w.out {
                        violation.pointer = base.clone();
                        violation.message = if self.secret > 0 {
                            format!("a property name {}", violation.message)
                        } else {
                            format!("property name '{key}' {}", violation.message)
                        };
                        self.out.push(violation);
                    }
                }
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Num, Schema, Types};
    use serde_json::json;

    static CODE: Schema = Schema {
        types: Types::INTEGER,
        minimum: Some(Num::Int(10)),
        multiple_of: Some(2.0),
        ..Schema::ANY
    };
    static WORD: Schema = Schema {
        types: Types::STRING,
        max_length: Some(3),
        ..Schema::ANY
    };
    static NAMES: Schema = Schema {
        types: Types::STRING,
        max_length: Some(2),
        ..Schema::ANY
    };
    static SECRET: Schema = Schema {
        properties: &[("code", &CODE), ("word", &WORD)],
        property_names: Some(&NAMES),
        sensitive: true,
        ..Schema::ANY
    };
    static PLAIN: Schema = Schema {
        properties: &[("code", &CODE), ("word", &WORD)],
        property_names: Some(&NAMES),
        ..Schema::ANY
    };
    static HOLDER: Schema = Schema {
        properties: &[("secret", &SECRET), ("plain", &PLAIN)],
        ..Schema::ANY
    };

    /// Inside a sensitive value no message quotes the value: not a number, a length, nor a
    /// property name; outside it they do, as before.
    #[test]
    fn messages_inside_a_sensitive_value_do_not_quote_it() {
        let inner = json!({"code": 7, "word": "abcdef", "xyz": 1});
        let v = json!({"secret": inner, "plain": inner});
        // Sorted: the order of an object's keys depends on serde_json's `preserve_order`.
        let mut messages: Vec<String> = HOLDER
            .validate(&v)
            .iter()
            .map(ToString::to_string)
            .collect();
        messages.sort();
        assert_eq!(
            messages,
            [
                "/plain/code: must be >= 10, got 7",
                "/plain/code: must be a multiple of 2, got 7",
                "/plain/word: must be at most 3 characters long, got 6",
                "/plain: property name 'code' must be at most 2 characters long, got 4",
                "/plain: property name 'word' must be at most 2 characters long, got 4",
                "/plain: property name 'xyz' must be at most 2 characters long, got 3",
                "/secret/code: must be >= 10",
                "/secret/code: must be a multiple of 2",
                "/secret/word: must be at most 3 characters long",
                "/secret: a property name must be at most 2 characters long",
                "/secret: a property name must be at most 2 characters long",
                "/secret: a property name must be at most 2 characters long",
            ]
        );
    }
}
