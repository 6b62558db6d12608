//! toolc-schema's integration tests, one binary (linking is the slow part on a small machine).

mod arguments;
mod differential;
