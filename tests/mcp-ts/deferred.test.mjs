// Deferred loading (`mcp-server --deferred --pin TOOL`) and result `_meta`, driven by the
// official TypeScript SDK over stdio.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SERVER =
  process.env.TOOLC_MCP_SERVER ??
  path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug", "mcp-server");

const SUPPORT = { TOOLC_CALLER: "ada", TOOLC_AUTH: "user", TOOLC_ROLES: "support" };
const CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e";

async function connect(args, env, onListChanged) {
  const transport = new StdioClientTransport({ command: SERVER, args, env, stderr: "inherit" });
  const client = new Client({ name: "toolc-ts-deferred", version: "0.0.0" });
  if (onListChanged) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, onListChanged);
  }
  await client.connect(transport);
  return client;
}

const names = async (client) => (await client.listTools()).tools.map((t) => t.name);

test("deferred loading: search, then the found tools are listed and callable", async () => {
  let notified;
  const changed = new Promise((resolve) => {
    notified = resolve;
  });
  const client = await connect(["support-desk", "--pin", "lookup_order"], SUPPORT, () => notified());
  try {
    assert.equal(client.getServerCapabilities().tools.listChanged, true);
    assert.deepEqual(await names(client), ["search_tools", "lookup_order"]);

    await assert.rejects(
      client.callTool({ name: "update_ticket", arguments: { id: "T-1" } }),
      (e) => e instanceof McpError && /search_tools/.test(e.message),
    );

    const result = await client.callTool({
      name: "search_tools",
      arguments: { query: "change a ticket's status or priority", limit: 1 },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const found = result.structuredContent.tools;
    assert.deepEqual(
      found.map((t) => t.name),
      ["update_ticket"],
    );
    assert.equal(found[0].inputSchema.type, "object");
    assert.ok(found[0].score > 0);
    await changed;

    assert.deepEqual(await names(client), ["search_tools", "update_ticket", "lookup_order"]);
    const updated = await client.callTool({ name: "update_ticket", arguments: { id: "T-2", status: "resolved" } });
    assert.notEqual(updated.isError, true, JSON.stringify(updated));
    assert.equal(updated.structuredContent.status, "resolved");
    // How the call ran travels in `_meta`.
    assert.equal(updated._meta["toolc/terminal"], false);
    assert.equal(updated._meta["toolc/metadata"].tool_kind, "tool");
    assert.equal(updated._meta["toolc/metadata"].attempt, 1);
  } finally {
    await client.close();
  }
});

test("without --deferred every tool is listed and no search tool", async () => {
  const client = await connect(["support-desk"], SUPPORT);
  try {
    assert.deepEqual(await names(client), ["list_tickets", "update_ticket", "lookup_order", "cancel_order"]);
    // Announced by every server: a host may change the served agent (McpServer::update).
    assert.equal(client.getServerCapabilities().tools.listChanged, true);
    const tickets = await client.callTool({ name: "list_tickets", arguments: { customerId: CUSTOMER } });
    assert.notEqual(tickets.isError, true);
  } finally {
    await client.close();
  }
});
