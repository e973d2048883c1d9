/**
 * Drives an in-process call to its end, as a client would: redeems promises after their
 * `retryAfterMs`, and answers input rounds through the caller's `onInput`.
 *
 * @module
 */
import { sleep } from "../internal/sleep.ts";
import type { InputRequest } from "../core/call-context.ts";
import { ErrorCode, ProtocolError } from "../core/error.ts";
import type { CallOutcome, FinalOutcome } from "../core/outcome.ts";
import { REDEEM_TOOL } from "../tool/redeem-tool.ts";

/** Answers an input round: the responses to `requests`, by key (MCP's ElicitResult, CreateMessageResult, ListRootsResult). */
export type InputHandler = (
  requests: Record<string, InputRequest>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What {@link driveCall} needs of each step. */
export interface DriveOptions {
  /** Cancels the waiting (and the calls). */
  signal?: AbortSignal;
  /** Answers input rounds; without it, an input round is an error. */
  onInput?: InputHandler;
  /** The most input rounds before giving up (default 16). */
  maxInputRounds?: number;
}

/** Runs one call and returns its outcome, with the given round answers. */
export type Invoke = (
  name: string,
  args: unknown,
  round?: { inputResponses: Record<string, unknown>; requestState: string },
) => Promise<CallOutcome>;

/**
 * Drives a call: the first outcome, then redeems and input rounds until it completes.
 *
 * @param invoke Runs one call.
 * @param name The tool name.
 * @param args The arguments.
 * @param options The signal, the input handler and the round limit.
 * @returns The final outcome.
 * @throws {ProtocolError} `missing_capability` for an input round without `onInput`, or when rounds
 *   exceed the limit; any protocol error of a step.
 */
export async function driveCall(
  invoke: Invoke,
  name: string,
  args: unknown,
  options: DriveOptions,
): Promise<FinalOutcome> {
  const maxRounds = options.maxInputRounds ?? 16;
  let rounds = 0;
  let current: [string, unknown] = [name, args]; // the call an input round answers: the tool, or `redeem`
  let outcome = await invoke(name, args);
  while (true) {
    switch (outcome.kind) {
      case "answer":
      case "failure":
        return outcome;
      case "promise":
        await sleep(outcome.retryAfterMs, options.signal);
        current = [REDEEM_TOOL, { promise: outcome.token }];
        outcome = await invoke(...current);
        break;
      case "input_required": {
        if (options.onInput === undefined) {
          throw new ProtocolError(
            ErrorCode.MissingCapability,
            `Tool ${name} needs input: pass onInput, or use invoke()`,
            {
              data: { inputRequests: outcome.requests },
            },
          );
        }
        if (++rounds > maxRounds) {
          throw new ProtocolError(
            ErrorCode.MissingCapability,
            `Tool ${name} asked for input more than ${maxRounds} times`,
          );
        }
        const inputResponses = await options.onInput(outcome.requests);
        outcome = await invoke(current[0], current[1], { inputResponses, requestState: outcome.requestState });
        break;
      }
    }
  }
}
