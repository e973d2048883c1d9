/**
 * Retrying what the server says to retry: a refusal as unavailable (HTTP 503 with `Retry-After`, RFC 9110 §15.6.4;
 * JSON-RPC -32603 `unavailable`; gRPC `UNAVAILABLE`) or as too many with a time (RFC 6585 §4; -32029; gRPC
 * `RESOURCE_EXHAUSTED`) is sent again after the server's hint, bounded, when it is safe to repeat: a read, a `redeem`,
 * or a call refused before it ran (`data.processed: false`); a `tools/call` that may have run never is. One wrapper
 * around the transport, so every wire and request goes through it. Why: docs/guides/client.md ("Retries").
 *
 * @module
 */
import { sleep } from "../internal/sleep.ts";
import type { McpliteError } from "../errors/error.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolListing, Transport } from "./transport.ts";

/** What the retry policy module gives (retry-policy.ts, loaded on demand). */
type Policy = typeof import("./loaded-on-demand.ts");

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
  readonly error: McpliteError;
}

/** The bounds when `retry` is not given: 3 attempts, 10 s of waiting in all. */
export const RETRY_DEFAULTS: Readonly<Required<Omit<RetryOptions, "onRetry">>> = Object.freeze({
  maxAttempts: 3,
  maxDelayMs: 10_000,
});

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
 * import { ProtocolError } from "../errors/mod.ts";
 * import type { Transport } from "./transport.ts";
 * import { retryingTransport } from "./retry.ts";
 *
 * let attempts = 0;
 * const flaky: Transport = {
 *   wire: "mcp-lite",
 *   listTools: () => {
 *     if (++attempts < 2) {
 *       throw new ProtocolError("unavailable", "Service unavailable", { status: 503, data: { retryAfterMs: 10 } });
 *     }
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
    safe: (policy: Policy) => boolean,
    send: () => Promise<T>,
  ): Promise<T> {
    let waited = 0;
    for (let attempts = 1;; attempts++) {
      try {
        return await send();
      } catch (error) {
        if (attempts >= maxAttempts || ctx.signal.aborted) throw error;
        // The policy loads with the first refusal: a client whose requests succeed never loads it.
        const policy = await import("./loaded-on-demand.ts");
        const delayMs = policy.retryDelayOf(error);
        if (
          delayMs === undefined || waited + delayMs > maxDelayMs ||
          !(safe(policy) || policy.refusedBeforeRunning(error)) || ctx.signal.aborted
        ) throw error;
        onRetry?.({ method, attempt: attempts + 1, delayMs, error: error as McpliteError });
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
      attempt<Reply>("tools/call", ctx, (p) => p.isRedeem(call, transport.wire), () => transport.callTool(call, ctx)),
  };
  if (transport.request !== undefined) {
    const request = transport.request.bind(transport);
    wrapped.request = (method, params, ctx) =>
      attempt(method, ctx, (p) => p.SAFE_METHODS.has(method), () => request(method, params, ctx));
  }
  if (transport.discover !== undefined) {
    const discover = transport.discover.bind(transport);
    wrapped.discover = (ctx) => attempt("server/discover", ctx, always, () => discover(ctx));
  }
  if (transport.close !== undefined) wrapped.close = transport.close.bind(transport);
  return wrapped;
}

const always = () => true;
