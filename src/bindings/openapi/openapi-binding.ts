/**
 * The OpenAPI binding: `GET {base}/openapi.json` describes the server's tools as an OpenAPI 3.1 REST
 * API, `POST {base}/tools/{name}` runs one through the same gate and pipeline as every wire, and
 * `GET {base}/promises/{token}` polls a long-running call. Errors are RFC 9457 problems.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import {
  type AuthInfo,
  CacheSlot,
  type CallMeta,
  type CallOutcome,
  type Registry,
  registryOf,
  runCall,
  runRequest,
  scoping,
} from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { canonicalHash } from "../../internal/canonical-json.ts";
import { echoed } from "../../internal/echo.ts";
import { visibleTo } from "../../internal/mcp-apps-wire.ts";
import { createSseStream } from "../../internal/sse.ts";
import { pathOf } from "../../internal/url.ts";
import {
  acceptsEventStream,
  answersRefusal,
  type Binding,
  type Host,
  JSON_HEADERS,
  matchesEtag,
  normalisePath,
  readJson,
  type Route,
  type RouteHandler,
  type ServerCore,
  sseResponse,
} from "../../server/mod.ts";
import { dataFromResult, failureMessage } from "../result-data.ts";
import { buildOpenApiDocument, type OpenApiInfo, type OpenApiServer } from "./document.ts";
import { problem, problemOf, problemResponse } from "./problem.ts";

/** The documents, per scope set; rebuilt on each change of the tool set. */
const DOCUMENT = new CacheSlot<Promise<ServedDocument>>("openapi:document");

/** Options of {@link openapiBinding}. */
export interface OpenApiOptions {
  /** The base path (default `/api`): the document is at `{base}/openapi.json`, the tools at `{base}/tools/{name}`. */
  readonly base?: string;
  /** Members of the document's `info` (default: the server's title or name, version and instructions). */
  readonly info?: OpenApiInfo;
  /** The document's `servers`, e.g. `[{ url: "https://api.example.com" }]` (default: none, the document's own origin). */
  readonly servers?: readonly OpenApiServer[];
}

interface ServedDocument {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly etag: string;
}

const PUBLIC_DOCUMENT = { ...JSON_HEADERS, "cache-control": "no-cache" };
// A document that depends on the caller's token: no shared cache may keep it (RFC 9111 §5.2.2.7).
const PRIVATE_DOCUMENT = { ...JSON_HEADERS, "cache-control": "private, no-cache", vary: "authorization" };
const TEXT_HEADERS = { "content-type": "text/plain; charset=utf-8" };

/**
 * Creates the OpenAPI binding, for `createServer({ bindings })`. It is opt-in: a server that does not
 * list it never loads this code.
 *
 * @param options The base path, and the document's `info` and `servers`.
 * @returns The binding.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { openapiBinding } from "./openapi-binding.ts";
 *
 * const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() })).handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0", bindings: [openapiBinding({ base: "/api" })] })
 *   .tool(add);
 *
 * const doc = await (await server.fetch(new Request("http://localhost/api/openapi.json"))).json();
 * assert.equal(doc.paths["/api/tools/add"].post.operationId, "add");
 * const response = await server.fetch(new Request("http://localhost/api/tools/add", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ a: 1, b: 2 }),
 * }));
 * assert.deepEqual(await response.json(), { sum: 3 });
 * ```
 */
export function openapiBinding(options: OpenApiOptions = {}): Binding {
  const base = normalisePath(options.base ?? "/api");
  return function openapi(core: ServerCore) {
    return { routes: createOpenApiRoutes(core, base, options) };
  };
}

function createOpenApiRoutes(core: ServerCore, base: string, options: OpenApiOptions): ReadonlyMap<string, Route> {
  const { options: server } = core;
  const registry = registryOf(core);
  const prefix = base === "/" ? "" : base;
  const served = server.basePath + prefix; // the path requests arrive on, under the server's basePath
  const report = (error: unknown) => registry.runtime.onError?.(error);
  const fail = (error: unknown, extra: Readonly<Record<string, string>> = {}) => {
    const { body, headers } = problemOf(error, report);
    return answersRefusal(problemResponse(body, { ...headers, ...extra }), error);
  };
  const source = { base: served || "/", server, info: options.info, servers: options.servers };
  const memoKey = `openapi:${base}`;

  // A caller sees only the tools its scopes allow: one document (and ETag) per scope set.
  function documentOf(auth: AuthInfo | undefined): Promise<ServedDocument> {
    const visible = scoping.visibleTools(registry, auth, memoKey);
    return registry.cached(DOCUMENT, visible.key, async () => {
      const document = buildOpenApiDocument(source, visible.tools().filter((tool) => visibleTo(tool.meta, "model")));
      const etag = `"${await canonicalHash(document)}"`;
      const headers = Object.freeze({ ...(visible.private ? PRIVATE_DOCUMENT : PUBLIC_DOCUMENT), etag });
      return { body: JSON.stringify(document), headers, etag };
    });
  }

  /** A route answering `methods` (405 with `Allow` otherwise), every error a problem. */
  const answering = (methods: string, run: RouteHandler): RouteHandler => {
    const allowed = methods.split(", ");
    return async function openapiRoute(request, host) {
      if (!allowed.includes(request.method)) return fail(notAllowed(methods), { allow: methods });
      try {
        return await run(request, host);
      } catch (error) {
        return fail(error);
      }
    };
  };
  const metaOf = (request: Request): CallMeta => ({ wire: "openapi", headers: request.headers });

  // The document is the wire's `tools/list`, for request middleware.
  const describe = answering("GET, HEAD", async (request, host) => {
    const listing = { method: "tools/list", params: {}, meta: metaOf(request), signal: request, host };
    const document = await runRequest(registry, listing, (ctx) => documentOf(ctx.auth));
    if (matchesEtag(request.headers.get("if-none-match"), document.etag)) {
      return new Response(null, { status: 304, headers: document.headers });
    }
    return new Response(request.method === "HEAD" ? null : document.body, { headers: document.headers });
  });

  const callTool = answering("POST", async (request, host) => {
    const name = segmentAfter(request.url, `${served}/tools/`);
    const tool = registry.get(name);
    // An app-only tool is for an MCP App's view (SEP-1865, Visibility), which this API has none of: to its
    // clients it does not exist, listed or called (as in the document above).
    if (tool !== undefined && !visibleTo(tool.meta, "model")) {
      throw new ProtocolError("unknown_tool", `Tool not found: ${echoed(name)}`);
    }
    const args = await argumentsOf(request, core);
    if (tool?.mode === "stream" && acceptsEventStream(request)) {
      return streamCall(registry, core, request, host, name, args);
    }
    const outcome = await runCall(registry, { name, arguments: args, meta: metaOf(request), signal: request, host });
    return outcomeResponse(outcome, served);
  });

  // Redeeming is the `redeem` system tool's work (MCP-lite spec v0.042 §3.6), on this wire a GET.
  const poll = answering("GET", async (request, host) => {
    const promise = segmentAfter(request.url, `${served}/promises/`);
    const call = { name: "redeem", arguments: { promise }, meta: metaOf(request), signal: request, host };
    return outcomeResponse(await runCall(registry, call), served);
  });

  const refuse = (error: ProtocolError) => fail(error);
  return new Map<string, Route>([
    [`${prefix}/openapi.json`, { handle: describe, refuse, methods: "GET, HEAD" }],
    [`${prefix}/tools/*`, { handle: callTool, refuse, methods: "POST" }],
    [`${prefix}/promises/*`, { handle: poll, refuse, methods: "GET" }],
  ]);
}

