/**
 * The one fixture module: tools every test uses, defined as a user would.
 */
import * as v from "valibot";
import { type Binding, createServer, defineTool, mcpBinding, mcpLiteBinding, type ServerOptions } from "../../mod.ts";
import { ToolError } from "../../src/errors/mod.ts";

/** Adds two numbers; structured output. */
export const add = defineTool("add")
  .type("math")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

/** Echoes its text back; the default shows how defaults reach the handler. */
export const echo = defineTool("echo")
  .describe("Echoes the text")
  .input(v.object({ text: v.string(), times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1) }))
  .handle(({ text, times }) => text.repeat(times));

/** Fails on purpose with a business failure. */
export const fails = defineTool("fails")
  .describe("Always fails with a ToolError")
  .handle(() => {
    throw new ToolError("the quota is exhausted");
  });

/** Throws an ordinary error (a bug): the wire must carry its message, never its stack. */
export const crashes = defineTool("crashes")
  .describe("Throws a plain Error")
  .handle(() => {
    throw new Error("database connection refused");
  });

/** Streams `count` chunks, `delayMs` apart. */
export const countdown = defineTool("countdown")
  .describe("Streams a countdown")
  .input(v.object({ count: v.number(), delayMs: v.optional(v.number(), 0) }))
  .stream(async function* ({ count, delayMs }, ctx) {
    for (let i = count; i > 0; i--) {
      if (delayMs > 0) await sleep(delayMs, ctx.signal);
      yield `${i} `;
    }
    yield "liftoff";
  });

/** Waits until cancelled (or `ms`), recording what it saw in `slowProbe`. */
export const slowProbe: { started: number; aborted: number } = { started: 0, aborted: 0 };
export const slow = defineTool("slow")
  .describe("Waits, reporting progress, until cancelled")
  .input(v.object({ ms: v.optional(v.number(), 10_000) }))
  .handle(async ({ ms }, ctx) => {
    slowProbe.started++;
    ctx.progress(0, 2, "started");
    try {
      await sleep(ms, ctx.signal);
    } catch {
      slowProbe.aborted++;
      return "cancelled";
    }
    ctx.progress(2, 2, "done");
    return "finished";
  });

/** Resolves after `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/** The default bindings (MCP-lite and MCP), then `extra`. */
export function withDefaults(...extra: Binding[]): Binding[] {
  return [mcpLiteBinding(), mcpBinding(), ...extra];
}

/** A server with every fixture tool. */
export function fixtureServer(options: Partial<ServerOptions> = {}) {
  return createServer({ name: "fixtures", version: "1.2.3", ...options })
    .tool(add)
    .tool(echo)
    .tool(fails)
    .tool(crashes)
    .tool(countdown)
    .tool(slow);
}
