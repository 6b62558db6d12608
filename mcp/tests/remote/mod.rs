//! Serving beyond one machine: authentication (JWTs, authenticators of one's own), and the HTTP
//! transport's operations (health and readiness, limits, sessions, shutdown, access logs, two
//! replicas on one policy store).
//!
//! The Redis tests need a Redis: `TOOLC_TEST_REDIS_URL` (such as `redis://127.0.0.1:6379/` or
//! `unix:///tmp/redis.sock`), as `.ci/run` sets it after starting `redis-server`. Without it
//! they are skipped with a note, unless `TOOLC_TEST_REDIS_REQUIRED` is set (as `.ci/run` also
//! does), which makes a missing Redis a failure.

mod agent;
mod auth;
mod harness;
mod http;
#[path = "../../../runtime/tests/remote/redis.rs"]
mod redis;
mod token_cache;
