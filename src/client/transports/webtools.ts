/**
 * The Webtools transport: `GET {url}/{version}` lists the actions as tools, `POST {url}/` runs one
 * (`{ sessionId, version, action, config, request }`), and the `{ status, data | promise | error }`
 * envelope becomes a reply. Pinned to a version and a hash, it refuses to list or call once the served
 * metadata no longer matches what was reviewed (the spec's lock-in).
 *
 * @module
 */
import { codeOfWebtools } from "../../errors/webtools-codes.ts";
import { sentErrorCode } from "../../errors/sent-code.ts";
import type { WebtoolsEnvelope } from "../../bindings/webtools/envelope.ts";
import type { WebtoolsMetadata } from "../../bindings/webtools/metadata.ts";
import { rpcError } from "../errors.ts";
import { type ProtocolError } from "../../errors/error.ts";
import { httpError, type HttpOptions, isJsonResponse, listingHintOf, readJsonBody } from "../http.ts";
import { HttpEndpoint } from "../http-endpoint.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolInfo, ToolListing, Transport } from "../transport.ts";
import { checkPin } from "../webtools-pin.ts";
import { sendTraced, withTraceHeaders } from "../carry-trace.ts";
import { isObject } from "../../internal/is-object.ts";

/** Options of {@link createWebtoolsTransport}. */
export interface WebtoolsTransportOptions extends HttpOptions {
  /** The version to use (`GET {url}/{version}`, and `version` in every POST); default: the latest. */
  version?: string;
  /**
   * The reviewed metadata's hash (hex SHA-256 of its canonical JSON, as the server's `ETag`): the
   * transport refuses to list or call when the served metadata hashes otherwise. Needs `version`.
   */
  hash?: string;
  /** How long a passed pin check holds before a call checks again, in ms (default 60 000; 0: every call). */
  pinCheckMs?: number;
  /** The configuration sent with every call (environment-supplied: credentials, units…; never the model's). */
  config?: Record<string, unknown>;
  /** The `sessionId` sent with every call. */
  sessionId?: string;
}

/**
 * Creates a Webtools transport.
 *
 * @param url The webtool URL, e.g. `http://localhost:8000/webtools`.
 * @param options The pin, the config and session, the fetch function and extra headers.
 * @returns The transport.
 * @throws {TypeError} When `hash` is given without `version`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { webtoolsBinding } from "../../bindings/webtools/mod.ts";
 * import { createWebtoolsTransport } from "./webtools.ts";
 *
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0", bindings: [webtoolsBinding()] }).tool(add);
 * const transport = createWebtoolsTransport("http://localhost/webtools", { fetch: server.fetch, version: "1.0.0" });
 * const ctx = { signal: new AbortController().signal, activity() {}, capabilities: {}, clientInfo: { name: "doc", version: "1" }, stream: false, answer: async () => ({}) };
 * const reply = await transport.callTool({ name: "add", arguments: { a: 1, b: 2 } }, ctx);
 * assert.deepEqual(reply.kind === "complete" && reply.result.structuredContent, { sum: 3 });
 * ```
 */
export function createWebtoolsTransport(url: string | URL, options: WebtoolsTransportOptions = {}): Transport {
  if (options.hash !== undefined && options.version === undefined) {
    throw new TypeError("createWebtoolsTransport: a hash pins one version; give its version too");
  }
  return new WebtoolsTransport(new HttpEndpoint(url, options, true), options);
}

class WebtoolsTransport implements Transport {
  readonly wire = "webtools";
  readonly tracesRequests = true;
  readonly #http: HttpEndpoint;
  readonly #options: WebtoolsTransportOptions;
  #checkedAt = -Infinity;

  constructor(http: HttpEndpoint, options: WebtoolsTransportOptions) {
    this.#http = http;
    this.#options = options;
  }

