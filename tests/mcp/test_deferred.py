"""Deferred loading (`mcp-server --deferred --pin TOOL`), driven by the official Python SDK:
`tools/list` starts with `search_tools` and the pinned tools, a search answers the matching
tools' descriptions and makes them listed and callable, and the server says the list changed
(a session notification under 2025-11-25, a `subscriptions/listen` event under 2026-07-28).
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from conftest import SUPPORT, connect, text_json
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"
DEFERRED = ("--deferred", "--pin", "lookup_order")


def method_of(message: Any) -> str | None:
    return getattr(getattr(message, "root", message), "method", None)


async def names(client: Any) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def search(client: Any, query: str, limit: int = 5) -> list[dict[str, Any]]:
    result = await client.call_tool("search_tools", {"query": query, "limit": limit})
    assert result.is_error is False, result
    assert result.structured_content == text_json(result)
    return result.structured_content["tools"]


async def test_search_loads_tools_and_the_session_hears_the_list_changed() -> None:
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if method_of(message) == "notifications/tools/list_changed":
            changed.set()

    async with connect("support-desk", SUPPORT, "legacy", DEFERRED, on_message) as client:
        assert client.server_capabilities.tools.list_changed is True
        assert await names(client) == ["search_tools", "lookup_order"]
        search_tool = (await client.list_tools()).tools[0]
        assert search_tool.input_schema["required"] == ["query"]

        # Not found yet: not callable.
        with pytest.raises(MCPError) as refused:
            await client.call_tool("list_tickets", {"customerId": CUSTOMER})
        assert "search_tools" in str(refused.value)

        found = await search(client, "open support tickets of a customer", limit=1)
        assert [t["name"] for t in found] == ["list_tickets"]
        assert found[0]["description"] == "Return open support tickets for a customer"
        assert found[0]["inputSchema"]["required"] == ["customerId"]
        assert found[0]["score"] > 0
        with anyio.fail_after(10):
            await changed.wait()
        assert await names(client) == ["search_tools", "list_tickets", "lookup_order"]
        tickets = text_json(await client.call_tool("list_tickets", {"customerId": CUSTOMER}))
        assert [t["id"] for t in tickets] == ["T-1", "T-2", "T-3"]

        # A pinned tool is callable from the start; bad search arguments are an error result.
        order = await client.call_tool("lookup_order", {"order_id": "A-1002"})
        assert order.structured_content == {"order_id": "A-1002", "status": "delivered"}
        bad = await client.call_tool("search_tools", {"query": ""})
        assert bad.is_error is True
        assert text_json(bad)["kind"] == "arguments_invalid"


async def test_under_2026_07_28_the_change_comes_through_subscriptions_listen() -> None:
    async with connect("support-desk", SUPPORT, "auto", ("--deferred",)) as client:
        assert await names(client) == ["search_tools"]
        async with client.listen(tools_list_changed=True) as subscription:
            found = await search(client, "where is my order", limit=1)
            assert [t["name"] for t in found] == ["lookup_order"]
            with anyio.fail_after(10):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
        assert await names(client) == ["search_tools", "lookup_order"]
        order = await client.call_tool("lookup_order", {"order_id": "A-1001"})
        assert order.structured_content == {"order_id": "A-1001", "status": "in_transit"}


async def test_a_play_failure_and_terminal_travel_in_meta() -> None:
    async with connect("assistant", {"TOOLC_OPERATOR": "ada"}, "legacy") as client:
        result = await client.call_tool("slug_and_span", {"title": "x", "from": "2026-03-01", "to": "nope"})
        assert result.is_error is True
        meta = result.meta or {}
        assert meta["toolc/terminal"] is False
        assert meta["toolc/metadata"]["tool_kind"] == "play"
        ok = await client.call_tool("list_meetings", {"day": "2026-03-02"})
        assert ok.is_error is False
        assert (ok.meta or {})["toolc/metadata"]["tool_kind"] == "tool"
