"""`toolc serve`, driven by the official Python SDK over stdio: the toolset of serve/weather.yaml
served without Rust, one tool per backend (an `http` backend against a local HTTP server, a
`command` backend, mocks) and per policy (a role, a rate limit, an approval), listed as
`toolc dump --dialect mcp` prints it.

Every test runs in both connection modes of the SDK (see `mode` in conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from contextlib import asynccontextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import anyio
import pytest
from conftest import ROOT, Person, text_json
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

TOKEN = "sk-test-9f2c4e1a77"


def toolc_path() -> str:
    """The `toolc` binary: $TOOLC_BIN, or the debug build in the target dir."""
    explicit = os.environ.get("TOOLC_BIN")
    if explicit:
        return explicit
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "debug" / "toolc")


class WeatherApi:
    """The HTTP API `forecast` calls: answers every GET with the city's forecast, keeping each
    request's path and Authorization header."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None]] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                seen.append((self.path, self.headers.get("Authorization")))
                city = self.path.split("/")[-1].split("?")[0]
                if city == "Atlantis":
                    self.send_response(404)
                    self.end_headers()
                    return
                body = json.dumps({"city": city, "celsius": 21.5}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        return f"{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def api() -> Iterator[WeatherApi]:
    server = WeatherApi()
    yield server
    server.close()


@pytest.fixture
def toolset(tmp_path: Path, api: WeatherApi) -> Path:
    """serve/weather.yaml and its script, the API's address in the manifest."""
    source = Path(__file__).parent / "serve"
    # The folder's name is the toolset's, and its one agent's.
    folder = tmp_path / "weather"
    folder.mkdir()
    text = (source / "weather.yaml").read_text().replace("127.0.0.1:9", api.address)
    (folder / "weather.yaml").write_text(text)
    shutil.copy(source / "convert.py", folder / "convert.py")
    return folder


@asynccontextmanager
async def serve(
    toolset: Path, mode: str, *args: str, elicitation_callback: Any = None, message_handler: Any = None
) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=toolc_path(),
        args=["serve", str(toolset), "--caller", "ada", "--auth", "user", *args],
        env={"WEATHER_TOKEN": TOKEN, "PATH": os.environ["PATH"]},
    )
    async with Client(
        params, mode=mode, elicitation_callback=elicitation_callback, message_handler=message_handler
    ) as client:
        yield client


def failed(result: Any, kind: str) -> dict[str, Any]:
    assert result.is_error is True, result
    error = text_json(result)
    assert error["kind"] == kind, error
    return error


async def test_the_list_is_the_mcp_dump(toolset: Path, mode: str) -> None:
    dump = subprocess.run(
        [toolc_path(), "dump", str(toolset), "--dialect", "mcp"], check=True, capture_output=True, text=True
    )
    dumped = json.loads(dump.stdout)["tools"]
    async with serve(toolset, mode) as client:
        assert client.server_info.name == "weather"
        assert "Call forecast for a city's weather" in (client.instructions or "")
        listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == [t["name"] for t in dumped]
    for tool, entry in zip(listed, dumped):
        assert tool.input_schema == entry["inputSchema"], tool.name
        assert tool.output_schema == entry.get("outputSchema"), tool.name
        assert tool.description == entry["description"]
        assert tool.title == entry.get("title")
    forecast = next(t for t in listed if t.name == "forecast")
    assert forecast.annotations.read_only_hint is True
    assert forecast.annotations.title == "Forecast"


async def test_each_backend_answers(toolset: Path, api: WeatherApi, mode: str) -> None:
    async with serve(toolset, mode) as client:
        await client.list_tools()
        # http: the request the manifest describes, the token from the environment.
        forecast = await client.call_tool("forecast", {"city": "Oslo", "days": 2})
        assert forecast.is_error is False, forecast
        assert forecast.structured_content == {"city": "Oslo", "celsius": 21.5}
        assert api.seen[-1] == ("/v1/forecast/Oslo?days=2", f"Bearer {TOKEN}")
        # command: python3 convert.py.
        converted = await client.call_tool("to_fahrenheit", {"celsius": 21.5})
        assert converted.structured_content == {"fahrenheit": 70.7}, converted
        # mock: a value generated from `returns`, valid against it (the SDK checks the
        # structured content against the listed output schema too).
        stations = await client.call_tool("stations", {"city": "Oslo"})
        assert stations.is_error is False, stations
        for station in stations.structured_content["stations"]:
            assert station["id"].startswith("ST-") and 0 <= station["elevation_m"] <= 9000
        # A mocked play answers its value; its failure is an error result with its kind.
        summary = await client.call_tool("week_summary", {"city": "Oslo"})
        assert summary.is_error is False and summary.structured_content["summary"], summary
        failed(await client.call_tool("week_summary", {"city": 7}), "arguments_invalid")
        # The API's 404 is the handler's failure, saying so; the token is nowhere in it.
        missing = failed(await client.call_tool("forecast", {"city": "Atlantis"}), "handler")
        assert missing["message"].startswith("tool 'forecast' failed: not found: GET http://"), missing
        assert TOKEN not in json.dumps(missing)


