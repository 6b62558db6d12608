//! The identifiers emitted code names: a field or type name as its token, and the names of
//! the functions that give fields their defaults.

use crate::model::names::RustIdent;
use crate::model::rust::Field;
use proc_macro2::{Ident, Span};
use quote::format_ident;

/// The token of an identifier: a [`RustIdent`] raw where it must be
/// (`r#type`), or a word that never is (a type or variant name).
pub fn ident<T: ToIdent + ?Sized>(s: &T) -> Ident {
    s.to_ident()
}

/// What [`ident`] takes.
pub trait ToIdent {
    fn to_ident(&self) -> Ident;
}

impl ToIdent for RustIdent {
    fn to_ident(&self) -> Ident {
        if self.is_raw() {
            Ident::new_raw(self.word(), Span::call_site())
        } else {
            Ident::new(self.word(), Span::call_site())
        }
    }
}

impl ToIdent for str {
    fn to_ident(&self) -> Ident {
        Ident::new(self, Span::call_site())
    }
}

impl ToIdent for String {
    fn to_ident(&self) -> Ident {
        self.as_str().to_ident()
    }
}

/// The function giving a field's default; `variant` names the variant of a
/// tagged union the field belongs to.
pub(super) fn default_fn_name(variant: Option<&str>, field: &Field) -> Ident {
    let field = field.ident.word();
    match variant {
        Some(v) => format_ident!("__default_{}_{field}", heck::ToSnakeCase::to_snake_case(v)),
        None => format_ident!("__default_{field}"),
    }
}
