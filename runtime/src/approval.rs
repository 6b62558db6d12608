//! Approvals: a person approves a call before its handler runs (`approval: required`).
//!
//! A tool that needs approval is called twice. The first call is checked (the caller's auth
//! level and roles, then the arguments, parsed and validated as for any call) and held: instead
//! of running the handler, the dispatcher issues a single-use token, keeps the validated
//! arguments under it in the call's [`PolicyStore`] for a time to live, and answers
//! [`ErrorKind::ApprovalRequired`] with an [`ApprovalRequest`]. The host asks a person, then
//! resumes: [`Agent::approve`](crate::Agent::approve) calls the tool again with the token
//! ([`CallContext::with_approval`]), and the dispatcher redeems it and runs the handler through
//! the whole contract (policies and rate limit, the timeout, result validation, tracing);
//! [`Agent::deny`](crate::Agent::deny) withdraws it, and the call fails with `forbidden`.
//!
//! A token is
//!
//! - unguessable: 256 bits from the operating system's random source;
//! - bound to the call: it is kept under a key made of the tool's name, the token and the
//!   caller's id, so it redeems nothing for another tool or another caller (and such an attempt
//!   leaves it in place for its owner), and the arguments it is redeemed with must equal the
//!   validated arguments it was issued for;
//! - single-use: redeeming or denying takes it out of the store in one atomic step, so of two
//!   concurrent redemptions (on two replicas, say) exactly one runs the handler;
//! - short-lived: it expires after its time to live ([`DEFAULT_APPROVAL_TTL`], or
//!   [`CallContext::with_approval_ttl`]).
//!
//! Tokens live in the same store as the rate limits (the generated toolbox's policy store, or the one bound to the call):
//! the toolbox's memory, or the store bound to the call, such as a `RedisStore` that every
//! replica of a server shares, so a call held on one replica can be approved on another.

use std::fmt::Write as _;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::ToolError;
use crate::store::PolicyStore;
use crate::vocabulary::ErrorKind;
pub use crate::vocabulary::{ApprovalDecision, ApprovalRequest, DEFAULT_APPROVAL_TTL};

/// The random bytes of a token; its text is twice as many hexadecimal digits.
const TOKEN_BYTES: usize = 32;

/// The version of the stored grant's format.
const GRANT_VERSION: u32 = 1;

/// What the store keeps under a token: the validated arguments (the tool and the caller are in
/// the key).
#[derive(Serialize, Deserialize)]
struct Grant {
    v: u32,
    arguments: Value,
}

/// The store key of `token` for `tool` and `caller`: `approval:<tool>:<token>:<caller id>`
/// (tool names hold no `:` and tokens are hexadecimal, so no two triples share a key).
fn key(tool: &str, token: &str, caller: &str) -> String {
    let mut key = String::with_capacity(9 + tool.len() + 1 + token.len() + 1 + caller.len());
    key.push_str("approval:");
    key.push_str(tool);
    key.push(':');
    key.push_str(token);
    key.push(':');
    key.push_str(caller);
    key
}

/// A fresh token: 256 bits from the operating system's random source, as hexadecimal.
fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)?;
    let mut text = String::with_capacity(2 * TOKEN_BYTES);
    for b in bytes {
        let _ = write!(text, "{b:02x}");
    }
    Ok(text)
}

