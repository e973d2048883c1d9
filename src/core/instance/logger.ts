/**
 * The server's logger (`createServer({ logger })`): where the handlers' `ctx.log()` calls and the
 * server's own warnings go besides the wire, with the request's trace id when one is known.
 *
 * @module
 */
import type { LogLevel } from "../call/call-sink.ts";
import { withTraceIds } from "../call/trace-context.ts";

/**
 * A logger such as `console` or pino: each method takes the record's fields first, then its message
 * (pino's order; `console` prints both).
 */
export interface ServerLogger {
  /** Debug records. */
  debug(fields: Record<string, unknown>, message?: string): void;
  /** Informational records (`info`, `notice`). */
  info(fields: Record<string, unknown>, message?: string): void;
  /** Warnings, the server's own included. */
  warn(fields: Record<string, unknown> | string, message?: string): void;
  /** Errors (`error` and more severe levels). */
  error(fields: Record<string, unknown>, message?: string): void;
}

/** The logger method of each MCP log level (syslog severities, RFC 5424 §6.2.1). */
const METHOD: Readonly<Record<LogLevel, keyof ServerLogger>> = {
  debug: "debug",
  info: "info",
  notice: "info",
  warning: "warn",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
};

/**
 * Writes one `ctx.log()` record to the logger: a string is the message, anything else goes in `data`.
 *
 * @param logger The logger.
 * @param level The MCP log level.
 * @param data What the handler logged.
 * @param fields The record's other fields (tool, logger name, trace id).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logTo } from "./logger.ts";
 * const lines: unknown[][] = [];
 * const logger = { debug() {}, info() {}, warn: (...a: unknown[]) => void lines.push(a), error() {} };
 * logTo(logger, "warning", "low disk", { tool: "backup" });
 * assert.deepEqual(lines, [[{ tool: "backup" }, "low disk"]]);
 * ```
 */
export function logTo(logger: ServerLogger, level: LogLevel, data: unknown, fields: Record<string, unknown>): void {
  const method = METHOD[level] ?? "info";
  if (typeof data === "string") logger[method](fields, data);
  else {
    fields.data = data;
    logger[method](fields);
  }
}

/**
 * Records a handler's `ctx.log()` in the server's logger, with the tool's name and, where telemetry
 * middleware traces the request, its `trace_id` and `span_id`.
 *
 * @param own The server's logger.
 * @param tool The tool (or method) the call is about.
 * @param level The severity.
 * @param data The message or structured data.
 * @param name The logger name the handler gave, if any.
 * @param traceparent The request's W3C `traceparent`, if traced.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logCall } from "./logger.ts";
 * const lines: unknown[] = [];
 * const logger = { debug() {}, info: (...a: unknown[]) => void lines.push(a), warn() {}, error() {} };
 * logCall(logger, "backup", "info", "done", undefined, undefined);
 * assert.deepEqual(lines, [[{ tool: "backup" }, "done"]]);
 * ```
 */
export function logCall(
  own: ServerLogger,
  tool: string,
  level: LogLevel,
  data: unknown,
  name: string | undefined,
  traceparent: string | undefined,
): void {
  const fields: Record<string, unknown> = { tool };
  if (name !== undefined) fields.logger = name;
  logTo(own, level, data, withTraceIds(fields, traceparent));
}

/** The warnings already printed to the console, so that one printed for each server prints once. */
const warnedThisProcess = new Set<string>();

/**
 * Gives one of the server's own warnings: to its logger, else once per process to `console.warn`.
 *
 * @param logger The server's logger, if it has one.
 * @param message The warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverWarning } from "./logger.ts";
 * const warnings: unknown[] = [];
 * const logger = { debug() {}, info() {}, warn: (m: unknown) => void warnings.push(m), error() {} };
 * serverWarning(logger, "mcplite: careful");
 * assert.deepEqual(warnings, ["mcplite: careful"]);
 * ```
 */
export function serverWarning(logger: ServerLogger | undefined, message: string): void {
  if (logger !== undefined) return logger.warn(message);
  if (warnedThisProcess.has(message)) return;
  warnedThisProcess.add(message);
  console.warn(message);
}
