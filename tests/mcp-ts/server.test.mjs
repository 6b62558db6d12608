// The example MCP server, driven by the official TypeScript SDK over stdio.
//
// Each client lists the tools first, so the SDK checks every structuredContent against the
// tool's outputSchema (with ajv) as a real host would.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SERVER =
  process.env.TOOLC_MCP_SERVER ??
  path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug", "mcp-server");

const SUPPORT = { TOOLC_CALLER: "ada", TOOLC_AUTH: "user", TOOLC_ROLES: "support" };
const OPERATOR = { TOOLC_OPERATOR: "ada", TOOLC_TIER: "pro" };
const CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e";

test("the server binary is built", () => {
  assert.ok(existsSync(SERVER), `${SERVER} is missing: build it with cargo build -p toolc-example --bin mcp-server`);
});

/** Runs `body` with a client connected to `agent`, its tools already listed. */
async function withClient(agent, env, body) {
  const transport = new StdioClientTransport({ command: SERVER, args: [agent], env, stderr: "inherit" });
  const client = new Client({ name: "toolc-ts-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return await body(client, tools);
  } finally {
    await client.close();
  }
}

function textJson(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.equal(result.content[0].type, "text");
  return JSON.parse(result.content[0].text);
}

function okStructured(result) {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.ok(result.structuredContent, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, textJson(result));
  return result.structuredContent;
}

function okText(result) {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined);
  return textJson(result);
}

/** An error result of `kind`; structuredContent carries it only when no output schema is listed. */
function failed(result, kind, structured) {
  assert.equal(result.isError, true, JSON.stringify(result));
  const error = textJson(result);
  assert.equal(error.kind, kind, JSON.stringify(error));
  assert.equal(typeof error.message, "string");
  assert.ok(error.message.length > 0);
  assert.equal(error.retryable, ["rate_limited", "timeout", "unavailable"].includes(kind));
  if (structured) {
    assert.deepEqual(result.structuredContent, error);
  } else {
    assert.equal(result.structuredContent, undefined);
  }
  return error;
}

