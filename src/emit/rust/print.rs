//! Printing the generated file a few items at a time, with the bytes `prettyplease` gives
//! the whole file.
//!
//! Parsing and printing the file as one `syn::File` held its whole token stream and syntax
//! tree at once: most of the memory of `toolc build` (gigabytes at 10,000 tools). Items are
//! printed independently (`prettyplease` ends each with a hard break, and nothing in an
//! item's layout depends on its neighbours, only on its indentation), so each item is
//! parsed and printed on its own, inside the heads of the modules that enclose it, and
//! the enclosing lines are cut off again: the text is the same, and what is held at once is
//! one item, or a few small ones (each round trip through `syn` and `prettyplease` has a cost
//! of its own, so small pieces go through [`AT_ONCE`] at a time).
//!
//! The biggest items go further ([`Piece`]): a trait or impl block is printed a few members
//! at a time ([`Printer::block`]) and an item holding one long array a few elements at a time
//! ([`Printer::array`]), inside a bare block or array of their own. `syn` and
//! `prettyplease` took longer per byte the bigger the item (the trait of 1,000 tools was half
//! the time of the Rust), and such an item's tree was the heap's peak.

use super::arrays::Arrays;
use crate::diag::Code;
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
    /// The text a bare trait or impl block in `depth` bare modules puts around one of its
    /// members, by block kind and depth: what a member is printed in.
    members: Vec<((Block, usize), Frame)>,
    /// The text a bare array of two elements in `depth` bare modules prints around one of
    /// them, and the line of the marker that is the other, by depth.
    elements: Vec<(Frame, String)>,
}

/// What one piece of a module is printed as.
pub(super) enum Piece<'a> {
    /// An item, printed whole.
    Item(TokenStream),
    /// A trait or impl block printed a few members at a time: `head` is the item up to its
    /// braces (docs and attributes, `pub trait Name: Bounds`, `impl<T> Trait for Type`);
    /// `at_once`: how many members are printed together ([`AT_ONCE`] for small ones, 1 for
    /// members as big as items).
    Block {
        head: TokenStream,
        members: Box<dyn Iterator<Item = TokenStream> + 'a>,
        at_once: usize,
    },
    /// An item holding one long array, printed a few elements at a time: `head [elements] tail`.
    Array {
        head: TokenStream,
        elements: Box<dyn Iterator<Item = TokenStream> + 'a>,
        tail: TokenStream,
    },
}

impl Piece<'_> {
    /// `head [elements] tail` (`pub static NAME: [Type; N] =`, the elements, `;`) printed a
    /// few elements at a time.
    pub fn array<'a>(
        head: TokenStream,
        elements: impl Iterator<Item = TokenStream> + 'a,
        tail: TokenStream,
    ) -> Piece<'a> {
        Piece::Array {
            head,
            elements: Box::new(elements),
            tail,
        }
    }
}

impl From<TokenStream> for Piece<'_> {
    fn from(item: TokenStream) -> Self {
        Piece::Item(item)
    }
}

/// The kind of a block printed a few members at a time: `prettyplease` lays out the members of a
/// trait and of an impl block by different rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    Trait,
    Impl,
}

/// An element that prints on a line of its own: longer than a line, so that an array holding
/// it breaks its lines as an array of many elements does.
fn element_mark() -> (TokenStream, String) {
    let mark = format!("__toolc_print_mark_{}", "x".repeat(MARGIN));
    let tokens = proc_macro2::Ident::new(&mark, proc_macro2::Span::call_site());
    (quote!(#tokens), mark)
}

/// A member that prints on a line of its own, in a trait as in an impl block: where a block's
/// members go in its printed text.
const MEMBER_MARK: &str = "const __TOOLC_PRINT_MARK: () = ();";

#[derive(Clone)]
struct Frame {
    before: String,
    after: String,
}

fn unparse(tokens: TokenStream) -> Result<String, Vec<Diagnostic>> {
    let parsed: syn::File = syn::parse2(tokens)
        .map_err(|e| internal(&format!("generated code does not parse: {e}")))?;
    Ok(prettyplease::unparse(&parsed))
}

/// `item` inside the modules of `heads` (outermost first), each head being a module's
/// attributes, visibility and `mod name`.
fn wrap(heads: &[TokenStream], item: TokenStream) -> TokenStream {
    heads
        .iter()
        .rev()
        .fold(item, |inner, head| braced(head, inner))
}

/// `head { inner }`, with `inner` moved in where `quote!` would copy its tokens (1% of the
/// instructions of a 1,000-tool build).
fn braced(head: &TokenStream, inner: TokenStream) -> TokenStream {
    let mut out = head.clone();
    out.extend([proc_macro2::TokenTree::Group(proc_macro2::Group::new(
        proc_macro2::Delimiter::Brace,
        inner,
    ))]);
    out
}

/// `text` without what `frame` puts before and after it.
fn strip<'t>(text: &'t str, frame: &Frame) -> Option<&'t str> {
    text.strip_prefix(frame.before.as_str())?
        .strip_suffix(frame.after.as_str())
}

