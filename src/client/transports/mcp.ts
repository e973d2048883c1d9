/**
 * The MCP Streamable HTTP transport. It speaks the stateless 2026-07-28 revision first (the envelope
 * in `params._meta`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), retries with a
 * version from a -32022 error's `data.supported`, and falls back to the 2025 `initialize` handshake
 * when the server does not speak it.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { McpliteError } from "../../errors/error.ts";
import { McpErrorCode, METHOD_HEADER, NAME_HEADER } from "../../internal/mcp-wire.ts";
import { errorFromRpc, isAuthorizationFailure, isTransportError, rpcError, transportError } from "../errors.ts";
import { cacheHintOf, httpError, type HttpOptions, isJsonResponse, readRpcReply, type StreamMessage } from "../http.ts";
import { HttpEndpoint } from "../http-endpoint.ts";
import { ListCursor } from "../list-cursor.ts";
import { encodeHeaderValue, type HeaderParam, headerParamsOf, setParamHeaders } from "../mcp-headers.ts";
import { quietContext } from "../quiet-context.ts";
import { sendTraced, withTraceHeaders } from "../carry-trace.ts";
import { replyFromMcp } from "../read-result.ts";
import type { Reply, RequestContext, ToolCallRequest, ToolInfo, ToolListing, Transport } from "../transport.ts";
import type { Exchanged, LegacySession } from "./mcp-legacy.ts";
import {
  handleStreamMessage,
  LEGACY_VERSIONS,
  META,
  MODERN_VERSION,
  MODERN_VERSIONS,
  NAME_FIELDS,
  streamMetaOf,
} from "./mcp-client-wire.ts";

/** Options of {@link createMcpTransport}. */
export interface McpTransportOptions extends HttpOptions {
  /**
   * The revision to speak. A 2025 revision skips the 2026-07-28 probe and opens a session with
   * `initialize`; the default speaks 2026-07-28 and falls back when the server does not.
   */
  protocolVersion?: string;
}

/** The most pages of a list this client reads. */
/** Modern error codes: a server that answers with one of these speaks 2026-07-28. */
const MODERN_ERRORS = new Set<number>([
  McpErrorCode.HeaderMismatch,
  McpErrorCode.MissingCapability,
  McpErrorCode.UnsupportedVersion,
]);

/**
 * Creates an MCP Streamable HTTP transport.
 *
 * @param url The MCP endpoint, e.g. `http://localhost:8000/mcp`.
 * @param options The fetch function, extra headers and the revision.
 * @returns The transport.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "../mod.ts";
 * import { createMcpTransport } from "./mcp.ts";
 * const client = createClient(createMcpTransport("http://localhost:8000/mcp"));
 * ```
 */
export function createMcpTransport(url: string | URL, options: McpTransportOptions = {}): Transport {
  return new McpTransport(new HttpEndpoint(url, options), options);
}

/**
 * The MCP transport over a pipe (stdio), where a request has no response of its own: a 2025 server may
 * never answer `server/discover`, so after `fallbackMs` without an answer `initialize` goes out too.
 */
export function createPipedMcpTransport(url: string, options: McpTransportOptions, fallbackMs: number): Transport {
  return new McpTransport(new HttpEndpoint(url, options), options, fallbackMs);
}

class McpTransport implements Transport {
  readonly wire = "mcp";
  readonly tracesRequests = true;
  readonly #http: HttpEndpoint;
  readonly #forced: string | undefined;
  #version: string = MODERN_VERSION;
  #era: Promise<"modern" | "legacy"> | undefined;
  #legacy: LegacySession | undefined;
  #nextId = 1;
  /** Each listed tool's `Mcp-Param-*` parameters; `null` for a tool dropped as invalid. */
  #params: Map<string, HeaderParam[] | null> | undefined;
  /** The listed tools that run only as tasks (MCP 2025-11-25 `execution.taskSupport: "required"`). */
  #taskRequired: Set<string> | undefined;
  /** The probe's `server/discover` answer, with the signal of the request it was sent for. */
  #probed: { result: Record<string, unknown>; signal: AbortSignal } | undefined;
  /** Over a pipe: how long the probe waits alone before `initialize` goes out too. */
  readonly #fallbackMs: number | undefined;

