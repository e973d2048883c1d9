/**
 * Answering the server's requests for input (elicitation, sampling, roots) through the user's
 * handlers, whether they come as MCP 2026 `inputRequests`, MCP-lite `elicitation` results or MCP 2025
 * server→client requests.
 *
 * @module
 */
import { InputRequiredError, RpcError } from "./errors.ts";
import type { InputRequest } from "./transport.ts";

/** The experimental MCP capability a client declares to be asked for resources (the README's extension). */
const RESOURCE_REQUESTS = "io.mcplite/resourceRequests";

/** What the user answered to an elicitation (MCP `ElicitResult`). */
export interface ElicitAnswer {
  /** Whether the user accepted, declined or dismissed the request. */
  action: "accept" | "decline" | "cancel";
  /** The form's values, when accepted. */
  content?: Record<string, unknown>;
}

/** An elicitation request's params: a form (`requestedSchema`) or, in URL mode, a page to open. */
export interface ElicitRequest {
  /** `form` (default) or `url`. */
  mode?: "form" | "url";
  /** What to tell the user. */
  message: string;
  /** The form: a flat object schema of primitives. */
  requestedSchema?: Record<string, unknown>;
  /** URL mode: the page to open. */
  url?: string;
  /** Other fields the server sent. */
  [key: string]: unknown;
}

/** A sampled message (MCP `CreateMessageResult`). */
export interface SampleAnswer {
  /** Normally `assistant`. */
  role: "user" | "assistant";
  /** The content (e.g. `{ type: "text", text }`). */
  content: Record<string, unknown> | Record<string, unknown>[];
  /** The model that answered. */
  model: string;
  /** Why sampling stopped. */
  stopReason?: string;
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
  /** Answers an elicitation: ask the user. */
  onElicit?: (request: ElicitRequest, context: InputContext) => ElicitAnswer | Promise<ElicitAnswer>;
  /** Answers a sampling request: ask a model. */
  onSample?: (request: Record<string, unknown>, context: InputContext) => SampleAnswer | Promise<SampleAnswer>;
  /** Lists the client's roots. */
  onRoots?: (context: InputContext) => Root[] | { roots: Root[] } | Promise<Root[] | { roots: Root[] }>;
  /** Hands the server a resource it asked for (`request-for-more-resource`): read a file, fetch a document. */
  onResourceRequest?: (request: RequestedResource, context: InputContext) => ResourceAnswer | Promise<ResourceAnswer>;
  /** Fills an accepted form's missing fields from the schema's defaults (SEP-1034); default `true`. */
  applyDefaults?: boolean;
}

/**
 * Builds the capabilities that the handlers imply.
 *
 * @param handlers The handlers.
 * @returns The MCP client capabilities (`elicitation`, `sampling`, `roots`, and for resource requests
 *   the experimental `io.mcplite/resourceRequests`).
 */
export function capabilitiesOf(handlers: InputHandlers): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (handlers.onElicit) capabilities.elicitation = {};
  if (handlers.onSample) capabilities.sampling = {};
  if (handlers.onRoots) capabilities.roots = {};
  if (handlers.onResourceRequest) capabilities.experimental = { [RESOURCE_REQUESTS]: {} };
  return capabilities;
}

/**
 * Answers one request for input.
 *
 * @param request The method and params.
 * @param handlers The user's handlers.
 * @param signal The call's signal.
 * @param key The request's key in its round, when it came in one.
 * @returns The answer, as the wire carries it.
 * @throws {InputRequiredError} When no handler answers that method.
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
  switch (request?.method) {
    case "elicitation/create": {
      if (!handlers.onElicit) throw missing("elicitation/create", "onElicit", request);
      const answer = await handlers.onElicit(params as ElicitRequest, { signal });
      return handlers.applyDefaults === false ? answer : withDefaults(answer, params.requestedSchema);
    }
    case "sampling/createMessage":
      if (!handlers.onSample) throw missing("sampling/createMessage", "onSample", request);
      return await handlers.onSample(params, { signal });
    case "roots/list": {
      if (!handlers.onRoots) throw missing("roots/list", "onRoots", request);
      const roots = await handlers.onRoots({ signal });
      return Array.isArray(roots) ? { roots } : roots;
    }
    case "resources/request":
      if (!handlers.onResourceRequest) throw missing("resources/request", "onResourceRequest", request);
      return await handlers.onResourceRequest(
        params as RequestedResource,
        key === undefined ? { signal } : { signal, key },
      );
    default:
      throw new RpcError(
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

function missing(method: string, handler: string, request: InputRequest): InputRequiredError {
  return new InputRequiredError(`The server asked for ${method}, but the client has no ${handler} handler`, {
    data: request,
  });
}