async def test_bad_arguments_never_reach_the_backend(toolset: Path, api: WeatherApi, mode: str) -> None:
    async with serve(toolset, mode) as client:
        error = failed(await client.call_tool("forecast", {"city": "", "days": 9, "extra": 1}), "arguments_invalid")
        pointers = sorted(v["pointer"] for v in error["violations"])
        assert pointers == ["/city", "/days", "/extra"], error
        assert api.seen == []


async def test_a_role_the_caller_lacks_is_refused(toolset: Path, mode: str) -> None:
    async with serve(toolset, mode) as client:
        error = failed(await client.call_tool("station_report", {"station": "ST-001"}), "forbidden")
        assert "ops" in error["message"], error
    async with serve(toolset, mode, "--role", "ops") as client:
        report = await client.call_tool("station_report", {"station": "ST-001"})
        assert report.structured_content == {"report": "ST-001: 12.5 C, wind 3 m/s"}


async def test_a_rate_limit_holds(toolset: Path, mode: str) -> None:
    async with serve(toolset, mode) as client:
        first = await client.call_tool("refresh", {})
        assert first.structured_content == {"refreshed": True}, first
        error = failed(await client.call_tool("refresh", {}), "rate_limited")
        assert error["retryable"] is True and error["retry_after_ms"] > 0, error


@pytest.mark.parametrize("action", ["accept", "decline"])
async def test_an_approval_is_asked_before_the_backend_runs(toolset: Path, mode: str, action: str) -> None:
    person = Person(action)
    async with serve(toolset, mode, elicitation_callback=person) as client:
        result = await client.call_tool("retire_station", {"station": "ST-001"})
        assert len(person.asked) == 1
        assert person.asked[0].message.startswith("Allow the tool 'Retire a station' to run with these arguments?")
        if action == "accept":
            assert result.structured_content == {"retired": "ST-001"}, result
        else:
            failed(result, "forbidden")


def method_of(message: Any) -> str | None:
    return getattr(getattr(message, "root", message), "method", None)


class Changes:
    """The `notifications/tools/list_changed` a session hears (2025-11-25)."""

    def __init__(self) -> None:
        self.heard = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if method_of(message) == "notifications/tools/list_changed":
            self.heard.set()

    async def wait(self) -> None:
        with anyio.fail_after(20):
            await self.heard.wait()
        self.heard = anyio.Event()

    async def none_for(self, seconds: float) -> None:
        with anyio.move_on_after(seconds):
            await self.heard.wait()
        assert not self.heard.is_set(), "the list was said to change"


async def descriptions(client: Client) -> dict[str, str]:
    return {t.name: t.description or "" for t in (await client.list_tools()).tools}


async def test_watch_serves_a_good_edit_and_keeps_the_last_good_toolset_through_a_bad_one(toolset: Path) -> None:
    manifest = toolset / "weather.yaml"
    good = manifest.read_text()
    changes = Changes()
    async with serve(toolset, "legacy", "--watch", message_handler=changes) as client:
        assert client.server_capabilities.tools.list_changed is True
        before = await descriptions(client)
        assert before["to_fahrenheit"] == "Convert a temperature from Celsius to Fahrenheit."

        # An edit: a description reworded is listed at once.
        manifest.write_text(good.replace("Convert a temperature from Celsius", "Turn a Celsius temperature"))
        await changes.wait()
        assert (await descriptions(client))["to_fahrenheit"] == "Turn a Celsius temperature to Fahrenheit."

        # A bad edit (a type that does not exist): reported, not served, no change announced;
        # the last good toolset keeps answering.
        manifest.write_text(good.replace("celsius: { type: number }", "celsius: { type: numbr }", 1))
        await changes.none_for(2.0)
        assert (await descriptions(client))["to_fahrenheit"] == "Turn a Celsius temperature to Fahrenheit."
        converted = await client.call_tool("to_fahrenheit", {"celsius": 100})
        assert converted.structured_content == {"fahrenheit": 212.0}, converted

        # A good edit again: a tool removed is gone from the list and from the calls.
        removed = good.replace("      refresh:", "      refreshed_never:", 1)
        assert removed != good
        manifest.write_text(removed)
        await changes.wait()
        after = await descriptions(client)
        assert "refresh" not in after and "refreshed_never" in after
        assert after["to_fahrenheit"] == "Convert a temperature from Celsius to Fahrenheit."
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("refresh", {})
        assert "refresh" in str(unknown.value)


async def test_watch_under_2026_07_28_tells_a_subscription(toolset: Path) -> None:
    manifest = toolset / "weather.yaml"
    good = manifest.read_text()
    async with serve(toolset, "auto", "--watch") as client:
        async with client.listen(tools_list_changed=True) as subscription:
            manifest.write_text(good.replace("The weather stations of a city.", "Every station of a city."))
            with anyio.fail_after(20):
                event = await subscription.__anext__()
            assert type(event).__name__ == "ToolsListChanged"
        assert (await descriptions(client))["stations"] == "Every station of a city."
