//! toolc-runtime's integration tests, one binary (linking is the slow part on a small machine):
//! each module is one area of the runtime, named after what it tests. The MCP server's tests are
//! toolc-mcp's.

mod agent;
mod common;
mod contract;
// Policy state shared by replicas needs the Redis store.
#[cfg(feature = "redis")]
mod remote;
mod tracing;
