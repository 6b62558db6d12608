"""Advertised ⊆ accepted over MCP: every instance hypothesis-jsonschema generates from a tool's
`tools/list` `inputSchema` is accepted by the example server (`mcp-server support-desk` and
`assistant`), called through the official Python client by a caller that every policy lets
through. A call may still fail (a ticket that does not exist), but never with
`arguments_invalid`. Policies are checked before the arguments, so a `rate_limited` answer says
nothing either way: the call is made again as a new caller (rate limits are kept per caller), so
every instance gets an answer that counts.
"""

from __future__ import annotations

import json
import os
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from conftest import TALLY, generate, target_dir
from hypothesis import note
from mcp import Client
from mcp.client.stdio import StdioServerParameters

AGENTS = ("support-desk", "assistant")

# Past every policy of the example manifests: admin, both roles, and the assistant's scope.
CALLER = {"TOOLC_AUTH": "admin", "TOOLC_ROLES": "support,admin", "TOOLC_OPERATOR": "ada", "TOOLC_TIER": "pro"}


def server_path() -> str:
    """The `mcp-server` binary: $TOOLC_MCP_SERVER, or the debug build in the target dir."""
    return os.environ.get("TOOLC_MCP_SERVER") or str(target_dir() / "debug" / "mcp-server")


@asynccontextmanager
async def connect(agent: str, caller: str) -> AsyncIterator[Client]:
    env = {**CALLER, "TOOLC_CALLER": caller}
    async with Client(StdioServerParameters(command=server_path(), args=[agent], env=env)) as client:
        yield client


async def _list(agent: str) -> list[dict[str, Any]]:
    async with connect(agent, "agreement-list") as client:
        return [{"name": t.name, "inputSchema": t.input_schema} for t in (await client.list_tools()).tools]


def cases() -> list[Any]:
    return [
        pytest.param(agent, tool, id=f"{agent}/{tool['name']}")
        for agent in AGENTS
        for tool in anyio.run(_list, agent)
    ]


class Session:
    """A client connected to the server as one caller; `renew` connects as a new one."""

    def __init__(self, portal: BlockingPortal, agent: str) -> None:
        self.portal, self.agent, self.callers = portal, agent, 0
        self.open()

    def open(self) -> None:
        self.callers += 1
        self.context = self.portal.wrap_async_context_manager(connect(self.agent, f"agreement-{self.callers}"))
        self.client = self.context.__enter__()

    def close(self) -> None:
        self.context.__exit__(None, None, None)

    def renew(self) -> None:
        self.close()
        self.open()

    def call(self, tool: str, arguments: Any) -> dict[str, Any] | None:
        """The call's error envelope, or `None` when it succeeded."""
        result = self.portal.call(self.client.call_tool, tool, arguments)
        if not result.is_error:
            return None
        return json.loads(result.content[0].text)


@pytest.mark.parametrize(("agent", "tool"), cases())
def test_instances_of_the_listed_input_schema_are_accepted(agent: str, tool: dict[str, Any]) -> None:
    name = tool["name"]
    with start_blocking_portal() as portal:
        session = Session(portal, agent)
        try:

            def check(instance: Any) -> None:
                note(f"mcp-server {agent}, tool {name}\ninstance: {json.dumps(instance)}")
                error = session.call(name, instance)
                for _ in range(3):
                    if error is None or error["kind"] != "rate_limited":
                        break
                    session.renew()
                    error = session.call(name, instance)
                kind = error and error["kind"]
                # Policies are checked before the arguments: such an answer would say nothing.
                assert kind not in ("forbidden", "rate_limited"), f"the caller must pass every policy: {error}"
                assert kind != "arguments_invalid", (
                    f"listed but refused over MCP: mcp-server {agent}, tool {name}\n"
                    f"instance: {json.dumps(instance)}\nanswer: {error}"
                )

            started = time.monotonic()
            sent = generate(tool["inputSchema"], check)
            TALLY.add(f"mcp-server {agent}", name, ["mcp, served"], sent, time.monotonic() - started)
        finally:
            session.close()
