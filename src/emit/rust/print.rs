//! Printing the generated file one item at a time, with the bytes `prettyplease` gives
//! the whole file.
//!
//! Parsing and printing the file as one `syn::File` held its whole token stream and syntax
//! tree at once: most of the memory of `toolc build` (gigabytes at 10,000 tools). Items are
//! printed independently (`prettyplease` ends each with a hard break, and nothing in an
//! item's layout depends on its neighbours, only on its indentation), so each item is
//! parsed and printed on its own, inside the heads of the modules that enclose it, and
//! the enclosing lines are cut off again: the text is the same, and what is held at once is
//! one item.

use super::arrays::Arrays;
use super::error;
use crate::diag::Diagnostic;
use proc_macro2::TokenStream;
use quote::quote;

/// The generated file's text, built item by item.
#[derive(Default)]
pub(super) struct Printer {
    pub out: String,
    /// The text a chain of module heads puts before and after an item (by chain length).
    frames: Vec<(Vec<String>, Frame)>,
    /// The text `depth` bare modules put around an item, by depth: what an item is printed in.
    bare: Vec<Frame>,
}

#[derive(Clone)]
struct Frame {
    before: String,
    after: String,
}

fn unparse(tokens: TokenStream) -> Result<String, Vec<Diagnostic>> {
    let parsed: syn::File = syn::parse2(tokens).map_err(|e| {
        vec![error(
            format!("internal error: generated code does not parse: {e}"),
            "please report this with the manifest that caused it",
        )]
    })?;
    Ok(prettyplease::unparse(&parsed))
}

/// `item` inside the modules of `heads` (outermost first), each head being a module's
/// attributes, visibility and `mod name`.
fn wrap(heads: &[TokenStream], item: TokenStream) -> TokenStream {
    heads
        .iter()
        .rev()
        .fold(item, |inner, head| quote!(#head { #inner }))
}

fn internal(what: &str) -> Vec<Diagnostic> {
    vec![error(
        format!("internal error: {what}"),
        "please report this with the manifest that caused it",
    )]
}

impl Printer {
    /// The frames of the modules `heads` and of the module `head` inside them: what
    /// [`Printer::open`] and [`Printer::close`] print is the difference.
    fn frame_pair(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
    ) -> Result<(Frame, Frame), Vec<Diagnostic>> {
        let outer = self.frame(heads)?;
        let inner = self.frame(&[heads, std::slice::from_ref(head)].concat())?;
        Ok((outer, inner))
    }

    /// What the modules of `heads` print around an item inside them.
    fn frame(&mut self, heads: &[TokenStream]) -> Result<Frame, Vec<Diagnostic>> {
        let key: Vec<String> = heads.iter().map(ToString::to_string).collect();
        if let Some((_, f)) = self.frames.iter().find(|(k, _)| *k == key) {
            return Ok(f.clone());
        }
        let frame = if heads.is_empty() {
            Frame {
                before: String::new(),
                after: String::new(),
            }
        } else {
            const MARK: &str = "struct __ToolcPrintMark;";
            let text = unparse(wrap(
                heads,
                quote!(
                    struct __ToolcPrintMark;
                ),
            ))?;
            let at = text
                .find(MARK)
                .ok_or_else(|| internal("no print mark in a module frame"))?;
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = at + MARK.len() + 1;
            Frame {
                before: text[..start].to_string(),
                after: text.get(end..).unwrap_or_default().to_string(),
            }
        };
        self.frames.push((key, frame.clone()));
        Ok(frame)
    }

    /// Prints `item` (one or more items) inside the modules of `heads`. The item is printed
    /// inside as many bare modules (`mod __toolc_frame { .. }`): an item's layout depends on its
    /// indentation only, and bare heads are not parsed and printed again with each item, as
    /// the real ones, with their docs, would be.
    pub fn item(
        &mut self,
        heads: &[TokenStream],
        item: TokenStream,
    ) -> Result<(), Vec<Diagnostic>> {
        if item.is_empty() {
            return Ok(());
        }
        let bare = vec![quote!(mod __toolc_frame); heads.len()];
        let frame = match self.bare.get(heads.len()) {
            Some(frame) => frame.clone(),
            None => {
                for depth in self.bare.len()..=heads.len() {
                    let frame = self.frame(&bare[..depth])?;
                    self.bare.push(frame);
                }
                self.bare[heads.len()].clone()
            }
        };
        let text = unparse(wrap(&bare, item))?;
        let inner = text
            .strip_prefix(frame.before.as_str())
            .and_then(|t| t.strip_suffix(frame.after.as_str()))
            .ok_or_else(|| internal("an item printed outside its module frame"))?;
        self.out.push_str(inner);
        Ok(())
    }

    /// Prints `item` as [`Printer::item`] does, with the long arrays that `arrays` holds for
    /// it spliced in where its markers were printed.
    pub fn item_with_arrays(
        &mut self,
        heads: &[TokenStream],
        item: TokenStream,
        arrays: Arrays,
    ) -> Result<(), Vec<Diagnostic>> {
        let start = self.out.len();
        self.item(heads, item)?;
        let printed = self.out.split_off(start);
        let spliced = arrays
            .splice(&printed)
            .ok_or_else(|| internal("an array printed where it cannot be spliced"))?;
        self.out.push_str(&spliced);
        Ok(())
    }

    /// Opens the module `head` inside the modules of `heads`: its lines before its first
    /// item. [`Printer::close`] with the same heads ends it; a module without items is
    /// printed whole with [`Printer::item`] instead (`mod m {}`).
    pub fn open(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
    ) -> Result<(), Vec<Diagnostic>> {
        let (outer, inner) = self.frame_pair(heads, head)?;
        let lines = inner
            .before
            .strip_prefix(outer.before.as_str())
            .ok_or_else(|| internal("a module head printed outside its frame"))?;
        self.out.push_str(lines);
        Ok(())
    }

    /// Closes the module `head` opened with [`Printer::open`].
    pub fn close(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
    ) -> Result<(), Vec<Diagnostic>> {
        let (outer, inner) = self.frame_pair(heads, head)?;
        let lines = inner
            .after
            .strip_suffix(outer.after.as_str())
            .ok_or_else(|| internal("a module end printed outside its frame"))?;
        self.out.push_str(lines);
        Ok(())
    }

    /// Prints the module `head` with `items`, each printed on its own.
    pub fn module(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
        items: impl IntoIterator<Item = TokenStream>,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut items = items.into_iter().filter(|i| !i.is_empty()).peekable();
        if items.peek().is_none() {
            return self.item(heads, quote!(#head {}));
        }
        self.open(heads, head)?;
        let chain = [heads, std::slice::from_ref(head)].concat();
        for item in items {
            self.item(&chain, item)?;
        }
        self.close(heads, head)
    }
}
