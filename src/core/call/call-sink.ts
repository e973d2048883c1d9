/**
 * What flows between a running handler and its wire besides the result: progress, log messages and
 * requests for input from the client (elicitation, sampling, roots), with the shapes of their answers.
 * A binding plugs in a {@link CallSink}; the call context writes to it. The input methods and their
 * answers are MCP's (MCP 2025-11-25, Client Features), which MCP-lite's `elicitation` responses and the
 * gRPC binding's `ELICITATION` carry unchanged, so they are the vocabulary of every wire.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";

export type { CreateMessageResult } from "./sampling.ts";

/** Syslog severities, as MCP's logging uses them, least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** One of the {@link LOG_LEVELS}: syslog severities, as MCP's logging uses them. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** The params of a `resources/request`: what the handler needs, and where it might be found. */
export interface ResourceRequest {
  /** What the resource is and why it is needed, for the user. */
  description: string;
  /** The resource the handler would like, if it knows one. */
  uri?: string;
  /** The media types it can read, most preferred first; absent: any. */
  mimeTypes?: string[];
}

/** A request for input from the client, as MCP's `inputRequests` entries and server→client requests carry it. */
export interface InputRequest {
  /**
   * The client method: MCP's elicitation, sampling and roots, or `resources/request`, MCP-lite's
   * `request-for-more-resource` (MCP-lite spec v0.042 §3.3, as the README's MCP-lite section defines it: an
   * extension, not an MCP method).
   */
  method: "elicitation/create" | "sampling/createMessage" | "roots/list" | "resources/request";
  /** Its params (e.g. `{ mode: "form", message, requestedSchema }` for elicitation). */
  params: Record<string, unknown>;
}

/** The client methods a server may ask for input through: {@link InputRequest.method}. */
export type InputMethod = InputRequest["method"];

/** MCP's `ElicitResult`. */
export interface ElicitResult {
  /** What the user did. */
  action: "accept" | "decline" | "cancel";
  /** The submitted form, when accepted. */
  content?: Record<string, unknown>;
}

/** MCP's `ListRootsResult`. */
export interface ListRootsResult {
  /** The client's roots. */
  roots: { uri: string; name?: string }[];
}

/** Where a binding sends what a handler reports while it runs. */
export interface CallSink {
  /** Receives a progress report. */
  progress?(progress: number, total: number | undefined, message: string | undefined): void;
  /** Receives a log message. */
  log?(level: LogLevel, data: unknown, logger: string | undefined): void;
  /**
   * Asks the client for input and resolves with its answer. Each wire plugs in its own way: a
   * server→client request on the call's SSE stream (MCP 2025), or an input-required result with
   * signed state that the client answers by calling again (MCP 2026, MCP-lite). Absent when the wire
   * cannot ask.
   */
  input?(key: string, request: InputRequest): Promise<unknown>;
  /**
   * Runs an effect of the handler once per call (`ctx.step()`): wires that re-run the handler for each input round
   * return the recorded value on later rounds instead of running it again. Absent: `run` just runs.
   */
  step?(key: string, run: () => unknown): Promise<unknown>;
  /**
   * Tells the client that the user completed a URL-mode elicitation (MCP 2025-11-25,
   * `notifications/elicitation/complete`). Absent where the wire has no such notification (MCP
   * 2026-07-28, MCP-lite): the client learns of it when it calls again.
   */
  completeElicitation?(elicitationId: string): void;
}

/**
 * Tells whether an answer has the shape its method's result must have (MCP's `ElicitResult`,
 * `CreateMessageResult`, `ListRootsResult`): answers of any other shape never reach a handler.
 *
 * @param method The input method that was asked.
 * @param value The client's answer.
 * @returns `true` for a well-formed answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isInputAnswer } from "./call-sink.ts";
 * assert.equal(isInputAnswer("elicitation/create", { action: "accept", content: { ok: true } }), true);
 * assert.equal(isInputAnswer("elicitation/create", 12345), false);
 * ```
 */
export function isInputAnswer(method: InputMethod, value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (method) {
    case "elicitation/create":
      return (value.action === "accept" || value.action === "decline" || value.action === "cancel") &&
        (value.content === undefined || isObject(value.content));
    case "sampling/createMessage":
      return (value.role === "assistant" || value.role === "user") && typeof value.model === "string" &&
        (isObject(value.content) || Array.isArray(value.content));
    case "roots/list":
      return Array.isArray(value.roots) && value.roots.every((root) => isObject(root) && typeof root.uri === "string");
    case "resources/request":
      return typeof value.uri === "string" && (value.mimeType === undefined || typeof value.mimeType === "string") &&
        (typeof value.text === "string") !== (typeof value.blob === "string");
    default:
      return false;
  }
}

/**
 * Tells whether an input round asks only for resources (`resources/request`): MCP-lite and gRPC then
 * name it `request-for-more-resource` rather than `elicitation` (MCP-lite spec v0.042 §3.3).
 *
 * @param requests The round's requests, by key.
 * @returns `true` when there is at least one request and each is a `resources/request`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asksOnlyForResources } from "./call-sink.ts";
 * assert.equal(asksOnlyForResources({ spec: { method: "resources/request", params: { description: "the spec" } } }), true);
 * assert.equal(asksOnlyForResources({}), false);
 * ```
 */
export function asksOnlyForResources(requests: Readonly<Record<string, InputRequest>>): boolean {
  const all = Object.values(requests);
  return all.length > 0 && all.every((request) => request.method === "resources/request");
}
