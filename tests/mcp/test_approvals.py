"""Approvals over MCP with the official Python SDK: `cancel_order` (destructive, under
`[policy] approve_destructive` of manifests/toolc.toml) runs only once a person approves it.

A client with an elicitation callback is asked: in-request under 2025-11-25 (`legacy`), through an
`InputRequiredResult` the SDK retries under 2026-07-28 (`auto`). A client without one is refused
with `isError` and told how a host grants the approval through the request's `_meta`.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SUPPORT, Person, connect, text_json

pytestmark = pytest.mark.anyio

CANCEL = {"order_id": "A-1001", "reason": "Ordered twice"}


def forbidden(result: Any) -> str:
    assert result.is_error is True, result
    error = text_json(result)
    assert error["kind"] == "forbidden", error
    assert error["retryable"] is False, error
    return error["message"]


async def test_an_approved_cancellation_runs(mode: str) -> None:
    person = Person("accept")
    async with connect("support-desk", SUPPORT, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("cancel_order", CANCEL)
        assert result.is_error is False, result
        assert result.structured_content == {"order_id": "A-1001", "cancelled": True}
        # The handler's own metadata entry: it ran, once approved.
        assert result.meta["toolc/metadata"]["entries"] == {"reason": "Ordered twice"}, result.meta
        assert len(person.asked) == 1
        question = person.asked[0]
        assert question.message.startswith("Allow the tool 'Cancel order' to run with these arguments?")
        assert '"order_id":"A-1001"' in question.message, question.message
        assert "Cancel an order that has not been delivered." in question.message
        # Tools that need no approval never ask.
        looked_up = await client.call_tool("lookup_order", {"order_id": "A-1001"})
        assert looked_up.is_error is False, looked_up
        assert len(person.asked) == 1


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_a_declined_cancellation_does_not_run(mode: str, action: str) -> None:
    person = Person(action)
    async with connect("support-desk", SUPPORT, mode=mode, elicitation_callback=person) as client:
        result = await client.call_tool("cancel_order", CANCEL)
        assert forbidden(result) == "tool 'cancel_order' was not run: a person denied the approval it needs"
        assert len(person.asked) == 1


async def test_without_elicitation_the_host_is_told_how_to_grant_it(mode: str) -> None:
    env = {**SUPPORT, "TOOLC_APPROVAL_TTL_SECS": "120"}
    async with connect("support-desk", env, mode=mode) as client:
        result = await client.call_tool("cancel_order", CANCEL)
        assert result.is_error is True, result
        error = text_json(result)
        assert error["kind"] == "approval_required", error
        assert error["retryable"] is False
        message = error["message"]
        assert message.startswith(
            "tool 'cancel_order' was not run: it needs a person's approval, and this client cannot ask one "
            "(it did not declare the elicitation capability)."
        ), message
        assert '"decision": "approve"' in message and "within 120 s" in message, message
        held = result.meta["toolc/approval"]
        assert held["tool"] == "cancel_order"
        assert held["arguments"] == CANCEL
        assert held["expires_in_ms"] == 120_000
        token = held["token"]
        assert len(token) == 64
        assert token not in result.content[0].text, "the model never reads the token"

        # The host asked the person, who said yes: the same call, with the token in `_meta`.
        grant = {"toolc/approval": {"token": token, "decision": "approve"}}
        approved = await client.call_tool("cancel_order", CANCEL, meta=grant)
        assert approved.is_error is False, approved
        assert approved.structured_content == {"order_id": "A-1001", "cancelled": True}
        # A token is used once.
        replayed = await client.call_tool("cancel_order", CANCEL, meta=grant)
        assert "its approval token is not valid for this call" in forbidden(replayed)

        # A token holds for its arguments only, and is used up by a mismatch.
        held = (await client.call_tool("cancel_order", CANCEL)).meta["toolc/approval"]
        grant = {"toolc/approval": {"token": held["token"], "decision": "approve"}}
        other = await client.call_tool("cancel_order", {"order_id": "A-1002"}, meta=grant)
        assert "its approval was given for other arguments" in forbidden(other)

        # "deny" withdraws a held call.
        held = (await client.call_tool("cancel_order", CANCEL)).meta["toolc/approval"]
        deny = {"toolc/approval": {"token": held["token"], "decision": "deny"}}
        denied = await client.call_tool("cancel_order", CANCEL, meta=deny)
        assert "a person denied" in forbidden(denied)
        grant = {"toolc/approval": {"token": held["token"], "decision": "approve"}}
        late = await client.call_tool("cancel_order", CANCEL, meta=grant)
        assert "its approval token is not valid for this call" in forbidden(late)

