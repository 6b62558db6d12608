//! Each agent's tool-search index as `static` tables (`__search`), which its constructor
//! hands to the runtime: searching a generated agent tokenizes nothing at run time.

use super::arrays::Arrays;
use crate::lower::AgentIndex;
use crate::model::Agent;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// The name of an agent's index in `__search`.
pub(super) fn static_ident(agent: &Agent) -> proc_macro2::Ident {
    format_ident!("{}", agent.idents.snake.word().to_uppercase())
}

/// The `static` holding `agent`'s index; its long tables are left in `arrays`, for the
/// printer to splice in.
pub(super) fn index_static(agent: &Agent, index: &AgentIndex, arrays: &mut Arrays) -> TokenStream {
    let id = static_ident(agent);
    let (names, name_ends, lengths, terms, term_ends, posting_ends, docs, counts) =
        index.index.tables();
    let version = Literal::u32_unsuffixed(toolc_search::VERSION);
    let doc = format!(
        " The search index of agent `{}`: {} tools and plays, {} distinct words (tables of the \
         `toolc-search` format, version {}).",
        agent.name.replace('`', "'"),
        name_ends.len(),
        term_ends.len(),
        toolc_search::VERSION,
    );
    let (name_ends, lengths, term_ends, posting_ends, docs, counts) = (
        arrays.slice(name_ends),
        arrays.slice(lengths),
        arrays.slice(term_ends),
        arrays.slice(posting_ends),
        arrays.slice(docs),
        arrays.slice(counts),
    );
    quote! {
        #[doc = #doc]
        pub static #id: ::toolc_runtime::codegen::SearchIndex<'static> =
            ::toolc_runtime::codegen::SearchIndex::from_static(
                #version,
                #names,
                #name_ends,
                #lengths,
                #terms,
                #term_ends,
                #posting_ends,
                #docs,
                #counts,
            );
    }
}

/// The `__search` module holding every agent's index.
pub(super) fn module(statics: &[TokenStream]) -> TokenStream {
    if statics.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// The agents' tool-search indexes, built by toolc from each tool's name, title,
        /// description and parameters; `agents` hands them to the runtime.
        #[doc(hidden)]
        pub mod __search {
            #(#statics)*
        }
    }
}