  constructor(http: HttpEndpoint, options: McpTransportOptions, fallbackMs?: number) {
    this.#http = http;
    this.#fallbackMs = fallbackMs;
    this.#forced = options.protocolVersion;
    if (
      this.#forced !== undefined && !LEGACY_VERSIONS.includes(this.#forced) && !MODERN_VERSIONS.includes(this.#forced)
    ) {
      throw new TypeError(
        `Unknown MCP protocol version ${this.#forced}; use one of ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS]}`,
      );
    }
  }

  async listTools(ctx: RequestContext): Promise<ToolListing> {
    const plain = quietContext(ctx);
    const modern = await this.#eraOf(plain) === "modern";
    const tools: ToolInfo[] = [];
    let ttlMs: number | undefined, cacheScope: ToolListing["cacheScope"], etag: string | undefined;
    const walk = new ListCursor("tools/list");
    let cursor: string | undefined;
    for (let page = 0;; page++) {
      const extra = new Headers();
      if (page === 0 && ctx.etag !== undefined) extra.set("if-none-match", ctx.etag);
      const { result, response } = await this.#send("tools/list", cursor === undefined ? {} : { cursor }, plain, extra);
      const hint = cacheHintOf(response.headers);
      if (response.status === 304) return { tools: [], notModified: true, ...hint, etag: ctx.etag };
      if (!Array.isArray(result.tools)) throw rpcError("tools/list returned no tools array", { data: result });
      tools.push(...(result.tools as ToolInfo[]));
      const pageTtl = typeof result.ttlMs === "number" ? Math.max(0, result.ttlMs) : hint.ttlMs ?? 0;
      ttlMs = ttlMs === undefined ? pageTtl : Math.min(ttlMs, pageTtl);
      cacheScope ??= result.cacheScope === "public" || result.cacheScope === "private"
        ? result.cacheScope
        : hint.cacheScope;
      etag = page === 0 ? response.headers.get("etag") ?? undefined : undefined;
      cursor = walk.next(result);
      if (cursor === undefined) break;
    }
    this.#taskRequired = new Set(tools.filter((t) => t?.execution?.taskSupport === "required").map((t) => t.name));
    const kept = modern ? this.#keepValid(tools, ctx) : tools;
    return { tools: kept, ttlMs, ...(cacheScope ? { cacheScope } : {}), ...(etag ? { etag } : {}) };
  }

