/**
 * The server's own warnings from inside a request (request middleware has the context, not the server).
 *
 * @module
 */
import { type CallContext } from "./call-context.ts";
import { loggerOf } from "./tool-call-context.ts";
import { serverWarning } from "../instance/logger.ts";

/**
 * Gives one of the server's own warnings from inside a request (request middleware has the context,
 * not the server): to the server's `logger`, else once per process to `console.warn`.
 *
 * @param ctx The request's context.
 * @param message The warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./tool-call-context.ts";
 * import { warnServer } from "./warn-server.ts";
 * const warnings: unknown[] = [];
 * const logger = { debug() {}, info() {}, warn: (m: unknown) => void warnings.push(m), error() {} };
 * const meta = { wire: "in-process" as const, headers: new Headers() };
 * warnServer(createContext({ name: "t", signal: AbortSignal.abort(), meta }, undefined, logger), "mcplite: careful");
 * assert.deepEqual(warnings, ["mcplite: careful"]);
 * ```
 */
export function warnServer(ctx: CallContext, message: string): void {
  serverWarning(loggerOf(ctx), message);
}
