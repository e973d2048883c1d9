/**
 * Webtools' execution envelope: the `POST {base}/` body and the `{ status, data | error }` answer.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../errors/error.ts";
import { REDEEM_TOOL } from "../../core/mod.ts";
import type { WebtoolsCode } from "../../errors/webtools-codes.ts";

/** The body of `POST {base}/`, as the spec defines it. */
export interface ExecuteRequest {
  /** Keeps state across requests; handlers read it as `ctx.meta.sessionId`. */
  sessionId?: string;
  /** The version of the tool set to run; the latest when absent. */
  version?: string;
  /** The action (tool) to run. */
  action: string;
  /** Environment-supplied configuration, matching `configSchema`; checked by the handler. */
  config?: unknown;
  /** The request, matching the action's `requestSchema`. */
  request?: unknown;
}

/**
 * Any answer of `POST {base}/`: `{ status: "ok", data }`, the action's result; `{ status: "ok", promise }`, a tool that
 * answered with a promise (redeem it by POSTing `promise.redeem`: `{ version, action: "redeem", request: { promise:
 * token } }` after `retryAfterMs`, before `expiresAt`, ISO 8601); or `{ status: "error", error }`, whose `code` is a
 * spec code (`WEBTOOL_NOT_FOUND`, `SCHEMA_ERROR`, …) or one of this SDK's own, `message` human-readable (for schema and
 * config errors it names the failing paths), `details` structured and safe to show (e.g. `issues: [{ path, message
 * }]`), and `reason` the wire-neutral `ErrorCode` (`unknown_tool`, `invalid_arguments`, `unauthenticated`, …), the same
 * on every wire: what a client's error and both sides' spans name the failure by (absent on a tool's failure).
 *
 * @typeParam T The action's result.
 */
export type WebtoolsEnvelope<T = unknown> =
  | { status: "ok"; data: T }
  | {
    status: "ok";
    promise: {
      token: string;
      retryAfterMs: number;
      expiresAt: string;
      estimatedCompletion?: string;
      redeem: { version: string; action: "redeem"; request: { promise: string } };
    };
  }
  | {
    status: "error";
    error: { code: WebtoolsCode | string; message: string; details?: unknown; reason?: ErrorCode };
  };

/** An error answer. */
type ErrorEnvelope = Extract<WebtoolsEnvelope, { status: "error" }>;

/** A pending answer's token and timing, and the body that redeems it. */
type WebtoolsPromise = Extract<WebtoolsEnvelope, { promise: unknown }>["promise"];

/**
 * Parses the body of `POST {base}/`.
 *
 * @param body The parsed JSON body.
 * @returns The request.
 * @throws {ProtocolError} `invalid_request` when it is not an object with a string `action`, or when
 *   `sessionId` or `version` is not a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExecuteRequest } from "./envelope.ts";
 * const parsed = parseExecuteRequest({ action: "add", request: { a: 1, b: 2 } });
 * assert.equal(parsed.action, "add");
 * ```
 */
export function parseExecuteRequest(body: unknown): ExecuteRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("the body must be a JSON object { action, request, config?, version?, sessionId? }");
  }
  const { sessionId, version, action, config, request } = body as Record<string, unknown>;
  if (typeof action !== "string" || action === "") throw invalid("action must be a non-empty string");
  if (sessionId !== undefined && typeof sessionId !== "string") throw invalid("sessionId must be a string");
  if (version !== undefined && typeof version !== "string") throw invalid("version must be a string");
  return { sessionId, version, action, config, request };
}

function invalid(message: string): ProtocolError {
  return new ProtocolError("invalid_request", `Invalid webtool request: ${message}`);
}

/**
 * Serialises a successful answer.
 *
 * @param data The data.
 * @returns The JSON text.
 */
export function okBody(data: unknown): string {
  return JSON.stringify({ status: "ok", data: data === undefined ? null : data });
}

/**
 * Serialises a pending answer.
 *
 * @param promise The promise outcome's token and timing.
 * @param version The version of the tool set that issued it, which must redeem it.
 * @returns The JSON text.
 */
export function promiseBody(promise: Omit<WebtoolsPromise, "redeem">, version: string): string {
  const body: WebtoolsPromise = {
    token: promise.token,
    retryAfterMs: promise.retryAfterMs,
    expiresAt: promise.expiresAt,
    redeem: { version, action: REDEEM_TOOL, request: { promise: promise.token } },
  };
  if (promise.estimatedCompletion !== undefined) body.estimatedCompletion = promise.estimatedCompletion;
  return JSON.stringify({ status: "ok", promise: body });
}

/**
 * Serialises an error answer.
 *
 * @param code The error code.
 * @param message The message.
 * @param details Safe structured details, if any.
 * @param reason The error's wire-neutral code, if it has one.
 * @returns The JSON text.
 */
export function errorBody(code: string, message: string, details?: unknown, reason?: ErrorCode): string {
  const error: ErrorEnvelope["error"] = { code, message };
  if (details !== undefined) error.details = details;
  if (reason !== undefined) error.reason = reason;
  return JSON.stringify({ status: "error", error });
}
