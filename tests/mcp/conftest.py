"""Shared fixtures: the example server binary, a client connected to it over stdio, and a person
who answers approvals."""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import mcp.types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]

# The caller every support-desk tool allows.
SUPPORT = {"TOOLC_CALLER": "ada", "TOOLC_AUTH": "user", "TOOLC_ROLES": "support"}
# The scope the assistant's `whoami` reads.
OPERATOR = {"TOOLC_OPERATOR": "ada", "TOOLC_TIER": "pro"}


def server_path() -> str:
    """The `mcp-server` binary: $TOOLC_MCP_SERVER, or the debug build in the target dir."""
    explicit = os.environ.get("TOOLC_MCP_SERVER")
    if explicit:
        return explicit
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "debug" / "mcp-server")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["legacy", "auto"])
def mode(request: pytest.FixtureRequest) -> str:
    """`legacy`: the initialize handshake (2025-11-25). `auto`: `server/discover` first, which
    the server answers, so the session runs the 2026-07-28 per-request protocol."""
    return request.param


@asynccontextmanager
async def connect(
    agent: str,
    env: dict[str, str] | None = None,
    mode: str = "legacy",
    args: tuple[str, ...] = (),
    message_handler: Any = None,
    elicitation_callback: Any = None,
) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=server_path(), args=[agent, *args], env=env or {})
    async with Client(
        params, mode=mode, message_handler=message_handler, elicitation_callback=elicitation_callback
    ) as client:
        yield client


def text_json(result: Any) -> Any:
    """The single text block of a tool result, parsed as JSON."""
    assert len(result.content) == 1, result
    assert result.content[0].type == "text", result
    return json.loads(result.content[0].text)


class Person:
    """An elicitation callback that answers `action` and remembers what it was asked."""

    def __init__(self, action: str) -> None:
        self.action = action
        self.asked: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        return types.ElicitResult(action=self.action, content={} if self.action == "accept" else None)
