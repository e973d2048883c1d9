/**
 * Input-required rounds (MCP's multi round-trip requests, MCP-lite's `elicitation`), for wires where the server
 * cannot call the client back: `ctx.elicit()`, `ctx.sample()` or `ctx.roots()` gets its answer if it came with the
 * request, else the call ends `input_required` with every outstanding question and a sealed `requestState` (the
 * answers so far, memoised `ctx.step()` results, the keys asked, an arguments digest; bound to tool, caller, expiry).
 * The client calls again with the answers; the handler runs again from the top. Why: docs/concepts/long-running.md.
 *
 * @module
 */
import { type CallSink, type InputMethod, type InputRequest, isInputAnswer, type LogLevel } from "./call-sink.ts";
import type { TokenCodec } from "../../codec/token.ts";
import { ProtocolError } from "../../errors/error.ts";
import type { InputRequiredOutcome } from "./outcome.ts";
import { base64urlEncode } from "../../codec/base64url.ts";
import { TokenError } from "../../codec/token-error.ts";
import { isObject } from "../../internal/is-object.ts";
import type { CallMeta } from "./call-meta.ts";
import { utf8Encoder as encoder } from "../../internal/utf8.ts";

/** The signed state of a round. */
interface RoundState {
  /** Digest of the call's arguments: the state only resumes the call it came from. */
  a: string;
  /** The answers so far, by key. */
  r: Record<string, unknown>;
  /** The values `ctx.step()` recorded, by key: `[]` for `undefined`, `[value]` otherwise. */
  s: Record<string, unknown[]>;
  /** The keys asked in the last round, with their methods. */
  q: Record<string, InputMethod>;
}

/** The token kind of input-round state (`requestState`). */
export const INPUT_KIND = "input";

/** What signs and checks a round's state: the server's codec and how long a state lasts. */
export interface RoundSigner {
  /** The token codec. */
  readonly codec: TokenCodec;
  /** How long a `requestState` lasts, in ms. */
  readonly inputTtlMs: number;
}

/** Who and what a round belongs to; the same on every round of one call. */
export interface RoundScope {
  /** The tool (or method) name. */
  readonly scope: string;
  /** The call's arguments, as sent. */
  readonly args: unknown;
  /** The authenticated caller, if any. */
  readonly caller: string | undefined;
}

/** Thrown into a handler that asked a question the request did not answer; it ends the call. */
export class InputRequiredSignal extends Error {
  /** The question's key. */
  declare readonly key: string;

  /**
   * Creates the signal.
   *
   * @param key The question's key.
   */
  constructor(key: string) {
    super(`input "${key}" is required (a streaming tool cannot ask)`);
    this.key = key;
    this.name = "InputRequiredSignal";
  }
}

/**
 * Refuses a request's answers (`inputResponses`, MCP 2026-07-28, Multi Round-Trip Requests) that are not an object
 * keyed by the requests they answer: on a call's round and on a task's (`tasks/update`) alike.
 *
 * @param responses The answers as the request carried them.
 * @throws {ProtocolError} `invalid_params`, when they are not an object.
 */
export function checkAnswers(responses: unknown): asserts responses is Record<string, unknown> {
  if (!isObject(responses)) {
    throw new ProtocolError("invalid_params", "Invalid params: inputResponses must be an object keyed by request");
  }
}

/**
 * One call's input round: the `CallSink` that answers `ctx.elicit()` and friends from the request, and
 * memoises `ctx.step()`. Bindings of MRTR-style wires make one per call and pass it both as the
 * context's sink and as `call.round`.
 */
export class InputRound implements CallSink {
  readonly #responses: unknown;
  readonly #state: unknown;
  readonly #inner: CallSink | undefined;
  #answers: Record<string, unknown> | undefined;
  /** What `ctx.step()` recorded in this call's rounds, by key. */
  #recorded: Record<string, unknown[]> | undefined;
  #asked: Map<string, InputRequest> | undefined;

  /**
   * Creates a round from what the request carried.
   *
   * @param inputResponses The client's answers (`inputResponses`), if any.
   * @param requestState The state it echoed (`requestState`), if any.
   * @param inner Where progress and logs go.
   */
  constructor(inputResponses?: unknown, requestState?: unknown, inner?: CallSink) {
    this.#responses = inputResponses;
    this.#state = requestState;
    this.#inner = inner;
  }

  /**
   * Forwards progress to the wire.
   *
   * @param progress The progress so far.
   * @param total The total, if known.
   * @param message A message.
   */
  progress(progress: number, total: number | undefined, message: string | undefined): void {
    this.#inner?.progress?.(progress, total, message);
  }

  /**
   * Forwards a log message to the wire.
   *
   * @param level The severity.
   * @param data The message.
   * @param logger The logger name.
   */
  log(level: LogLevel, data: unknown, logger: string | undefined): void {
    this.#inner?.log?.(level, data, logger);
  }

  /** Whether the request carried answers or state, so that {@link open} has something to check. */
  get carried(): boolean {
    return this.#responses !== undefined || this.#state !== undefined;
  }

