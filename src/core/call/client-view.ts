/**
 * What a handler knows of its client (`ctx.client`), and whether the client can be asked for input:
 * the capability each input method needs (elicitation, sampling, roots, the request for more resource).
 *
 * @module
 */
import type { CallSink, InputMethod, InputRequest, ResourceRequest } from "./call-sink.ts";
import type { CallMeta, ClientInfo } from "./call-meta.ts";
import { ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";

/**
 * The experimental MCP client capability that says the client answers `resources/request` (MCP-lite's
 * `request-for-more-resource`).
 */
export const RESOURCE_REQUESTS = "io.mcplite/resourceRequests";

/** What a handler knows of the client: who it says it is and what it declared (`ctx.client`). */
export interface ClientView {
  /** The client's self-description (MCP `clientInfo`), when sent. */
  readonly info: ClientInfo | undefined;
  /**
   * The capabilities it declared: on MCP 2026-07-28 with this request, on the 2025 revisions in
   * `initialize` (when this instance holds the session); `undefined` on wires that declare none.
   */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;
  /**
   * The extensions it declared (SEP-2133: `capabilities.extensions`, each identifier's settings), read-only;
   * `undefined` when it declared none (and on wires that declare no capabilities).
   */
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /**
   * Tells whether the client supports a capability: one it declared (`elicitation`, `sampling`,
   * `roots`, an extension's identifier such as `io.modelcontextprotocol/tasks`, or an experimental one
   * such as `io.mcplite/resourceRequests`, the request for more resource), or, on a wire where
   * the client declares none (MCP-lite, gRPC, in process), whether this call can ask it for that input.
   *
   * @param capability The capability.
   * @returns Whether it is supported.
   */
  supports(capability: "elicitation" | "sampling" | "roots" | (string & Record<never, never>)): boolean;
}

/** The client capability each input method needs. */
const CAPABILITY: Readonly<Record<InputMethod, string>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
  "resources/request": RESOURCE_REQUESTS,
};

/**
 * Where a client declares the capability an input method needs, as `requiredCapabilities` nests it. MCP has no
 * request for more resource, so a client that answers one declares it among its experimental capabilities (MCP
 * 2025-11-25, Lifecycle: `experimental`, "non-standard experimental features"); URL elicitation needs
 * `elicitation.url` (MCP 2025-11-25, Elicitation: Capabilities), tools in sampling `sampling.tools` (SEP-1577).
 */
function neededPath(request: InputRequest): string[] {
  const { method, params } = request;
  const capability = CAPABILITY[method];
  return method === "resources/request"
    ? ["experimental", capability]
    : method === "elicitation/create" && params.mode === "url"
    ? [capability, "url"]
    : method === "sampling/createMessage" && params.tools
    ? [capability, "tools"]
    : [capability];
}

/** Whether an MCP client declared the capability an input method needs. */
function declares(declared: Record<string, unknown>, request: InputRequest): boolean {
  let at: unknown = declared;
  for (const key of neededPath(request)) at = isObject(at) ? at[key] : undefined;
  // Each elicitation mode is declared, `{}` meaning form only (MCP 2025-11-25, Elicitation: Capabilities).
  return isObject(at) &&
    (request.method !== "elicitation/create" || request.params.mode === "url" || isObject(at.form) ||
      at.url === undefined);
}

/**
 * Why a call cannot ask its client for input: the wire has no channel for it, or the client did not
 * declare the capability (MCP: never ask for more than declared, `missing_capability`, -32021).
 *
 * @param sink Where the call's questions go.
 * @param meta What the client declared.
 * @param method The input method.
 * @returns The error to refuse the question with, or `undefined` when it may be asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cannotAsk } from "./client-view.ts";
 * const meta = { wire: "mcp" as const, headers: new Headers(), clientCapabilities: {} };
 * const roots = { method: "roots/list" as const, params: {} };
 * assert.match(cannotAsk({ input: async () => ({}) }, meta, roots)?.message ?? "", /did not declare the roots/);
 * ```
 */
export function cannotAsk(sink: CallSink, meta: CallMeta, request: InputRequest): ProtocolError | undefined {
  const method = request.method;
  const declared = meta.clientCapabilities;
  if (sink.input !== undefined && (declared === undefined || declares(declared, request))) return undefined;
  const path = neededPath(request);
  const message = sink.input === undefined
    ? `This call cannot ask the client for input (${method})`
    : `The client did not declare the ${path.join(".")} capability`;
  const needs = path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {});
  return new ProtocolError("missing_capability", message, { data: { requiredCapabilities: needs } });
}

/** The input capabilities, which a client on a wire that declares none supports when the call can ask. */
const INPUTS: ReadonlySet<string> = new Set(Object.values(CAPABILITY));

/**
 * Makes what a handler knows of its client (`ctx.client`).
 *
 * @param meta What is known about the caller.
 * @param sink Where the call's questions go.
 * @returns The view.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clientViewOf } from "./client-view.ts";
 * const view = clientViewOf({ wire: "mcp", headers: new Headers(), clientCapabilities: { roots: {} } }, {});
 * assert.equal(view.supports("roots"), true);
 * assert.equal(view.supports("sampling"), false);
 * assert.equal(view.extensions, undefined);
 * ```
 */
export function clientViewOf(meta: CallMeta, sink: CallSink): ClientView {
  const { clientInfo, clientCapabilities } = meta;
  const declared = clientCapabilities?.extensions;
  return {
    info: clientInfo,
    capabilities: clientCapabilities,
    extensions: isObject(declared) ? Object.freeze(declared) as ClientView["extensions"] : undefined,
    supports(capability) {
      if (clientCapabilities === undefined) return INPUTS.has(capability) && sink.input !== undefined;
      if (isObject(clientCapabilities[capability])) return true;
      // An extension's identifier, or a non-standard feature (the request for more resource) declared
      // as experimental (MCP 2025-11-25, Lifecycle: `experimental`).
      const experimental = clientCapabilities.experimental;
      return (isObject(declared) && isObject(declared[capability])) ||
        (isObject(experimental) && isObject(experimental[capability]));
    },
  };
}

/**
 * The client request that asks for a resource (`ctx.requestResource()`: MCP-lite's
 * `request-for-more-resource`, MCP's experimental `resources/request`).
 *
 * @param request What is needed, and where it might be.
 * @returns The input request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resourceRequestOf } from "./client-view.ts";
 * assert.deepEqual(resourceRequestOf({ description: "the spec" }).params, { description: "the spec" });
 * ```
 */
export function resourceRequestOf(request: ResourceRequest): InputRequest {
  const params: Record<string, unknown> = { description: request.description };
  if (request.uri !== undefined) params.uri = request.uri;
  if (request.mimeTypes !== undefined) params.mimeTypes = [...request.mimeTypes];
  return { method: "resources/request", params };
}
