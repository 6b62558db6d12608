//! Approvals over MCP: how a held call is asked about (the client's form elicitation), how a
//! host resumes it (`_meta` [`APPROVAL_META`], or the retry of an `InputRequiredResult`), and
//! the answer to a client that cannot ask.

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ElicitResult, ElicitationAction, ErrorData, MetaObject,
};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};
use toolc_runtime::{ApprovalDecision, ApprovalRequest, ErrorKind, ToolDescriptor};

use crate::listing::Listed;
use crate::results::error_result;

/// The request and result `_meta` key of approvals: a held call's result carries
/// `{"token", "tool", "arguments", "expires_in_ms", "message"}` under it, and a host resumes the
/// call by sending the same tool and arguments with `{"token": …, "decision": "approve"}` (or
/// `"deny"`) under it.
pub const APPROVAL_META: &str = "toolc/approval";

/// The key of the approval's elicitation in an `InputRequiredResult` (protocol 2026-07-28).
pub(crate) const APPROVAL_INPUT: &str = "toolc/approval";

/// The `requestState` of a held call is this prefix and its token: an opaque handle, the
/// state itself stays in the policy store.
pub(crate) const APPROVAL_STATE: &str = "toolc-approval:";

/// The host's decision on a held call that this request resumes, if any: from the retry of an
/// `InputRequiredResult` (its `requestState` and the elicitation's answer), or from the
/// request's `_meta` ([`APPROVAL_META`]).
pub(crate) fn approval_decision(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Result<Option<(String, ApprovalDecision)>, ErrorData> {
    if let Some(token) = request
        .request_state
        .as_deref()
        .and_then(|s| s.strip_prefix(APPROVAL_STATE))
    {
        let action = request
            .input_responses
            .as_ref()
            .and_then(|r| r.get(APPROVAL_INPUT))
            .and_then(|answer| serde_json::from_value::<ElicitResult>(answer.clone()).ok())
            .map(|answer| answer.action);
        let decision = match action {
            Some(ElicitationAction::Accept) => ApprovalDecision::Approve,
            // Declined, dismissed, or no answer: the call does not run.
            _ => ApprovalDecision::Deny,
        };
        return Ok(Some((token.to_owned(), decision)));
    }
    let meta = context
        .meta
        .0
        .get(APPROVAL_META)
        .or_else(|| request.meta.as_ref().and_then(|m| m.0.get(APPROVAL_META)));
    let Some(meta) = meta else {
        return Ok(None);
    };
    let token = meta.get("token").and_then(Value::as_str);
    let decision = match meta.get("decision").and_then(Value::as_str) {
        Some("approve") => Some(ApprovalDecision::Approve),
        Some("deny") => Some(ApprovalDecision::Deny),
        _ => None,
    };
    match (token, decision) {
        (Some(token), Some(decision)) => Ok(Some((token.to_owned(), decision))),
        _ => Err(ErrorData::invalid_params(
            format!(
                "`_meta` \"{APPROVAL_META}\" must be {{\"token\": \"<the token of the held call's result>\", \"decision\": \"approve\" or \"deny\"}}"
            ),
            None,
        )),
    }
}

/// Whether the client of this request takes form elicitations (a client that declares
/// `elicitation` with neither `form` nor `url` takes forms).
pub(crate) fn elicits_forms(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// What the person is asked: the tool, what it does, and the arguments it will run with (for
/// a tool a delegate reached, the inner tool and the delegates).
pub(crate) fn approval_question(desc: &ToolDescriptor, held: &ApprovalRequest) -> String {
    let arguments = toolc_runtime::preview_with_limit(&held.arguments, 2048);
    let description = desc.description.trim();
    let title = desc.title.unwrap_or(desc.name);
    if held.delegates.is_empty() {
        return format!(
            "Allow the tool '{title}' to run with these arguments?\n\n{arguments}\n\n{description}"
        );
    }
    // Held further in: the tool that runs is the inner one the delegate reached.
    format!(
        "Allow the tool '{}', which '{title}' reached, to run with these arguments?\n\n{arguments}\n\n{}",
        held.tool, held.message
    )
}

/// A held call the client cannot ask about: `isError`, saying how a host grants it, with the
/// token in `_meta` (never in the text the model reads).
pub(crate) fn approval_refused(listed: &Listed, held: &ApprovalRequest) -> CallToolResult {
    let name = listed.desc.name;
    let message = format!(
        "{} '{name}' was not run: it needs a person's approval, and this client cannot ask one (it did not declare the elicitation capability). \
         A host grants it by asking the person, then calling '{name}' again with the same arguments and the request `_meta` \
         {{\"{APPROVAL_META}\": {{\"token\": <the token under \"{APPROVAL_META}\" in this result's `_meta`>, \"decision\": \"approve\"}}}} \
         within {} s (\"deny\" withdraws it); a client that declares elicitation is asked directly.",
        listed.desc.kind.as_str(),
        held.expires_in_ms.div_ceil(1000)
    );
    let mut result = error_result(listed, ErrorKind::ApprovalRequired, &message, None);
    let mut meta = Map::new();
    if let Ok(value) = serde_json::to_value(held) {
        meta.insert(APPROVAL_META.into(), value);
    }
    meta.insert("toolc/terminal".into(), Value::Bool(false));
    result.meta = Some(MetaObject(meta));
    result
}
