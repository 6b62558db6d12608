// The two tools on the official TypeScript SDK (@modelcontextprotocol/sdk), as its own examples
// write them: McpServer.registerTool with zod input and output shapes; over stdio, or stateless
// streamable HTTP on Express (createMcpExpressApp), a server and transport per request as the
// SDK's stateless example does, JSON responses.
//
//     node server.mjs DATA.json stdio
//     node server.mjs DATA.json http PORT          # http://127.0.0.1:PORT/mcp
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import * as z from 'zod/v4';

const [dataPath, transport, port] = process.argv.slice(2);
const data = JSON.parse(readFileSync(dataPath, 'utf8'));
const orders = new Map(data.orders.map((o) => [o.order_id, o]));

const order = {
  order_id: z.string().describe('The order id.'),
  status: z.enum(['placed', 'in_transit', 'delivered']).describe('Where the order is.'),
  customer_id: z.string().describe('The customer who placed it.'),
  total_cents: z.number().int().min(0).describe('What it cost, in cents.'),
  items: z.number().int().min(1).describe('How many items it holds.'),
};
const ticket = z.object({
  id: z.string(),
  subject: z.string().max(200),
  status: z.enum(['open', 'pending', 'resolved', 'closed']),
  priority: z.enum(['low', 'medium', 'high', 'urgent']),
  customer: z.object({
    id: z.string(),
    name: z.string().max(200),
    tier: z.enum(['free', 'pro', 'enterprise']),
  }),
  tags: z.array(z.string()).max(10),
  comments: z.array(z.object({ author: z.string(), body: z.string().max(10000), internal: z.boolean() })),
});

function server() {
  const s = new McpServer({ name: 'desk', version: '1.0.0' });
  s.registerTool('lookup_order', {
    description: 'Look up an order by id.',
    inputSchema: { order_id: z.string().regex(/^[A-Z]-[0-9]+$/).describe('The order id, such as `A-1001`.') },
    outputSchema: order,
    annotations: { readOnlyHint: true },
  }, async ({ order_id }) => {
    const found = orders.get(order_id);
    if (!found) {
      return { content: [{ type: 'text', text: `no order ${order_id}` }], isError: true };
    }
    const structuredContent = { ...found };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  s.registerTool('list_tickets', {
    description: "List a customer's support tickets.",
    inputSchema: {
      customer_id: z.string().describe('The customer whose tickets to list.'),
      limit: z.number().int().min(1).max(100).default(20).describe('How many tickets at most.'),
    },
    outputSchema: { tickets: z.array(ticket).describe('The tickets, newest first.') },
    annotations: { readOnlyHint: true },
  }, async ({ limit }) => {
    const structuredContent = { tickets: data.tickets.slice(0, limit) };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  return s;
}

if (transport === 'stdio') {
  await server().connect(new StdioServerTransport());
} else if (transport === 'http' && port) {
  const app = createMcpExpressApp();
  app.post('/mcp', async (req, res) => {
    const s = server();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      t.close();
      s.close();
    });
    try {
      await s.connect(t);
      await t.handleRequest(req, res, req.body);
    } catch (error) {
      if (!res.headersSent) {
        res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: String(error) }, id: null });
      }
    }
  });
  app.listen(Number(port), '127.0.0.1');
} else {
  console.error('usage: node server.mjs DATA.json (stdio | http PORT)');
  process.exit(2);
}
