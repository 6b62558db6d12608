"""Remote serving with the official Python SDK: bearer tokens, rate limits shared by two
server processes through one Redis, a Redis that is down, and graceful shutdown.

The Redis tests use `TOOLC_TEST_REDIS_URL` (`.ci/run` starts a `redis-server` and sets it);
without it they are skipped, unless `TOOLC_TEST_REDIS_REQUIRED` is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from contextlib import asynccontextmanager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import httpx2
import jwt
import pytest
from conftest import ROOT, SUPPORT, text_json
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from jwt.algorithms import RSAAlgorithm
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from test_http import start
from test_mcp_server import failed

pytestmark = pytest.mark.anyio

RESOURCE = "https://support.test.example/mcp"
CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"
KEY = (Path(ROOT) / "tests" / "auth" / "rsa-1.pem").read_bytes()


class Issuer:
    """An authorization server as a resource server sees it: a JWKS on loopback."""

    def __init__(self) -> None:
        public = load_pem_private_key(KEY, password=None).public_key()
        key = json.loads(RSAAlgorithm.to_jwk(public))
        key.update({"kid": "k1", "use": "sig", "alg": "RS256"})
        body = json.dumps({"keys": [key]}).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                status, payload = (200, body) if self.path == "/jwks" else (404, b"{}")
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, sub: str, roles: list[str], **claims: Any) -> str:
        now = int(time.time())
        payload = {"iss": self.url, "aud": RESOURCE, "sub": sub, "roles": roles, "iat": now, "exp": now + 600}
        payload.update(claims)
        return jwt.encode(payload, KEY, algorithm="RS256", headers={"kid": "k1"})

    def env(self) -> dict[str, str]:
        return {
            "TOOLC_JWT_ISSUER": self.url,
            "TOOLC_JWKS_URL": f"{self.url}/jwks",
            "TOOLC_RESOURCE_URL": RESOURCE,
        }


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    issuer = Issuer()
    try:
        yield issuer
    finally:
        issuer.server.shutdown()


@contextmanager
def running(agent: str, env: dict[str, str]) -> Iterator[str]:
    process, url = start(agent, env)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@asynccontextmanager
async def connect(url: str, token: str | None, mode: str = "legacy") -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            yield client


def http_get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def redis_url() -> str:
    url = os.environ.get("TOOLC_TEST_REDIS_URL", "").strip()
    if not url:
        if os.environ.get("TOOLC_TEST_REDIS_REQUIRED"):
            pytest.fail("TOOLC_TEST_REDIS_REQUIRED is set but TOOLC_TEST_REDIS_URL is not")
        pytest.skip("TOOLC_TEST_REDIS_URL is not set")
    return url


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_client_with_a_token_calls_tools_as_the_token_says(issuer: Issuer, mode: str) -> None:
    with running("support-desk", issuer.env()) as url:
        async with connect(url, issuer.token("ada", ["support"]), mode) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == ["list_tickets", "update_ticket", "lookup_order"]
            order = await client.call_tool("lookup_order", {"order_id": "A-1001"})
            assert order.is_error is False and text_json(order)["status"] == "in_transit"
            tickets = await client.call_tool("list_tickets", {"customerId": CUSTOMER})
            assert tickets.is_error is False and len(text_json(tickets)) == 3
        # The same server, a token without the support role: the policy says forbidden.
        async with connect(url, issuer.token("eve", ["billing"]), mode) as client:
            tickets = await client.call_tool("list_tickets", {"customerId": CUSTOMER})
            error = failed(tickets, "forbidden", structured=True)
            assert "caller 'eve'" in error["message"]


async def test_requests_without_a_valid_token_are_refused(issuer: Issuer) -> None:
    with running("support-desk", issuer.env()) as url:
        with pytest.raises(Exception):
            async with connect(url, None) as client:
                await client.list_tools()
        expired = issuer.token("ada", ["support"], exp=int(time.time()) - 3600)
        with pytest.raises(Exception):
            async with connect(url, expired) as client:
                await client.list_tools()
        # What the client is told, byte for byte.
        request = urllib.request.Request(
            url,
            data=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
            headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as raised:
            urllib.request.urlopen(request, timeout=30)
        assert raised.value.code == 401
        metadata_url = "https://support.test.example/.well-known/oauth-protected-resource/mcp"
        assert raised.value.headers["WWW-Authenticate"] == f'Bearer resource_metadata="{metadata_url}"'
        base = url.removesuffix("/mcp")
        status, _, body = http_get(f"{base}/.well-known/oauth-protected-resource/mcp")
        assert status == 200
        assert json.loads(body) == {
            "resource": RESOURCE,
            "authorization_servers": [issuer.url],
            "bearer_methods_supported": ["header"],
        }


async def test_two_servers_sharing_one_redis_grant_a_30_per_minute_tool_30_times() -> None:
    env = {
        **SUPPORT,
        "TOOLC_REDIS_URL": redis_url(),
        "TOOLC_REDIS_PREFIX": f"toolc-test:{uuid.uuid4()}:",
        "TOOLC_STATELESS": "true",
    }
    with running("support-desk", env) as first, running("support-desk", env) as second:
        async with connect(first, None) as one, connect(second, None) as two:
            started = time.monotonic()
            results = await asyncio.gather(
                *(
                    (one if i % 2 == 0 else two).call_tool("update_ticket", {"id": f"T-{i % 3 + 1}", "priority": "low"})
                    for i in range(60)
                )
            )
            elapsed = time.monotonic() - started
    granted = [r for r in results if r.is_error is False]
    refused = [text_json(r) for r in results if r.is_error]
    assert all(e["kind"] == "rate_limited" for e in refused), refused[:3]
    # One call comes back every 2 s: a slow machine may earn a few more, never fewer.
    assert 30 <= len(granted) <= 30 + int(elapsed // 2), (len(granted), elapsed)
    assert len(granted) + len(refused) == 60


async def test_a_redis_that_is_down_fails_rate_limited_tools_closed_and_serves_the_others() -> None:
    env = {**SUPPORT, "TOOLC_REDIS_URL": f"redis://127.0.0.1:{closed_port()}/", "TOOLC_REDIS_TIMEOUT_MS": "300"}
    with running("support-desk", env) as url:
        async with connect(url, None) as client:
            update = await client.call_tool("update_ticket", {"id": "T-1", "status": "resolved"})
            error = failed(update, "unavailable", structured=False)
            assert error["retry_after_ms"] == 1000
            assert "127.0.0.1" not in error["message"]
            tickets = await client.call_tool("list_tickets", {"customerId": CUSTOMER})
            assert tickets.is_error is False
        base = url.removesuffix("/mcp")
        assert http_get(f"{base}/healthz")[0] == 200
        status, _, body = http_get(f"{base}/readyz")
        assert status == 503 and json.loads(body)["reasons"] == ["the policy store does not answer"]
    with running("support-desk", {**env, "TOOLC_REDIS_FAIL_OPEN": "true"}) as url:
        async with connect(url, None) as client:
            update = await client.call_tool("update_ticket", {"id": "T-1", "status": "resolved"})
            assert update.is_error is False, update


def test_sigterm_finishes_and_exits_cleanly() -> None:
    process, url = start("support-desk", SUPPORT)
    try:
        assert http_get(url.removesuffix("/mcp") + "/healthz")[0] == 200
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0
