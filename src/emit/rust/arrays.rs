//! Long arrays of integers (the tool-search tables) printed as `prettyplease` prints them,
//! without a syntax tree.
//!
//! `syn` holds a boxed expression per element: the search index of 10,000 tools (about 150,000
//! numbers) took over 50 MB while it was parsed, the peak of `toolc build`. An item now names
//! each long array by a marker; the item is printed with the marker in its place, and the
//! marker is then replaced with the array laid out as `prettyplease` lays out an array of
//! literals: `[`, the elements filling lines at one indent more, a trailing comma, `]`. A test
//! prints every item both ways and compares the bytes.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// `prettyplease`'s line width, the least room it leaves a line however deep its
/// indentation, and its indent.
const MARGIN: usize = 89;
const MIN_SPACE: usize = 60;
const INDENT: usize = 4;

/// The long arrays of one item, each standing in the item's tokens as a marker.
#[derive(Default)]
pub(super) struct Arrays {
    arrays: Vec<Vec<u32>>,
}

/// The marker of the array at `index`. Longer than a line, so that the expression holding it
/// breaks its lines as it does around the array, which is longer than a line too.
fn marker(index: usize) -> String {
    format!("__toolc_array_{index}_{}", "x".repeat(MARGIN))
}

impl Arrays {
    /// `&[values]` in an item: the array's own tokens when it fits on a line, else a
    /// reference to a marker that [`Arrays::splice`] replaces.
    pub fn slice(&mut self, values: &[u32]) -> TokenStream {
        let flat: usize = values.iter().map(|v| digits(*v) + 2).sum::<usize>() + 2;
        if values.is_empty() || flat <= MARGIN {
            let values = values.iter().map(|&v| Literal::u32_unsuffixed(v));
            return quote!(&[#(#values),*]);
        }
        let id = Ident::new(&marker(self.arrays.len()), Span::call_site());
        self.arrays.push(values.to_vec());
        quote!(&#id)
    }

    /// `text`, the item as printed, with each marker replaced by its array. The marker must
    /// begin its line after `&` (an argument of a call whose arguments are broken over
    /// lines), whose indentation the array's brackets take; `None` when one does not.
    pub fn splice(self, text: &str) -> Option<String> {
        let mut out = String::with_capacity(text.len() + self.arrays.len() * 64);
        let mut rest = text;
        for (index, values) in self.arrays.iter().enumerate() {
            let mark = format!("&{}", marker(index));
            // The first place the marker stands as a whole argument: the same text inside a
            // string literal (tool names are joined into one) is not it.
            let (at, indent) = rest.match_indices(&mark).find_map(|(at, _)| {
                let line = rest[..at].rfind('\n').map_or(0, |i| i + 1);
                let indent = &rest[line..at];
                let after = rest[at + mark.len()..].chars().next();
                (indent.bytes().all(|b| b == b' ') && matches!(after, Some(',' | ')')))
                    .then_some((at, indent.len()))
            })?;
            out.push_str(&rest[..at]);
            out.push('&');
            pack(&mut out, values, indent);
            rest = &rest[at + mark.len()..];
        }
        out.push_str(rest);
        Some(out)
    }
}

fn digits(v: u32) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// `values` as `[`, the elements filling lines indented by `indent` + 4, and `]` at `indent`:
/// each element after the first goes on the current line when it and its comma fit within
/// the margin, or within 60 columns of the indentation when that is further (the last one's
/// comma, a trailing one, is not counted).
fn pack(out: &mut String, values: &[u32], indent: usize) {
    let inner = indent + INDENT;
    let end = MARGIN.max(inner + MIN_SPACE);
    out.push_str("[\n");
    push_spaces(out, inner);
    let mut column = inner;
    for (i, v) in values.iter().enumerate() {
        let last = i + 1 == values.len();
        let text = v.to_string();
        if i > 0 {
            let need = 1 + text.len() + usize::from(!last);
            if column + need <= end {
                out.push(' ');
                column += 1;
            } else {
                out.push('\n');
                push_spaces(out, inner);
                column = inner;
            }
        }
        out.push_str(&text);
        column += text.len();
        if !last {
            out.push(',');
            column += 1;
        }
    }
    out.push_str(",\n");
    push_spaces(out, indent);
    out.push(']');
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::Arrays;
    use proc_macro2::{Literal, TokenStream};
    use quote::{format_ident, quote};

    /// `static` items calling a function with long arrays, nested in `depth` modules, printed
    /// through `syn` and `prettyplease` as the arrays are and with the arrays spliced.
    fn both_ways(depth: usize, arrays: &[Vec<u32>], label: &str) -> (String, String) {
        let item = |args: Vec<TokenStream>| {
            let mut item = quote! {
                pub static S: T = f(1, #label, #(#args,)*);
            };
            for d in 0..depth {
                let m = format_ident!("m{d}");
                item = quote!(pub mod #m { #item });
            }
            item
        };
        let print = |tokens: TokenStream| {
            prettyplease::unparse(&syn::parse2::<syn::File>(tokens).expect("parses"))
        };
        let whole = arrays
            .iter()
            .map(|a| {
                let values = a.iter().map(|&v| Literal::u32_unsuffixed(v));
                quote!(&[#(#values),*])
            })
            .collect();
        let mut spliced = Arrays::default();
        let marked = arrays.iter().map(|a| spliced.slice(a)).collect();
        let text = print(item(marked));
        (
            print(item(whole)),
            spliced
                .splice(&text)
                .expect("the markers begin their lines"),
        )
    }

    #[test]
    fn spliced_arrays_are_printed_as_prettyplease_prints_them() {
        // A small xorshift, so that the cases are the same on every run.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for case in 0..1500 {
            let depth = (next(9)) as usize;
            let count = 1 + next(4) as usize;
            let arrays: Vec<Vec<u32>> = (0..count)
                .map(|_| {
                    let len = next(120) as usize;
                    let scale = [10, 100, 1_000, 100_000, u64::from(u32::MAX)][next(5) as usize];
                    (0..len).map(|_| next(scale) as u32).collect()
                })
                .collect();
            let label = if case % 2 == 0 { "short" } else { "a label" };
            let (expected, spliced) = both_ways(depth, &arrays, label);
            assert_eq!(spliced, expected, "case {case}: depth {depth}, {arrays:?}");
        }
    }

    #[test]
    fn short_arrays_stay_in_the_tokens_and_a_marker_out_of_place_is_refused() {
        let mut arrays = Arrays::default();
        assert_eq!(arrays.slice(&[1, 2, 3]).to_string(), "& [1 , 2 , 3]");
        assert_eq!(arrays.slice(&[]).to_string(), "& []");
        let long: Vec<u32> = (0..40).collect();
        let marker = arrays.slice(&long).to_string();
        assert!(marker.starts_with("& __toolc_array_0_"), "{marker}");
        let text = format!("let x = {};\n", marker.replace("& ", "&"));
        assert_eq!(
            Arrays {
                arrays: vec![long.clone()]
            }
            .splice(&text),
            None
        );
        // The marker's text inside a string before it (names joined into one) is passed by.
        let bare = marker.replace("& ", "");
        let text = format!("f(\n    \"&{bare}\",\n    &{bare},\n);\n");
        let spliced = Arrays { arrays: vec![long] }
            .splice(&text)
            .expect("spliced");
        assert!(spliced.starts_with(&format!("f(\n    \"&{bare}\",\n    &[\n        0, 1,")));
    }
}
