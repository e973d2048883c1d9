/**
 * How the CLI fails: exit codes, one-line messages for stderr, and with `--json` the same error as
 * JSON on stdout, so a script reads one stream whatever happened.
 *
 * @module
 */
import { McpliteError } from "../errors/error.ts";

/** The exit codes: 0 success, 1 the tool answered `isError`, 2 a usage, protocol or transport error, 130 Ctrl-C. */
export const ExitCode = { Ok: 0, ToolFailed: 1, Error: 2, Interrupted: 130 } as const;

/** A mistake on the command line (or in arguments given to a tool): exit code 2, with the message as it is. */
export class UsageError extends Error {
  /**
   * Creates the error.
   *
   * @param message What was wrong, and how to say it right.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Gives an error's message on one line, as the CLI prints it on stderr.
 *
 * @param error The error.
 * @returns The message, newlines collapsed; transport errors say where they came from.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorLine } from "./exit-errors.ts";
 * assert.equal(errorLine(new Error("bad\n  thing")), "bad thing");
 * ```
 */
export function errorLine(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpliteError && error.code === "transport" && error.cause instanceof Error) {
    const cause = error.cause.message;
    if (cause && !message.includes(cause)) message += ` (${cause})`;
  }
  return oneLine(message) || "unknown error";
}

/**
 * Puts text on one line (newlines and runs of spaces become one space).
 *
 * @param text The text.
 * @returns The line.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** An error as `--json` prints it on stdout: `{ "error": {…}, "exitCode": n }`. */
export interface JsonError {
  /** What went wrong. */
  error: {
    /** A stable string: the client's error code (`transport`, `protocol`, …), `usage`, `cancelled` or `error`. */
    code: string;
    /** The message, on one line. */
    message: string;
    /** The JSON-RPC error code, when the server sent one. */
    rpcCode?: number;
    /** The HTTP status, when there was one. */
    status?: number;
    /** The error's data, when the server sent some. */
    data?: unknown;
  };
  /** The process's exit code. */
  exitCode: number;
}

/**
 * Gives an error as `--json` prints it.
 *
 * @param error The error.
 * @param exitCode The exit code the CLI ends with.
 * @returns The JSON value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorJson, UsageError } from "./exit-errors.ts";
 * assert.deepEqual(errorJson(new UsageError("call needs a tool name"), 2), {
 *   error: { code: "usage", message: "call needs a tool name" },
 *   exitCode: 2,
 * });
 * ```
 */
export function errorJson(error: unknown, exitCode: number): JsonError {
  const code = exitCode === ExitCode.Interrupted
    ? "cancelled"
    : error instanceof McpliteError
    ? error.code
    : error instanceof UsageError
    ? "usage"
    : "error";
  const json: JsonError = { error: { code, message: errorLine(error) }, exitCode };
  if (error instanceof McpliteError) {
    if (error.rpcCode !== undefined) json.error.rpcCode = error.rpcCode;
    if (error.status !== undefined) json.error.status = error.status;
    if (error.data !== undefined) json.error.data = error.data;
  }
  return json;
}

/**
 * Whether the server refused for want of authorization (HTTP 401) that `--login` could get.
 *
 * @param error The error.
 * @returns True for a 401 the client could not answer.
 */
export function needsLogin(error: unknown): boolean {
  return error instanceof McpliteError && error.status === 401;
}
