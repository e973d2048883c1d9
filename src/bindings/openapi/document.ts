/**
 * The OpenAPI 3.1 document of a server's tools (OpenAPI Specification 3.1.1): one
 * `POST {base}/tools/{name}` operation per tool, its request body the tool's input JSON Schema and its
 * 200 response the output schema (or `text/plain` for a text result), errors as RFC 9457 problems, the
 * promise polling path of long-running tools, and the server's `auth` as a bearer security scheme with
 * each tool's `.scopes()`.
 *
 * @module
 */
import type { AnyTool, JsonSchema } from "../../core/mod.ts";
import type { ResolvedOptions } from "../../server/mod.ts";
import { PROBLEM_TYPE } from "./problem.ts";

/** The `info` object of the document (OpenAPI 3.1.1 §4.8.2); the server's name, version and instructions by default. */
export interface OpenApiInfo {
  /** The API's title (default: the server's title, else its name). */
  title?: string;
  /** The API's version (default: the server's version). */
  version?: string;
  /** What the API does (default: the server's instructions). */
  description?: string;
  /** A short summary. */
  summary?: string;
  /** Other members of the Info Object (`contact`, `license`, `termsOfService`, `x-…`). */
  [key: string]: unknown;
}

/** A Server Object (OpenAPI 3.1.1 §4.8.5): where the API is reached. */
export interface OpenApiServer {
  /** The URL; the paths of the document are relative to it. */
  url: string;
  /** What this server is. */
  description?: string;
}

/** What the document is built from, besides the tools. */
export interface DocumentSource {
  /** The full path of the binding's base (the server's `basePath` included), e.g. `/api`. */
  readonly base: string;
  /** The server's resolved options. */
  readonly server: ResolvedOptions;
  /** The `info` overrides. */
  readonly info: OpenApiInfo | undefined;
  /** The servers, if given. */
  readonly servers: readonly OpenApiServer[] | undefined;
}

const BEARER = "bearer";
const problemRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/**
 * Builds the OpenAPI 3.1 document of a set of tools.
 *
 * @param source The base path, the server's options and the overrides.
 * @param tools The tools the caller may see, in registration order.
 * @returns The document, a plain JSON object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { resolveOptions } from "../../server/server-options.ts";
 * import { buildOpenApiDocument } from "./document.ts";
 * const add = defineTool("add").input(v.object({ a: v.number() })).handle(({ a }) => `${a}`);
 * const server = resolveOptions({ name: "math", version: "1.0.0" });
 * const doc = buildOpenApiDocument({ base: "/api", server, info: undefined, servers: undefined }, [add]);
 * assert.equal(doc.openapi, "3.1.1");
 * assert.ok("/api/tools/add" in (doc.paths as object));
 * ```
 */
export function buildOpenApiDocument(source: DocumentSource, tools: Iterable<AnyTool>): Record<string, unknown> {
  const { server, base } = source;
  const prefix = base === "/" ? "" : base;
  const auth = server.auth;
  const paths: Record<string, unknown> = {};
  let longRunning = false;
  for (const tool of tools) {
    if (tool.category === "system") continue; // `redeem` is the polling path below, not an operation
    paths[`${prefix}/tools/${tool.name}`] = { post: operationOf(tool, auth !== undefined) };
    if (tool.longRunning !== undefined) longRunning = true;
  }
  if (longRunning) paths[`${prefix}/promises/{token}`] = { get: pollOperation(auth !== undefined) };
  const info = {
    title: server.title ?? server.name,
    version: server.version,
    ...(server.instructions === undefined ? {} : { description: server.instructions }),
    ...(server.icons === undefined ? {} : logoOf(server.icons)),
    ...source.info,
  };
  const document: Record<string, unknown> = { openapi: "3.1.1", info };
  if (source.servers !== undefined) document.servers = source.servers.map((s) => ({ ...s }));
  document.paths = paths;
  document.components = components(auth);
  if (auth !== undefined) document.security = [{ [BEARER]: [...(auth.requiredScopes ?? [])] }];
  return document;
}

function operationOf(tool: AnyTool, authenticated: boolean): Record<string, unknown> {
  const operation: Record<string, unknown> = { operationId: tool.name };
  const summary = tool.title ?? firstLine(tool.description);
  if (summary !== undefined) operation.summary = summary;
  if (tool.description !== undefined) operation.description = tool.description;
  operation.requestBody = { required: true, content: { "application/json": { schema: tool.input.jsonSchema } } };
  const responses: Record<string, unknown> = { "200": successResponse(tool) };
  if (tool.longRunning !== undefined) responses["202"] = { $ref: "#/components/responses/Accepted" };
  responses["400"] = problemRef("BadRequest");
  if (authenticated) {
    responses["401"] = problemRef("Unauthorized");
    responses["403"] = problemRef("Forbidden");
  }
  responses["404"] = problemRef("NotFound");
  responses["422"] = problemRef("UnprocessableContent");
  responses["429"] = problemRef("TooManyRequests");
  responses["500"] = problemRef("InternalError");
  operation.responses = responses;
  // OpenAPI 3.1.1 §4.8.30: for a non-OAuth scheme the array may list role names; here, the scopes.
  if (authenticated && tool.scopes !== undefined) operation.security = [{ [BEARER]: [...tool.scopes] }];
  if (tool.annotations !== undefined) operation["x-mcp-annotations"] = tool.annotations;
  if (tool.icons !== undefined) operation["x-icons"] = tool.icons; // MCP's `Icon`s, as listed on MCP
  return operation;
}

