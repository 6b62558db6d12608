//! Both policy stores pass the same tests: GCRA allowances exact under concurrency, values
//! stored once and taken once, namespaces apart, and (Redis) failures bounded and named.

use std::sync::Arc;
use std::time::{Duration, Instant};

use toolc_runtime::store::{RedisConfig, RedisStore};
use toolc_runtime::{MemoryStore, PolicyStore, RateDecision, RateLimit};

use crate::remote::redis::{redis_url, unique_prefix};

fn redis(test: &str) -> Option<Arc<dyn PolicyStore>> {
    let url = redis_url()?;
    let store = RedisStore::new(RedisConfig::new(url).prefix(unique_prefix(test)))
        .expect("a valid Redis URL");
    Some(Arc::new(store))
}

fn memory() -> Arc<dyn PolicyStore> {
    Arc::new(MemoryStore::new())
}

const PER_HOUR_5: RateLimit = RateLimit {
    count: 5,
    period_secs: 3600,
};

async fn allowance_is_a_burst_then_a_wait(store: Arc<dyn PolicyStore>) {
    for i in 0..5 {
        let d = store
            .check_rate("tool:ada", PER_HOUR_5)
            .await
            .expect("answer");
        assert_eq!(d, RateDecision::Allowed, "call {i}");
    }
    let RateDecision::Limited { retry_after } = store
        .check_rate("tool:ada", PER_HOUR_5)
        .await
        .expect("answer")
    else {
        panic!("the sixth call within the hour passed")
    };
    // One call is replenished every 12 minutes.
    assert!(
        retry_after > Duration::from_secs(11 * 60) && retry_after <= Duration::from_secs(12 * 60),
        "{retry_after:?}"
    );
    // Other keys have their own allowance.
    assert_eq!(
        store
            .check_rate("tool:bob", PER_HOUR_5)
            .await
            .expect("answer"),
        RateDecision::Allowed
    );
    assert_eq!(
        store
            .check_rate("other:ada", PER_HOUR_5)
            .await
            .expect("answer"),
        RateDecision::Allowed
    );
}

/// Many tasks race for one allowance; exactly `count` win.
async fn concurrent_checks_grant_exactly_the_allowance(stores: Vec<Arc<dyn PolicyStore>>) {
    let limit = RateLimit {
        count: 50,
        period_secs: 3600,
    };
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..200 {
        let store = Arc::clone(&stores[i % stores.len()]);
        tasks.spawn(async move { store.check_rate("race:ada", limit).await });
    }
    let mut allowed = 0;
    while let Some(outcome) = tasks.join_next().await {
        if outcome.expect("task").expect("answer") == RateDecision::Allowed {
            allowed += 1;
        }
    }
    assert_eq!(allowed, 50);
}

async fn values_are_stored_once_and_taken_once(store: Arc<dyn PolicyStore>) {
    let ttl = Duration::from_secs(60);
    assert!(
        store
            .put_if_absent("approval:1", b"grant", ttl)
            .await
            .expect("put")
    );
    assert!(
        !store
            .put_if_absent("approval:1", b"other", ttl)
            .await
            .expect("put")
    );
    assert_eq!(
        store.take("approval:1").await.expect("take").as_deref(),
        Some(&b"grant"[..])
    );
    assert_eq!(store.take("approval:1").await.expect("take"), None);
    assert_eq!(store.take("never-stored").await.expect("take"), None);
    // Once taken, the key is free again.
    assert!(
        store
            .put_if_absent("approval:1", b"again", ttl)
            .await
            .expect("put")
    );
    // Binary values survive.
    let binary = [0u8, 255, 10, 13, 0];
    assert!(store.put_if_absent("bin", &binary, ttl).await.expect("put"));
    assert_eq!(
        store.take("bin").await.expect("take").as_deref(),
        Some(&binary[..])
    );
}