/// Whether `token` has the shape of a token this module issues; anything else is refused
/// before the store is asked.
fn well_formed(token: &str) -> bool {
    token.len() == 2 * TOKEN_BYTES
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The failure of a store that did not answer: the call is not run (`unavailable`).
fn store_failed(
    desc: &ToolDescriptor,
    ctx: &CallContext,
    doing: &str,
    error: &dyn std::fmt::Display,
) -> ToolError {
    tracing::warn!(
        target: "toolc_runtime::store",
        call_id = ctx.call_id(),
        tool = desc.name,
        error = %error,
        "the policy store did not answer while {doing}; the call fails closed"
    );
    ToolError::new(
        ErrorKind::Unavailable,
        desc.name,
        format!(
            "tool '{}' needs a person's approval, and the store that keeps approvals did not answer; retry after 1000 ms",
            desc.name
        ),
    )
    .with_retry_after(Duration::from_secs(1))
}

/// Holds a call whose arguments were validated: issues a token for it and answers the
/// `approval_required` error that carries the request.
pub(crate) async fn hold(
    desc: &ToolDescriptor,
    store: &dyn PolicyStore,
    ctx: &CallContext,
    arguments: Value,
) -> ToolError {
    let ttl = ctx.approval_ttl();
    let grant = Grant {
        v: GRANT_VERSION,
        arguments,
    };
    let bytes = match serde_json::to_vec(&grant) {
        Ok(bytes) => bytes,
        Err(e) => return store_failed(desc, ctx, "encoding an approval", &e),
    };
    // A fresh token is taken, all but certainly, at the first try; a second try is cheap
    // insurance against a collision rather than an expected path.
    for _ in 0..2 {
        let token = match new_token() {
            Ok(token) => token,
            Err(e) => return store_failed(desc, ctx, "drawing an approval token", &e),
        };
        let key = key(desc.name, &token, &ctx.caller().id);
        match store.put_if_absent(&key, &bytes, ttl).await {
            Ok(true) => {
                let message = format!(
                    "tool '{}' needs a person's approval before it runs: ask them, then resume the call with its token (approve or deny) within {} s",
                    desc.name,
                    ttl.as_secs().max(1)
                );
                let request = ApprovalRequest {
                    token,
                    tool: desc.name.to_owned(),
                    // What a person is shown: the parts the schema marks sensitive masked
                    // (the grant keeps them, to match the resumed call's arguments).
                    arguments: desc.parameters.redact(&grant.arguments).into_owned(),
                    expires_in_ms: millis(ttl),
                    message: message.clone(),
                    delegates: Vec::new(),
                    delegate_arguments: None,
                };
                return ToolError::new(ErrorKind::ApprovalRequired, desc.name, message)
                    .with_approval(request);
            }
            Ok(false) => continue,
            Err(e) => return store_failed(desc, ctx, "storing an approval", &e),
        }
    }
    store_failed(
        desc,
        ctx,
        "storing an approval",
        &"two fresh tokens were both taken",
    )
}

/// A call held further in, passed on by the handler of tool `desc` (a delegate, whose inner
/// call answered `approval_required`): the same token and inner tool, `desc` named first among
/// the delegates, with the arguments to call it again with, and a message naming them all.
pub(crate) fn held_through(
    desc: &ToolDescriptor,
    arguments: &str,
    inner: &ApprovalRequest,
) -> ToolError {
    let mut request = inner.clone();
    request.delegates.insert(0, desc.name.to_owned());
    let value = serde_json::from_str::<Value>(arguments).unwrap_or(Value::Null);
    request.delegate_arguments = Some(desc.parameters.redact(&value).into_owned());
    let path = request
        .delegates
        .iter()
        .map(|d| format!("'{d}'"))
        .collect::<Vec<_>>()
        .join(" → ");
    let through = if request.delegates.len() == 1 {
        "delegate"
    } else {
        "delegates"
    };
    request.message = format!(
        "tool '{}', reached through {through} {path}, needs a person's approval before it runs: ask them, then resume the call of '{}' with its token (approve or deny) within {} s",
        request.tool,
        desc.name,
        request.expires_in_ms.div_ceil(1000).max(1)
    );
    ToolError::new(
        ErrorKind::ApprovalRequired,
        desc.name,
        request.message.clone(),
    )
    .with_approval(request)
}

/// Why a token redeems nothing here, in words that do not tell an attacker which.
fn not_valid(desc: &ToolDescriptor) -> ToolError {
    ToolError::new(
        ErrorKind::Forbidden,
        desc.name,
        format!(
            "tool '{}' was not run: its approval token is not valid for this call. A token is used once, expires, and holds only for the tool, arguments and caller it was issued for; call the tool again (without a token) to ask for a new approval",
            desc.name
        ),
    )
}

/// Redeems `token` for this call: `Ok` when it was issued for this tool, caller and these
/// validated arguments and had not been used or expired; it is used up either way once found.
pub(crate) async fn redeem(
    desc: &ToolDescriptor,
    store: &dyn PolicyStore,
    ctx: &CallContext,
    token: &str,
    arguments: &Value,
) -> Result<(), ToolError> {
    if !well_formed(token) {
        return Err(not_valid(desc));
    }
    let key = key(desc.name, token, &ctx.caller().id);
    let stored = match store.take(&key).await {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(not_valid(desc)),
        Err(e) => return Err(store_failed(desc, ctx, "redeeming an approval", &e)),
    };
    match serde_json::from_slice::<Grant>(&stored) {
        Ok(grant) if grant.v == GRANT_VERSION && grant.arguments == *arguments => Ok(()),
        Ok(_) | Err(_) => Err(ToolError::new(
            ErrorKind::Forbidden,
            desc.name,
            format!(
                "tool '{}' was not run: its approval was given for other arguments, and is now used up; call the tool again (without a token) to ask for approval of these arguments",
                desc.name
            ),
        )),
    }
}

/// Withdraws `token` (a person said no): the call fails with `forbidden` whether or not the
/// token was still pending.
pub(crate) async fn deny(
    desc: &ToolDescriptor,
    store: &dyn PolicyStore,
    ctx: &CallContext,
    token: &str,
) -> ToolError {
    if well_formed(token) {
        let key = key(desc.name, token, &ctx.caller().id);
        if let Err(e) = store.take(&key).await {
            return store_failed(desc, ctx, "withdrawing an approval", &e);
        }
    }
    ToolError::new(
        ErrorKind::Forbidden,
        desc.name,
        format!(
            "tool '{}' was not run: a person denied the approval it needs",
            desc.name
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_hex() {
        let a = new_token().expect("random");
        let b = new_token().expect("random");
        assert!(well_formed(&a) && well_formed(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!well_formed(&a[1..]));
        assert!(!well_formed(&a.to_uppercase()));
        assert!(!well_formed(&format!("{}:x", &a[2..])));
    }

    #[test]
    fn keys_keep_tool_token_and_caller_apart() {
        assert_eq!(key("t", "ab", "ada"), "approval:t:ab:ada");
        // A caller id may hold `:`; the tool name and the token before it cannot.
        assert_eq!(key("t", "ab", "ada:x"), "approval:t:ab:ada:x");
        assert_ne!(key("t", "ab", "ada"), key("t", "ab", "bob"));
        assert_ne!(key("t", "ab", "ada"), key("u", "ab", "ada"));
    }
}
