//! Policy state shared by replicas: the memory and Redis stores, and approvals held on one
//! replica and resumed on another. (Serving over HTTP, with authentication, is tested in
//! toolc-mcp.)
//!
//! The Redis tests need a Redis: `TOOLC_TEST_REDIS_URL` (such as `redis://127.0.0.1:6379/` or
//! `unix:///tmp/redis.sock`), as `.ci/run` sets it after starting `redis-server`. Without it
//! they are skipped with a note, unless `TOOLC_TEST_REDIS_REQUIRED` is set (as `.ci/run` also
//! does), which makes a missing Redis a failure.

mod approval;
pub mod redis;
mod store;