  /**
   * Checks the request's state and answers before the handler runs. Answers count only for keys the
   * last round asked and only when they have the right shape; anything else is ignored (the handler
   * asks again).
   *
   * @param signer The server's codec.
   * @param who The tool, arguments and caller of this call.
   * @param onError Receives refused tokens, for logs.
   * @returns `undefined` when the request carried no state, else a promise of the check.
   * @throws {ProtocolError} `invalid_params` for a tampered, expired or foreign state, or answers that are not an object.
   */
  open(signer: RoundSigner, who: RoundScope, onError?: (error: TokenError) => void): Promise<void> | undefined {
    const responses = this.#responses;
    if (responses !== undefined) checkAnswers(responses);
    if (this.#state === undefined) return undefined;
    return this.#restore(signer, who, responses as Record<string, unknown> | undefined, onError);
  }

  async #restore(
    signer: RoundSigner,
    who: RoundScope,
    responses: Record<string, unknown> | undefined,
    onError?: (error: TokenError) => void,
  ): Promise<void> {
    let state: RoundState;
    try {
      const claims = await signer.codec.verify(this.#state, {
        kind: INPUT_KIND,
        scope: who.scope,
        caller: who.caller,
      });
      state = claims.state as RoundState;
      if (state.a !== await digestOf(who.args)) throw new TokenError("wrong_tool");
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      onError?.(error);
      throw new ProtocolError("invalid_params", "Invalid or expired requestState", {
        data: { reason: "invalid_request_state" },
        cause: error,
      });
    }
    const answers = { ...state.r };
    if (responses !== undefined) {
      for (const [key, method] of Object.entries(state.q)) {
        if (Object.hasOwn(responses, key) && isInputAnswer(method, responses[key])) answers[key] = responses[key];
      }
    }
    this.#answers = answers;
    this.#recorded = { ...state.s };
  }

  /**
   * Answers a question from the request, or records it and ends the call.
   *
   * @param key The question's key.
   * @param request The client method and params.
   * @returns The client's answer.
   */
  input(key: string, request: InputRequest): Promise<unknown> {
    const answers = this.#answers;
    if (answers !== undefined && Object.hasOwn(answers, key)) return Promise.resolve(answers[key]);
    // Without a state (a first call, or a client answering a round that carried none), an answer counts
    // when it has the shape of its method's result; it is kept in the state of any later round.
    const responses = this.#responses;
    if (
      this.#state === undefined && isObject(responses) && Object.hasOwn(responses, key) &&
      isInputAnswer(request.method, responses[key])
    ) {
      (this.#answers ??= {})[key] = responses[key];
      return Promise.resolve(responses[key]);
    }
    (this.#asked ??= new Map()).set(key, request);
    return Promise.reject(new InputRequiredSignal(key));
  }

  /**
   * Records a URL elicitation the handler requires (its `UrlElicitationRequiredError`) as a question
   * of this round, unless the request answered it.
   *
   * @param key The question's key, the elicitation's id.
   * @param params The `elicitation/create` params.
   * @returns Whether it was asked: `false` when an earlier round of the call answered it.
   */
  ask(key: string, params: Record<string, unknown>): boolean {
    if (this.#answers !== undefined && Object.hasOwn(this.#answers, key)) return false;
    (this.#asked ??= new Map()).set(key, { method: "elicitation/create", params });
    return true;
  }

  /**
   * Runs `run` once per call (`ctx.step()`): on later rounds it returns the recorded value without running it.
   *
   * @param key Its key, unique within the call.
   * @param run The effect; its value must be JSON.
   * @returns Its value.
   */
  async step(key: string, run: () => unknown): Promise<unknown> {
    const recorded = this.#recorded;
    if (recorded !== undefined && Object.hasOwn(recorded, key)) return recorded[key][0];
    const value = await run();
    (this.#recorded ??= {})[key] = value === undefined ? [] : [value];
    return value;
  }

  /** Whether the handler asked something the request did not answer. */
  get pending(): boolean {
    return this.#asked !== undefined;
  }

  /** The questions the handler asked that the request did not answer, by key. */
  get questions(): Record<string, InputRequest> {
    return Object.fromEntries(this.#asked ?? []);
  }

  /**
   * Ends the call: every outstanding question, and the signed state to send back with the answers.
   *
   * @param signer The server's codec and TTL.
   * @param who The tool, arguments and caller of this call.
   * @returns The outcome.
   * @throws {RangeError} When the state is too large for a token.
   */
  async outcome(signer: RoundSigner, who: RoundScope): Promise<InputRequiredOutcome> {
    const requests = this.questions;
    const q: Record<string, InputMethod> = {};
    for (const key in requests) q[key] = requests[key].method;
    const state: RoundState = { a: await digestOf(who.args), r: this.#answers ?? {}, s: this.#recorded ?? {}, q };
    const requestState = await signer.codec.sign({
      kind: INPUT_KIND,
      scope: who.scope,
      state,
      ttlMs: signer.inputTtlMs,
      caller: who.caller,
    });
    return { kind: "input_required", requests, requestState };
  }
}

/** A 128-bit digest of the arguments, independent of key order. */
async function digestOf(args: unknown): Promise<string> {
  const text = JSON.stringify(
    args ?? {},
    (_key, value) =>
      isObject(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
  );
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return base64urlEncode(new Uint8Array(digest, 0, 16));
}

/**
 * What a handler's error becomes where it may ask for input: an error with an `~ask` hook
 * (`UrlElicitationRequiredError`, MCP 2025-11-25's `-32042`) turns into questions of the call's input
 * round, or the error the call fails with (`missing_capability` for a client that did not declare
 * the mode); the hook keeps that code out of servers that never throw it. Any other error is as is.
 *
 * @param error What the handler threw.
 * @param meta What the client declared.
 * @param round The call's input round, if the wire has one.
 * @returns The error to fail the call with, or `undefined` when the round took the questions.
 */
export function requiredInput(error: unknown, meta: CallMeta, round: InputRound | undefined): unknown {
  type Ask = (meta: CallMeta, round: InputRound | undefined) => unknown;
  const ask = (error as { "~ask"?: Ask } | null)?.["~ask"];
  return typeof ask === "function" ? ask.call(error, meta, round) : error;
}