  /** The metadata GET, as one request of the client's telemetry, which names the server it goes to. */
  listTools(ctx: RequestContext): Promise<ToolListing> {
    return sendTraced(ctx, { method: "tools/list", params: {}, peer: this.#http.peer }, (sent) => this.#list(sent));
  }

  async #list(ctx: RequestContext): Promise<ToolListing> {
    const response = await this.#getMetadata(ctx.etag, ctx);
    const hint = listingHintOf(response);
    if (response.status === 304) return { tools: [], notModified: true, ...hint };
    const metadata = await this.#metadataOf(response, ctx.signal);
    const tools = metadata.actions.map((action): ToolInfo => {
      const tool: ToolInfo = { name: action.name, description: action.description, inputSchema: action.requestSchema };
      if (action.name === "redeem") tool["@type"] = "system"; // the client redeems promises itself
      if (action.responseSchema?.type === "object") tool.outputSchema = action.responseSchema;
      return tool;
    });
    return { tools, ...hint };
  }

  /** The POST (after the pin check, if one is due), as one request of the client's telemetry. */
  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    const request = { method: "tools/call", params: { name: call.name }, peer: this.#http.peer };
    return sendTraced(ctx, request, (sent) => this.#call(call, sent));
  }

  async #call(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    await this.#checkPin(ctx);
    const { version, config, sessionId } = this.#options;
    const payload: Record<string, unknown> = { action: call.name, request: call.arguments };
    if (version !== undefined) payload.version = version;
    if (config !== undefined) payload.config = config;
    if (sessionId !== undefined) payload.sessionId = sessionId;
    const headers = withTraceHeaders(
      await this.#http.headers({ "content-type": "application/json", accept: "application/json" }),
      ctx,
    );
    const response = await this.#http.post("/", headers, JSON.stringify(payload), ctx.signal);
    if (!isJsonResponse(response)) throw await httpError(response);
    const envelope = await readJsonBody(response, ctx.signal, this.#http.maxResponseBytes) as WebtoolsEnvelope;
    if (typeof envelope !== "object" || envelope === null) throw unexpected(response, envelope);
    if (envelope.status === "ok" && "promise" in envelope) {
      const p = envelope.promise;
      if (typeof p?.token !== "string") throw unexpected(response, envelope);
      const reply: Reply = {
        kind: "promise",
        token: p.token,
        ...(typeof p.retryAfterMs === "number" ? { retryAfterMs: p.retryAfterMs } : {}),
        ...(typeof p.estimatedCompletion === "string" ? { estimatedCompletion: p.estimatedCompletion } : {}),
        ...(typeof p.expiresAt === "string" ? { expiresAt: p.expiresAt } : {}),
      };
      return reply;
    }
    if (envelope.status === "ok") {
      return { kind: "complete", result: resultFromData((envelope as { data?: unknown }).data) };
    }
    if (envelope.status !== "error" || typeof envelope.error !== "object" || envelope.error === null) {
      throw unexpected(response, envelope);
    }
    const { code, message, details, reason } = envelope.error as typeof envelope.error & { reason?: unknown };
    if (code === "TOOL_ERROR") {
      const result: Record<string, unknown> = { content: [{ type: "text", text: message }], isError: true };
      if (isObject(details)) {
        result.structuredContent = details;
      }
      return { kind: "complete", result };
    }
    const options = {
      status: response.status,
      data: { code, ...(typeof details === "object" && details !== null ? details : {}) },
    };
    // The server's code (`error.reason` from a server of ours), else the Webtools code's nearest.
    const named = sentErrorCode(reason) ??
      (code === "WEBTOOL_NOT_FOUND" && !(isObject(details) && "requested_tool" in details)
        ? "method_not_found" // a version or path, not an action
        : codeOfWebtools(code, response.status));
    if (named === "invalid_arguments") throw rpcError(message, options, "invalid_arguments");
    if (named === "unknown_tool") throw rpcError(message, options, "unknown_tool");
    throw rpcError(`${code}: ${message}`, options, named);
  }

  /** With a hash: confirms the served metadata still matches, at most once per `pinCheckMs`. */
  async #checkPin(ctx: RequestContext): Promise<void> {
    const hash = this.#options.hash;
    if (hash === undefined || Date.now() - this.#checkedAt < (this.#options.pinCheckMs ?? 60_000)) return;
    const response = await this.#getMetadata(`"${hash}"`, ctx);
    if (response.status === 304) {
      await response.body?.cancel();
      this.#checkedAt = Date.now();
      return;
    }
    await this.#metadataOf(response, ctx.signal); // throws WebtoolsPinError when it changed
  }

  /** GETs the metadata, with the request's trace context (W3C Trace Context §3) like every other request. */
  async #getMetadata(etag: string | undefined, ctx: RequestContext): Promise<Response> {
    const signal = ctx.signal;
    const fields: Record<string, string> = { accept: "application/json" };
    if (etag !== undefined) fields["if-none-match"] = etag;
    const headers = withTraceHeaders(await this.#http.headers(fields), ctx);
    const version = this.#options.version;
    return await this.#http.get(version === undefined ? "/" : `/${encodeURIComponent(version)}`, headers, signal);
  }

  /** Reads metadata and checks it against the pin, if any. */
  async #metadataOf(response: Response, signal: AbortSignal): Promise<WebtoolsMetadata> {
    if (!response.ok) {
      if (!isJsonResponse(response)) throw await httpError(response);
      const envelope = await readJsonBody(response, signal, this.#http.maxResponseBytes) as WebtoolsEnvelope;
      const error = envelope?.status === "error" ? envelope.error : undefined;
      if (error === undefined) throw unexpected(response, envelope);
      const named = sentErrorCode((error as { reason?: unknown }).reason) ??
        codeOfWebtools(error.code, response.status);
      throw rpcError(`${error.code}: ${error.message}`, { status: response.status, data: error }, named);
    }
    const metadata = await readJsonBody(response, signal, this.#http.maxResponseBytes) as WebtoolsMetadata;
    if (typeof metadata !== "object" || metadata === null || !Array.isArray(metadata.actions)) {
      throw unexpected(response, metadata);
    }
    const { version, hash } = this.#options;
    if (hash !== undefined) {
      await checkPin(metadata, { version: version!, hash });
      this.#checkedAt = Date.now();
    } else if (version !== undefined && metadata.version !== version) {
      throw rpcError(`webtool version ${metadata.version} was served, but ${version} was asked for`, {
        status: response.status,
      });
    }
    return metadata;
  }
}

/**
 * Turns the envelope's `data` into a result: an object is the structured content (and its JSON the
 * text), a string the text, `{ content: [blocks] }` the blocks, `null` no content.
 */
function resultFromData(data: unknown): Record<string, unknown> {
  if (data === null || data === undefined) return { content: [] };
  if (typeof data === "string") return { content: [{ type: "text", text: data }] };
  if (typeof data === "object" && !Array.isArray(data)) {
    const keys = Object.keys(data);
    const content = (data as { content?: unknown }).content;
    if (keys.length === 1 && Array.isArray(content) && content.every((b) => typeof b?.type === "string")) {
      return { content };
    }
    return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  }
  return { content: [{ type: "text", text: JSON.stringify(data) }] };
}

function unexpected(response: Response, body: unknown): ProtocolError {
  const text = typeof body === "string" ? body : JSON.stringify(body) ?? "";
  return rpcError(`Unexpected webtool reply (HTTP ${response.status}): ${text.slice(0, 200)}`, {
    status: response.status,
    data: body,
  });
}
