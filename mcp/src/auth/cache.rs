//! The verified bearer tokens a [`JwtValidator`](super::jwt::JwtValidator) remembers, so that a
//! token is verified once rather than on every request.
//!
//! An entry holds what verifying the token established (its identity), the token's `exp`, and
//! the key that verified its signature. It answers only while all of these hold: the token has
//! not expired (by the clock, without the leeway a full verification grants); the key set the
//! validator holds now still has that key, with the same id and the same public material (a
//! rotated-out or revoked key refuses every token it signed on the next request, cached or
//! not). The validator refreshes its key set exactly as it does without the cache, before it
//! asks the cache. A token that failed is never remembered. The cache holds at most its
//! capacity of tokens: when full, expired entries are dropped, then the oldest.

use std::collections::{HashMap, VecDeque};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::Identity;

/// The public key that verified a token: its `kid` and its material, as the key set lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyId {
    pub(crate) kid: Option<String>,
    pub(crate) material: String,
}

struct Entry {
    identity: Identity,
    /// The token's `exp`, in seconds since the Unix epoch: the entry answers strictly before it.
    exp: u64,
    key: KeyId,
}

struct Tokens {
    by_token: HashMap<Box<str>, Entry>,
    /// Tokens in the order they were inserted, to drop the oldest when full.
    order: VecDeque<Box<str>>,
}

/// Verified tokens, by their text.
pub(crate) struct TokenCache {
    capacity: usize,
    tokens: RwLock<Tokens>,
}

impl TokenCache {
    /// A cache of at most `capacity` tokens; 0 remembers none.
    pub(crate) fn new(capacity: usize) -> TokenCache {
        TokenCache {
            capacity,
            tokens: RwLock::new(Tokens {
                by_token: HashMap::new(),
                order: VecDeque::new(),
            }),
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, Tokens> {
        self.tokens.read().unwrap_or_else(|p| p.into_inner())
    }

    fn lock(&self) -> RwLockWriteGuard<'_, Tokens> {
        self.tokens.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `token` may be remembered (a cheap look before the key set is consulted).
    pub(crate) fn may_hold(&self, token: &str) -> bool {
        self.capacity > 0 && self.read().by_token.contains_key(token)
    }

    /// The identity `token` was verified as, if it is remembered, `now` (seconds since the Unix
    /// epoch) is before its `exp`, and `holds` says its key is still in the key set. An entry
    /// that fails either check is forgotten.
    pub(crate) fn get(
        &self,
        token: &str,
        now: u64,
        holds: impl FnOnce(&KeyId) -> bool,
    ) -> Option<Identity> {
        if self.capacity == 0 {
            return None;
        }
        {
            let tokens = self.read();
            let entry = tokens.by_token.get(token)?;
            if now < entry.exp && holds(&entry.key) {
                return Some(entry.identity.clone());
            }
        }
        self.lock().by_token.remove(token);
        None
    }

    /// Remembers that `token`, whose `exp` is `exp`, was verified by `key` as `identity`.
    pub(crate) fn insert(&self, token: &str, identity: &Identity, exp: u64, key: KeyId, now: u64) {
        if self.capacity == 0 || exp <= now {
            return;
        }
        let mut tokens = self.lock();
        let tokens = &mut *tokens;
        if tokens.by_token.contains_key(token) {
            return;
        }
        // Forget what has expired or was evicted by `get`, then the oldest, until there is room.
        if tokens.by_token.len() >= self.capacity {
            tokens.by_token.retain(|_, e| now < e.exp);
            let by_token = &tokens.by_token;
            tokens.order.retain(|t| by_token.contains_key(t));
        }
        while tokens.by_token.len() >= self.capacity {
            match tokens.order.pop_front() {
                Some(oldest) => {
                    tokens.by_token.remove(&oldest);
                }
                None => break,
            }
        }
        // Keys evicted by `get` may still be queued: bound the queue too.
        if tokens.order.len() >= self.capacity.saturating_mul(2) {
            let by_token = &tokens.by_token;
            tokens.order.retain(|t| by_token.contains_key(t));
        }
        let token: Box<str> = token.into();
        tokens.order.push_back(token.clone());
        tokens.by_token.insert(
            token,
            Entry {
                identity: identity.clone(),
                exp,
                key,
            },
        );
    }

    /// How many tokens are remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.read().by_token.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolc_runtime::Caller;

    fn key(kid: &str, material: &str) -> KeyId {
        KeyId {
            kid: Some(kid.to_owned()),
            material: material.to_owned(),
        }
    }

    fn ada() -> Identity {
        Identity::new(Caller::new("ada"))
    }

    #[test]
    fn a_token_answers_until_its_exp_and_not_after() {
        let cache = TokenCache::new(8);
        cache.insert("t", &ada(), 1_000, key("k1", "n1"), 900);
        let k1 = key("k1", "n1");
        assert_eq!(cache.get("t", 900, |k| *k == k1), Some(ada()));
        assert_eq!(cache.get("t", 999, |k| *k == k1), Some(ada()));
        assert_eq!(cache.get("t", 1_000, |k| *k == k1), None);
        // Forgotten: a later clock going backwards does not bring it back.
        assert_eq!(cache.get("t", 900, |k| *k == k1), None);
        assert_eq!(cache.len(), 0);
        // An expired token is not remembered at all.
        cache.insert("old", &ada(), 900, key("k1", "n1"), 900);
        assert_eq!(cache.len(), 0);
    }

    #[test]
    fn a_token_whose_key_left_the_set_is_refused_and_forgotten() {
        let cache = TokenCache::new(8);
        cache.insert("t", &ada(), 1_000, key("k1", "n1"), 0);
        // The key set was rotated: k1 is still there with the same material.
        let set = [key("k2", "n2"), key("k1", "n1")];
        assert!(cache.get("t", 1, |k| set.contains(k)).is_some());
        // The same kid with other material (a key replaced under its id) no longer holds.
        let replaced = [key("k1", "other")];
        assert!(cache.get("t", 1, |k| replaced.contains(k)).is_none());
        assert!(cache.get("t", 1, |k| set.contains(k)).is_none());
    }

    #[test]
    fn a_full_cache_drops_expired_tokens_then_the_oldest() {
        let cache = TokenCache::new(2);
        let k = key("k1", "n1");
        cache.insert("a", &ada(), 10, k.clone(), 0);
        cache.insert("b", &ada(), 100, k.clone(), 0);
        // At 20, "a" has expired: it makes room.
        cache.insert("c", &ada(), 100, k.clone(), 20);
        assert_eq!(cache.len(), 2);
        assert!(cache.get("b", 20, |_| true).is_some());
        assert!(cache.get("c", 20, |_| true).is_some());
        // Nothing has expired: the oldest ("b") goes.
        cache.insert("d", &ada(), 100, k.clone(), 20);
        assert_eq!(cache.len(), 2);
        assert!(cache.get("b", 20, |_| true).is_none());
        assert!(cache.get("c", 20, |_| true).is_some());
        assert!(cache.get("d", 20, |_| true).is_some());
        for i in 0..100 {
            cache.insert(&format!("t{i}"), &ada(), 100, k.clone(), 20);
        }
        assert_eq!(cache.len(), 2);
        assert!(cache.read().order.len() <= 4);
    }

    #[test]
    fn a_cache_of_no_tokens_remembers_none() {
        let cache = TokenCache::new(0);
        cache.insert("t", &ada(), 1_000, key("k1", "n1"), 0);
        assert_eq!(cache.get("t", 1, |_| true), None);
    }
}
