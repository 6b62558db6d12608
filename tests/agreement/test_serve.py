"""Advertised ⊆ accepted, and answered ⊆ declared, for `toolc serve --mock` over every toolset of
the real-world corpus (tests/realworld): every instance hypothesis-jsonschema generates from a
tool's listed `inputSchema` is accepted by the server (called through the official Python client
by a caller every policy lets through), and every result the mock answers is valid: the runtime
validated it against the tool's `returns` (no `output_invalid`), and it is valid against the
listed `outputSchema`, judged by `jsonschema`, where the tool lists one.

The corpus holds over a thousand tools, each served without a line of Rust. Most of the time
goes to hypothesis-jsonschema drawing instances (tens of milliseconds each for these schemas; a
call through the client takes about 9 ms), so SERVE_INSTANCES per tool, against the 100 of the
other agreement tests, keeps the run to about a minute on two cores. A mock's n-th call answers
a value generated from its own seed, so as many results per tool are judged.
"""

from __future__ import annotations

import json
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import jsonschema
import mcp.types as types
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from conftest import ROOT, TALLY, generate, target_dir
from hypothesis import note
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REALWORLD = ROOT / "tests" / "realworld"

# Distinct instances per tool: 25 took three times as long as 10 and found nothing 10 did not; 5
# halves the time of 10 (and some tools have fewer: no parameter, or a few enums).
SERVE_INSTANCES = 5


def toolc_path() -> str:
    """The `toolc` binary: $TOOLC_BIN, or the debug build in the target dir."""
    return os.environ.get("TOOLC_BIN") or str(target_dir() / "debug" / "toolc")


def folders() -> list[Path]:
    return sorted(p for p in REALWORLD.iterdir() if (p / "tools.json").is_file())


async def accept(context: Any, params: Any) -> types.ElicitResult:
    """A person who approves whatever is asked (a tool held for approval then runs)."""
    return types.ElicitResult(action="accept", content={})


@asynccontextmanager
async def connect(folder: Path, caller: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=toolc_path(),
        args=["serve", str(folder), "--mock", "--caller", caller, "--auth", "admin"],
        env={"PATH": os.environ["PATH"]},
    )
    async with Client(params, elicitation_callback=accept) as client:
        yield client


def cases() -> list[Any]:
    """Each tool of each toolset's capture, by name: the schemas judged are the ones the server lists
    (each server is asked once, by the test that first needs it, not by every worker as it collects)."""
    return [
        pytest.param(folder, tool["name"], id=f"{folder.name}/{tool['name']}")
        for folder in folders()
        for tool in json.loads((folder / "tools.json").read_text(encoding="utf-8"))["tools"]
    ]


class Servers:
    """One server per toolset, started when a test first needs it, shared by its tools."""

    def __init__(self, portal: BlockingPortal) -> None:
        self.portal = portal
        self.open: dict[Path, tuple[Any, Client]] = {}
        self.lists: dict[Path, dict[str, types.Tool]] = {}

    def client(self, folder: Path) -> Client:
        if folder not in self.open:
            context = self.portal.wrap_async_context_manager(connect(folder, f"agreement-{folder.name}"))
            self.open[folder] = (context, context.__enter__())
        return self.open[folder][1]

    def listed(self, folder: Path, name: str) -> types.Tool:
        """The tool as the server lists it."""
        if folder not in self.lists:
            tools = self.portal.call(self.client(folder).list_tools).tools
            self.lists[folder] = {t.name: t for t in tools}
        listed = self.lists[folder]
        assert name in listed, f"toolc serve {folder.name} does not list {name} (it lists {sorted(listed)})"
        return listed[name]

    def call(self, folder: Path, tool: str, arguments: Any) -> Any:
        return self.portal.call(self.client(folder).call_tool, tool, arguments)

    def close(self) -> None:
        for context, _ in self.open.values():
            context.__exit__(None, None, None)


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    with start_blocking_portal() as portal:
        s = Servers(portal)
        yield s
        s.close()


@pytest.mark.parametrize(("folder", "name"), cases())
def test_generated_arguments_are_accepted_and_answers_are_valid(servers: Servers, folder: Path, name: str) -> None:
    tool = servers.listed(folder, name)
    output = tool.output_schema
    validator = (
        jsonschema.Draft202012Validator(output, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
        if output
        else None
    )

    def check(instance: Any) -> None:
        note(f"toolc serve --mock {folder.name}, tool {name}\ninstance: {json.dumps(instance)}")
        result = servers.call(folder, name, instance)
        if result.is_error:
            error = json.loads(result.content[0].text)
            assert error["kind"] not in ("arguments_invalid", "output_invalid"), (
                f"toolc serve --mock {folder.name}, tool {name}\ninstance: {json.dumps(instance)}\nanswer: {error}"
            )
            # No other failure is expected of a mock called by a caller every policy lets through.
            raise AssertionError(f"{folder.name}/{name} failed: {error}")
        if validator is not None:
            errors = [e.message for e in validator.iter_errors(result.structured_content)]
            assert not errors, f"{folder.name}/{name} answered {json.dumps(result.structured_content)}: {errors}"

    started = time.monotonic()
    sent = generate(tool.input_schema, check, SERVE_INSTANCES)
    TALLY.add(folder.name, name, ["mcp, toolc serve --mock"], sent, time.monotonic() - started, SERVE_INSTANCES)
