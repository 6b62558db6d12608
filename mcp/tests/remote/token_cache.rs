//! Verified tokens are remembered only while they would verify again: a rotation that keeps the
//! signing key keeps them, a key that leaves the key set (removed, or replaced under its id)
//! refuses them on the next request, and none outlives its `exp`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use jsonwebtoken::Algorithm;
use serde_json::json;
use toolc_mcp::auth::AuthError;
use toolc_mcp::auth::jwt::{JwtConfig, JwtValidator};

use crate::remote::auth::{Issuer, issuer, jwk, now, rsa, sign, token};

/// A validator that fetches the key set again on every request (so each test sees the
/// issuer's keys as they are now), with no leeway on `exp`.
fn validator(issuer: &Issuer) -> JwtValidator {
    let mut config: JwtConfig = issuer.config();
    config.jwks_max_age_secs = 0;
    config.jwks_min_refresh_secs = 0;
    config.leeway_secs = 0;
    JwtValidator::new(config).expect("a valid configuration")
}

fn refused(outcome: Result<toolc_mcp::auth::Identity, AuthError>, why: &str) {
    match outcome {
        Err(AuthError::InvalidToken(message)) => assert!(message.contains(why), "{message}"),
        other => panic!("expected invalid_token ({why}), got {other:?}"),
    }
}

#[tokio::test]
async fn a_rotation_that_keeps_the_key_keeps_its_tokens_and_removing_it_refuses_them() {
    let issuer = issuer().await;
    let validator = validator(&issuer);
    let first = token(&issuer, "ada", json!({"roles": ["support"]}));
    let ada = validator.validate(&first).await.expect("a valid token");
    assert_eq!(ada.caller.id, "ada");
    assert_eq!(validator.validate(&first).await, Ok(ada.clone()));

    // The issuer adds k2 beside k1: k1's tokens still hold, k2's are accepted.
    *issuer.keys.lock().expect("keys") = json!({"keys": [
        jwk(&rsa(1), Algorithm::RS256, "k1"),
        jwk(&rsa(2), Algorithm::RS256, "k2"),
    ]});
    let rotated = sign(
        &rsa(2),
        Algorithm::RS256,
        Some("k2"),
        &issuer.claims("grace", json!({})),
    );
    let fetches = issuer.fetches.load(Ordering::SeqCst);
    assert_eq!(validator.validate(&first).await, Ok(ada.clone()));
    assert!(
        issuer.fetches.load(Ordering::SeqCst) > fetches,
        "a remembered token does not skip a key set that is due"
    );
    assert_eq!(
        validator.validate(&rotated).await.expect("k2").caller.id,
        "grace"
    );

    // Then retires k1: the token it signed, remembered or not, is refused on the next request.
    *issuer.keys.lock().expect("keys") = json!({"keys": [jwk(&rsa(2), Algorithm::RS256, "k2")]});
    refused(validator.validate(&first).await, "kid 'k1'");
    refused(validator.validate(&first).await, "kid 'k1'");
    assert_eq!(
        validator.validate(&rotated).await.expect("k2").caller.id,
        "grace"
    );
}

#[tokio::test]
async fn a_key_replaced_under_its_id_refuses_the_tokens_the_old_key_signed() {
    let issuer = issuer().await;
    let validator = validator(&issuer);
    let first = token(&issuer, "ada", json!({}));
    validator.validate(&first).await.expect("a valid token");
    validator.validate(&first).await.expect("remembered");
    // k1 is revoked and its id reused for another key.
    *issuer.keys.lock().expect("keys") = json!({"keys": [jwk(&rsa(2), Algorithm::RS256, "k1")]});
    refused(validator.validate(&first).await, "signature");
    // The new key's tokens verify under the same id.
    let renewed = sign(
        &rsa(2),
        Algorithm::RS256,
        Some("k1"),
        &issuer.claims("ada", json!({})),
    );
    validator.validate(&renewed).await.expect("the new k1");
}

#[tokio::test]
async fn a_remembered_token_is_refused_once_it_expires() {
    let issuer = issuer().await;
    let validator = validator(&issuer);
    let exp = now() + 2;
    let short = sign(
        &rsa(1),
        Algorithm::RS256,
        Some("k1"),
        &issuer.claims("ada", json!({"exp": exp})),
    );
    validator.validate(&short).await.expect("valid until exp");
    validator.validate(&short).await.expect("remembered");
    while now() <= exp {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    refused(validator.validate(&short).await, "expired");
    refused(validator.validate(&short).await, "expired");
}

#[tokio::test]
async fn without_a_cache_every_request_is_verified_alike() {
    let issuer = issuer().await;
    let mut config = issuer.config();
    config.token_cache = 0;
    config.jwks_max_age_secs = 0;
    config.jwks_min_refresh_secs = 0;
    let validator = JwtValidator::new(config).expect("a valid configuration");
    let first = token(&issuer, "ada", json!({}));
    validator.validate(&first).await.expect("a valid token");
    *issuer.keys.lock().expect("keys") = json!({"keys": [jwk(&rsa(2), Algorithm::RS256, "k2")]});
    refused(validator.validate(&first).await, "kid 'k1'");
}

#[test]
fn the_cache_size_is_configured_as_data() {
    let config: JwtConfig = serde_json::from_value(json!({
        "issuer": "https://auth.example.com",
        "resource": "https://mcp.example.com/mcp",
        "token_cache": 0
    }))
    .expect("a configuration");
    assert_eq!(config.token_cache, 0);
    let default: JwtConfig = serde_json::from_value(json!({
        "issuer": "https://auth.example.com",
        "resource": "https://mcp.example.com/mcp"
    }))
    .expect("a configuration");
    assert_eq!(default.token_cache, 10_000);
}
