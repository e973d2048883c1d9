/**
 * What `retry` means, for a tool's work and for one step alike: which thrown errors are retried, how long each
 * retry waits, and the check of the options. The waits are durable sleeps of the job's journal, named here.
 * Why: docs/concepts/long-running.md, "Retries".
 *
 * @module
 */
import type { PromiseRetry, RetryBackoff } from "../core/definitions/tool.ts";
import { NonRetryableError } from "../errors/non-retryable-error.ts";
import { ProtocolError, raisedHere, ToolError } from "../errors/error.ts";
import { DurableSleep } from "./durable-sleep.ts";
import { JournalOutage } from "./journal.ts";

/** The most runs a retried piece of work may have. */
export const MAX_ATTEMPTS = 100;
/** The longest wait before a retry, in ms (an hour, the default token lifetime). */
export const MAX_BACKOFF_MS = 3_600_000;

/** The codes of a `ProtocolError` that say "try again later": the work's own refusals otherwise are final. */
const TRANSIENT = new Set(["unavailable", "rate_limited", "deadline_exceeded", "timeout", "request_timeout"]);

/**
 * Whether a retry may mend what the work threw: not for a {@link NonRetryableError}, a `ToolError` or a
 * `ProtocolError` it raised on purpose (but for the transient codes), nor once its signal aborted (cancelled,
 * timed out, its worker stopping); never for a suspension (a durable sleep, the journal out of reach), which is no
 * failure. Errors a client read (a tool this work called failed) are any errors: retried.
 *
 * @param error What the work threw.
 * @param signal The work's signal.
 * @returns `true` when it is retried.
 */
export function isRetryable(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted || error instanceof DurableSleep || error instanceof JournalOutage) return false;
  if (error instanceof NonRetryableError || (error instanceof ToolError && raisedHere(error))) return false;
  return !(error instanceof ProtocolError && raisedHere(error)) || TRANSIENT.has(error.code);
}

/**
 * The wait before a retry.
 *
 * @param backoff The backoff (default none).
 * @param retry Which retry, from 1.
 * @returns The wait, in ms.
 */
export function backoffMs(backoff: RetryBackoff | undefined, retry: number): number {
  if (backoff === undefined || typeof backoff === "number") return backoff ?? 0;
  return Math.min(backoff.maxMs ?? MAX_BACKOFF_MS, backoff.delayMs * 2 ** Math.min(retry - 1, 31));
}

/**
 * Checks a `retry`, so that a wrong value fails where it is written (a tool as a server adds it, a step as it runs).
 *
 * @param what Whose `retry` it is, for the messages (`tool "x"`, `work.step("y")`).
 * @param retry The options.
 * @throws {RangeError} For `attempts` not an integer from 1 to 100, or a backoff's ms outside 0–3 600 000; a
 *   `TypeError` for a backoff neither a number nor `{ type: "exponential", delayMs }`.
 */
export function checkRetry(what: string, retry: PromiseRetry): void {
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1 || retry.attempts > MAX_ATTEMPTS) {
    throw new RangeError(`${what}: retry.attempts must be an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  const within = (name: string, ms: unknown) => {
    if (!(typeof ms === "number" && ms >= 0 && ms <= MAX_BACKOFF_MS)) {
      throw new RangeError(`${what}: retry.${name} must be from 0 to ${MAX_BACKOFF_MS}`);
    }
  };
  const backoff = retry.backoff;
  if (backoff === undefined) return;
  if (typeof backoff === "number") return within("backoff", backoff);
  if (typeof backoff !== "object" || backoff === null || backoff.type !== "exponential") {
    throw new TypeError(`${what}: retry.backoff is a number of ms or { type: "exponential", delayMs, maxMs? }`);
  }
  within("backoff.delayMs", backoff.delayMs);
  if (backoff.maxMs !== undefined) within("backoff.maxMs", backoff.maxMs);
}

/**
 * Hears each retry as it is decided, for the server's log: what threw, which retry follows (from 1), after how long.
 */
export type OnRetry = (error: unknown, retry: number, waitMs: number) => void;

/** The journal name of the wait after a tool's work threw for the `n`th time (which counts those throws). */
export function failureName(n: number): string {
  return `~failed:${n}`;
}

/** The journal name of the wait after step `name` threw for the `n`th time (which counts its throws). */
export function stepFailureName(name: string, n: number): string {
  return `~retry:${n}:${name}`;
}

/**
 * How many failures an earlier start journaled: the waits named `name(1)`, `name(2)`, … up to the first missing
 * (one read each, and one more).
 *
 * @param recorded Whether the journal holds a name.
 * @param name The name of the `n`th failure's wait.
 * @param most The most there can be.
 * @returns The count.
 */
export async function failuresOf(
  recorded: (name: string) => Promise<boolean>,
  name: (n: number) => string,
  most: number,
): Promise<number> {
  let n = 0;
  while (n < most && await recorded(name(n + 1))) n++;
  return n;
}
