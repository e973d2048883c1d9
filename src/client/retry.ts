/**
 * Retrying what the server says to retry: a refusal as unavailable (HTTP 503 with `Retry-After`, RFC 9110 §15.6.4;
 * JSON-RPC -32603 `unavailable`; gRPC `UNAVAILABLE`) or as too many with a time (RFC 6585 §4; -32029; gRPC
 * `RESOURCE_EXHAUSTED`) is sent again after the server's hint, bounded, when it is safe to repeat: a read, a `redeem`,
 * or a call refused before it ran (`data.processed: false`); a `tools/call` that may have run never is. One wrapper
 * around the transport, so every wire and request goes through it. Why: docs/guides/client.md ("Retries").
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import { sleep } from "../internal/sleep.ts";
import { ClientError } from "./errors.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolListing, Transport } from "./transport.ts";

/** How the client retries requests the server refused as unavailable (`createClient(target, { retry })`). */
export interface RetryOptions {
  /** The most attempts of one request, the first one included (default 3). */
  maxAttempts?: number;
  /** The most time one request spends waiting between attempts, in ms (default 10 000). */
  maxDelayMs?: number;
  /** Hears of each retry, before its wait (e.g. to log it). */
  onRetry?: (retry: RetryEvent) => void;
}

/** A retry about to happen. */
export interface RetryEvent {
  /** The method: `tools/list`, `tools/call` (a redeem, or a call refused before it ran), `tasks/get`, … */
  readonly method: string;
  /** The attempt about to be made (2 for the first retry). */
  readonly attempt: number;
  /** The wait before it, in ms: the server's hint. */
  readonly delayMs: number;
  /** What the last attempt was refused with. */
  readonly error: ClientError;
}

/** The bounds when `retry` is not given: 3 attempts, 10 s of waiting in all. */
export const RETRY_DEFAULTS: Readonly<Required<Omit<RetryOptions, "onRetry">>> = Object.freeze({
  maxAttempts: 3,
  maxDelayMs: 10_000,
});

/** MCP-lite's and MCP's JSON-RPC code for a request refused as too many (`rate_limited`). */
const RATE_LIMITED = -32029;

/** The wait when an unavailable answer names none (a gRPC `UNAVAILABLE` without `retry-after`). */
const DEFAULT_DELAY_MS = 1_000;

/** Requests that change nothing on the server: sending one twice is sending it once. */
const SAFE_METHODS: ReadonlySet<string> = new Set([
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "tasks/get",
  "server/discover",
]);

/**
 * Wraps a transport so that requests safe to repeat are retried when the server answers that it is
 * unavailable, after the wait it names.
 *
 * @param transport The transport.
 * @param options The bounds and the hook, or `false` for no retries.
 * @returns The transport to send through (the same one for `false`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RpcError } from "./errors.ts";
 * import type { Transport } from "./transport.ts";
 * import { retryingTransport } from "./retry.ts";
 *
 * let attempts = 0;
 * const flaky: Transport = {
 *   wire: "mcp-lite",
 *   listTools: () => {
 *     if (++attempts < 2) throw new RpcError("Service unavailable", { status: 503, data: { retryAfterMs: 10 } });
 *     return Promise.resolve({ tools: [] });
 *   },
 *   callTool: () => Promise.reject(new Error("unused")),
 * };
 * const retries: number[] = [];
 * const transport = retryingTransport(flaky, { onRetry: (retry) => retries.push(retry.delayMs) });
 * const ctx = { signal: new AbortController().signal } as never;
 * assert.deepEqual(await transport.listTools(ctx), { tools: [] });
 * assert.deepEqual(retries, [10]);
 * ```
 */