/** The arguments: the JSON body; no body at all is no arguments (a tool without input). */
async function argumentsOf(request: Request, core: ServerCore): Promise<unknown> {
  if (request.body === null || request.headers.get("content-length") === "0") return {};
  return await readJson(request, core.options);
}

function outcomeResponse(outcome: CallOutcome, served: string): Response {
  switch (outcome.kind) {
    case "answer":
      return answerResponse(outcome.result.structuredContent, dataFromResult(outcome.result));
    case "failure": // a business failure: the tool ran and said no
      return problemResponse(
        problem(422, "tool_error", failureMessage(outcome.result), outcome.result.structuredContent),
      );
    case "promise": {
      const location = `${served}/promises/${encodeURIComponent(outcome.token)}`;
      const body: Record<string, unknown> = {
        token: outcome.token,
        location,
        retryAfterMs: outcome.retryAfterMs,
        expiresAt: outcome.expiresAt,
      };
      if (outcome.estimatedCompletion !== undefined) body.estimatedCompletion = outcome.estimatedCompletion;
      return new Response(JSON.stringify(body), {
        status: 202,
        headers: { ...JSON_HEADERS, location, "retry-after": String(Math.ceil(outcome.retryAfterMs / 1000)) },
      });
    }
    case "input_required": // this wire opens no input round, so ctx.elicit() and co. refuse first
      return problemResponse(
        problem(
          501,
          "missing_capability",
          "This tool needs input from the client, which plain HTTP cannot ask for",
        ),
      );
    default:
      return assertNever(outcome);
  }
}

/** A text result is `text/plain`; anything else is its JSON value. */
function answerResponse(structured: unknown, data: unknown): Response {
  if (structured === undefined && typeof data === "string") return new Response(data, { headers: TEXT_HEADERS });
  return new Response(JSON.stringify(data), { headers: JSON_HEADERS });
}

/**
 * A streaming tool asked for `text/event-stream`: each partial is a `partial` event, then one `result`
 * event (the body a plain call would answer, as JSON), or an `error` event with the problem.
 */
function streamCall(
  registry: Registry,
  core: ServerCore,
  request: Request,
  host: Host,
  name: string,
  args: unknown,
): Response {
  const cancel = new AbortController();
  const signal = AbortSignal.any([request.signal, cancel.signal]);
  const meta: CallMeta = { wire: "openapi", headers: request.headers };
  const body = createSseStream(async (writer) => {
    try {
      const outcome = await runCall(registry, {
        name,
        arguments: args,
        meta,
        signal,
        host,
        onPartial: (partial) => writer.event(JSON.stringify(partial), "partial"),
      });
      if (outcome.kind === "answer") writer.event(JSON.stringify(dataFromResult(outcome.result)), "result");
      else writer.event(await outcomeResponse(outcome, "").text(), "error");
    } catch (error) {
      writer.event(JSON.stringify(problemOf(error, (e) => registry.runtime.onError?.(e)).body), "error");
    }
  }, { heartbeatMs: core.options.heartbeatMs, onCancel: () => cancel.abort(new Error("the client went away")) });
  return sseResponse(body);
}

function segmentAfter(url: string, prefix: string): string {
  const segment = pathOf(url).slice(prefix.length);
  if (segment === "" || segment.includes("/")) {
    throw new ProtocolError("method_not_found", "No operation at this path");
  }
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ProtocolError("invalid_request", "The path is not valid percent-encoding");
  }
}

function notAllowed(methods: string): ProtocolError {
  return new ProtocolError("method_not_allowed", `Method not allowed: use ${methods.replace(", ", " or ")}`);
}
