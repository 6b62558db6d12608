// The example MCP server behind bearer tokens, driven by the official TypeScript SDK over
// streamable HTTP: a token's roles decide `forbidden`, and a client without one is refused.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createPrivateKey, createPublicKey, sign } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SERVER =
  process.env.TOOLC_MCP_SERVER ??
  path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug", "mcp-server");
const PEM = readFileSync(path.join(ROOT, "tests", "auth", "rsa-1.pem"));
const RESOURCE = "https://support.test.example/mcp";
const CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e";

/** A JWKS on loopback, standing in for the authorization server. */
let issuer;

before(async () => {
  const jwk = { ...createPublicKey(PEM).export({ format: "jwk" }), kid: "k1", use: "sig", alg: "RS256" };
  const body = JSON.stringify({ keys: [jwk] });
  const server = createServer((request, response) => {
    const found = request.url === "/jwks";
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(found ? body : "{}");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  issuer = { server, url: `http://127.0.0.1:${server.address().port}` };
});

after(() => issuer.server.close());

const base64url = (data) => Buffer.from(data).toString("base64url");

/** An RS256 access token for `sub` with `roles`, signed by the issuer's key. */
function token(sub, roles, claims = {}) {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "k1" }));
  const payload = base64url(
    JSON.stringify({ iss: issuer.url, aud: RESOURCE, sub, roles, iat: now, exp: now + 600, ...claims }),
  );
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), createPrivateKey(PEM));
  return `${header}.${payload}.${base64url(signature)}`;
}

async function startAuthenticated() {
  const env = {
    ...process.env,
    TOOLC_JWT_ISSUER: issuer.url,
    TOOLC_JWKS_URL: `${issuer.url}/jwks`,
    TOOLC_RESOURCE_URL: RESOURCE,
  };
  const child = spawn(SERVER, ["support-desk", "--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  while (!stderr.includes("\n")) {
    const [chunk] = await once(child.stderr, "data");
    stderr += chunk;
  }
  const match = /^mcp-server: serving \S+ at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stderr);
  assert.ok(match, `unexpected server output: ${stderr}`);
  return { child, url: new URL(match[1]) };
}

/** A client that sends `bearer` on every request, as a host with a token does. */
async function connect(url, bearer) {
  const headers = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  const client = new Client({ name: "toolc-ts-remote-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

function errorKind(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  return JSON.parse(result.content[0].text).kind;
}

test("a client with a token calls tools, and the token's roles decide forbidden", async () => {
  const { child, url } = await startAuthenticated();
  try {
    const ada = await connect(url, token("ada", ["support"]));
    try {
      const { tools } = await ada.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ["list_tickets", "update_ticket", "lookup_order"],
      );
      const order = await ada.callTool({ name: "lookup_order", arguments: { order_id: "A-1001" } });
      assert.deepEqual(order.structuredContent, { order_id: "A-1001", status: "in_transit" });
      const tickets = await ada.callTool({ name: "list_tickets", arguments: { customerId: CUSTOMER } });
      assert.notEqual(tickets.isError, true, JSON.stringify(tickets));
    } finally {
      await ada.close();
    }
    const eve = await connect(url, token("eve", ["billing"]));
    try {
      await eve.listTools();
      const tickets = await eve.callTool({ name: "list_tickets", arguments: { customerId: CUSTOMER } });
      assert.equal(errorKind(tickets), "forbidden");
    } finally {
      await eve.close();
    }
  } finally {
    child.kill();
  }
});

test("a client without a valid token is refused", async () => {
  const { child, url } = await startAuthenticated();
  try {
    await assert.rejects(connect(url, null));
    await assert.rejects(connect(url, token("ada", ["support"], { exp: Math.floor(Date.now() / 1000) - 3600 })));
    await assert.rejects(connect(url, token("ada", ["support"], { aud: "https://other.example/mcp" })));
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get("www-authenticate"),
      'Bearer resource_metadata="https://support.test.example/.well-known/oauth-protected-resource/mcp"',
    );
  } finally {
    child.kill();
  }
});
