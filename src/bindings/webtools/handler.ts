/**
 * The Webtools binding: `GET {base}/` and `GET {base}/{version}` describe the tool set, `POST {base}/`
 * runs one action through the same dispatch core as every other wire.
 *
 * @module
 */
import { ProtocolError, raisedHere, servedCode } from "../../errors/error.ts";
import {
  type AnyTool,
  type AuthInfo,
  CacheSlot,
  type CallMeta,
  type CallOutcome,
  type Registry,
  registryOf,
  runCall,
  runRequest,
  scoping,
  wireErrors,
} from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { isObject } from "../../internal/is-object.ts";
import { visibleTo } from "../../internal/mcp-apps-wire.ts";
import { pathOf } from "../../internal/url.ts";
import {
  answersRefusal,
  type Binding,
  errorHeaders,
  type Host,
  JSON_HEADERS,
  matchesEtag,
  normalisePath,
  readJson,
  retryAfterOf,
  type Route,
  type RouteHandler,
  type ServerCore,
} from "../../server/mod.ts";
import { errorBody, okBody, parseExecuteRequest, promiseBody } from "./envelope.ts";
import { dataFromResult, failureMessage } from "../result-data.ts";
import { buildMetadata, metadataHash, type WebtoolsInfo, type WebtoolsMetadata } from "./metadata.ts";
import { errorCodeToWebtools, WebtoolsCode } from "../../errors/webtools-codes.ts";
import { echoed } from "../../internal/echo.ts";

/** The metadata documents, per version and scope set. */
const DOCUMENT = new CacheSlot<Promise<MetadataDocument>>("webtools:metadata");

/** An older version of the tool set, kept for clients that pinned it. */
export interface WebtoolsVersion {
  /** Its version, e.g. `"1.0.0"`; served at `GET {base}/1.0.0` and run with `{ version: "1.0.0" }`. */
  readonly version: string;
  /** Its tools, as they were then (the server's middleware, settings and config schema still apply). */
  readonly tools: readonly AnyTool[];
  /** Its description, when it differs from the latest one. */
  readonly description?: string;
}

/** Options of {@link webtoolsBinding}. */
export interface WebtoolsOptions {
  /** The base path (default `/webtools`). */
  readonly base?: string;
  /** The webtool name (default: the server name). */
  readonly name?: string;
  /** What the webtool does (default: the server's instructions, else its title, else empty). */
  readonly description?: string;
  /** Older versions of the tool set; the latest is the server's own tools at the server's version. */
  readonly versions?: readonly WebtoolsVersion[];
}

interface VersionEntry {
  readonly registry: Registry;
  readonly info: WebtoolsInfo;
}

interface MetadataDocument {
  readonly body: string;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
}

const INTERNAL_BODY = errorBody(WebtoolsCode.InternalError, "Internal error", undefined, "internal");
const ROOT_METHODS = { ...JSON_HEADERS, allow: "GET, HEAD, POST" };
const VERSION_METHODS = { ...JSON_HEADERS, allow: "GET, HEAD" };

/**
 * Creates the Webtools binding, for `createServer({ bindings })`. It is opt-in: a server that does not
 * list it never loads this code and exposes no plain-REST way to run its tools.
 *
 * @param options The base path, the name and description, and the older versions.
 * @returns The binding.
 * @throws {TypeError} When the server is created, if a version is listed twice or equals the server's own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { webtoolsBinding } from "./mod.ts";
 *
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() })).handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "2.0.0", bindings: [webtoolsBinding()] }).tool(add);
 *
 * const meta = await (await server.fetch(new Request("http://localhost/webtools/"))).json();
 * assert.equal(meta.actions[0].name, "add");
 * const response = await server.fetch(new Request("http://localhost/webtools/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ action: "add", request: { a: 1, b: 2 } }),
 * }));
 * assert.deepEqual(await response.json(), { status: "ok", data: { sum: 3 } });
 * ```
 */
export function webtoolsBinding(options: WebtoolsOptions = {}): Binding {
  const base = normalisePath(options.base ?? "/webtools");
  return function webtools(core: ServerCore) {
    return { routes: createWebtoolsRoutes(core, base, options) };
  };
}

