/**
 * Middleware, in two layers (as Hono, mcp-lite and the official MCP SDK v2 have them): request middleware
 * (`server.use()`) runs around every method on every wire, where authentication, rate limits and telemetry live so no
 * method slips past them; tool middleware (`server.useTool()`) runs around a tool's handler only, inside it, and may
 * rewrite the arguments or answer itself. Either may short-circuit, by returning or throwing a `ProtocolError`,
 * instead of calling `next`. Why: docs/concepts/middleware-and-groups.md.
 *
 * @module
 */
import type { WorkContext } from "../long-running/work-context.ts";
import type { CallContext } from "./call-context.ts";
import type { CallOutcome } from "./outcome.ts";

/** A decoded request, as request middleware sees it: the same on every wire. */
export interface Call {
  /**
   * The method, as JSON-RPC names it (MCP 2026-07-28, MCP-lite spec v0.042 §3): `tools/call`,
   * `tools/list`, `resources/read`, `prompts/get`, `tasks/get`, `initialize`, `server/discover`… A gRPC
   * `CallTool` is `tools/call` and `GetTools` is `tools/list`; MCP-lite's `/listtools` is `tools/list`;
   * Webtools' metadata is `tools/list` and its execution `tools/call`.
   */
  readonly method: string;
  /** What the request names, where it names one: the tool or prompt name, the resource's URI. */
  readonly name: string | undefined;
  /** The request's params, as sent (for `tools/call`: `{ name, arguments }`). */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * The request's context: `ctx.meta` (wire, headers, protocol version), `ctx.auth` (middleware may set
   * it), `ctx.signal`, and typed values (`ctx.set()`). On `tools/call`, it is the context the tool's
   * handler receives.
   */
  readonly ctx: CallContext;
}

/**
 * A request middleware: Koa-style, around every method on every wire. `next()` runs the rest of the
 * chain and the method, and resolves with its result: for `tools/call`, the call's {@link CallOutcome}
 * (once any stream has been drained); for other methods, the method's result, which middleware should
 * pass on unchanged. Throw a `ProtocolError` to refuse: `ErrorCode.Unauthenticated` answers 401 on
 * HTTP and `UNAUTHENTICATED` on gRPC, for every method.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, type Middleware } from "../../../mod.ts";
 * import { ErrorCode, ProtocolError } from "../../errors/mod.ts";
 * const requireKey: Middleware = (call, next) => {
 *   if (call.ctx.meta.headers.get("x-api-key") !== "k") {
 *     throw new ProtocolError(ErrorCode.Unauthenticated, `a key is required for ${call.method}`);
 *   }
 *   return next();
 * };
 * const server = createServer({ name: "demo", version: "1.0.0" }).use(requireKey);
 * const listed = await server.fetch(new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
 * }));
 * assert.equal(listed.status, 401);
 * ```
 */
export type Middleware = ((call: Call, next: () => Promise<unknown>) => Promise<unknown>) & {
  /**
   * Optional: wraps each start of a tool's declared work (`.defer()`, and the inline work of `ctx.defer(fn)`, its
   * sugar), wherever it runs (a worker, which runs no request middleware, too), outermost first: telemetry's span, a
   * context the work's libraries read. `next()` runs the work and resolves with its value.
   */
  readonly work?: (job: WorkContext, next: () => Promise<unknown>) => Promise<unknown>;
};

/** A decoded tool call, as tool middleware sees it. */
export interface ToolCall {
  /** The tool name. */
  readonly name: string;
  /** The arguments as sent, before validation; middleware may replace them. */
  arguments: unknown;
  /** The context the handler will receive: middleware reads the caller there and sets `ctx.auth` or values. */
  readonly ctx: CallContext;
}

/**
 * A tool middleware: Koa-style, around a tool's handler only (inside the request middleware).
 * `next()` runs the rest of the chain and the tool, and resolves with the call's outcome once any
 * stream has been drained; middleware may rewrite `call.arguments` or answer with an outcome of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, type ToolMiddleware } from "../../../mod.ts";
 * const defaultB: ToolMiddleware = (call, next) => {
 *   call.arguments = { b: 1, ...(call.arguments as object) };
 *   return next();
 * };
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
 * const server = createServer({ name: "demo", version: "1.0.0" }).tool(add).useTool(defaultB);
 * const outcome = await server.call("add", { a: 1 } as never);
 * assert.deepEqual(outcome, { kind: "answer", result: { content: [{ type: "text", text: "2" }] } });
 * ```
 */
export type ToolMiddleware = (call: ToolCall, next: () => Promise<CallOutcome>) => Promise<CallOutcome>;

/**
 * Runs a request or a tool call through a middleware chain, then through `last`.
 *
 * @param chain The middleware, outermost first.
 * @param call What the middleware sees.
 * @param last The innermost layer: the method, or the tool.
 * @returns What the chain answered.
 */
export function runMiddleware<C, R>(
  chain: readonly ((call: C, next: () => Promise<R>) => Promise<R>)[],
  call: C,
  last: (call: C) => Promise<R>,
): Promise<R> {
  let index = -1;
  const layer = (i: number): Promise<R> => {
    if (i <= index) return Promise.reject(new Error("next() called more than once"));
    index = i;
    if (i === chain.length) return last(call);
    try {
      return chain[i](call, () => layer(i + 1));
    } catch (error) {
      return Promise.reject(error); // a middleware that throws before it returns a promise
    }
  };
  return layer(0);
}

/**
 * Names what a request is about, for middleware: the tool or prompt name, the resource URI, the
 * completion's reference.
 *
 * @param params The request's params.
 * @returns The name, or `undefined` when the request names nothing.
 */
export function nameOf(params: Readonly<Record<string, unknown>>): string | undefined {
  const { name, uri, ref } = params;
  if (typeof name === "string") return name;
  if (typeof uri === "string") return uri;
  if (ref !== null && typeof ref === "object") {
    const { name, uri } = ref as Record<string, unknown>;
    if (typeof name === "string") return name;
    if (typeof uri === "string") return uri;
  }
  return undefined;
}
