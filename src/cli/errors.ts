/**
 * How the CLI fails: exit codes and one-line messages.
 *
 * @module
 */
import { ClientError } from "../client/errors.ts";

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
 * import { errorLine } from "./errors.ts";
 * assert.equal(errorLine(new Error("bad\n  thing")), "bad thing");
 * ```
 */
export function errorLine(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof ClientError && error.code === "transport" && error.cause instanceof Error) {
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
