/**
 * The server the Node adapter's tests serve: `add`, and `hold`, which waits until its call is cancelled
 * (the client went away) and counts the cancellations it saw; MCP-lite and MCP.
 */
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import type { ServerOptions } from "../../src/server/options.ts";

/** A server with `add` and `hold`, and what `hold` saw. */
export function nodeFixture(options: Partial<ServerOptions> = {}) {
  const seen = { held: 0, cancelled: 0 };
  const add = defineTool("add")
    .describe("Adds two numbers")
    .input(v.object({ a: v.number(), b: v.number() }))
    .handle(({ a, b }) => String(a + b));
  const hold = defineTool("hold")
    .describe("Waits until the call is cancelled (at most 10 s)")
    .handle((_input, ctx) => {
      seen.held++;
      return new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve("not cancelled"), 10_000);
        ctx.signal.addEventListener("abort", () => {
          seen.cancelled++;
          clearTimeout(timer);
          resolve("cancelled");
        }, { once: true });
      });
    });
  const server = createServer({
    name: "node-fixture",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding()],
    ...options,
  }).tool(add).tool(hold);
  return { server, seen };
}

/** Waits until `check()` holds, polling every 20 ms for at most `ms`. */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
