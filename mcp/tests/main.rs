//! toolc-mcp's integration tests, one binary (linking is the slow part on a small machine).

// The server over a byte stream: what it lists, what calls answer, panics and malformed input.
mod server;
// Serving over HTTP, with authentication.
#[cfg(all(feature = "http", feature = "auth-jwt"))]
mod remote;