/// The text before the last line that holds `mark` and the text after that line. The last:
/// a mark follows the docs of the heads around it, which are the manifest's text and may
/// quote it.
fn around<'t>(text: &'t str, mark: &str) -> Option<(&'t str, &'t str)> {
    let at = text.rfind(mark)?;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    Some((&text[..start], &text[end..]))
}

/// How many members of a block, elements of an array or type items of a module are printed at
/// once: each parse and print has a cost of its own, and the text of a few together is theirs
/// one by one.
pub(super) const AT_ONCE: usize = 16;

/// `prettyplease`'s line width: no line holds more.
const MARGIN: usize = 89;

/// A width `tokens` cannot print in less on one line: their text without the spaces between,
/// the commas (a trailing one is dropped on one line) and the attributes (a doc prints as a
/// comment) left out.
fn flat_len(tokens: TokenStream) -> usize {
    let mut len = 0;
    let mut tokens = tokens.into_iter().peekable();
    while let Some(t) = tokens.next() {
        len += match t {
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '#' => {
                // An attribute: `#` and its brackets.
                if matches!(tokens.peek(), Some(proc_macro2::TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Bracket)
                {
                    tokens.next();
                    0
                } else {
                    1
                }
            }
            proc_macro2::TokenTree::Punct(p) if p.as_char() == ',' => 0,
            proc_macro2::TokenTree::Punct(_) => 1,
            proc_macro2::TokenTree::Group(g) => {
                let delimiters = match g.delimiter() {
                    proc_macro2::Delimiter::None => 0,
                    _ => 2,
                };
                delimiters + flat_len(g.stream())
            }
            proc_macro2::TokenTree::Ident(i) => i.to_string().len(),
            proc_macro2::TokenTree::Literal(l) => l.to_string().len(),
        };
    }
    len
}

/// Whether `head` begins a trait or an impl block: its first `trait` or `impl` keyword.
fn block_kind(head: &TokenStream) -> Option<Block> {
    head.clone().into_iter().find_map(|t| match t {
        proc_macro2::TokenTree::Ident(i) if i == "trait" => Some(Block::Trait),
        proc_macro2::TokenTree::Ident(i) if i == "impl" => Some(Block::Impl),
        _ => None,
    })
}

/// A problem of toolc's own, not of the manifests: generated code that does not parse.
pub(super) fn internal(what: &str) -> Vec<Diagnostic> {
    vec![
        Diagnostic::new(Code::UnsupportedSchema, format!("internal error: {what}"))
            .help("please report this with the manifest that caused it"),
    ]
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
            let (before, after) =
                around(&text, MARK).ok_or_else(|| internal("no print mark in a module frame"))?;
            Frame {
                before: before.to_string(),
                after: after.to_string(),
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
        let frame = self.bare_frame(heads.len())?;
        let text = unparse(wrap(&bare, item))?;
        let inner = strip(&text, &frame)
            .ok_or_else(|| internal("an item printed outside its module frame"))?;
        self.out.push_str(inner);
        Ok(())
    }

    /// The text `heads.len()` bare modules put around an item.
    fn bare_frame(&mut self, depth: usize) -> Result<Frame, Vec<Diagnostic>> {
        for d in self.bare.len()..=depth {
            let bare = vec![quote!(mod __toolc_frame); d];
            let frame = self.frame(&bare)?;
            self.bare.push(frame);
        }
        Ok(self.bare[depth].clone())
    }

    /// Prints the trait or impl block `head { members }` inside the modules of `heads`,
    /// `at_once` members at a time: `prettyplease` ends each member with a hard break and lays
    /// it out from its own tokens and its indentation, as it does the items of a module, so the
    /// text is the one the whole block prints, and what is held at once is `at_once` members.
    pub fn block(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
        members: impl IntoIterator<Item = TokenStream>,
        at_once: usize,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut members = members.into_iter().filter(|m| !m.is_empty()).peekable();
        if members.peek().is_none() {
            return self.item(heads, quote!(#head {}));
        }
        let kind = block_kind(head).ok_or_else(|| internal("a block that is no trait or impl"))?;
        let depth = heads.len();
        // The block's own lines: what it prints around a member marking their place.
        let outer = self.bare_frame(depth)?;
        let bare = vec![quote!(mod __toolc_frame); depth];
        let mark: TokenStream = MEMBER_MARK
            .parse()
            .map_err(|_| internal("the member mark"))?;
        let text = unparse(wrap(&bare, quote!(#head { #mark })))?;
        let own =
            strip(&text, &outer).ok_or_else(|| internal("a block printed outside its frame"))?;
        let (open, close) =
            around(own, MEMBER_MARK).ok_or_else(|| internal("no print mark in a block"))?;
        let (open, close) = (open.to_string(), close.to_string());
        let frame = self.member_frame(kind, depth)?;
        let container = match kind {
            Block::Trait => quote!(trait __ToolcFrame),
            Block::Impl => quote!(impl __ToolcFrame),
        };
        self.out.push_str(&open);
        loop {
            let some: TokenStream = members.by_ref().take(at_once.max(1)).collect();
            if some.is_empty() {
                break;
            }
            let text = unparse(wrap(&bare, braced(&container, some)))?;
            let inner = strip(&text, &frame)
                .ok_or_else(|| internal("a member printed outside its block frame"))?;
            self.out.push_str(inner);
        }
        self.out.push_str(&close);
        Ok(())
    }

    /// What a bare block of `kind` in `depth` bare modules prints around one of its members.
    fn member_frame(&mut self, kind: Block, depth: usize) -> Result<Frame, Vec<Diagnostic>> {
        if let Some((_, f)) = self.members.iter().find(|(k, _)| *k == (kind, depth)) {
            return Ok(f.clone());
        }
        let bare = vec![quote!(mod __toolc_frame); depth];
        let mark: TokenStream = MEMBER_MARK
            .parse()
            .map_err(|_| internal("the member mark"))?;
        let block = match kind {
            Block::Trait => quote!(trait __ToolcFrame { #mark }),
            Block::Impl => quote!(impl __ToolcFrame { #mark }),
        };
        let text = unparse(wrap(&bare, block))?;
        let (before, after) =
            around(&text, MEMBER_MARK).ok_or_else(|| internal("no print mark in a block frame"))?;
        let frame = Frame {
            before: before.to_string(),
            after: after.to_string(),
        };
        self.members.push(((kind, depth), frame.clone()));
        Ok(frame)
    }

    /// Prints the item `head [elements] tail` inside the modules of `heads`, `at_once` elements
    /// at a time (the elements are made first, then parsed and printed a few at a time).
    /// `prettyplease` breaks an array that does not fit on a line after each element, and lays
    /// out each element from its own tokens, its indentation and what follows it (a comma
    /// before a break, whether last or not), so a few elements are printed in a bare array
    /// whose other element is a marker longer than a line: first when they are the last, last
    /// otherwise.
    pub fn array(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
        elements: impl IntoIterator<Item = TokenStream>,
        tail: &TokenStream,
        at_once: usize,
    ) -> Result<(), Vec<Diagnostic>> {
        let elements: Vec<TokenStream> = elements.into_iter().collect();
        // Printed apart only when the array cannot fit on a line, as one of many cannot.
        if !elements.iter().any(|e| flat_len(e.clone()) > MARGIN) {
            return self.item(heads, quote!(#head [#(#elements),*] #tail));
        }
        let mut elements = elements.into_iter().peekable();
        let depth = heads.len();
        let bare = vec![quote!(mod __toolc_frame); depth];
        let (mark, mark_text) = element_mark();
        let outer = self.bare_frame(depth)?;
        let text = unparse(wrap(&bare, quote!(#head [#mark, #mark] #tail)))?;
        let own =
            strip(&text, &outer).ok_or_else(|| internal("an array printed outside its frame"))?;
        // The second marker's line, then the first's.
        let (upto, close) =
            around(own, &mark_text).ok_or_else(|| internal("no mark in an array"))?;
        let (open, _) = around(upto, &mark_text).ok_or_else(|| internal("no mark in an array"))?;
        let (open, close) = (open.to_string(), close.to_string());
        let (frame, mark_line) = self.element_frame(depth)?;
        self.out.push_str(&open);
        loop {
            let some: Vec<TokenStream> = elements.by_ref().take(at_once.max(1)).collect();
            if some.is_empty() {
                break;
            }
            let last = elements.peek().is_none();
            let array = if last {
                quote!([#mark, #(#some),*])
            } else {
                quote!([#(#some),*, #mark])
            };
            let text = unparse(wrap(&bare, quote!(static __TOOLC_FRAME: () = #array;)))?;
            let inner = strip(&text, &frame).and_then(|t| {
                if last {
                    t.strip_prefix(mark_line.as_str())
                } else {
                    t.strip_suffix(mark_line.as_str())
                }
            });
            let inner = inner.ok_or_else(|| internal("an element printed outside its frame"))?;
            self.out.push_str(inner);
        }
        self.out.push_str(&close);
        Ok(())
    }

    /// What a bare array of two markers in `depth` bare modules prints before the first and
    /// after the second, and the line of either.
    fn element_frame(&mut self, depth: usize) -> Result<(Frame, String), Vec<Diagnostic>> {
        for d in self.elements.len()..=depth {
            let bare = vec![quote!(mod __toolc_frame); d];
            let (mark, mark_text) = element_mark();
            let text = unparse(wrap(
                &bare,
                quote!(static __TOOLC_FRAME: () = [#mark, #mark];),
            ))?;
            // The second marker's line, then the first's.
            let (upto, after) =
                around(&text, &mark_text).ok_or_else(|| internal("no mark in an array frame"))?;
            let (before, between) =
                around(upto, &mark_text).ok_or_else(|| internal("no mark in an array frame"))?;
            // Each marker is a line of its own: nothing between them, and the two lines the same.
            let line = &upto[before.len()..upto.len() - between.len()];
            let second = &text[upto.len()..text.len() - after.len()];
            if !between.is_empty() || line != second {
                return Err(internal("an array frame not laid out one element a line"));
            }
            let frame = Frame {
                before: before.to_string(),
                after: after.to_string(),
            };
            self.elements.push((frame, line.to_string()));
        }
        Ok(self.elements[depth].clone())
    }

    /// Prints each piece of a module: an item whole, a block a few members at a time.
    fn pieces<'a>(
        &mut self,
        heads: &[TokenStream],
        pieces: impl IntoIterator<Item = Piece<'a>>,
    ) -> Result<(), Vec<Diagnostic>> {
        for piece in pieces {
            match piece {
                Piece::Item(item) => self.item(heads, item)?,
                Piece::Block {
                    head,
                    members,
                    at_once,
                } => self.block(heads, &head, members, at_once)?,
                Piece::Array {
                    head,
                    elements,
                    tail,
                } => self.array(heads, &head, elements, &tail, AT_ONCE)?,
            }
        }
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

    /// Prints the module `head` inside the modules of `heads` with `items`, leaving a gap right
    /// after its head for items printed apart: the gap's offset in [`Printer::out`]. The
    /// module must get an item, in the gap or among `items` (a module without items prints as
    /// `mod m {}`).
    pub fn module_with_gap<'a, P: Into<Piece<'a>>>(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
        items: impl IntoIterator<Item = P>,
    ) -> Result<usize, Vec<Diagnostic>> {
        self.open(heads, head)?;
        let gap = self.out.len();
        let chain = [heads, std::slice::from_ref(head)].concat();
        let items = items
            .into_iter()
            .map(Into::into)
            .filter(|p| !matches!(p, Piece::Item(i) if i.is_empty()));
        self.pieces(&chain, items)?;
        self.close(heads, head)?;
        Ok(gap)
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
    pub fn module<'a, P: Into<Piece<'a>>>(
        &mut self,
        heads: &[TokenStream],
        head: &TokenStream,
        items: impl IntoIterator<Item = P>,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut items = items
            .into_iter()
            .map(Into::into)
            .filter(|p| !matches!(p, Piece::Item(i) if i.is_empty()))
            .peekable();
        if items.peek().is_none() {
            return self.item(heads, quote!(#head {}));
        }
        self.open(heads, head)?;
        let chain = [heads, std::slice::from_ref(head)].concat();
        self.pieces(&chain, items)?;
        self.close(heads, head)
    }
}

#[cfg(test)]
mod tests {
    use super::Printer;
    use proc_macro2::{Ident, Span, TokenStream};
    use quote::{format_ident, quote};

    /// A small xorshift, so that the cases are the same on every run.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, bound: u64) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % bound) as usize
        }

        /// An identifier of 1 to `max` characters.
        fn ident(&mut self, max: u64) -> Ident {
            let len = 1 + self.below(max);
            let name: String = (0..len).map(|i| if i == 0 { 'a' } else { 'x' }).collect();
            Ident::new(&format!("{name}{}", self.below(10)), Span::call_site())
        }

        /// A type: a path of a few segments, some with generic arguments.
        fn ty(&mut self, depth: usize) -> TokenStream {
            let segments: Vec<Ident> = (0..1 + self.below(4)).map(|_| self.ident(14)).collect();
            if depth < 2 && self.below(2) == 0 {
                let args: Vec<TokenStream> =
                    (0..1 + self.below(3)).map(|_| self.ty(depth + 1)).collect();
                quote!(::#(#segments)::*<#(#args),*>)
            } else {
                quote!(#(#segments)::*)
            }
        }

        /// A path without generic arguments: an expression as well as a type.
        fn path(&mut self) -> TokenStream {
            let segments: Vec<Ident> = (0..1 + self.below(4)).map(|_| self.ident(14)).collect();
            quote!(#(#segments)::*)
        }

        fn doc(&mut self) -> TokenStream {
            let words = " word".repeat(self.below(30));
            match self.below(3) {
                0 => quote!(),
                _ => quote!(#[doc = #words]),
            }
        }

        /// A trait method (signature, or default body) or an impl's function.
        fn member(&mut self, body: bool) -> TokenStream {
            let doc = self.doc();
            let name = self.ident(40);
            let names: Vec<Ident> = (0..self.below(4)).map(|_| self.ident(12)).collect();
            let types: Vec<TokenStream> = names.iter().map(|_| self.ty(0)).collect();
            let ret = self.ty(0);
            let what = self.path();
            match (body, self.below(3)) {
                (false, 0) => quote!(#doc fn #name(&self, #(#names: #types),*) -> #ret;),
                (_, 1) => quote!(#doc const #name: #ret = #what;),
                _ => quote! {
                    #doc
                    fn #name(&self, #(#names: #types),*) -> #ret {
                        let _ = self;
                        #what(#(#names),*).into()
                    }
                },
            }
        }

        /// An array element: a struct literal, a call or a word, long or short.
        fn element(&mut self) -> TokenStream {
            let ty = self.path();
            let fields: Vec<TokenStream> = (0..self.below(5))
                .map(|_| {
                    let (f, v) = (self.ident(16), self.path());
                    quote!(#f: #v)
                })
                .collect();
            match self.below(3) {
                0 => quote!(#ty { #(#fields,)* ..#ty::new() }),
                1 => {
                    let f = self.ident(30);
                    let args: Vec<TokenStream> = (0..self.below(5)).map(|_| self.path()).collect();
                    // A trailing comma, which a call on one line drops.
                    if self.below(2) == 0 {
                        quote!(#f(#(#args,)*))
                    } else {
                        quote!(#f(#(#args),*))
                    }
                }
                _ => {
                    let w = self.ident(6);
                    quote!(#w)
                }
            }
        }
    }

    /// The module heads of `depth` nested modules.
    fn heads(depth: usize) -> Vec<TokenStream> {
        (0..depth)
            .map(|d| {
                let m = format_ident!("m{d}");
                quote!(pub mod #m)
            })
            .collect()
    }

    /// `whole` printed as one item inside the modules of `heads`, and what `apart` prints there.
    fn both_ways(
        heads: &[TokenStream],
        whole: TokenStream,
        apart: impl FnOnce(&mut Printer) -> Result<(), Vec<crate::diag::Diagnostic>>,
    ) -> (String, String) {
        let mut one = Printer::default();
        one.item(heads, whole).expect("prints whole");
        let mut pieces = Printer::default();
        apart(&mut pieces).expect("prints apart");
        (one.out, pieces.out)
    }

    /// The block `head { members }` printed whole, and `at_once` members at a time.
    fn block_both_ways(
        heads: &[TokenStream],
        head: &TokenStream,
        members: Vec<TokenStream>,
        at_once: usize,
    ) -> (String, String) {
        let whole = quote!(#head { #(#members)* });
        both_ways(heads, whole, |p| p.block(heads, head, members, at_once))
    }

    /// The item `head [elements];` printed whole, and `at_once` elements at a time.
    fn array_both_ways(
        heads: &[TokenStream],
        head: &TokenStream,
        elements: Vec<TokenStream>,
        at_once: usize,
    ) -> (String, String) {
        let whole = quote!(#head [#(#elements),*];);
        both_ways(heads, whole, |p| {
            p.array(heads, head, elements, &quote!(;), at_once)
        })
    }

    #[test]
    fn blocks_printed_a_member_at_a_time_are_the_blocks_printed_whole() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..600 {
            let heads = heads(rng.below(7));
            let name = rng.ident(50);
            let bound = rng.ty(0);
            let doc = rng.doc();
            let trait_ = rng.below(2) == 0;
            let head = if trait_ {
                quote!(#doc pub trait #name: #bound + Send)
            } else {
                quote!(#doc impl<T: #bound> #name<T>)
            };
            // Up to 40 members, 1 to 5 at a time: batches full and not, the last one alone.
            let members: Vec<TokenStream> =
                (0..rng.below(40)).map(|_| rng.member(!trait_)).collect();
            let at_once = 1 + rng.below(5);
            let (whole, apart) = block_both_ways(&heads, &head, members, at_once);
            assert_eq!(apart, whole, "case {case}");
        }
    }

    /// Docs are the manifest's text: one that quotes a print mark does not move the pieces.
    #[test]
    fn a_mark_quoted_in_docs_is_printed_as_text() {
        let marks = [
            super::MEMBER_MARK.to_string(),
            "struct __ToolcPrintMark;".to_string(),
            super::element_mark().1,
        ];
        for mark in marks {
            let doc = format!(" {mark}");
            let heads = vec![quote!(#[doc = #doc] pub mod m)];
            let head = quote!(#[doc = #doc] pub trait Quoting);
            let members = vec![
                quote!(
                    fn a(&self);
                ),
                quote!(
                    fn b(&self) -> u8;
                ),
            ];
            let (whole, apart) = block_both_ways(&heads, &head, members, 1);
            assert_eq!(apart, whole, "{mark}");
            let long = format!("{}{mark}", "x".repeat(super::MARGIN));
            let head = quote!(#[doc = #doc] pub static S: [&str; 2] =);
            let elements = vec![quote!(#long), quote!(#doc)];
            let (whole, apart) = array_both_ways(&heads, &head, elements, 1);
            assert_eq!(apart, whole, "{mark}");
        }
    }

    #[test]
    fn arrays_printed_an_element_at_a_time_are_the_arrays_printed_whole() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..1000 {
            let heads = heads(rng.below(7));
            let name = rng.ident(30);
            let ty = rng.ty(0);
            let n = rng.below(40);
            let head = quote!(pub static #name: [#ty; #n] =);
            let elements: Vec<TokenStream> = (0..n).map(|_| rng.element()).collect();
            let (whole, apart) = array_both_ways(&heads, &head, elements, 1 + rng.below(5));
            assert_eq!(apart, whole, "case {case}");
        }
    }
}
