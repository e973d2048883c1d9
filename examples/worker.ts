/**
 * A Cloudflare Worker: the server's `fetch` is the Worker's, so it receives the Worker's `env` and
 * `ExecutionContext`. Handlers read variables and bindings as `ctx.env`; tokens are signed with the
 * `MCPLITE_SECRET` variable (`wrangler secret put MCPLITE_SECRET`); `ctx.defer()` work is kept alive
 * with `waitUntil` after its promise token was sent.
 *
 *   bun build --target=browser --format=esm --outfile=worker.js examples/worker.ts
 *   (or `deno bundle --platform browser -o worker.js examples/worker.ts`; wrangler bundles it itself)
 *
 * MCP-lite's WebSocket (`webSocketBinding()`, at `/mcp-lite/v1/ws`) runs on a Worker too: the upgrade
 * answers with one end of a `WebSocketPair`.
 *
 * `tests/examples/worker.test.ts` runs this file on workerd (through Miniflare).
 */
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../mod.ts";
import { webSocketBinding } from "../src/websocket/mod.ts";

/** Answers at once. */
const quick = defineTool("quick")
  .describe("Echoes a number")
  .input(v.object({ n: v.number() }))
  .handle(({ n }) => ({ n }));

/** Outlasts the keep-alive interval: an MCP client receives keep-alives until the result. */
const slow = defineTool("slow")
  .describe("Waits, then echoes a number")
  .input(v.object({ n: v.number(), ms: v.pipe(v.number(), v.maxValue(30_000)) }))
  .handle(async ({ n, ms }, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    ctx.signal.throwIfAborted();
    return { n };
  });

/** Work that goes on after the answer (the Worker keeps it with `waitUntil`); redeem its token for the result. */
const crunch = defineTool("crunch")
  .describe("Adds up 1..n in the background")
  .input(v.object({ n: v.pipe(v.number(), v.integer(), v.maxValue(1_000_000)) }))
  .longRunning({ retryAfterMs: 100 })
  .handle(({ n }, ctx) =>
    ctx.defer(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      let sum = 0;
      for (let i = 1; i <= n; i++) sum += i;
      return { sum };
    })
  );

/** Reads a Worker variable (`[vars]` in wrangler.toml). */
const region = defineTool("region")
  .describe("Names the region this Worker is configured for")
  .handle((_args, ctx) => ({ region: String(ctx.env?.REGION ?? "unknown") }));

/**
 * The server: MCP-lite, MCP and MCP-lite's WebSocket. A keep-alive every second (the default is 15 s)
 * shows the slow tool's keep-alives within a short test.
 */
export const server = createServer({
  name: "worker",
  version: "1.0.0",
  heartbeatMs: 1_000,
  bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
})
  .tool(quick)
  .tool(slow)
  .tool(crunch)
  .tool(region);

export default { fetch: server.fetch };
