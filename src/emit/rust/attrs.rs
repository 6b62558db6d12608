//! The attributes a build script adds to generated types (`Builder::attribute`): each rule
//! parsed once, applied where its selector names a type, and which rules matched recorded, so
//! that a rule that matched nothing can be reported.

use super::items::ExtraAttrs;
use crate::diag::{Code, Diagnostic};
use proc_macro2::TokenStream;

/// Which generated types an extra attribute goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrRule {
    /// `*` (every type), `Name` (a type of that name in any module) or
    /// `module::Name` (`types`, or a toolbox or playbook name).
    pub selector: String,
    /// One attribute, such as `#[derive(Hash)]`.
    pub attribute: String,
}

/// Parsed extra attributes with a record of which rules matched.
pub(super) struct Attrs {
    pub(super) rules: Vec<(AttrRule, TokenStream)>,
    pub(super) used: std::cell::RefCell<Vec<bool>>,
    pub(super) module: std::cell::RefCell<String>,
}

impl Attrs {
    /// The rules of `attributes` that are one attribute each, and an error for each other.
    pub(super) fn new(attributes: &[AttrRule]) -> (Attrs, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut rules = Vec::new();
        for rule in attributes {
            match syn::parse_str::<syn::File>(&format!("{} struct S;", rule.attribute)) {
                Ok(f) if matches!(f.items.as_slice(), [syn::Item::Struct(s)] if s.attrs.len() == 1) =>
                {
                    rules.push((
                        rule.clone(),
                        rule.attribute.parse::<TokenStream>().unwrap_or_default(),
                    ));
                }
                _ => diags.push(
                    Diagnostic::new(
                        Code::UnsupportedSchema,
                        format!("`{}` is not one Rust attribute", rule.attribute),
                    )
                    .help("write it as it would stand on a type, such as `#[derive(Hash)]`"),
                ),
            }
        }
        let attrs = Attrs {
            used: std::cell::RefCell::new(vec![false; rules.len()]),
            rules,
            module: std::cell::RefCell::new(String::new()),
        };
        (attrs, diags)
    }
}

impl ExtraAttrs for Attrs {
    fn attrs_for(&self, name: &str) -> TokenStream {
        let module = self.module.borrow();
        let mut out = TokenStream::new();
        for (i, (rule, tokens)) in self.rules.iter().enumerate() {
            let hit = match rule.selector.split_once("::") {
                Some((m, n)) => m == module.as_str() && n == name,
                None => rule.selector == "*" || rule.selector == name,
            };
            if hit {
                self.used.borrow_mut()[i] = true;
                out.extend(tokens.clone());
            }
        }
        out
    }
}
