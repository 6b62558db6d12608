//! `Serialize` and `Deserialize` of the structs read by position ([`Item::Tuple`]): arrays
//! whose last items may be missing, or after whose positions more items may follow (zod 4's
//! open tuple, `prefixItems` without `minItems`). The struct has a field per position and
//! `rest` for the items after them; both impls are written out, as serde has no derive that
//! reads a struct from an array of varying length.
//!
//! A missing item is `None`; an item that is there and `null` is `Some(None)` when the
//! position's own type is an `Option`, so a value read is written back as it was. A value
//! with an item after one that is `None` (or items in `rest` after a `None`) has no array to
//! be written as: writing it fails, rather than dropping what follows the gap.
//!
//! [`Item::Tuple`]: crate::model::rust::Item::Tuple

use super::idents::ident;
use crate::model::rust::Field;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

fn serde() -> TokenStream {
    quote!(::toolc_runtime::codegen::serde)
}

/// `Serialize` for the struct `id`: its items in order, then `rest` (when `open`), as one
/// array.
pub(super) fn tuple_serialize(id: &Ident, items: &[Field], open: bool) -> TokenStream {
    let serde = serde();
    let required: Vec<&Field> = items.iter().filter(|f| f.required).collect();
    let optional: Vec<&Field> = items.iter().filter(|f| !f.required).collect();
    let required_ids = required.iter().map(|f| ident(&f.ident));
    let optional_ids: Vec<Ident> = optional.iter().map(|f| ident(&f.ident)).collect();
    // The number of items written: the required ones, the optional ones present from the
    // first, and the rest.
    let mut len: Vec<TokenStream> = Vec::new();
    if !required.is_empty() {
        let n = Literal::usize_unsuffixed(required.len());
        len.push(quote!(#n));
    }
    let gap_check = if optional.is_empty() {
        quote!()
    } else {
        len.push(quote!(given));
        let n = Literal::usize_unsuffixed(optional.len());
        let rest_after_gap = open.then(|| quote!(|| (given < #n && !self.rest.is_empty())));
        let message = format!(
            "`{id}` has an item after one that is missing, which no array can hold: set the \
             items before it, or leave it out"
        );
        quote! {
            let present = [#(self.#optional_ids.is_some()),*];
            let given = present.iter().take_while(|p| **p).count();
            if present[given..].iter().any(|p| *p) #rest_after_gap {
                return ::std::result::Result::Err(
                    <S::Error as #serde::ser::Error>::custom(#message),
                );
            }
        }
    };
    if open {
        len.push(quote!(self.rest.len()));
    }
    let len = if len.is_empty() {
        quote!(0)
    } else {
        quote!(#(#len)+*)
    };
    let rest = open.then(|| {
        quote! {
            for item in &self.rest {
                seq.serialize_element(item)?;
            }
        }
    });
    quote! {
        impl #serde::Serialize for #id {
            fn serialize<S>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error>
            where
                S: #serde::Serializer,
            {
                use #serde::ser::SerializeSeq as _;
                #gap_check
                let mut seq = serializer.serialize_seq(::std::option::Option::Some(#len))?;
                #(seq.serialize_element(&self.#required_ids)?;)*
                #(
                    if let ::std::option::Option::Some(item) = &self.#optional_ids {
                        seq.serialize_element(item)?;
                    }
                )*
                #rest
                seq.end()
            }
        }
    }
}

/// `Deserialize` for the struct `id`: from an array, each position in turn (a missing
/// required one an `invalid_length` error), then the items after them into `rest` when
/// `open`, or an `invalid_length` error when the array goes on and may not.
pub(super) fn tuple_deserialize(id: &Ident, items: &[Field], open: bool) -> TokenStream {
    let serde = serde();
    let error = quote!(<A::Error as #serde::de::Error>);
    let required = items.iter().filter(|f| f.required).count();
    let expecting = match (required, open, items.len()) {
        (0, true, _) => "an array".to_string(),
        (r, true, _) => format!("an array of at least {r} item{}", plural(r)),
        (r, false, n) if r == n => format!("an array of {n} item{}", plural(n)),
        (r, false, n) => format!("an array of {r} to {n} items"),
    };
    let mut reads = Vec::new();
    // The item read last, when it may be missing: nothing is read after it then.
    let mut last_optional: Option<Ident> = None;
    for (i, f) in items.iter().enumerate() {
        let field = ident(&f.ident);
        let read = if f.required {
            let i = Literal::usize_unsuffixed(i);
            quote! {
                let #field = seq
                    .next_element()?
                    .ok_or_else(|| #error::invalid_length(#i, &self))?;
            }
        } else {
            match &last_optional {
                Some(previous) => quote! {
                    let #field = match #previous {
                        ::std::option::Option::Some(_) => seq.next_element()?,
                        ::std::option::Option::None => ::std::option::Option::None,
                    };
                },
                None => quote!(let #field = seq.next_element()?;),
            }
        };
        reads.push(read);
        if !f.required {
            last_optional = Some(field);
        }
    }
    // What follows the positions (only when the last of them holds an item): read into
    // `rest`, or refused.
    // An array of one more item than the positions, at least.
    let n = Literal::usize_unsuffixed(items.len() + 1);
    let after = match (open, &last_optional) {
        (true, None) => quote! {
            let mut rest = ::std::vec::Vec::new();
            while let ::std::option::Option::Some(item) = seq.next_element()? {
                rest.push(item);
            }
        },
        (true, Some(last)) => quote! {
            let mut rest = ::std::vec::Vec::new();
            if #last.is_some() {
                while let ::std::option::Option::Some(item) = seq.next_element()? {
                    rest.push(item);
                }
            }
        },
        (false, None) => quote! {
            if seq.next_element::<#serde::de::IgnoredAny>()?.is_some() {
                return ::std::result::Result::Err(#error::invalid_length(#n, &self));
            }
        },
        (false, Some(last)) => quote! {
            if #last.is_some() && seq.next_element::<#serde::de::IgnoredAny>()?.is_some() {
                return ::std::result::Result::Err(#error::invalid_length(#n, &self));
            }
        },
    };
    let fields = items.iter().map(|f| ident(&f.ident));
    let rest_field = open.then(|| quote!(rest,));
    quote! {
        impl<'de> #serde::Deserialize<'de> for #id {
            fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
            where
                D: #serde::Deserializer<'de>,
            {
                struct Items;
                impl<'de> #serde::de::Visitor<'de> for Items {
                    type Value = #id;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_seq<A>(self, mut seq: A) -> ::std::result::Result<#id, A::Error>
                    where
                        A: #serde::de::SeqAccess<'de>,
                    {
                        #(#reads)*
                        #after
                        ::std::result::Result::Ok(#id { #(#fields,)* #rest_field })
                    }
                }
                deserializer.deserialize_seq(Items)
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
