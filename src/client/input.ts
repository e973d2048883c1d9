/**
 * Answering the server's requests for input (elicitation, sampling, roots) through the user's
 * handlers, whether they come as MCP 2026 `inputRequests`, MCP-lite `elicitation` results or MCP 2025
 * server→client requests. Loaded with the first request for input (`loaded-on-demand.ts`); what the
 * handlers declare is `client-capabilities.ts`.
 *
 * @module
 */
import type { McpliteError } from "../errors/error.ts";
import { clientError, rpcError } from "./errors.ts";
import type { InputRequest } from "./transport.ts";
import type { CreateMessageResult, SampleParams } from "../core/call/sampling.ts";

/** What the user answered to an elicitation (MCP `ElicitResult`). */
export interface ElicitAnswer {
  /** Whether the user accepted, declined or dismissed the request. */
  action: "accept" | "decline" | "cancel";
  /** The form's values, when accepted. */
  content?: Record<string, unknown>;
}

/** A form-mode elicitation: render the form, return what the user submitted as `content`. */
export interface FormElicitRequest {
  /** `form` (also when a server before MCP 2025-11-25 sent no mode). */
  mode: "form";
  /** What to tell the user. */
  message: string;
  /** The form: a flat object schema of primitives. */
  requestedSchema: Record<string, unknown>;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/**
 * A URL-mode elicitation (MCP 2025-11-25): show the full URL (and its domain) with the message, and open
 * it in the user's browser only with their consent; never fetch it yourself nor open it in a view the
 * client can read. Answer `accept` once the user agreed to open it (no `content`): what happens there
 * stays between the user and that page. Asked only of a client with `elicitationModes` including `"url"`.
 */
export interface UrlElicitRequest {
  /** `url`. */
  mode: "url";
  /** Why the user should open the page. */
  message: string;
  /** The page to open (`https:`, or `http:` on localhost). */
  url: string;
  /**
   * The id the server's `notifications/elicitation/complete` names ({@link InputHandlers.onElicitationComplete});
   * absent on MCP 2026-07-28, which has no such notification.
   */
  elicitationId?: string;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** An elicitation request's params: a form, or a page to open (a union on `mode`). */
export type ElicitRequest = FormElicitRequest | UrlElicitRequest;

/**
 * A sampled message (MCP `CreateMessageResult`): text, or `tool_use` blocks with `stopReason: "toolUse"`
 * when the model calls one of the request's tools.
 */
export interface SampleAnswer extends CreateMessageResult {
  /** Other fields. */
  [key: string]: unknown;
}

/** A root the client exposes (MCP `Root`). */
export interface Root {
  /** A `file://` URI. */
  uri: string;
  /** A name for it. */
  name?: string;
}

/**
 * A server's request for a resource it needs to go on (MCP-lite `request-for-more-resource`; on MCP the
 * `resources/request` method of the README's extension): what it needs, and where it might be.
 */
export interface RequestedResource {
  /** What the resource is and why it is needed. */
  description: string;
  /** The resource the server would like, if it knows one. */
  uri?: string;
  /** The media types it can read, most preferred first; absent: any. */
  mimeTypes?: string[];
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A resource's contents, as the client hands them over: text, or a base64 `blob`. */
export type ResourceAnswer =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/** What a handler gets besides the request. */
export interface InputContext {
  /** Aborted when the call is. */
  signal: AbortSignal;
  /** The request's key in its input round, where the wire has one (MCP-lite, MCP 2026 `inputRequests`). */
  key?: string;
}

/** The user's input handlers; each one declared is also declared to the server as a capability. */
export interface InputHandlers {
  /**
   * Answers an elicitation: ask the user to fill in a form, or (when `elicitationModes` has `"url"`) to
   * open a page; narrow on `request.mode`.
   *
   * @example
   * ```ts ignore
   * onElicit: async (request) => {
   *   if (request.mode === "url") return { action: (await askToOpen(request.url, request.message)) ? "accept" : "decline" };
   *   return { action: "accept", content: await renderForm(request.requestedSchema) };
   * },
   * elicitationModes: ["form", "url"],
   * ```
   */
  onElicit?: (request: ElicitRequest, context: InputContext) => ElicitAnswer | Promise<ElicitAnswer>;
  /**
   * The elicitation modes `onElicit` handles, declared to the server (MCP 2025-11-25, Elicitation:
   * Capabilities); default `["form"]`. With `"url"` the server may send the user to a page. Not needed by
   * `proxy()`, which declares both (it asks each of its caller); given to it, it narrows what an MCP 2025
   * session declares.
   */
  elicitationModes?: readonly ("form" | "url")[];
  /**
   * Receives the server's word that the user completed a URL-mode elicitation (MCP 2025-11-25,
   * `notifications/elicitation/complete`, on the call's stream): close the prompt, or retry a call that
   * failed with `UrlElicitationRequiredError`.
   */
  onElicitationComplete?: (elicitationId: string) => void;
  /**
   * Answers a sampling request: ask a model. With `samplingTools`, the request may carry `tools` and
   * `toolChoice`, and the answer may be `tool_use` blocks; the server then sends their `tool_result`s in
   * its next request.
   */
  onSample?: (request: SampleParams, context: InputContext) => SampleAnswer | Promise<SampleAnswer>;
  /** Declares `sampling: { tools: {} }`: `onSample` gives the model the request's tools (SEP-1577); default `false`. */
  samplingTools?: boolean;
  /** Lists the client's roots. */
  onRoots?: (context: InputContext) => Root[] | { roots: Root[] } | Promise<Root[] | { roots: Root[] }>;
  /** Hands the server a resource it asked for (`request-for-more-resource`): read a file, fetch a document. */
  onResourceRequest?: (request: RequestedResource, context: InputContext) => ResourceAnswer | Promise<ResourceAnswer>;
  /** Fills an accepted form's missing fields from the schema's defaults (SEP-1034); default `true`. */
  applyDefaults?: boolean;
}

/**
 * Answers one request for input.
 *
 * @param request The method and params.
 * @param handlers The user's handlers.
 * @param signal The call's signal.
 * @param key The request's key in its round, when it came in one.
 * @returns The answer, as the wire carries it.
 * @throws {McpliteError} `input_required` when no handler answers that method.
 */
export async function answerInput(
  request: InputRequest,
  handlers: InputHandlers,
  signal: AbortSignal,
  key?: string,
): Promise<unknown> {
  const params = (typeof request?.params === "object" && request.params !== null ? request.params : {}) as Record<
    string,
    unknown
  >;
  const context: InputContext = key === undefined ? { signal } : { signal, key };
  switch (request?.method) {
    case "elicitation/create": {
      if (!handlers.onElicit) throw missing("elicitation/create", "onElicit", request);
      const elicitation = { ...params, mode: params.mode === "url" ? "url" : "form" } as ElicitRequest;
      const answer = await handlers.onElicit(elicitation, context);
      if (elicitation.mode === "url") return { action: answer.action }; // URL mode returns no content
      return handlers.applyDefaults === false ? answer : withDefaults(answer, params.requestedSchema);
    }
    case "sampling/createMessage":
      if (!handlers.onSample) throw missing("sampling/createMessage", "onSample", request);
      return await handlers.onSample(
        params as unknown as SampleParams,
        key === undefined ? { signal } : { signal, key },
      );
    case "roots/list": {
      if (!handlers.onRoots) throw missing("roots/list", "onRoots", request);
      const roots = await handlers.onRoots(context);
      return Array.isArray(roots) ? { roots } : roots;
    }
    case "resources/request":
      if (!handlers.onResourceRequest) throw missing("resources/request", "onResourceRequest", request);
      return await handlers.onResourceRequest(params as RequestedResource, context);
    default:
      throw rpcError(
        `The server asked for input through an unknown method ${JSON.stringify(request?.method)}`,
        {
          data: request,
        },
      );
  }
}

/**
 * Answers every request of an input round, in parallel.
 *
 * @param requests The requests, by key.
 * @param handlers The user's handlers.
 * @param signal The call's signal.
 * @returns The answers, by the same keys.
 */
export async function answerInputs(
  requests: Record<string, InputRequest>,
  handlers: InputHandlers,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const keys = Object.keys(requests);
  const answers = await Promise.all(keys.map((key) => answerInput(requests[key], handlers, signal, key)));
  const responses: Record<string, unknown> = {};
  keys.forEach((key, i) => responses[key] = answers[i]);
  return responses;
}

/**
 * Fills the fields an accepted form left out with the defaults its schema gives (SEP-1034).
 *
 * @param answer The user's answer.
 * @param schema The requested schema.
 * @returns The answer, completed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withDefaults } from "./input.ts";
 * const schema = { type: "object", properties: { name: { type: "string", default: "Ada" } } };
 * assert.deepEqual(withDefaults({ action: "accept" }, schema), { action: "accept", content: { name: "Ada" } });
 * ```
 */
export function withDefaults(answer: ElicitAnswer, schema: unknown): ElicitAnswer {
  if (answer?.action !== "accept" || typeof schema !== "object" || schema === null) return answer;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null) return answer;
  const content: Record<string, unknown> = { ...answer.content };
  for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
    if (content[key] !== undefined || typeof property !== "object" || property === null) continue;
    if ("default" in property) content[key] = (property as { default: unknown }).default;
  }
  return { ...answer, content };
}

function missing(method: string, handler: string, request: InputRequest): McpliteError {
  return clientError("input_required", `The server asked for ${method}, but the client has no ${handler} handler`, {
    data: request,
  });
}
