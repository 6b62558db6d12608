//! Schema facts checked once every schema of the toolset is read and linked:
//! `required` names that the object does not declare, defaults and examples
//! that break their own schema, and patterns the generated validators cannot
//! run.
//!
//! One default that breaks its schema is read rather than refused: `null`.
//! pydantic and FastMCP write `default: null` for an optional argument whose
//! schema leaves null out (`name: str = None`), meaning "absent is none". It
//! is a note, and the Rust plan applies no default ([`null_default_unapplied`]):
//! the field is an `Option` and an absent value stays absent.

use super::node::{Data, SchemaId, SchemaNode};
use super::{Schemas, TypeRef, Validator};
use crate::diag::{Code, Diagnostic, Severity, Span};

/// Runs every check on the tree under `root` (named types are checked as
/// their own roots).
pub fn check_tree(schemas: &Schemas, root: SchemaId, diags: &mut Vec<Diagnostic>) {
    schemas.walk(root, &mut |id, _| check_node(schemas, id, diags));
}

fn check_node(schemas: &Schemas, id: SchemaId, diags: &mut Vec<Diagnostic>) {
    let n = schemas.get(id);
    if !n.required.is_empty() {
        check_required(schemas, n, diags);
    }
    if let Some(p) = &n.pattern {
        check_pattern(p, n.value_span(super::Keyword::Pattern), diags);
    }
    if n.default.is_some() || n.examples.is_some() {
        check_default_and_examples(schemas, id, diags);
    }
}

/// Every name in `required` is declared under `properties` (of the node, of the named type a
/// `$ref` beside it brings, or, in a schema of `dependentSchemas`, of the object it applies to).
fn check_required(schemas: &Schemas, n: &SchemaNode, diags: &mut Vec<Diagnostic>) {
    // A `$ref` beside `required` brings its type's properties.
    let target = match n.reference.as_deref() {
        Some(TypeRef {
            target: Some(t), ..
        }) => Some(schemas.resolved(*t)),
        _ => None,
    };
    // `dependentSchemas: {card: {required: [address]}}` applies to the object itself.
    let applied_to = match &n.parent {
        Some((parent, step)) if step.keyword == super::Keyword::DependentSchemas => {
            Some(schemas.get(*parent))
        }
        _ => None,
    };
    for r in &n.required {
        let declared = n.property(&r.name).is_some()
            || target.is_some_and(|t| t.property(&r.name).is_some())
            || applied_to.is_some_and(|o| o.property(&r.name).is_some());
        if !declared {
            let names: Vec<&str> = n
                .props()
                .iter()
                .chain(applied_to.map(SchemaNode::props).unwrap_or_default())
                .map(|p| p.name.as_str())
                .collect();
            let help = match crate::diag::did_you_mean(&r.name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "declare `{}` under `properties`, or remove it from `required`",
                    r.name
                ),
            };
            diags.push(
                Diagnostic::new(
                    Code::UndeclaredRequired,
                    format!(
                        "`required` names `{}`, which this object does not declare under `properties`",
                        r.name
                    ),
                )
                .at(r.span)
                .help(help),
            );
        }
    }
}

/// The pattern is one the generated validators can run.
fn check_pattern(p: &str, at: Span, diags: &mut Vec<Diagnostic>) {
    if let Some(construct) = unsupported_regex_construct(p) {
        diags.push(
            Diagnostic::new(
                Code::UnsupportedPattern,
                format!("`pattern` has {construct}, which the generated validators cannot run"),
            )
            .at(at)
            .help("rewrite the pattern without look-around and back-references (the Rust `regex` syntax), or drop it and say the rule in the description"),
        );
    } else if let Err(e) = regex_syntax::Parser::new().parse(p) {
        let reason = e.to_string();
        let reason = reason.lines().last().unwrap_or("").trim();
        diags.push(
            Diagnostic::new(
                Code::InvalidSchema,
                format!("`pattern` is not a valid regular expression: {reason}"),
            )
            .at(at)
            .help("fix the regular expression (ECMA-262 syntax, as JSON Schema uses)"),
        );
    }
}

