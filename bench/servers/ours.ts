/**
 * This package: `createServer()` with the `add` tool (MCP-lite at `/mcp-lite/v1`, MCP at `/mcp`), with
 * its default DNS-rebinding protection on.
 *
 * @module
 */
import { createServer, defineTool, mcpBinding, mcpLiteBinding, type Server } from "../../mod.ts";
import { otel } from "../../src/otel/mod.ts";
import { AddInput, CHUNK, type Fetch } from "./common.ts";
import { NAMED_HOST } from "../requests.ts";
import * as v from "valibot";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(AddInput)
  .handle(({ a, b }) => ({ sum: a + b }));

const stream = defineTool("stream")
  .describe("Streams n chunks of text")
  .input(v.object({ n: v.number() }))
  .stream(async function* ({ n }) {
    for (let i = 0; i < n; i++) yield CHUNK;
  });

// The same sum as a plain string, and with a declared (and so validated) output schema: the two
// other shapes of a user-written tool.
const addText = defineTool("add_text")
  .describe("Adds two numbers, answering the sum as text")
  .input(AddInput)
  .handle(({ a, b }) => String(a + b));

const addChecked = defineTool("add_checked")
  .describe("Adds two numbers, with a declared output schema")
  .input(AddInput)
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

/** One server, every wire, the one `add` tool (as the peers). */
// deno-lint-ignore ban-types
export const ours: Server<{}> = createServer({ name: "bench", version: "1.0.0" }).tool(add);

/**
 * The same traced with `otel()` (`@mcplite/sdk/otel`): without a registered OpenTelemetry SDK it records
 * nothing, and its row shows what the middleware costs then.
 */
// deno-lint-ignore ban-types
export const oursTraced: Server<{}> = createServer({ name: "bench", version: "1.0.0" }).tool(add).use(otel());

/** The same with the streaming tool too, for the SSE scenario. */
// deno-lint-ignore ban-types
export const oursStreaming: Server<{}> = createServer({ name: "bench", version: "1.0.0" }).tool(add).tool(stream);

/**
 * The `add` tool's other shapes (a string result, a declared output schema), for `tools/call` rows. Its
 * hosts are the loopback names (the default) and one deployed name, for the request-shape matrix.
 */
// deno-lint-ignore ban-types
export const oursShapes: Server<{}> = createServer({
  name: "bench",
  version: "1.0.0",
  allowedHosts: ["localhost", "127.0.0.1", "::1", NAMED_HOST],
}).tool(add).tool(addText).tool(addChecked);

/**
 * Creates the server for the loopback runs.
 *
 * @returns Its fetch handler.
 */
export function create(): Fetch {
  return createServer({ name: "bench", version: "1.0.0" }).tool(add).fetch;
}

/**
 * A server with `n` tools (`add` as `tool_0`…`tool_{n-1}`), for the scaling scenario and its guard row.
 *
 * @param n The tool count.
 * @param pageSize MCP's page size (default: whole lists).
 * @returns Its fetch handler.
 */
export function oursWithTools(n: number, pageSize?: number): Fetch {
  const server = createServer({
    name: "bench",
    version: "1.0.0",
    bindings: pageSize === undefined ? undefined : [mcpLiteBinding(), mcpBinding({ pageSize })],
  });
  for (let i = 0; i < n; i++) {
    server.tool(
      defineTool(`tool_${i}`).describe(`Adds two numbers (variant ${i})`).input(AddInput).handle(({ a, b }) => ({
        sum: a + b,
      })),
    );
  }
  return server.fetch;
}