test("initialize names the agent and carries its manuals", async () => {
  const transport = new StdioClientTransport({ command: SERVER, args: ["support-desk"] });
  const client = new Client({ name: "toolc-ts-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const info = client.getServerVersion();
    assert.equal(info.name, "support-desk");
    assert.equal(info.description, "Answers customers about their tickets and orders.");
    assert.ok(client.getServerCapabilities().tools);
    const instructions = client.getInstructions();
    assert.match(instructions, /Call list_tickets with the customer's id/);
    assert.match(instructions, /Use lookup_order when a customer asks where an order is\./);
  } finally {
    await client.close();
  }
});

test("tools/list: schemas, titles and hints", async () => {
  await withClient("support-desk", {}, async (_client, tools) => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(
      tools.map((t) => t.name),
      ["list_tickets", "update_ticket", "lookup_order"],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object");
    }
    assert.equal(byName.list_tickets.outputSchema, undefined);
    assert.equal(byName.update_ticket.outputSchema.type, "object");
    assert.equal(byName.update_ticket.outputSchema.$ref, undefined);
    assert.deepEqual(byName.list_tickets.annotations, { readOnlyHint: true });
    assert.deepEqual(byName.list_tickets.icons, [
      { src: "https://example.com/icons/tickets.svg", mimeType: "image/svg+xml", sizes: ["any"] },
    ]);
    assert.deepEqual(byName.list_tickets._meta, { "com.example/owner": "support-platform" });
    assert.deepEqual(byName.update_ticket.annotations, { destructiveHint: true, idempotentHint: true });
    assert.equal(byName.lookup_order.title, "Look up order");
    assert.deepEqual(byName.lookup_order.annotations, {
      title: "Look up order",
      readOnlyHint: true,
      openWorldHint: false,
    });
  });
  await withClient("assistant", {}, async (_client, tools) => {
    assert.deepEqual(
      tools.map((t) => t.name),
      ["list_meetings", "whoami", "slug_and_span"],
    );
    assert.deepEqual(tools[2].outputSchema.required, ["slug", "days"]);
  });
});

test("every support-desk tool answers", async () => {
  await withClient("support-desk", SUPPORT, async (client) => {
    const tickets = okText(await client.callTool({ name: "list_tickets", arguments: { customerId: CUSTOMER } }));
    assert.deepEqual(
      tickets.map((t) => t.id),
      ["T-1", "T-2", "T-3"],
    );
    const updated = okStructured(
      await client.callTool({ name: "update_ticket", arguments: { id: "T-3", priority: "urgent" } }),
    );
    assert.deepEqual(updated, { id: "T-3", subject: "Feature request", status: "open", priority: "urgent" });
    const order = okStructured(await client.callTool({ name: "lookup_order", arguments: { order_id: "A-1002" } }));
    assert.deepEqual(order, { order_id: "A-1002", status: "delivered" });
  });
});

test("every assistant tool and play answers", async () => {
  await withClient("assistant", OPERATOR, async (client) => {
    const day = okStructured(await client.callTool({ name: "list_meetings", arguments: { day: "2026-03-02" } }));
    assert.deepEqual(day, { meetings: ["Standup", "Planning"] });
    // `whoami` has `validate_returns: false`: no output schema, so text only.
    const who = okText(await client.callTool({ name: "whoami", arguments: {} }));
    assert.deepEqual(who, { operator: "ada", tier: "pro" });
    const play = okStructured(
      await client.callTool({
        name: "slug_and_span",
        arguments: { title: "Launch Plan", from: "2026-03-01", to: "2026-03-15" },
      }),
    );
    assert.deepEqual(play, { slug: "launch-plan", days: 14 });
  });
});

test("invalid arguments are error results listing every violation", async () => {
  await withClient("support-desk", SUPPORT, async (client) => {
    const error = failed(
      await client.callTool({ name: "list_tickets", arguments: { customerId: "x", status: "lost", limit: 0 } }),
      "arguments_invalid",
      true,
    );
    assert.deepEqual(error.violations.map((v) => v.pointer).sort(), ["/customerId", "/limit", "/status"]);
    // lookup_order lists an output schema: the SDK would check a structured error against it.
    failed(await client.callTool({ name: "lookup_order", arguments: { order_id: "a-1" } }), "arguments_invalid", false);
  });
  await withClient("assistant", OPERATOR, async (client) => {
    const error = failed(
      await client.callTool({ name: "slug_and_span", arguments: { title: "x", from: "2026-03-01" } }),
      "arguments_invalid",
      false,
    );
    assert.match(error.message, /play 'slug_and_span'/);
  });
});

test("policies hold over MCP", async () => {
  await withClient("support-desk", {}, async (client) => {
    failed(await client.callTool({ name: "list_tickets", arguments: { customerId: CUSTOMER } }), "forbidden", true);
    failed(await client.callTool({ name: "update_ticket", arguments: { id: "T-1" } }), "forbidden", false);
  });
  await withClient("support-desk", { TOOLC_CALLER: "eve", TOOLC_AUTH: "admin", TOOLC_ROLES: "billing" }, async (client) => {
    // update_ticket wants one of the roles support and admin; billing is neither.
    const error = failed(await client.callTool({ name: "update_ticket", arguments: { id: "T-1" } }), "forbidden", false);
    assert.match(error.message, /caller 'eve'/);
  });
  await withClient("support-desk", { TOOLC_CALLER: "eve", TOOLC_AUTH: "admin", TOOLC_ROLES: "admin" }, async (client) => {
    okStructured(await client.callTool({ name: "update_ticket", arguments: { id: "T-1" } }));
  });
  await withClient("assistant", {}, async (client) => {
    const error = failed(await client.callTool({ name: "whoami", arguments: {} }), "scope_unavailable", true);
    assert.match(error.message, /with_scope/);
  });
});

test("an unknown tool is a protocol error and the session goes on", async () => {
  await withClient("support-desk", SUPPORT, async (client) => {
    await assert.rejects(
      client.callTool({ name: "drop_database", arguments: {} }),
      (e) => e instanceof McpError && e.code === -32602 && e.data?.kind === "unknown_tool",
    );
    okStructured(await client.callTool({ name: "lookup_order", arguments: { order_id: "A-7" } }));
  });
});

/** Starts the server on a free loopback port; resolves to the process and its URL. */
async function startHttp(agent, env) {
  const child = spawn(SERVER, [agent, "--http", "127.0.0.1:0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
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

test("streamable HTTP on 127.0.0.1", async () => {
  const { child, url } = await startHttp("support-desk", SUPPORT);
  const client = new Client({ name: "toolc-ts-test", version: "0.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    assert.equal(client.getServerVersion().name, "support-desk");
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["list_tickets", "update_ticket", "lookup_order"],
    );
    const order = okStructured(await client.callTool({ name: "lookup_order", arguments: { order_id: "A-1001" } }));
    assert.deepEqual(order, { order_id: "A-1001", status: "in_transit" });
    failed(await client.callTool({ name: "list_tickets", arguments: { customerId: "?" } }), "arguments_invalid", true);
  } finally {
    await client.close();
    child.kill();
  }
});
