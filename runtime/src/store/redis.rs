//! Policy state in Redis (feature `redis`), shared by every replica that points at it.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, RedisError, Script};
use tokio::sync::OnceCell;

use super::{PolicyStore, RateDecision, StoreError, gcra_params};
use crate::descriptor::RateLimit;
use crate::vocabulary::BoxFuture;

/// One GCRA step in one script, so that concurrent replicas never act on the same read. Time
/// is Redis's own clock (`TIME`, microseconds), so the replicas' clocks do not matter. Returns
/// -1 when the call is allowed, otherwise the microseconds until one is.
const RATE_SCRIPT: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = now
local stored = redis.call('GET', KEYS[1])
if stored then
  local t = tonumber(stored)
  if t and t > now then tat = t end
end
if tat - now > tolerance then
  return tat - tolerance - now
end
local next_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', next_tat), 'PX', math.ceil((next_tat - now) / 1000))
return -1
";

/// Get and delete in one step (as `GETDEL`, which Redis before 6.2 lacks).
const TAKE_SCRIPT: &str = r"
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value
";

/// The longest time to live sent to Redis: 100 years, in milliseconds.
const MAX_TTL_MS: u64 = 100 * 365 * 24 * 3600 * 1000;

/// How to reach Redis and how to behave when it cannot be reached.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisConfig {
    url: String,
    prefix: String,
    timeout: Duration,
    fail_open: bool,
}

impl RedisConfig {
    /// Redis at `url`: `redis://[:password@]host[:port][/db]`, or `unix:///path/to/redis.sock`.
    /// Keys are prefixed `toolc:`; every operation is bounded by 500 ms; rate limits fail
    /// closed.
    pub fn new(url: impl Into<String>) -> RedisConfig {
        RedisConfig {
            url: url.into(),
            prefix: "toolc:".to_owned(),
            timeout: Duration::from_millis(500),
            fail_open: false,
        }
    }

    /// The prefix of every key this store writes (default `toolc:`). Servers that share a
    /// Redis share their state exactly when they share a prefix: give each deployment its own.
    pub fn prefix(mut self, prefix: impl Into<String>) -> RedisConfig {
        self.prefix = prefix.into();
        self
    }

    /// The most an operation may take, connecting included (default 500 ms); past it, the
    /// operation fails with a [`StoreError`].
    pub fn timeout(mut self, timeout: Duration) -> RedisConfig {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// Whether a rate-limit check that Redis cannot answer lets the call through (`true`) or
    /// fails it with kind `unavailable` (`false`, the default). Values (`put_if_absent`,
    /// `take`) always fail closed: nothing can be redeemed from a store that does not answer.
    pub fn fail_open(mut self, fail_open: bool) -> RedisConfig {
        self.fail_open = fail_open;
        self
    }
}

impl fmt::Debug for RedisConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The URL may hold a password.
        f.debug_struct("RedisConfig")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .field("fail_open", &self.fail_open)
            .finish_non_exhaustive()
    }
}

/// Policy state in Redis: every replica that uses the same Redis and key prefix shares the
/// same rate-limit allowances and values.
///
/// The connection is made on first use and remade after a failure, so a server starts (and
/// serves tools without rate limits) while Redis is down; its readiness probe says so.
pub struct RedisStore {
    client: Client,
    connection: OnceCell<ConnectionManager>,
    rate: Script,
    take: Script,
    prefix: String,
    timeout: Duration,
    fail_open: bool,
    where_: String,
    last_warning: AtomicU64,
}

impl RedisStore {
    /// A store for `config`. Fails only when the URL cannot be read; nothing is connected yet.
    pub fn new(config: RedisConfig) -> Result<RedisStore, StoreError> {
        let client = Client::open(config.url.as_str()).map_err(|e| {
            StoreError::new(format!(
                "the Redis URL is not valid ({e}): write it as redis://host:6379/0 or unix:///path/to/redis.sock"
            ))
        })?;
        let where_ = format!("redis at {}", client.get_connection_info().addr());
        Ok(RedisStore {
            client,
            connection: OnceCell::new(),
            rate: Script::new(RATE_SCRIPT),
            take: Script::new(TAKE_SCRIPT),
            prefix: config.prefix,
            timeout: config.timeout,
            fail_open: config.fail_open,
            where_,
            last_warning: AtomicU64::new(0),
        })
    }