async fn values_expire(store: Arc<dyn PolicyStore>) {
    assert!(
        store
            .put_if_absent("short", b"x", Duration::from_millis(50))
            .await
            .expect("put")
    );
    // Wait for the value to expire (bounded, generous).
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        tokio::time::sleep(Duration::from_millis(25)).await;
        if store
            .put_if_absent("short", b"y", Duration::from_secs(60))
            .await
            .expect("put")
        {
            break;
        }
        assert!(Instant::now() < until, "the value never expired");
    }
    assert_eq!(
        store.take("short").await.expect("take").as_deref(),
        Some(&b"y"[..])
    );
    // An expired value is not taken.
    assert!(
        store
            .put_if_absent("gone", b"x", Duration::from_millis(1))
            .await
            .expect("put")
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(store.take("gone").await.expect("take"), None);
}

/// Many tasks race to store, then to take, one value; exactly one wins each race.
async fn concurrent_puts_and_takes_have_one_winner(stores: Vec<Arc<dyn PolicyStore>>) {
    let mut puts = tokio::task::JoinSet::new();
    for i in 0..64u8 {
        let store = Arc::clone(&stores[usize::from(i) % stores.len()]);
        puts.spawn(async move {
            store
                .put_if_absent("token", &[i], Duration::from_secs(60))
                .await
        });
    }
    let mut stored = 0;
    while let Some(outcome) = puts.join_next().await {
        stored += usize::from(outcome.expect("task").expect("put"));
    }
    assert_eq!(stored, 1);
    let mut takes = tokio::task::JoinSet::new();
    for i in 0..64 {
        let store = Arc::clone(&stores[i % stores.len()]);
        takes.spawn(async move { store.take("token").await });
    }
    let mut taken = 0;
    while let Some(outcome) = takes.join_next().await {
        taken += usize::from(outcome.expect("task").expect("take").is_some());
    }
    assert_eq!(taken, 1);
}