function createWebtoolsRoutes(core: ServerCore, base: string, options: WebtoolsOptions): ReadonlyMap<string, Route> {
  const live = registryOf(core);
  const latest = core.options.version;
  const info = (version: string, description?: string): WebtoolsInfo => ({
    name: options.name ?? core.options.name,
    description: description ?? options.description ?? core.options.instructions ?? core.options.title ?? "",
    version,
  });
  const latestEntry: VersionEntry = { registry: live, info: info(latest) };
  const older = new Map<string, VersionEntry>();
  for (const old of options.versions ?? []) {
    if (old.version === latest || older.has(old.version)) {
      throw new TypeError(`webtools: version ${old.version} is listed twice (the latest is the server's ${latest})`);
    }
    // Its own tools (promises of an older version are redeemed by its own `redeem`); the server's runtime.
    const registry = live.fork(old.tools);
    older.set(old.version, { registry, info: info(old.version, old.description) });
  }
  const report = (error: unknown) => live.runtime.onError?.(error);
  const memoKey = `webtools:${base}`;

  function entryFor(version: string | undefined): VersionEntry {
    if (version === undefined || version === latest) return latestEntry;
    const entry = older.get(version);
    if (entry === undefined) {
      throw new ProtocolError("unsupported_version", `Webtool version not found: ${echoed(version)}`, {
        data: { requested_version: version, available_versions: [latest, ...older.keys()] },
      });
    }
    return entry;
  }

  // A caller sees only the actions its scopes allow: one document (and ETag) per scope set, private.
  function documentOf(entry: VersionEntry, auth: AuthInfo | undefined): Promise<MetadataDocument> {
    const registry = registryOf(entry);
    const visible = scoping.visibleTools(registry, auth, memoKey);
    return registry.cached(
      DOCUMENT,
      visible.key,
      () =>
        toDocument(
          buildMetadata(
            entry.info,
            visible.tools().filter(forModel),
            registry.runtime.config,
            registry.runtime.settings,
          ),
          visible.private,
        ),
    );
  }

  // Webtools' metadata is the wire's `tools/list`, for request middleware.
  async function describe(request: Request, version: string | undefined, host: Host): Promise<Response> {
    const entry = entryFor(version);
    const params = version === undefined ? {} : { version };
    const meta: CallMeta = { wire: "webtools", headers: request.headers };
    const listing = { method: "tools/list", params, meta, signal: request, host };
    const document = await runRequest(entry.registry, listing, (ctx) => documentOf(entry, ctx.auth));
    if (matchesEtag(request.headers.get("if-none-match"), document.etag)) {
      return new Response(null, { status: 304, headers: document.headers });
    }
    return new Response(request.method === "HEAD" ? null : document.body, { headers: document.headers });
  }

  async function execute(request: Request, host: Host): Promise<Response> {
    const body = parseExecuteRequest(await readJson(request, core.options));
    const { registry, info } = entryFor(body.version);
    const { config } = body;
    if (config !== undefined && !isObject(config)) {
      throw new ProtocolError("invalid_config", "Invalid config: config must be a JSON object");
    }
    const meta: CallMeta = body.sessionId === undefined
      ? { wire: "webtools", headers: request.headers }
      : { wire: "webtools", headers: request.headers, sessionId: body.sessionId };
    // The caller's config, even none: a missing value it must supply is its error (CONFIG_ERROR), not the server's.
    const supplied = (config ?? {}) as Record<string, unknown>;
    // An unknown action goes through the pipeline too, so that the request middleware (`otel()`, audit
    // logs) sees it as on every other wire; the pipeline refuses it, in this wire's words.
    // An app-only tool is for an MCP App's view (SEP-1865, Visibility), and this wire has no view: to the
    // agent it does not exist, called or listed.
    const tool = registry.get(body.action);
    if (tool !== undefined && !forModel(tool)) throw actionNotFound(body.action);
    const outcome = await runCall(registry, {
      name: body.action,
      arguments: body.request,
      meta,
      signal: request,
      config: supplied,
      host,
    }).catch((error: unknown) => {
      if (
        !(error instanceof ProtocolError && error.code === "unknown_tool") ||
        registry.get(body.action) !== undefined
      ) {
        throw error;
      }
      throw actionNotFound(body.action, error.data);
    });
    return outcomeResponse(outcome, info.version);
  }

  const root: RouteHandler = async function webtoolsRoot(request, host) {
    try {
      if (request.method === "GET" || request.method === "HEAD") return await describe(request, undefined, host);
      if (request.method === "POST") return await execute(request, host);
      return errorResponse(notAllowed("GET, HEAD or POST"), report, ROOT_METHODS);
    } catch (error) {
      return errorResponse(error, report);
    }
  };

  const prefix = base === "/" ? "" : base;
  const served = core.options.basePath + prefix; // the path requests arrive on, under the server's basePath
  const byVersion: RouteHandler = async function webtoolsVersion(request, host) {
    try {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return errorResponse(notAllowed("GET or HEAD"), report, VERSION_METHODS);
      }
      const segment = pathOf(request.url).slice(served.length + 1);
      if (segment.includes("/")) throw new ProtocolError("method_not_found", "No webtool at this path");
      return await describe(request, decodeSegment(segment), host);
    } catch (error) {
      return errorResponse(error, report);
    }
  };

  const refuse = (error: ProtocolError) => errorResponse(error, report);
  return new Map([
    [base, { handle: root, refuse, methods: "GET, HEAD, POST" }],
    [`${prefix}/*`, { handle: byVersion, refuse, methods: "GET, HEAD" }],
  ]);
}

