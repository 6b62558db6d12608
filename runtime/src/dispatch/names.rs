//! Finding the operation a call names among a generated group's descriptors.
//!
//! A dispatcher compared the name with each descriptor's in turn: nothing in a group of a few
//! tools, hundreds of string comparisons a call in a group of a thousand. [`NameIndex`] keeps a
//! group's names sorted, made on the first call, and halves its way to the name.

use std::sync::OnceLock;

use crate::descriptor::ToolDescriptor;

/// Groups of at most this many operations are searched in order: comparing a few names costs
/// less than the halving's bookkeeping.
const IN_ORDER: usize = 16;

/// The index of each operation of one group by its name: one `static` per generated
/// dispatcher, always asked about the same descriptors.
#[doc(hidden)]
#[derive(Debug)]
pub struct NameIndex(OnceLock<Box<[(&'static str, usize)]>>);

impl NameIndex {
    /// An index whose names are sorted on its first search.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> NameIndex {
        NameIndex(OnceLock::new())
    }

    /// The index in `descriptors` of the operation named `name`, if one is.
    pub fn find(&self, descriptors: &'static [ToolDescriptor], name: &str) -> Option<usize> {
        if descriptors.len() <= IN_ORDER {
            return descriptors.iter().position(|d| d.name == name);
        }
        let sorted = self.0.get_or_init(|| {
            let mut names: Vec<(&'static str, usize)> = descriptors
                .iter()
                .enumerate()
                .map(|(i, d)| (d.name, i))
                .collect();
            // Names are unique in a group: the first of equal names, as a search in order
            // would find, is kept by a stable sort in any case.
            names.sort_by_key(|&(n, _)| n);
            names.into_boxed_slice()
        });
        let at = sorted.partition_point(|&(n, _)| n < name);
        sorted.get(at).filter(|&&(n, _)| n == name).map(|&(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::OperationKind;
    use proptest::prelude::*;
    use toolc_schema::Schema;

    fn descriptors(names: &[String]) -> &'static [ToolDescriptor] {
        let all: Vec<ToolDescriptor> = names
            .iter()
            .map(|n| {
                let name: &'static str = Box::leak(n.clone().into_boxed_str());
                ToolDescriptor::new(name, OperationKind::Tool, "", &Schema::ANY)
            })
            .collect();
        Box::leak(all.into_boxed_slice())
    }

    proptest! {
        /// Whatever the group's size, the index finds what a search in order finds, for names
        /// of the group and others.
        #[test]
        fn finds_what_a_search_in_order_finds(
            names in prop::collection::hash_set("[a-c_]{0,4}", 0..60),
            asked in prop::collection::vec("[a-c_]{0,4}", 0..20),
        ) {
            let names: Vec<String> = names.into_iter().collect();
            let group = descriptors(&names);
            let index = NameIndex::new();
            for name in names.iter().chain(&asked) {
                let in_order = group.iter().position(|d| d.name == name);
                prop_assert_eq!(index.find(group, name), in_order);
            }
        }
    }
}