    async fn connection(&self) -> Result<ConnectionManager, RedisError> {
        let manager = self
            .connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(self.timeout))
                    .set_response_timeout(Some(self.timeout))
                    .set_number_of_retries(0);
                self.client.get_connection_manager_lazy(config)
            })
            .await?;
        Ok(manager.clone())
    }

    /// Runs `op` within the timeout, naming this store in any error.
    async fn bounded<T, F>(&self, what: &str, op: F) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, RedisError>>,
    {
        match tokio::time::timeout(self.timeout, op).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) if !e.is_timeout() => Err(StoreError::new(format!(
                "{} failed to {what}: {e}",
                self.where_
            ))),
            _ => Err(StoreError::new(format!(
                "{} did not answer within {} ms when asked to {what}",
                self.where_,
                self.timeout.as_millis()
            ))),
        }
    }

    async fn check_rate_inner(
        &self,
        key: &str,
        limit: RateLimit,
    ) -> Result<RateDecision, StoreError> {
        if limit.count == 0 {
            return Ok(RateDecision::Limited {
                retry_after: limit.period(),
            });
        }
        let Some((interval, tolerance)) = gcra_params(limit, 1_000_000) else {
            return Ok(RateDecision::Allowed);
        };
        let key = format!("{}rate:{key}", self.prefix);
        let wait: i64 = self
            .bounded("check a rate limit", async {
                let mut connection = self.connection().await?;
                self.rate
                    .key(&key)
                    .arg(interval)
                    .arg(tolerance)
                    .invoke_async(&mut connection)
                    .await
            })
            .await?;
        Ok(match u64::try_from(wait) {
            Ok(micros) => RateDecision::Limited {
                retry_after: Duration::from_micros(micros.max(1)),
            },
            Err(_) => RateDecision::Allowed,
        })
    }

    /// Logs a fail-open pass at most once a second.
    fn warn_fail_open(&self, error: &StoreError) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        if self.last_warning.swap(now, Ordering::Relaxed) != now {
            tracing::warn!(
                target: "toolc_runtime::store",
                error = %error,
                "rate limits are not enforced while the policy store does not answer (fail_open)"
            );
        }
    }
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("at", &self.where_)
            .field("prefix", &self.prefix)
            .field("fail_open", &self.fail_open)
            .finish()
    }
}

impl PolicyStore for RedisStore {
    fn check_rate<'a>(
        &'a self,
        key: &'a str,
        limit: RateLimit,
    ) -> BoxFuture<'a, Result<RateDecision, StoreError>> {
        Box::pin(async move {
            match self.check_rate_inner(key, limit).await {
                Err(e) if self.fail_open => {
                    self.warn_fail_open(&e);
                    Ok(RateDecision::Allowed)
                }
                other => other,
            }
        })
    }

    fn put_if_absent<'a>(
        &'a self,
        key: &'a str,
        value: &'a [u8],
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let key = format!("{}value:{key}", self.prefix);
            let ttl_ms = u64::try_from(ttl.as_millis())
                .unwrap_or(u64::MAX)
                .clamp(1, MAX_TTL_MS);
            let stored: Option<String> = self
                .bounded("store a value", async {
                    let mut connection = self.connection().await?;
                    redis::cmd("SET")
                        .arg(&key)
                        .arg(value)
                        .arg("NX")
                        .arg("PX")
                        .arg(ttl_ms)
                        .query_async(&mut connection)
                        .await
                })
                .await?;
            Ok(stored.is_some())
        })
    }

    fn take<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        Box::pin(async move {
            let key = format!("{}value:{key}", self.prefix);
            self.bounded("take a value", async {
                let mut connection = self.connection().await?;
                self.take.key(&key).invoke_async(&mut connection).await
            })
            .await
        })
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let _: String = self
                .bounded("answer PING", async {
                    let mut connection = self.connection().await?;
                    redis::cmd("PING").query_async(&mut connection).await
                })
                .await?;
            Ok(())
        })
    }

    fn describe(&self) -> String {
        self.where_.clone()
    }
}