/// The default and every example are values the schema accepts.
fn check_default_and_examples(schemas: &Schemas, id: SchemaId, diags: &mut Vec<Diagnostic>) {
    let n = schemas.get(id);
    let Some(validator) = schemas.validator(id) else {
        return;
    };
    if let Some(d) = &n.default
        && d.value.is_null()
        && !validator.accepts(&d.value)
    {
        diags.push(
            Diagnostic::new(
                Code::InvalidDefault,
                "the default `null` does not match its schema: it is read as no default, so an absent value stays absent",
            )
            .severity(Severity::Note)
            .at(d.span)
            .help("if null is a value, make the schema nullable (`type: [T, \"null\"]`); else drop the default"),
        );
    } else if let Some(d) = &n.default {
        check_value(
            validator,
            d,
            "the default",
            Code::InvalidDefault,
            "fix the default, or the schema if the default is right",
            diags,
        );
    }
    if let Some(examples) = &n.examples
        && let Data { value, span } = &**examples
        && let serde_json::Value::Array(items) = value
    {
        for (i, item) in items.iter().enumerate() {
            check_value(
                validator,
                &Data {
                    value: item.clone(),
                    span: *span,
                },
                &format!("example {} of `examples`", i + 1),
                Code::InvalidExample,
                "fix the example, or the schema if the example is right",
                diags,
            );
        }
    }
}

/// Whether the schema at `id` has a `default: null` (its own, or its named
/// type's) that it does not accept: such a default is not applied.
pub fn null_default_unapplied(schemas: &Schemas, id: SchemaId) -> bool {
    let d = schemas
        .get(id)
        .default
        .as_ref()
        .or(schemas.resolved(id).default.as_ref());
    d.is_some_and(|d| d.value.is_null())
        && schemas
            .validator(id)
            .is_some_and(|v| !v.accepts(&serde_json::Value::Null))
}

fn check_value(
    validator: Validator,
    d: &Data,
    what: &str,
    code: Code,
    help: &str,
    diags: &mut Vec<Diagnostic>,
) {
    for v in validator.violations(&d.value) {
        let at = if v.pointer.is_empty() {
            String::new()
        } else {
            format!(" at `{}`", v.pointer)
        };
        diags.push(
            Diagnostic::new(
                code,
                format!(
                    "{what} `{}` does not match its schema{at}: {}",
                    short(&d.value),
                    v.message
                ),
            )
            .at(d.span)
            .help(help.to_string()),
        );
    }
}

/// A value for a message, cut short when long.
fn short(v: &serde_json::Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The first construct of a pattern that a finite-automaton regex engine
/// (the generated validators' `regex` crate) has no support for.
pub fn unsupported_regex_construct(pattern: &str) -> Option<&'static str> {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    let mut in_class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if let Some(&next) = bytes.get(i + 1)
                    && !in_class
                    && ((next.is_ascii_digit() && next != b'0') || next == b'k')
                {
                    return Some("a back-reference");
                }
                i += 2;
                continue;
            }
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'(' if !in_class => {
                let rest = &pattern[i..];
                if rest.starts_with("(?=") || rest.starts_with("(?!") {
                    return Some("a look-ahead");
                }
                if rest.starts_with("(?<=") || rest.starts_with("(?<!") {
                    return Some("a look-behind");
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::unsupported_regex_construct;

    #[test]
    fn regex_constructs_the_validators_cannot_run() {
        assert_eq!(
            unsupported_regex_construct("^(?=.*[0-9]).+$"),
            Some("a look-ahead")
        );
        assert_eq!(
            unsupported_regex_construct("(?<!x)y"),
            Some("a look-behind")
        );
        assert_eq!(
            unsupported_regex_construct("(a)\\1"),
            Some("a back-reference")
        );
        assert_eq!(unsupported_regex_construct("^[a-z]+\\d\\\\1[(?=]$"), None);
        assert_eq!(unsupported_regex_construct("^(?:a|b)\\0$"), None);
    }
}
