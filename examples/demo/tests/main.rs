//! The demo's integration tests, one binary (linking is the slow part on a small machine): the
//! code generated from `manifests/`, called as a host calls it.

mod approvals;
mod contract;
mod dispatch;
mod mcp_tools;
mod plugins;
mod results;
