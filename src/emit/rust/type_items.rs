//! Each module's type items (the named types, each group's parameter and return types),
//! printed by whichever thread is free while the rest of the file is printed, then put in
//! place.
//!
//! An item prints the same whatever its neighbours, only its depth matters (`print.rs`), and
//! the type items of a module are made from the Rust plan alone: so they can be printed
//! anywhere, and the file is printed with a gap after each module's head where they go.

use super::attrs::Attrs;
use super::conforms::Inputs;
use super::directions::{Needs, Scope};
use super::items::{ExtraAttrs, Paths, alias_items, item_tokens};
use super::print::{AT_ONCE, Printer};
use crate::diag::Diagnostic;
use crate::model::rust::Module;
use proc_macro2::TokenStream;
use quote::quote;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// A module whose type items are printed apart.
pub(super) struct TypeModule<'a> {
    pub module: &'a Module,
    /// Where the module's types are in the plan of directions.
    pub scope: Scope,
    /// The module's name for attribute selectors: `types`, or the group's name.
    pub name: &'a str,
    /// Its depth in the file: 1 for `types`, 2 for a group's module.
    pub depth: usize,
}

/// The modules whose type items are still to print, taken one at a time by whichever thread
/// is free, and the text of each printed so far.
pub(super) struct Queue<'a> {
    modules: Vec<TypeModule<'a>>,
    /// What the checks of result types read (`conforms.rs`).
    checks: Inputs<'a>,
    next: AtomicUsize,
    texts: Mutex<Vec<Option<String>>>,
}

impl<'a> Queue<'a> {
    pub fn new(modules: Vec<TypeModule<'a>>, checks: Inputs<'a>) -> Self {
        let texts = Mutex::new(vec![None; modules.len()]);
        Queue {
            modules,
            checks,
            next: AtomicUsize::new(0),
            texts,
        }
    }

    /// Prints modules until none is left to take, marking in `attrs` the rules that match
    /// something in them. `attrs` are parsed on the calling thread: their tokens stay on the
    /// thread that made them.
    pub fn work(&self, attrs: &Attrs, needs: &Needs) -> Result<(), Vec<Diagnostic>> {
        let mut printer = Printer::default();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(m) = self.modules.get(i) else { break };
            let text = print(m, self.checks, (attrs, needs), &mut printer)?;
            let mut texts = self.texts.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(t) = texts.get_mut(i) {
                *t = Some(text);
            }
        }
        Ok(())
    }

    /// Every module's text, in order; `None` when one was not printed.
    pub fn texts(self) -> Option<Vec<String>> {
        let texts = self
            .texts
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        texts.into_iter().collect()
    }
}

/// The type items of `m`, printed, each type a result is written from or arguments are read
/// into followed by the check that vouches for its values (`conforms.rs`).
fn print(
    m: &TypeModule<'_>,
    checks: Inputs<'_>,
    (attrs, needs): (&Attrs, &Needs),
    printer: &mut Printer,
) -> Result<String, Vec<Diagnostic>> {
    *attrs.module.borrow_mut() = m.name.to_string();
    let paths = Paths::of(m.module, m.depth > 1);
    let conformance = checks.of(m.module, &paths);
    // An item prints by its depth alone: any heads of that many modules do.
    let heads = vec![quote!(mod __toolc_frame); m.depth];
    // Items are printed a few types at a time: each parse and print has a cost of its own, and
    // a module's items print the same together as one by one.
    let mut batch = TokenStream::new();
    for (n, i) in m.module.items.iter().enumerate() {
        let sensitive = m.module.sensitive.contains(i.name());
        let dirs = needs.get(m.scope, i.name());
        batch.extend(item_tokens(i, &paths, attrs, sensitive, dirs));
        if (dirs.serialize || dirs.deserialize) && conformance.needs_impl(i) {
            let rewritten = super::conforms::may_change_writing(&attrs.attrs_for(i.name()));
            batch.extend(conformance.item_impl(i, rewritten));
        }
        if (n + 1) % AT_ONCE == 0 {
            printer.item(&heads, std::mem::take(&mut batch))?;
        }
    }
    batch.extend(alias_items(&paths));
    printer.item(&heads, batch)?;
    Ok(std::mem::take(&mut printer.out))
}

/// `out` with each of `texts` put at the offset of `gaps` beside it (ascending), moved in place:
/// the file is never copied whole. `None` when a gap is not between two characters, the gaps
/// are out of order, or there are not as many as texts.
pub(super) fn fill(out: String, gaps: &[usize], texts: Vec<String>) -> Option<String> {
    if gaps.len() != texts.len()
        || gaps.iter().any(|&at| !out.is_char_boundary(at))
        || !gaps.is_sorted()
    {
        return None;
    }
    let extra: usize = texts.iter().map(String::len).sum();
    let mut bytes = out.into_bytes();
    let mut end = bytes.len();
    bytes.resize(end + extra, 0);
    let mut shift = extra;
    for (&at, text) in gaps.iter().zip(texts).rev() {
        bytes.copy_within(at..end, at + shift);
        shift -= text.len();
        bytes[at + shift..at + shift + text.len()].copy_from_slice(text.as_bytes());
        end = at;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::fill;

    /// Texts put into gaps in place give what putting them in one after the other in a new
    /// string gives: gaps at the start, at the end, several at one offset, empty texts, texts
    /// of several bytes a character.
    #[test]
    fn filling_gaps_in_place_puts_each_text_at_its_offset() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut below = |bound: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound as u64) as usize
        };
        for _ in 0..500 {
            let out: String = (0..below(40))
                .map(|i| if i % 7 == 0 { 'é' } else { 'a' })
                .collect();
            let bounds: Vec<usize> = (0..=out.len())
                .filter(|&i| out.is_char_boundary(i))
                .collect();
            let mut gaps: Vec<usize> = (0..below(6)).map(|_| bounds[below(bounds.len())]).collect();
            gaps.sort_unstable();
            let texts: Vec<String> = gaps.iter().map(|_| "ж1".repeat(below(4))).collect();
            let mut expected = String::new();
            let mut last = 0;
            for (&at, text) in gaps.iter().zip(&texts) {
                expected.push_str(&out[last..at]);
                expected.push_str(text);
                last = at;
            }
            expected.push_str(&out[last..]);
            assert_eq!(
                fill(out.clone(), &gaps, texts).as_deref(),
                Some(expected.as_str())
            );
        }
        assert_eq!(fill("éa".to_string(), &[1], vec!["x".into()]), None);
        assert_eq!(
            fill("abc".to_string(), &[2, 1], vec![String::new(); 2]),
            None
        );
        assert_eq!(fill("abc".to_string(), &[1], vec![String::new(); 2]), None);
    }
}
