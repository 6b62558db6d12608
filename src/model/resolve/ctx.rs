//! What every part of resolve shares: the context a resolve runs in ([`Ctx`]: the files, the
//! diagnostics, the schema arena), how a schema of the manifest is read into it, and the
//! checks of names and of identifiers that collide.

pub(super) use super::super::manual::{self, RefKind};
pub(super) use super::super::names::{self, check_name, check_tool_name};
pub(super) use super::super::policy::{Approval, AuthLevel, RateLimit, parse_timeout};
pub(super) use super::super::rust;
pub(super) use super::super::schema::{self, SchemaId, Schemas, Validator, read::Reader};
pub(super) use super::super::toolset::*;
pub(super) use crate::diag::{Code, Diagnostic, Span, did_you_mean};
pub(super) use crate::manifest::Loaded;
pub(super) use crate::manifest::node::Node;
pub(super) use crate::manifest::raw::*;
pub(super) use std::collections::{BTreeMap, BTreeSet, HashMap};
pub(super) use std::path::PathBuf;

/// Options of the resolve stage.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// The toolset's name. Default: the first manifest folder's name.
    pub name: Option<String>,
    /// The string formats the Rust type plan reads into their own types
    /// (`uuid::Uuid`, …) instead of `String`. Default: none.
    pub typed_formats: std::collections::BTreeSet<rust::TypedFormat>,
}

/// A schema of the manifest as read and checked. One with errors still has
/// an id, so that the checks after it run on what was read.
#[derive(Debug, Clone, Copy)]
pub(super) struct ReadSchema {
    pub(super) id: SchemaId,
    /// No error was found in it: it can be compiled and validated against.
    pub(super) sound: bool,
}

pub(super) struct Ctx<'a> {
    pub(super) loaded: &'a mut Loaded,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) schemas: Schemas,
    /// The validators of named types examples were checked against (`None`: the type's schema
    /// builds none), by the type's root: tools that return one named type share one.
    pub(super) validators: HashMap<SchemaId, Option<Validator>>,
}

impl Ctx<'_> {
    pub(super) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reads one schema of the manifest, links its `$ref`s and checks it.
    /// `what` names the schema in messages.
    pub(super) fn schema(&mut self, node: &Node, what: &str) -> ReadSchema {
        let mut found = Vec::new();
        let id = Reader::new(&mut self.schemas, &mut found).read(node);
        schema::read::link(&mut self.schemas, id, what, &mut found);
        schema::read::promote(&mut self.schemas, id);
        schema::check::check_tree(&self.schemas, id, &mut found);
        let sound = !found.iter().any(Diagnostic::is_error);
        self.diags.extend(found);
        ReadSchema { id, sound }
    }

    pub(super) fn unknown_ref<'n>(
        &mut self,
        kind: &str,
        name: &Sp<String>,
        candidates: impl IntoIterator<Item = &'n str>,
        help_none: &str,
    ) {
        let mut d = Diagnostic::new(
            Code::UnknownReference,
            format!("there is no {kind} named `{}`", name.value),
        )
        .at(name.span);
        d = match did_you_mean(&name.value, candidates) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(help_none.to_string()),
        };
        self.push(d);
    }

    pub(super) fn required_text(&mut self, v: &Option<Sp<String>>, what: &str) -> String {
        match v {
            Some(s) if s.value.trim().is_empty() => {
                self.push(
                    Diagnostic::new(
                        Code::EmptyDescription,
                        format!("the description of {what} is empty"),
                    )
                    .at(s.span)
                    .help("say what it does in a sentence"),
                );
                String::new()
            }
            Some(s) => s.value.clone(),
            // A missing key was reported by the loader.
            None => String::new(),
        }
    }
}

/// The scope type a toolbox or agent names, which must be a named type.
pub(super) fn scope_type(
    ctx: &mut Ctx<'_>,
    s: &Sp<String>,
    types: &BTreeMap<String, NamedType>,
) -> Option<String> {
    if types.contains_key(&s.value) {
        return Some(s.value.clone());
    }
    ctx.unknown_ref(
        "type",
        s,
        types.keys().map(String::as_str),
        "define the scope type under `types:`",
    );
    None
}

/// Checks a name and reports the problem at its span.
pub(super) fn name_ok(ctx: &mut Ctx<'_>, name: &Sp<String>, what: &str) -> bool {
    name_reported(ctx, name, what, check_name(&name.value))
}

/// Checks a tool's or play's name, which may hold capitals.
pub(super) fn tool_name_ok(ctx: &mut Ctx<'_>, name: &Sp<String>, what: &str) -> bool {
    name_reported(ctx, name, what, check_tool_name(&name.value))
}

pub(super) fn name_reported(
    ctx: &mut Ctx<'_>,
    name: &Sp<String>,
    what: &str,
    checked: Result<(), (String, String)>,
) -> bool {
    match checked {
        Ok(()) => true,
        Err((msg, help)) => {
            ctx.push(
                Diagnostic::new(Code::InvalidName, format!("{what}: {msg}"))
                    .at(name.span)
                    .help(help),
            );
            false
        }
    }
}

/// Gathers one section from every file; a name defined twice is reported
/// with both places and the first definition kept.
pub(super) fn gather<'f, T>(
    ctx: &mut Ctx<'_>,
    files: &'f [RawFile],
    kind: &str,
    section: impl Fn(&'f RawFile) -> &'f [Named<T>],
) -> Vec<&'f Named<T>> {
    let mut first: HashMap<&str, Span> = HashMap::new();
    let mut out = Vec::new();
    for f in files {
        for n in section(f) {
            if let Some(prev) = first.get(n.name.value.as_str()) {
                ctx.push(
                    Diagnostic::new(
                        Code::DuplicateName,
                        format!("{kind} `{}` is defined twice", n.name.value),
                    )
                    .at(n.name.span)
                    .label("defined again here")
                    .secondary(*prev, "first defined here")
                    .help(format!(
                        "rename one of them; {kind} names are unique across all manifest files"
                    )),
                );
                continue;
            }
            first.insert(&n.name.value, n.name.span);
            out.push(n);
        }
    }
    out
}

/// Reports names that differ but become the same Rust identifier, in snake
/// case or in Pascal case (`a_1` and `a1` are both `A1`). `kinds` is the
/// plural used in the message.
pub(super) fn ident_collisions<'n>(
    ctx: &mut Ctx<'_>,
    kinds: &str,
    items: impl IntoIterator<Item = (&'n str, &'n Idents, Span)>,
) {
    let mut seen: HashMap<String, (&str, Span)> = HashMap::new();
    for (name, idents, span) in items {
        let snake = idents.snake.to_string();
        let clash = [snake.as_str(), idents.pascal.as_str()]
            .into_iter()
            .find_map(|ident| seen.get(ident).map(|&(other, at)| (ident, other, at)));
        match clash {
            Some((ident, other, other_span)) => ctx.push(
                Diagnostic::new(
                    Code::IdentCollision,
                    format!(
                        "{kinds} `{other}` and `{name}` both become the Rust identifier `{ident}`"
                    ),
                )
                .at(span)
                .secondary(other_span, format!("`{other}` is here"))
                .help("rename one of them so they differ by more than `-`, `_` and case"),
            ),
            None => {
                seen.insert(snake, (name, span));
                seen.entry(idents.pascal.clone()).or_insert((name, span));
            }
        }
    }
}
