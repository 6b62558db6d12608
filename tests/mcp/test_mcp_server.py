"""The example MCP server, driven by the official Python SDK over stdio.

Every test runs in both connection modes of the SDK (see `mode` in conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import OPERATOR, SUPPORT, connect, text_json
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"


def ok_structured(result: Any) -> Any:
    """A success whose structured content equals its text JSON; returns that value."""
    assert result.is_error is False, result
    assert result.structured_content is not None, result
    assert result.structured_content == text_json(result)
    return result.structured_content


def ok_text(result: Any) -> Any:
    """A success answered as text only (a result that is not an object)."""
    assert result.is_error is False, result
    assert result.structured_content is None, result
    return text_json(result)


def failed(result: Any, kind: str, structured: bool) -> dict[str, Any]:
    """An error result of `kind`; `structured` says whether structuredContent may carry it
    (only when the tool lists no output schema)."""
    assert result.is_error is True, result
    error = text_json(result)
    assert error["kind"] == kind, error
    assert isinstance(error["message"], str) and error["message"], error
    assert error["retryable"] is (kind in ("rate_limited", "timeout", "unavailable")), error
    if structured:
        assert result.structured_content == error
    else:
        assert result.structured_content is None, result
    return error


async def test_initialize_names_the_agent_and_its_manuals(mode: str) -> None:
    async with connect("support-desk", mode=mode) as client:
        assert client.server_info is not None
        assert client.server_info.name == "support-desk"
        assert client.server_info.description == "Answers customers about their tickets and orders."
        assert client.server_capabilities.tools is not None
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        instructions = client.instructions or ""
        # Both capabilities' manuals, rendered.
        assert "Call list_tickets with the customer's id" in instructions
        assert "Use lookup_order when a customer asks where an order is." in instructions


async def test_tools_list_carries_schemas_titles_and_hints(mode: str) -> None:
    async with connect("support-desk", mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert list(tools) == ["list_tickets", "update_ticket", "lookup_order"]
        for tool in tools.values():
            assert tool.input_schema["type"] == "object"
            assert tool.description
        # An array result: no output schema (MCP asks for objects), text only.
        assert tools["list_tickets"].output_schema is None
        assert tools["list_tickets"].input_schema["required"] == ["customerId"]
        # `$ref: Ticket` at the root is inlined into an object schema; `$defs` stay.
        ticket = tools["update_ticket"].output_schema
        assert ticket["type"] == "object" and "$ref" not in ticket
        assert ticket["properties"]["status"] == {"$ref": "#/$defs/TicketStatus"}
        assert "TicketStatus" in ticket["$defs"]
        assert tools["lookup_order"].output_schema["required"] == ["order_id", "status"]
        # The manifest's annotations and title.
        assert tools["list_tickets"].annotations.read_only_hint is True
        # Its icons and `_meta`, as the manifest gives them.
        icon = tools["list_tickets"].icons[0]
        assert (icon.src, icon.mime_type, icon.sizes) == ("https://example.com/icons/tickets.svg", "image/svg+xml", ["any"])
        assert tools["list_tickets"].meta == {"com.example/owner": "support-platform"}
        update = tools["update_ticket"].annotations
        assert (update.destructive_hint, update.idempotent_hint, update.read_only_hint) == (True, True, None)
        lookup = tools["lookup_order"]
        assert lookup.title == "Look up order"
        assert (lookup.annotations.read_only_hint, lookup.annotations.open_world_hint) == (True, False)

    async with connect("assistant", mode=mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        # Tools, then the capability's play.
        assert list(tools) == ["list_meetings", "whoami", "slug_and_span"]
        assert tools["slug_and_span"].output_schema["required"] == ["slug", "days"]
        # A tool without parameters takes an empty, closed object.
        assert tools["whoami"].input_schema == {
            "type": "object",
            "properties": {},
            "additionalProperties": False,
        }


async def test_every_support_desk_tool_answers(mode: str) -> None:
    async with connect("support-desk", SUPPORT, mode=mode) as client:
        tickets = ok_text(await client.call_tool("list_tickets", {"customerId": CUSTOMER}))
        assert [t["id"] for t in tickets] == ["T-1", "T-2", "T-3"]
        one = ok_text(await client.call_tool("list_tickets", {"customerId": CUSTOMER, "status": "open", "limit": 1}))
        assert one == [{"id": "T-1", "subject": "Cannot log in", "status": "open", "priority": "high"}]
        updated = ok_structured(
            await client.call_tool("update_ticket", {"id": "T-2", "status": "resolved", "priority": "urgent"})
        )
        assert updated == {"id": "T-2", "subject": "Invoice is wrong", "status": "resolved", "priority": "urgent"}
        order = ok_structured(await client.call_tool("lookup_order", {"order_id": "A-1001"}))
        assert order == {"order_id": "A-1001", "status": "in_transit"}


async def test_every_assistant_tool_and_play_answers(mode: str) -> None:
    async with connect("assistant", OPERATOR, mode=mode) as client:
        day = ok_structured(await client.call_tool("list_meetings", {"day": "2026-03-02"}))
        assert day == {"meetings": ["Standup", "Planning"]}
        assert ok_structured(await client.call_tool("list_meetings", {"day": "2026-03-03"})) == {"meetings": []}
        # `whoami` has `validate_returns: false`: no output schema, so text only.
        assert ok_text(await client.call_tool("whoami", {})) == {"operator": "ada", "tier": "pro"}
        play = ok_structured(
            await client.call_tool("slug_and_span", {"title": "Launch Plan", "from": "2026-03-01", "to": "2026-03-15"})
        )
        assert play == {"slug": "launch-plan", "days": 14}


async def test_invalid_arguments_list_every_violation(mode: str) -> None:
    async with connect("support-desk", SUPPORT, mode=mode) as client:
        error = failed(
            await client.call_tool("list_tickets", {"customerId": "not-a-uuid", "limit": 500}),
            "arguments_invalid",
            structured=True,
        )
        assert {v["pointer"] for v in error["violations"]} == {"/customerId", "/limit"}
        # The TOML manifest's pattern holds; lookup_order lists an output schema, so text only.
        error = failed(await client.call_tool("lookup_order", {"order_id": "nope"}), "arguments_invalid", False)
        assert [v["pointer"] for v in error["violations"]] == ["/order_id"]
        failed(await client.call_tool("lookup_order", {}), "arguments_invalid", False)
        failed(await client.call_tool("update_ticket", {"id": 5, "status": "gone"}), "arguments_invalid", False)
    async with connect("assistant", OPERATOR, mode=mode) as client:
        # A play's failure is an error result too, with the play's kind.
        error = failed(await client.call_tool("slug_and_span", {"title": "x"}), "arguments_invalid", False)
        assert "play 'slug_and_span'" in error["message"]
        failed(await client.call_tool("list_meetings", {"day": "March 2nd"}), "arguments_invalid", False)


async def test_policies_hold_over_mcp(mode: str) -> None:
    args = {"customerId": CUSTOMER}
    async with connect("support-desk", mode=mode) as client:
        # The default caller is anonymous.
        error = failed(await client.call_tool("list_tickets", args), "forbidden", structured=True)
        assert "list_tickets" in error["message"]
    async with connect("support-desk", {"TOOLC_CALLER": "bob", "TOOLC_AUTH": "user"}, mode=mode) as client:
        failed(await client.call_tool("list_tickets", args), "forbidden", structured=True)
        failed(await client.call_tool("update_ticket", {"id": "T-1"}), "forbidden", structured=False)
        # A tool without policies still answers.
        ok_structured(await client.call_tool("lookup_order", {"order_id": "A-1002"}))
    async with connect("support-desk", {**SUPPORT, "TOOLC_ROLES": "support,admin"}, mode=mode) as client:
        # update_ticket allows 30 calls a minute per caller.
        for _ in range(30):
            ok_structured(await client.call_tool("update_ticket", {"id": "T-3", "status": "pending"}))
        error = failed(await client.call_tool("update_ticket", {"id": "T-3"}), "rate_limited", structured=False)
        assert error["retry_after_ms"] > 0


async def test_a_missing_scope_is_an_error_result(mode: str) -> None:
    async with connect("assistant", mode=mode) as client:
        error = failed(await client.call_tool("whoami", {}), "scope_unavailable", structured=True)
        assert "with_scope" in error["message"]


async def test_an_unknown_tool_is_a_protocol_error(mode: str) -> None:
    async with connect("support-desk", SUPPORT, mode=mode) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("drop_database", {})
        assert raised.value.error.code == -32602
        assert raised.value.error.data == {"kind": "unknown_tool"}
        # The session goes on.
        ok_structured(await client.call_tool("lookup_order", {"order_id": "A-1"}))
