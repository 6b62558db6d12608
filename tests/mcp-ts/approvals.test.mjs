// Approvals with the official TypeScript SDK: `cancel_order` (destructive, under
// `[policy] approve_destructive` of manifests/toolc.toml) runs only once a person approves it,
// asked through the client's elicitation handler; a client without one is told how a host
// grants it through the request's `_meta`.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SERVER =
  process.env.TOOLC_MCP_SERVER ??
  path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug", "mcp-server");

const SUPPORT = { TOOLC_CALLER: "ada", TOOLC_AUTH: "user", TOOLC_ROLES: "support" };
const CANCEL = { order_id: "A-1001", reason: "Ordered twice" };

/** Runs `body` with a client of support-desk; `answer` (accept, decline, cancel) makes it one that elicits. */
async function withClient(answer, body) {
  const transport = new StdioClientTransport({ command: SERVER, args: ["support-desk"], env: SUPPORT, stderr: "inherit" });
  const capabilities = answer ? { elicitation: {} } : {};
  const client = new Client({ name: "toolc-ts-test", version: "0.0.0" }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
  }
  await client.connect(transport);
  try {
    await client.listTools();
    return await body(client, asked);
  } finally {
    await client.close();
  }
}

function textJson(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  return JSON.parse(result.content[0].text);
}

function failed(result, kind) {
  assert.equal(result.isError, true, JSON.stringify(result));
  const error = textJson(result);
  assert.equal(error.kind, kind, JSON.stringify(error));
  assert.equal(error.retryable, false);
  return error.message;
}

test("an approved cancellation runs", async () => {
  await withClient("accept", async (client, asked) => {
    const result = await client.callTool({ name: "cancel_order", arguments: CANCEL });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { order_id: "A-1001", cancelled: true });
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /^Allow the tool 'Cancel order' to run with these arguments\?/);
    assert.match(asked[0].message, /"order_id":"A-1001"/);
    assert.equal(asked[0].requestedSchema.type, "object");
  });
});

for (const answer of ["decline", "cancel"]) {
  test(`a cancellation answered ${answer} does not run`, async () => {
    await withClient(answer, async (client, asked) => {
      const result = await client.callTool({ name: "cancel_order", arguments: CANCEL });
      assert.equal(failed(result, "forbidden"), "tool 'cancel_order' was not run: a person denied the approval it needs");
      assert.equal(asked.length, 1);
    });
  });
}

test("without elicitation the host grants it through _meta, once", async () => {
  await withClient(null, async (client) => {
    const held = await client.callTool({ name: "cancel_order", arguments: CANCEL });
    const message = failed(held, "approval_required");
    assert.match(message, /did not declare the elicitation capability/);
    const { token, tool, arguments: args } = held._meta["toolc/approval"];
    assert.equal(tool, "cancel_order");
    assert.deepEqual(args, CANCEL);
    assert.ok(!held.content[0].text.includes(token), "the model never reads the token");

    const grant = { "toolc/approval": { token, decision: "approve" } };
    const approved = await client.callTool({ name: "cancel_order", arguments: CANCEL, _meta: grant });
    assert.notEqual(approved.isError, true, JSON.stringify(approved));
    assert.deepEqual(approved.structuredContent, { order_id: "A-1001", cancelled: true });
    const replayed = await client.callTool({ name: "cancel_order", arguments: CANCEL, _meta: grant });
    assert.match(failed(replayed, "forbidden"), /its approval token is not valid for this call/);
  });
});
