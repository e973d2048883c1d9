/**
 * What the client retries and after how long (see retry.ts): the wait a refusal asks for, and whether
 * the request is safe to send again. Loaded with the first failed request: a request that succeeds
 * never reaches it.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import { McpliteError } from "../errors/error.ts";
import type { ToolCallRequest } from "./transport.ts";

/** MCP-lite's and MCP's JSON-RPC code for a request refused as too many (`rate_limited`). */
const RATE_LIMITED = -32029;

/** The wait when an unavailable answer names none (a gRPC `UNAVAILABLE` without `retry-after`). */
const DEFAULT_DELAY_MS = 1_000;

/** Requests that change nothing on the server: sending one twice is sending it once. */
export const SAFE_METHODS: ReadonlySet<string> = new Set([
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
 * The wait an answer asks for before the request is sent again: its `data.retryAfterMs` (JSON-RPC
 * error data, gRPC `ErrorInfo` metadata) or `Retry-After`, for a refusal that says the server is
 * unavailable; `undefined` for anything else (a business failure, a bad request, a network error).
 *
 * @param error What the request was refused with.
 * @returns The wait in ms, or `undefined` when the refusal is not one to retry.
 */
export function retryDelayOf(error: unknown): number | undefined {
  if (!(error instanceof McpliteError)) return undefined;
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
export function refusedBeforeRunning(error: unknown): boolean {
  const data = error instanceof McpliteError && isObject(error.data) ? error.data : {};
  return data.processed === false || data.processed === "false";
}

/**
 * MCP-lite's reserved `redeem` tool (MCP-lite spec v0.042 §3.6, on its HTTP and gRPC bindings): reading
 * a promise, as often as needed. On MCP a tool of that name is the server's own.
 */
export function isRedeem(call: ToolCallRequest, wire: string): boolean {
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