/**
 * The server's icons in the Info Object: every one as `x-icons` (MCP's `Icon`), and the first one drawn
 * for a light background (or for any) as `x-logo`, the extension Redoc and its kin show.
 */
function logoOf(icons: readonly { src: string; theme?: string }[]): Record<string, unknown> {
  const logo = icons.find((icon) => icon.theme !== "dark") ?? icons[0];
  return logo === undefined ? {} : { "x-logo": { url: logo.src }, "x-icons": icons };
}

function successResponse(tool: AnyTool): Record<string, unknown> {
  const content: Record<string, unknown> = tool.output === undefined
    ? {
      "text/plain": { schema: { type: "string" } },
      "application/json": { schema: { description: "The tool's JSON value, or { content: [...] } for media" } },
    }
    : { "application/json": { schema: tool.output.jsonSchema } };
  if (tool.mode === "stream") {
    // A streaming tool answers `Accept: text/event-stream` with its partials, then its result.
    content["text/event-stream"] = {
      schema: { type: "string", description: "`partial` events, then one `result` or `error` event" },
    };
  }
  return { description: "The tool's result", content };
}

function pollOperation(authenticated: boolean): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    "200": {
      description: "The result of the long-running call",
      content: {
        "application/json": { schema: { description: "The tool's result" } },
        "text/plain": { schema: { type: "string" } },
      },
    },
    "202": { $ref: "#/components/responses/Accepted" },
    "400": problemRef("BadRequest"),
  };
  if (authenticated) responses["401"] = problemRef("Unauthorized");
  responses["404"] = problemRef("NotFound");
  responses["422"] = problemRef("UnprocessableContent");
  responses["500"] = problemRef("InternalError");
  return {
    operationId: "pollPromise",
    summary: "Polls a long-running call",
    description: "Answers the result once the work is done, else 202 again with when to ask next (Retry-After).",
    parameters: [{
      name: "token",
      in: "path",
      required: true,
      description: "The promise token of a 202 answer",
      schema: { type: "string" },
    }],
    responses,
  };
}

function components(auth: ResolvedOptions["auth"]): Record<string, unknown> {
  const problemResponse = (description: string) => ({
    description,
    content: { [PROBLEM_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } } },
  });
  const responses: Record<string, unknown> = {
    Accepted: {
      description: "Not done yet: poll the Location after Retry-After seconds",
      headers: {
        Location: { description: "Where to poll", schema: { type: "string" } },
        "Retry-After": { description: "Seconds to wait before polling", schema: { type: "integer" } },
      },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Accepted" } } },
    },
    BadRequest: problemResponse("Invalid arguments (the failing paths in `errors`) or an invalid request"),
    Unauthorized: problemResponse("No valid access token (see WWW-Authenticate)"),
    Forbidden: problemResponse("The token lacks a scope this needs (see WWW-Authenticate)"),
    NotFound: problemResponse("No such tool, or an unknown promise"),
    UnprocessableContent: problemResponse("The tool ran and reported a failure"),
    TooManyRequests: {
      ...problemResponse("Too many requests: retry after Retry-After seconds"),
      headers: { "Retry-After": { schema: { type: "integer" } } },
    },
    InternalError: problemResponse("The server failed"),
  };
  const schemas: Record<string, JsonSchema> = { Problem: PROBLEM_SCHEMA, Accepted: ACCEPTED_SCHEMA };
  const result: Record<string, unknown> = { schemas, responses };
  if (auth !== undefined) {
    result.securitySchemes = {
      [BEARER]: {
        type: "http",
        scheme: "bearer",
        description: `An OAuth 2.1 access token for ${auth.resource}, from ${
          auth.authorizationServers.join(", ")
        } (discovery: RFC 9728 Protected Resource Metadata at /.well-known/oauth-protected-resource)`,
      },
    };
  }
  return result;
}

const STRING: JsonSchema = { type: "string" };
const INTEGER: JsonSchema = { type: "integer" };
const DATE_TIME: JsonSchema = { type: "string", format: "date-time" };

/** The members RFC 9457 §3.1 defines. */
const PROBLEM_MEMBERS: Record<string, JsonSchema> = { type: STRING, title: STRING, status: INTEGER, detail: STRING };

/** RFC 9457 §3.1, with this SDK's extension members. */
const PROBLEM_SCHEMA: JsonSchema = {
  type: "object",
  required: ["type", "title", "status", "detail"],
  properties: {
    ...PROBLEM_MEMBERS,
    code: { type: "string", description: "The SDK's error code, e.g. invalid_arguments or tool_error" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: { pointer: { type: "string" }, detail: { type: "string" } },
      },
    },
    data: { description: "Structured details that are safe to show" },
  },
};

const ACCEPTED_SCHEMA: JsonSchema = {
  type: "object",
  required: ["token", "location", "retryAfterMs", "expiresAt"],
  properties: {
    token: STRING,
    location: STRING,
    retryAfterMs: INTEGER,
    expiresAt: DATE_TIME,
    estimatedCompletion: DATE_TIME,
  },
};

function firstLine(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text.split("\n", 1)[0].trim();
  return line === "" ? undefined : line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
