/**
 * Narrowing helpers for the outcomes `server.call()` returns, and an untyped `call` for tests that
 * send what the types forbid (unknown tools, wrong arguments), as a wire would.
 */
import assert from "node:assert/strict";
import type { CallOutcome, Server } from "../../mod.ts";
import type { ServerCallOptions } from "../../src/types.ts";
import type { FinalOutcome, InputRequiredOutcome, PromiseOutcome } from "../../src/core/call/outcome.ts";
import { readUntil } from "./wait.ts";

/** Asserts a complete outcome (`answer` or `failure`) and returns it. */
export function final(outcome: CallOutcome): FinalOutcome {
  assert.ok(
    outcome.kind === "answer" || outcome.kind === "failure",
    `expected a complete outcome, got ${outcome.kind}`,
  );
  return outcome;
}

/** Asserts a `promise` outcome and returns it. */
export function promised(outcome: CallOutcome): PromiseOutcome {
  assert.equal(outcome.kind, "promise");
  return outcome as PromiseOutcome;
}

/** Asserts an `input_required` outcome and returns it. */
export function asking(outcome: CallOutcome): InputRequiredOutcome {
  assert.equal(outcome.kind, "input_required");
  return outcome as InputRequiredOutcome;
}

/** Calls any name with any arguments, past the types (as a client on the wire could). */
export function callAny(
  // deno-lint-ignore no-explicit-any
  server: Server<any>,
  name: string,
  args: unknown,
  options?: ServerCallOptions,
): Promise<CallOutcome> {
  return (server.call as (name: string, args: unknown, options?: ServerCallOptions) => Promise<CallOutcome>)(
    name,
    args,
    options,
  );
}

/**
 * Redeems `token` on `server` until its job ends (every 50 ms, as a client sends `redeem` again, at most
 * `timeoutMs`), and returns the end.
 */
export function redeemedWithin(
  server: { call(name: string, args: unknown): Promise<CallOutcome> },
  token: string,
  timeoutMs: number,
): Promise<CallOutcome> {
  const redeem = () => server.call("redeem", { promise: token });
  return readUntil(redeem, (outcome) => outcome.kind !== "promise", "the job's end", { timeoutMs, everyMs: 50 });
}

/**
 * The end of a call: `first` itself, or, when it is a promise, the end its token redeems to on `server` (at most
 * `timeoutMs`, a bound for a loaded machine).
 */
export async function ended(
  server: { call(name: string, args: unknown): Promise<CallOutcome> },
  first: CallOutcome,
  timeoutMs = 30_000,
): Promise<CallOutcome> {
  return first.kind === "promise" ? await redeemedWithin(server, first.token, timeoutMs) : first;
}

/** Asserts an `answer` (another outcome fails, showing it) and returns its structured content. */
export function answered<T = unknown>(outcome: CallOutcome): T {
  assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
  return (outcome as Extract<CallOutcome, { kind: "answer" }>).result.structuredContent as T;
}

/** Asserts a `failure` (another outcome fails, showing it) and returns its first text. */
export function failedWith(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "failure", JSON.stringify(outcome));
  const [first] = (outcome as Extract<CallOutcome, { kind: "failure" }>).result.content;
  return first?.type === "text" ? first.text : "";
}