  async callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    const params: Record<string, unknown> = { name: call.name, arguments: call.arguments };
    if (call.inputResponses !== undefined) params.inputResponses = call.inputResponses;
    if (call.requestState !== undefined) params.requestState = call.requestState;
    if (await this.#eraOf(ctx) === "legacy") {
      return await this.#legacy!.callTool(params, ctx, async () => {
        if (this.#taskRequired === undefined) await this.listTools({ ...ctx, etag: undefined });
        return this.#taskRequired;
      });
    }
    for (let attempt = 0;; attempt++) {
      if (this.#params === undefined) await this.listTools({ ...ctx, etag: undefined });
      const mirrored = this.#params!.get(call.name);
      if (mirrored === null) {
        throw rpcError(`Tool ${call.name} was dropped: its x-mcp-header annotations are invalid`, {
          data: { requested_tool: call.name, reason: "invalid_x_mcp_header" },
        }, "unknown_tool");
      }
      const extra = new Headers();
      if (mirrored !== undefined) setParamHeaders(mirrored, call.arguments, extra);
      try {
        return replyFromMcp((await this.#send("tools/call", params, ctx, extra)).result);
      } catch (error) {
        // A header mismatch may mean the tool changed since it was listed: list again, once.
        if (attempt > 0 || !(error instanceof McpliteError) || error.rpcCode !== McpErrorCode.HeaderMismatch) {
          throw error;
        }
        this.#params = undefined;
      }
    }
  }

  async request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    await this.#eraOf(ctx);
    return replyFromMcp((await this.#send(method, params, ctx)).result);
  }

  async discover(ctx: RequestContext): Promise<Record<string, unknown>> {
    const plain = quietContext(ctx);
    if (await this.#eraOf(plain) === "modern") {
      // The era probe of this very request asked the same question: its answer serves.
      const probed = this.#probed?.signal === ctx.signal ? this.#probed.result : undefined;
      this.#probed = undefined;
      const result = probed ?? (await this.#send("server/discover", {}, plain)).result;
      // 2026-07-28 names the server in every result's `_meta`: lift it, so both eras read alike.
      const serverInfo = isObject(result._meta) ? result._meta[META.serverInfo] : undefined;
      return result.serverInfo === undefined && serverInfo !== undefined ? { ...result, serverInfo } : result;
    }
    await this.#legacy!.open(plain);
    return { ...this.#legacy!.initializeResult };
  }

  async close(): Promise<void> {
    await this.#legacy?.close();
  }

  #send(method: string, params: Record<string, unknown>, ctx: RequestContext, extra?: Headers): Promise<Exchanged> {
    return this.#legacy !== undefined
      ? this.#legacy.request(method, params, ctx, extra)
      : this.#modern(method, params, ctx, extra);
  }

  /** Finds the server's era once: a `server/discover` probe, or `initialize` for a forced 2025 revision. */
  #eraOf(ctx: RequestContext): Promise<"modern" | "legacy"> {
    this.#era ??= this.#probe(quietContext(ctx)).catch((error) => {
      this.#era = undefined;
      throw error;
    });
    return this.#era;
  }

  async #probe(ctx: RequestContext): Promise<"modern" | "legacy"> {
    if (this.#forced !== undefined && LEGACY_VERSIONS.includes(this.#forced)) {
      return await this.#useLegacy(this.#forced);
    }
    // A revision the host named (2026-07-28) is the one spoken: its probe's answer is waited for, however long the
    // server takes to start; `initialize` would speak another.
    if (this.#forced !== undefined) this.#version = this.#forced;
    if (this.#fallbackMs === undefined || this.#forced !== undefined) {
      return await this.#adopt(await this.#judge(ctx, ctx.signal));
    }
    // A probe the handshake overtook is cancelled (MCP 2025-11-25, Cancellation): nothing awaits it.
    const overtaken = new AbortController();
    const judged = this.#judge({ ...ctx, signal: AbortSignal.any([ctx.signal, overtaken.signal]) }, ctx.signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), this.#fallbackMs));
    try {
      const early = await Promise.race([judged, late]);
      if (early !== undefined) return await this.#adopt(early);
    } finally {
      clearTimeout(timer);
    }
    return await this.#race(judged, ctx, overtaken);
  }

  /** The probe went unanswered over a pipe: `initialize` goes out too (see `raceHandshake`). */
  async #race(
    judged: Promise<"modern" | string>,
    ctx: RequestContext,
    overtaken: AbortController,
  ): Promise<"modern" | "legacy"> {
    const { raceHandshake } = await import("../loaded-on-demand.ts");
    const session = await this.#session(LEGACY_VERSIONS[0]);
    const era = await raceHandshake(judged, session, ctx);
    if (era === "legacy") {
      this.#legacy = session;
      overtaken.abort();
    }
    return era;
  }

  /**
   * Asks `server/discover`: `modern`, or the 2025 revision to open a session with. `signal` is the
   * caller's, by which {@link McpTransport.discover} knows the answer was asked for its request.
   */
  async #judge(ctx: RequestContext, signal: AbortSignal): Promise<"modern" | string> {
    try {
      const { result } = await this.#modern("server/discover", {}, ctx);
      if (Array.isArray(result.supportedVersions)) {
        this.#probed = { result, signal };
        return "modern";
      }
    } catch (error) {
      // Not an era question: an abort, or authorization failing (no handshake would fare better).
      if (ctx.signal.aborted || !(error instanceof McpliteError) || isAuthorizationFailure(error)) throw error;
      const supported = (error.data as { supported?: unknown } | undefined)?.supported;
      const legacy = Array.isArray(supported) ? LEGACY_VERSIONS.find((v) => supported.includes(v)) : undefined;
      if (error.rpcCode === McpErrorCode.UnsupportedVersion && legacy !== undefined) return legacy;
      if (error.rpcCode !== undefined && MODERN_ERRORS.has(error.rpcCode)) throw error;
      if (isTransportError(error) && error.status === undefined) throw error; // unreachable: not an era question
    }
    return LEGACY_VERSIONS[0];
  }

  async #adopt(verdict: "modern" | string): Promise<"modern" | "legacy"> {
    return verdict === "modern" ? "modern" : await this.#useLegacy(verdict);
  }

  async #useLegacy(version: string): Promise<"legacy"> {
    this.#legacy = await this.#session(version);
    return "legacy";
  }

  /** A 2025 session; its module loads only for a server that needs one. */
  async #session(version: string): Promise<LegacySession> {
    const { LegacySession } = await import("../loaded-on-demand.ts");
    return new LegacySession(this.#http, version, () => this.#nextId++);
  }

  /** Sends a 2026-07-28 request; a -32022 naming a version this client speaks is retried with it. */
  async #modern(
    method: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
    extra?: Headers,
  ): Promise<Exchanged> {
    for (let attempt = 0;; attempt++) {
      const id = this.#nextId++;
      const request = { method, params, id, protocolVersion: this.#version, peer: this.#http.peer };
      try {
        return await sendTraced(ctx, request, (sent) => this.#exchange(id, method, params, sent, extra));
      } catch (error) {
        const next = attempt === 0 ? versionToRetry(error) : undefined;
        if (next === undefined) throw error;
        this.#version = next;
      }
    }
  }

  /**
   * Sends one 2026-07-28 request with the envelope in `_meta` and the headers, and reads its reply; a
   * notification (`ctx.notification`) goes without its id, and the server answers its POST 202 (MCP
   * 2026-07-28, Transports: Streamable HTTP).
   */
  async #exchange(
    id: number | undefined,
    method: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
    extra?: Headers,
  ): Promise<Exchanged> {
    if (ctx.notification) id = undefined;
    const { progressToken, meta: streamMeta } = streamMetaOf(ctx, id!);
    const meta: Record<string, unknown> = {
      ...(params._meta as Record<string, unknown> | undefined),
      [META.protocolVersion]: this.#version,
      [META.clientCapabilities]: ctx.callCapabilities
        ? { ...ctx.capabilities, ...ctx.callCapabilities }
        : ctx.capabilities,
      [META.clientInfo]: ctx.clientInfo,
      ...streamMeta,
      ...ctx.traceContext,
    };
    if (ctx.logLevel !== undefined) meta[META.logLevel] = ctx.logLevel;
    const headers = await this.#http.headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": this.#version,
      [METHOD_HEADER]: method,
    }, extra);
    withTraceHeaders(headers, ctx);
    const nameField = NAME_FIELDS.get(method);
    const name = nameField === undefined ? undefined : params[nameField];
    if (typeof name === "string") headers.set(NAME_HEADER, encodeHeaderValue(name));
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } });
    const response = await this.#http.post("", headers, body, ctx.signal);
    if (response.status === 304 || response.status === 202) return { result: {}, response };
    if (!response.ok && !isJsonResponse(response)) throw await httpError(response);
    const cursor = { lastEventId: undefined, retryMs: undefined };
    const onMessage = (message: StreamMessage) => handleStreamMessage(message, ctx, progressToken);
    const reply = await readRpcReply(response, id!, ctx, cursor, onMessage, this.#http.maxResponseBytes);
    if (reply === undefined) {
      throw transportError(`The ${method} stream ended before its response`, { status: response.status });
    }
    ctx.activity();
    if (reply.ok) return { result: reply.result, response };
    throw errorFromRpc(reply.error, { method, wire: this.wire, status: reply.status });
  }

  /** Drops the tools whose `x-mcp-header` annotations are invalid, remembering each tool's headers. */
  #keepValid(tools: ToolInfo[], ctx: RequestContext): ToolInfo[] {
    const params = new Map<string, HeaderParam[] | null>();
    const kept: ToolInfo[] = [];
    for (const tool of tools) {
      const found = headerParamsOf(tool?.inputSchema);
      params.set(tool?.name, found ?? null);
      if (found !== undefined) kept.push(tool);
      else ctx.onWarning?.(`Dropped tool ${tool?.name}: its x-mcp-header annotations are invalid`);
    }
    this.#params = params;
    return kept;
  }
}

/** The version a -32022 error's `data.supported` names that this client speaks, if any. */
function versionToRetry(error: unknown): string | undefined {
  if (!(error instanceof McpliteError) || error.rpcCode !== McpErrorCode.UnsupportedVersion) return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? MODERN_VERSIONS.find((v) => supported.includes(v)) : undefined;
}
