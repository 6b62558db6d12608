// Run-time tools that come and go while the server serves (`mcp-server --plugins FILE`, the
// file read again on SIGHUP, McpServer::update in the server), driven by the official
// TypeScript SDK over stdio: the session hears notifications/tools/list_changed, lists the
// tools the file says now, and can no longer call a removed one.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
const OWN = ["list_tickets", "update_ticket", "lookup_order", "cancel_order"];

const plugin = (name, answer) => ({
  name,
  description: `Answers ${JSON.stringify(answer)}.`,
  parameters: { type: "object", properties: {} },
  answer,
});

/** The next list_changed notification the client hears, or a failure after 10 s. */
function nextListChanged(heard) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no notifications/tools/list_changed within 10 s")), 10_000);
    heard.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

test("plugin tools removed and replaced on SIGHUP: the client hears list_changed and sees the new list", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "toolc-plugins-"));
  const file = path.join(dir, "plugins.json");
  writeFileSync(file, JSON.stringify([plugin("shipping_status", { shipping: true }), plugin("faq", "Ask us.")]));
  const transport = new StdioClientTransport({
    command: SERVER,
    args: ["support-desk", "--plugins", file],
    env: SUPPORT,
    stderr: "inherit",
  });
  const client = new Client({ name: "toolc-ts-plugins", version: "0.0.0" });
  const waiting = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => waiting.shift()?.());
  await client.connect(transport);
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  const answer = async (name) => {
    const result = await client.callTool({ name, arguments: {} });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    return JSON.parse(result.content[0].text);
  };
  try {
    assert.equal(client.getServerCapabilities().tools.listChanged, true);
    assert.deepEqual(await names(), [...OWN, "faq", "shipping_status"]);
    assert.deepEqual(await answer("shipping_status"), { shipping: true });

    // `shipping_status` removed, `faq` changed.
    writeFileSync(file, JSON.stringify([plugin("faq", "Write to us.")]));
    let changed = nextListChanged(waiting);
    process.kill(transport.pid, "SIGHUP");
    await changed;
    assert.deepEqual(await names(), [...OWN, "faq"]);
    await assert.rejects(
      client.callTool({ name: "shipping_status", arguments: {} }),
      (e) => e instanceof McpError && e.code === -32602 && e.data?.kind === "unknown_tool",
    );
    assert.equal(await answer("faq"), "Write to us.");
    const { tools } = await client.listTools();
    assert.equal(tools.find((t) => t.name === "faq").description, 'Answers "Write to us.".');

    // The last one removed: the agent's own tools stay.
    writeFileSync(file, JSON.stringify([]));
    changed = nextListChanged(waiting);
    process.kill(transport.pid, "SIGHUP");
    await changed;
    assert.deepEqual(await names(), OWN);
    const order = await client.callTool({ name: "lookup_order", arguments: { order_id: "A-1002" } });
    assert.notEqual(order.isError, true, JSON.stringify(order));
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
