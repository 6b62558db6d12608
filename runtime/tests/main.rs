//! toolc-runtime's integration tests, one binary (linking is the slow part on a small machine):
//! each module is one area of the runtime, named after what it tests.

mod agent;
mod common;
mod contract;
#[cfg(feature = "mcp")]
mod mcp;
// Serving beyond one machine needs the HTTP transport, JWT authentication and the Redis store.
#[cfg(all(feature = "mcp-http", feature = "auth-jwt", feature = "redis"))]
mod remote;
mod tracing;
