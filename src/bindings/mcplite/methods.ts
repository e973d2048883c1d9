/**
 * MCP-lite's one method table (MCP-lite spec v0.042 §4; prompts: §8.1 and the README's extension E1; resources:
 * this SDK's MCP-lite extension E4): every
 * method MCP-lite serves and how it is answered. The HTTP carrier (`handler.ts`) makes its routes from it
 * and the socket carrier (`socket-carrier.ts`: stdio lines, WebSocket frames) tells MCP-lite's messages
 * from MCP's by it. Prompts are served by the feature `definePrompt()` brings (`../prompt-feature.ts`), resources
 * by the one `defineResource()` brings (`../resource-feature.ts`).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { type AuthInfo, type CallMeta, type HandlerOutcome, type Registry, type SignalSource } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import type { Host } from "../../server/mod.ts";
import type { JsonRpcRequest } from "../jsonrpc.ts";
import type { LiteFeature } from "../prompt-feature.ts";
import type { PromptCaller } from "../render-prompt.ts";
import type { LiteResourceFeature } from "../resource-feature.ts";
import { listBody, listBytes, resultWithMeta } from "./envelope.ts";
import { roundParams } from "../round-params.ts";

/** A listing (`tools/list`, `prompts/list`, `resources/list`…): the caller's list body, answered inside the request middleware. */
export interface LiteList {
  readonly kind: "list";
  /** Its own endpoints under the base path: a plain POST whose body is the params. */
  readonly paths: readonly string[];
  /**
   * The body (`{"tools":[…]}`, `{"prompts":[…]}`) for a caller, encoded once per change.
   *
   * @throws {ProtocolError} `method_not_found` where the server serves none (no prompt defined).
   */
  bytes(registry: Registry, auth: AuthInfo | undefined): Uint8Array<ArrayBuffer>;
  /** The same body as text, kept for the carriers that send text (else they decode the bytes). */
  text?(registry: Registry, auth: AuthInfo | undefined): string;
}

/** `tools/call`: streamed as the core's events (`dispatch.ts`), the result last. */
export interface LiteToolCall {
  readonly kind: "call";
  /** Its own endpoints under the base path: JSON-RPC. */
  readonly paths: readonly string[];
}

/** `prompts/get`, `resources/read`: one result, or an input round as a tool call's. */
export interface LiteGet {
  readonly kind: "get";
  /** Its own endpoints under the base path: JSON-RPC. */
  readonly paths: readonly string[];
  /**
   * Answers the request: the rendered prompt, or the input round MCP-lite's `_meta` describes.
   *
   * @throws {ProtocolError} `invalid_params` (unknown prompt, arguments failing its schema); `method_not_found`
   *   where no prompt is defined.
   */
  answer(registry: Registry, rpc: JsonRpcRequest, caller: LiteCaller, version: string): Promise<unknown>;
  /**
   * Set for a notification of the client's (an extension's): sent without an id it is a JSON-RPC notification, never
   * answered (JSON-RPC 2.0, §4.1): its HTTP POST gets 202 and no body.
   */
  readonly notification?: true;
}

/** One MCP-lite method. */
export type LiteMethod = LiteList | LiteToolCall | LiteGet;

/** Who sends a request, as its carrier decoded it. */
export interface LiteCaller {
  /** The caller's metadata. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it. */
  readonly signal: AbortSignal | SignalSource;
  /** What the platform handed over with the request. */
  readonly host: Host;
}

/** A feature's part, or the answer of a server that defines none of `what`: an unknown method. */
function partOf<T>(part: T | undefined, what: string): T {
  if (part !== undefined) return part;
  throw new ProtocolError("method_not_found", `Method not found: this server defines no ${what}`);
}

/** What a feature may bring MCP-lite: prompts, resources, an extension's methods (`./extensions.ts`). */
type LiteParts = Partial<
  LiteFeature["mcplite"] & LiteResourceFeature["mcplite"] & { readonly methods: Readonly<Record<string, LiteGet>> }
>;

/**
 * Finds what the registered definitions brought MCP-lite, as `pick` reads it from a feature's part: the first found.
 *
 * @param registry The registry.
 * @param pick Reads a feature's MCP-lite part.
 * @returns What it read first, or `undefined` when no feature has it.
 */
export function litePart<T>(registry: Registry, pick: (part: LiteParts) => T | undefined): T | undefined {
  for (const feature of registry.features) {
    const found = feature.mcplite === undefined ? undefined : pick(feature.mcplite as LiteParts);
    if (found !== undefined) return found;
  }
}

const promptsOf = (registry: Registry) => partOf(litePart(registry, (part) => part.prompts), "prompts");
const resourcesOf = (registry: Registry) => partOf(litePart(registry, (part) => part.resources), "resources");

/** A `get` method at `path`: one result, or an input round as a tool call's. */
function getMethod(
  path: string,
  run: (registry: Registry, params: JsonRpcRequest["params"], caller: PromptCaller) => Promise<HandlerOutcome<unknown>>,
): LiteGet {
  return {
    kind: "get",
    paths: [path],
    async answer(registry, rpc, caller, version) {
      const started = Date.now();
      const got = await run(registry, rpc.params, { ...caller, params: rpc.params, round: roundParams(rpc.params) });
      return got.asked ? resultWithMeta(got.outcome, started, version) : got.value;
    },
  };
}

/** The table: every method MCP-lite serves, by its JSON-RPC name, with its endpoints under the base path. */
export const LITE_METHODS: Readonly<Record<string, LiteMethod>> = {
  "tools/list": { kind: "list", paths: ["/listtools", "/tools"], bytes: listBytes, text: listBody },
  "tools/call": { kind: "call", paths: ["/calltools", "/rpc"] },
  "prompts/list": { kind: "list", paths: ["/prompts"], bytes: (r, auth) => promptsOf(r).listBytes(r, auth) },
  "prompts/get": getMethod(
    "/prompts/get",
    (r, params, caller) => promptsOf(r).render(r, params.name, params.arguments, caller),
  ),
  "resources/list": {
    kind: "list",
    paths: ["/resources"],
    bytes: (r, auth) => resourcesOf(r).listBytes(r, auth, false),
  },
  "resources/templates/list": {
    kind: "list",
    paths: ["/resources/templates"],
    bytes: (r, auth) => resourcesOf(r).listBytes(r, auth, true),
  },
  "resources/read": getMethod("/resources/read", (r, params, caller) => resourcesOf(r).read(r, params.uri, caller)),
};

/**
 * Finds a method in the table.
 *
 * @param method The JSON-RPC method.
 * @returns Its entry, or `undefined` when MCP-lite does not serve it.
 */
export function liteMethod(method: unknown): LiteMethod | undefined {
  return typeof method === "string" && Object.hasOwn(LITE_METHODS, method) ? LITE_METHODS[method] : undefined;
}

/**
 * Tells whether a message on a socket is MCP-lite rather than MCP: a request for a method of the table
 * without MCP's per-request envelope (MCP 2026-07-28's `_meta` protocol version).
 *
 * @param message The parsed message.
 * @returns Whether MCP-lite answers it.
 */
export function isLiteMessage(message: unknown): boolean {
  if (!isObject(message) || liteMethod(message.method) === undefined) return false;
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return !(isObject(meta) && "io.modelcontextprotocol/protocolVersion" in meta);
}
