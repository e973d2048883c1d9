/**
 * The protocol floor: the workload's MCP flow answered by hand, with no SDK and no MCP logic beyond what
 * the flow needs, on the runtime's own server (`Bun.serve` on Bun, `node:http` on Node) as `floor.ts`
 * serves its plain endpoints. What any MCP server on this HTTP server would cost with nothing but the
 * protocol's requests: a call is a whole session (MCP 2025-11-25 Lifecycle §Initialization, Transports
 * §Streamable HTTP), 5⅓ requests where the floor answers one.
 *
 * `POST /mcp` parses the JSON-RPC body: `initialize` answers a fixed result (the client's
 * `protocolVersion` echoed, `capabilities.tools`, `serverInfo`) with an `Mcp-Session-Id` (a random UUID,
 * as ours hands out; none is remembered, nothing checks it); a notification (`notifications/initialized`)
 * 202 with no body; `tools/list` the list precomputed from the tools' JSON Schemas (the same bytes ours
 * answers); `tools/call` the same arguments parsing and I/O as the floor (`tools.ts`) and the result as
 * ours answers it, the JSON as one text content. `DELETE /mcp` answers 204 (Transports §Session
 * Management), `GET /health` `{"status":"ok"}` (the contract's). No `Accept`, `Origin` or protocol-version
 * header checks, no SSE, no batches. One process; `worker.ts` runs several.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import {
  backendsFromEnv,
  CartInput,
  checkout,
  CheckoutInput,
  getUserCart,
  SearchInput,
  searchProducts,
} from "./tools.ts";
import { serveBare } from "./bare-server.ts";

const b = backendsFromEnv("floor-mcp");

/** A tool: its description and input for the list, its call for `tools/call`. */
interface Tool {
  description: string;
  input: v.GenericSchema;
  call(args: unknown): Promise<object>;
}

/** The three tools, as `tools.ts`'s `workloadTools()` declares them. */
const TOOLS: Record<string, Tool> = {
  search_products: {
    description: "Search products by category and price range, merged with popularity data",
    input: SearchInput,
    call: (args) => searchProducts(b, args as v.InferOutput<typeof SearchInput>),
  },
  get_user_cart: {
    description: "Get user cart details with recent order history",
    input: CartInput,
    call: (args) => getUserCart(b, args as v.InferOutput<typeof CartInput>),
  },
  checkout: {
    description: "Process checkout: calculate total, update rate limit, record history",
    input: CheckoutInput,
    call: (args) => checkout(b, args as v.InferOutput<typeof CheckoutInput>),
  },
};

/** `tools/list`'s result, serialized once: each input's JSON Schema without its `$schema`, as ours lists it. */
const LIST = JSON.stringify({
  tools: Object.entries(TOOLS).map(([name, { description, input }]) => {
    const { $schema: _, ...inputSchema } = toJsonSchema(input);
    return { name, description, inputSchema };
  }),
});

const SERVER_INFO = { name: "BenchmarkFloorMcpServer", version: "1.0.0" };

/** An answer: status, body (none for 202 and 204) and, for `initialize`, the session id to hand out. */
type Answer = [status: number, body: string | undefined, sessionId?: string];

const reply = (id: unknown, result: unknown): Answer => [200, JSON.stringify({ jsonrpc: "2.0", id, result })];
const fail = (status: number, id: unknown, code: number, message: string): Answer => [
  status,
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }),
];

/** A `tools/call`: the arguments parsed as the floor parses them, the I/O, the result as one text content. */
async function call(id: unknown, params: { name?: unknown; arguments?: unknown } | undefined): Promise<Answer> {
  const tool = typeof params?.name === "string" ? TOOLS[params.name] : undefined;
  if (tool === undefined) return fail(200, id, -32602, `Tool not found: ${params?.name}`);
  const parsed = v.safeParse(tool.input, params!.arguments ?? {});
  if (!parsed.success) {
    const text = `Invalid arguments for tool ${params!.name}: ${v.summarize(parsed.issues)}`;
    return reply(id, { content: [{ type: "text", text }], isError: true });
  }
  try {
    return reply(id, { content: [{ type: "text", text: JSON.stringify(await tool.call(parsed.output)) }] });
  } catch (error) {
    return reply(id, { content: [{ type: "text", text: String(error) }], isError: true });
  }
}

/** One request of the flow. */
function answer(method: string, path: string, body: string): Answer | Promise<Answer> {
  if (path === "/health" && method === "GET") return [200, '{"status":"ok"}'];
  if (path !== "/mcp") return [404, '{"error":"not found"}'];
  if (method === "DELETE") return [204, undefined];
  if (method !== "POST") return [405, undefined];
  let message: { id?: unknown; method?: unknown; params?: Record<string, unknown> };
  try {
    message = JSON.parse(body);
  } catch {
    return fail(400, null, -32700, "Parse error");
  }
  if (typeof message !== "object" || message === null) return fail(400, null, -32600, "Invalid Request");
  const id = message.id;
  if (id === undefined) return [202, undefined]; // a notification: notifications/initialized
  switch (message.method) {
    case "tools/call":
      return call(id, message.params);
    case "tools/list":
      return [200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${LIST}}`];
    case "initialize": {
      const asked = message.params?.protocolVersion;
      const [status, text] = reply(id, {
        protocolVersion: typeof asked === "string" ? asked : "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      });
      return [status, text, randomUUID()];
    }
    default:
      return fail(200, id, -32601, `Method not found: ${message.method}`);
  }
}

/** The answer's headers: JSON when it has a body, the session id when it hands one out. */
function headersOf(body: string | undefined, sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
  return headers;
}

/**
 * Listens on `port`.
 *
 * @param port The port (shared by every worker).
 * @returns The server, once it listens.
 */
export function start(port: number): Promise<unknown> {
  return serveBare(port, async (method, path, body) => {
    const [status, text, sessionId] = await answer(method, path, body);
    return [status, text, headersOf(text, sessionId)];
  });
}
