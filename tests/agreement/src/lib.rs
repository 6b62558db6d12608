//! Every toolset of the agreement test, compiled by build.rs, and [`check`], which picks the
//! generated `check_arguments` of a toolset's group. The `agreement` binary serves it.

include!(concat!(env!("OUT_DIR"), "/toolsets.rs"));

/// What build.rs found: per toolset, per tool and play, its group, its canonical parameters
/// schema and the parameters each dialect advertises (JSON).
pub const DESCRIPTION: &str = include_str!(concat!(env!("OUT_DIR"), "/agreement.json"));
