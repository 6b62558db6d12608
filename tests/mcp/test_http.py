"""The example server over streamable HTTP on 127.0.0.1, driven by the official Python SDK."""

from __future__ import annotations

import os
import subprocess
import urllib.error
import urllib.request
from typing import Iterator

import pytest
from conftest import OPERATOR, SUPPORT, server_path, text_json
from mcp import Client
from mcp.client.stdio import get_default_environment
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio


def start(agent: str, env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """Starts the server on a free loopback port; returns it and its URL."""
    process = subprocess.Popen(
        [server_path(), agent, "--http", "127.0.0.1:0"],
        env={**get_default_environment(), **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    prefix = f"mcp-server: serving {agent} at "
    if not line.startswith(prefix):
        process.kill()
        raise AssertionError(f"unexpected first line from the server: {line!r}")
    return process, line[len(prefix) :].strip()


@pytest.fixture
def support_url() -> Iterator[str]:
    process, url = start("support-desk", SUPPORT)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def assistant_url() -> Iterator[str]:
    process, url = start("assistant", OPERATOR)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


async def test_tools_over_http(support_url: str, mode: str) -> None:
    assert support_url.startswith("http://127.0.0.1:") and support_url.endswith("/mcp")
    async with Client(support_url, mode=mode) as client:
        assert client.server_info is not None and client.server_info.name == "support-desk"
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == ["list_tickets", "update_ticket", "lookup_order"]
        order = await client.call_tool("lookup_order", {"order_id": "A-1001"})
        assert order.is_error is False
        assert order.structured_content == text_json(order) == {"order_id": "A-1001", "status": "in_transit"}
        tickets = await client.call_tool("list_tickets", {"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"})
        assert tickets.is_error is False and len(text_json(tickets)) == 3
        bad = await client.call_tool("lookup_order", {"order_id": 7})
        assert bad.is_error is True and text_json(bad)["kind"] == "arguments_invalid"
        with pytest.raises(MCPError) as raised:
            await client.call_tool("nope", {})
        assert raised.value.error.code == -32602


async def test_a_play_over_http(assistant_url: str, mode: str) -> None:
    async with Client(assistant_url, mode=mode) as client:
        play = await client.call_tool("slug_and_span", {"title": "Launch Plan", "from": "2026-03-01", "to": "2026-03-15"})
        assert play.is_error is False
        assert play.structured_content == text_json(play) == {"slug": "launch-plan", "days": 14}


def test_a_foreign_host_header_is_refused(support_url: str) -> None:
    # A page on another site that resolves its name to 127.0.0.1 (DNS rebinding) sends its own Host.
    request = urllib.request.Request(
        support_url,
        data=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        headers={"Host": "rebind.example", "Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=10)
    assert raised.value.code == 403


def test_other_addresses_need_an_authenticator() -> None:
    result = subprocess.run(
        [server_path(), "support-desk", "--http", "0.0.0.0:0"],
        env={**os.environ},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "TOOLC_JWT_ISSUER" in result.stderr and "loopback" in result.stderr