const PUBLIC_DOCUMENT = { ...JSON_HEADERS, "cache-control": "no-cache" };
// A document that depends on the caller's token: no shared cache may keep it (RFC 9111 §5.2.2.7).
const PRIVATE_DOCUMENT = { ...JSON_HEADERS, "cache-control": "private, no-cache", vary: "authorization" };

async function toDocument(metadata: WebtoolsMetadata, personal: boolean): Promise<MetadataDocument> {
  const etag = `"${await metadataHash(metadata)}"`;
  return {
    body: JSON.stringify(metadata),
    etag,
    headers: Object.freeze({ ...(personal ? PRIVATE_DOCUMENT : PUBLIC_DOCUMENT), etag }),
  };
}

function outcomeResponse(outcome: CallOutcome, version: string): Response {
  switch (outcome.kind) {
    case "answer":
      return new Response(okBody(dataFromResult(outcome.result)), { headers: JSON_HEADERS });
    case "failure": // a business failure: the tool ran and said no
      return new Response(
        errorBody(WebtoolsCode.ToolError, failureMessage(outcome.result), outcome.result.structuredContent),
        { status: 422, headers: JSON_HEADERS },
      );
    case "promise": // not done yet: the client redeems the token with the `redeem` action
      return new Response(promiseBody(outcome, version), { status: 202, headers: JSON_HEADERS });
    case "input_required": // never here: this wire opens no input round, so ctx.elicit() and co. refuse first
      return new Response(
        errorBody(
          WebtoolsCode.Unsupported,
          "This tool needs input from the client, which Webtools cannot ask for",
          undefined,
          "missing_capability",
        ),
        {
          status: 501,
          headers: JSON_HEADERS,
        },
      );
    default:
      return assertNever(outcome);
  }
}

function errorResponse(
  error: unknown,
  report: (error: unknown) => unknown,
  headers: Readonly<Record<string, string>> = JSON_HEADERS,
): Response {
  wireErrors.reportDetail(error, report); // the detail an error keeps for logs (a proxy's remote failure)
  // Not raised on purpose: masked, unless `onError` names the error to answer (`{ code, message, data }`).
  const known = raisedHere(error) ? error : wireErrors.replacementError(error, report(error));
  if (known === undefined) return new Response(INTERNAL_BODY, { status: 500, headers });
  const { code, status } = errorCodeToWebtools(known.code);
  const retryAfter = retryAfterOf(known);
  if (retryAfter !== undefined) headers = { ...headers, "retry-after": retryAfter };
  const response = new Response(errorBody(code, known.message, wireErrors.detailsOf(known), servedCode(known.code)), {
    status,
    headers: errorHeaders(status, headers),
  });
  return answersRefusal(response, known); // a refusal for a scope: the edge adds its step-up challenge
}

/** For the agent: a tool it may see and call, not one only an MCP App's view may (SEP-1865, Visibility). */
function forModel(tool: AnyTool): boolean {
  return visibleTo(tool.meta, "model");
}

function actionNotFound(action: string, data?: unknown): ProtocolError {
  return new ProtocolError("unknown_tool", `Webtool action not found: ${echoed(action)}`, { data });
}

function notAllowed(methods: string): ProtocolError {
  return new ProtocolError("method_not_allowed", `Method not allowed: use ${methods}`);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ProtocolError("invalid_request", "The version in the path is not valid percent-encoding");
  }
}