export function retryingTransport(transport: Transport, options: RetryOptions | false | undefined): Transport {
  if (options === false) return transport;
  const maxAttempts = Math.max(1, options?.maxAttempts ?? RETRY_DEFAULTS.maxAttempts);
  const maxDelayMs = Math.max(0, options?.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs);
  const onRetry = options?.onRetry;

  async function attempt<T>(
    method: string,
    ctx: RequestContext,
    safe: () => boolean,
    send: () => Promise<T>,
  ): Promise<T> {
    let waited = 0;
    for (let attempts = 1;; attempts++) {
      try {
        return await send();
      } catch (error) {
        const delayMs = retryDelayOf(error);
        if (
          delayMs === undefined || attempts >= maxAttempts || waited + delayMs > maxDelayMs ||
          !(safe() || refusedBeforeRunning(error)) || ctx.signal.aborted
        ) throw error;
        onRetry?.({ method, attempt: attempts + 1, delayMs, error: error as ClientError });
        await sleep(delayMs, ctx.signal);
        waited += delayMs;
      }
    }
  }

  const wrapped: Transport = {
    get wire() {
      return transport.wire;
    },
    listTools: (ctx) => attempt<ToolListing>("tools/list", ctx, always, () => transport.listTools(ctx)),
    callTool: (call: ToolCallRequest, ctx) =>
      attempt<Reply>("tools/call", ctx, () => isRedeem(call, transport.wire), () => transport.callTool(call, ctx)),
  };
  if (transport.request !== undefined) {
    const request = transport.request.bind(transport);
    wrapped.request = (method, params, ctx) =>
      attempt(method, ctx, () => SAFE_METHODS.has(method), () => request(method, params, ctx));
  }
  if (transport.discover !== undefined) {
    const discover = transport.discover.bind(transport);
    wrapped.discover = (ctx) => attempt("server/discover", ctx, always, () => discover(ctx));
  }
  if (transport.close !== undefined) wrapped.close = transport.close.bind(transport);
  return wrapped;
}

/**
 * The wait an answer asks for before the request is sent again: its `data.retryAfterMs` (JSON-RPC
 * error data, gRPC `ErrorInfo` metadata) or `Retry-After`, for a refusal that says the server is
 * unavailable; `undefined` for anything else (a business failure, a bad request, a network error).
 *
 * @param error What the request was refused with.
 * @returns The wait in ms, or `undefined` when the refusal is not one to retry.
 */
export function retryDelayOf(error: unknown): number | undefined {
  if (!(error instanceof ClientError)) return undefined;
  const data = isObject(error.data) ? error.data : {};
  const unavailable = error.status === 503 || data.reason === "unavailable" || data.grpcCode === "Unavailable";
  // Too many requests (RFC 6585 §4, JSON-RPC -32029, gRPC RESOURCE_EXHAUSTED: a server's budgets, a
  // rate limit): sent again only when the server says when (a message too large is exhausted for good).
  const limited = error.status === 429 || error.rpcCode === RATE_LIMITED || data.grpcCode === "ResourceExhausted";
  if (!unavailable && !limited) return undefined;
  const hinted = msOf(data.retryAfterMs) ?? secondsOf((error.cause as { metadata?: Headers } | undefined)?.metadata);
  return unavailable ? hinted ?? DEFAULT_DELAY_MS : hinted;
}

/** A refusal that says the request was not processed at all (the server's gate refused it). */
function refusedBeforeRunning(error: unknown): boolean {
  const data = error instanceof ClientError && isObject(error.data) ? error.data : {};
  return data.processed === false || data.processed === "false";
}

const always = () => true;

/**
 * MCP-lite's reserved `redeem` tool (MCP-lite spec v0.042 §3.6, on its HTTP and gRPC bindings): reading
 * a promise, as often as needed. On MCP a tool of that name is the server's own.
 */
function isRedeem(call: ToolCallRequest, wire: string): boolean {
  return call.name === "redeem" && typeof call.arguments.promise === "string" && wire !== "mcp";
}

function msOf(value: unknown): number | undefined {
  const ms = typeof value === "string" && value !== "" ? Number(value) : value;
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** gRPC `retry-after` metadata (whole seconds, as HTTP's `Retry-After`). */
function secondsOf(metadata: Headers | undefined): number | undefined {
  const seconds = msOf(metadata?.get?.("retry-after") ?? undefined);
  return seconds === undefined ? undefined : seconds * 1000;
}