async fn rate_keys_and_value_keys_are_apart(store: Arc<dyn PolicyStore>) {
    let one = RateLimit {
        count: 1,
        period_secs: 3600,
    };
    assert_eq!(
        store.check_rate("k", one).await.expect("rate"),
        RateDecision::Allowed
    );
    assert!(
        store
            .put_if_absent("k", b"v", Duration::from_secs(60))
            .await
            .expect("put")
    );
    assert!(matches!(
        store.check_rate("k", one).await.expect("rate"),
        RateDecision::Limited { .. }
    ));
    assert_eq!(
        store.take("k").await.expect("take").as_deref(),
        Some(&b"v"[..])
    );
    store.ping().await.expect("ping");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_allowance_is_a_burst_then_a_wait() {
    allowance_is_a_burst_then_a_wait(memory()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_concurrent_checks_grant_exactly_the_allowance() {
    concurrent_checks_grant_exactly_the_allowance(vec![memory()]).await;
}

#[tokio::test]
async fn memory_values_are_stored_once_and_taken_once() {
    values_are_stored_once_and_taken_once(memory()).await;
}

#[tokio::test]
async fn memory_values_expire() {
    values_expire(memory()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn memory_concurrent_puts_and_takes_have_one_winner() {
    concurrent_puts_and_takes_have_one_winner(vec![memory()]).await;
}

#[tokio::test]
async fn memory_rate_keys_and_value_keys_are_apart() {
    rate_keys_and_value_keys_are_apart(memory()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_allowance_is_a_burst_then_a_wait() {
    if let Some(store) = redis("burst") {
        allowance_is_a_burst_then_a_wait(store).await;
    }
}

/// Two stores (two connections, as two replicas have) on one prefix share one allowance.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_concurrent_checks_across_replicas_grant_exactly_the_allowance() {
    let Some(url) = redis_url() else { return };
    let prefix = unique_prefix("race");
    let replica = || -> Arc<dyn PolicyStore> {
        Arc::new(
            RedisStore::new(RedisConfig::new(url.clone()).prefix(prefix.clone())).expect("url"),
        )
    };
    concurrent_checks_grant_exactly_the_allowance(vec![replica(), replica()]).await;
}

#[tokio::test]
async fn redis_values_are_stored_once_and_taken_once() {
    if let Some(store) = redis("values") {
        values_are_stored_once_and_taken_once(store).await;
    }
}

#[tokio::test]
async fn redis_values_expire() {
    if let Some(store) = redis("expire") {
        values_expire(store).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_concurrent_puts_and_takes_across_replicas_have_one_winner() {
    let Some(url) = redis_url() else { return };
    let prefix = unique_prefix("once");
    let replica = || -> Arc<dyn PolicyStore> {
        Arc::new(
            RedisStore::new(RedisConfig::new(url.clone()).prefix(prefix.clone())).expect("url"),
        )
    };
    concurrent_puts_and_takes_have_one_winner(vec![replica(), replica()]).await;
}

#[tokio::test]
async fn redis_rate_keys_and_value_keys_are_apart() {
    if let Some(store) = redis("apart") {
        rate_keys_and_value_keys_are_apart(store).await;
    }
}

#[tokio::test]
async fn redis_prefixes_keep_deployments_apart() {
    let Some(url) = redis_url() else { return };
    let one = RateLimit {
        count: 1,
        period_secs: 3600,
    };
    let a = RedisStore::new(RedisConfig::new(url.clone()).prefix(unique_prefix("a"))).expect("url");
    let b = RedisStore::new(RedisConfig::new(url).prefix(unique_prefix("b"))).expect("url");
    assert_eq!(
        a.check_rate("t:ada", one).await.expect("rate"),
        RateDecision::Allowed
    );
    assert_eq!(
        b.check_rate("t:ada", one).await.expect("rate"),
        RateDecision::Allowed
    );
    assert!(
        a.put_if_absent("v", b"a", Duration::from_secs(60))
            .await
            .expect("put")
    );
    assert_eq!(b.take("v").await.expect("take"), None);
}

#[test]
fn redis_urls_are_checked_when_the_store_is_made() {
    let error = RedisStore::new(RedisConfig::new("http://example.com")).expect_err("not redis");
    assert!(error.message().contains("redis://"), "{error}");
    // A password in the URL is never shown.
    let store = RedisStore::new(RedisConfig::new("redis://:s3cret@127.0.0.1:6379/0")).expect("url");
    assert!(!store.describe().contains("s3cret"), "{}", store.describe());
    assert!(!format!("{store:?}").contains("s3cret"));
    let config = RedisConfig::new("redis://:s3cret@127.0.0.1:6379/0");
    assert!(!format!("{config:?}").contains("s3cret"));
}

/// Nothing listens on the port: every operation fails at once, naming the store.
#[tokio::test]
async fn an_unreachable_redis_fails_closed_with_the_reason() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let store =
        RedisStore::new(RedisConfig::new(format!("redis://127.0.0.1:{port}/"))).expect("url");
    let error = store
        .check_rate("t:ada", PER_HOUR_5)
        .await
        .expect_err("down");
    assert!(
        error
            .message()
            .contains(&format!("redis at 127.0.0.1:{port}")),
        "{error}"
    );
    assert!(error.message().contains("check a rate limit"), "{error}");
    assert!(
        store
            .put_if_absent("k", b"v", Duration::from_secs(1))
            .await
            .is_err()
    );
    assert!(store.take("k").await.is_err());
    assert!(store.ping().await.is_err());
}

/// A Redis that accepts connections and never answers: operations end at the timeout.
#[tokio::test]
async fn a_silent_redis_times_out() {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = silent.local_addr().expect("addr").port();
    // Accept and hold connections without a word.
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            open.push(socket);
        }
    });
    let store = RedisStore::new(
        RedisConfig::new(format!("redis://127.0.0.1:{port}/")).timeout(Duration::from_millis(100)),
    )
    .expect("url");
    let outcome = tokio::time::timeout(
        Duration::from_secs(10),
        store.check_rate("t:ada", PER_HOUR_5),
    )
    .await
    .expect("the store's own timeout ends the call");
    let error = outcome.expect_err("silent");
    assert!(
        error.message().contains("did not answer within 100 ms"),
        "{error}"
    );
    held.abort();
}

#[tokio::test]
async fn fail_open_lets_rate_checks_through_but_not_values() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let store =
        RedisStore::new(RedisConfig::new(format!("redis://127.0.0.1:{port}/")).fail_open(true))
            .expect("url");
    for _ in 0..10 {
        assert_eq!(
            store
                .check_rate("t:ada", PER_HOUR_5)
                .await
                .expect("fail open"),
            RateDecision::Allowed
        );
    }
    assert!(
        store
            .put_if_absent("k", b"v", Duration::from_secs(1))
            .await
            .is_err()
    );
    assert!(store.take("k").await.is_err());
}
