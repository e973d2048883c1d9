/**
 * An OpenAPI 3.1.0 document that declares each serialization the specification defines, for the
 * encoding tests of `toolsFromOpenAPI()` (against a recording mock, and Prism): query parameter styles
 * (§4.8.12.4), a form body with Encoding Objects (§4.8.15), a multipart body, a closed JSON body, and
 * errors in the shapes APIs commonly nest them. And a recording HTTP server to send it to.
 */
import type { Listener } from "../../src/types.ts";
import { serve } from "../../mod.ts";

const string = { type: "string" };
const ok = {
  "200": {
    description: "OK",
    content: {
      "application/json": {
        schema: { type: "object", properties: { id: string }, required: ["id"] },
        example: { id: "ok_1" },
      },
    },
  },
};

/** The document: `createCustomer` (form), `search` (query), `uploadFile` (multipart), `createUser` (JSON), `failWith`. */
export const ENCODINGS_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Encodings", version: "1.0.0" },
  paths: {
    "/v1/customers": {
      post: {
        operationId: "createCustomer",
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                additionalProperties: false,
                required: ["email"],
                properties: {
                  email: string,
                  metadata: { type: "object", additionalProperties: string },
                  address: { type: "object", properties: { city: string, line1: string } },
                  line_items: {
                    type: "array",
                    items: { type: "object", properties: { price: string, quantity: { type: "integer" } } },
                  },
                  expand: { type: "array", items: string },
                  tags: { type: "array", items: string },
                  note: { type: "object", properties: { text: string } },
                },
              },
              encoding: {
                metadata: { style: "deepObject", explode: true },
                address: { style: "deepObject", explode: true },
                line_items: { style: "deepObject", explode: true },
                expand: { style: "deepObject", explode: true },
                tags: { style: "form", explode: false },
              },
            },
          },
        },
        responses: ok,
      },
    },
    "/v1/search": {
      get: {
        operationId: "search",
        parameters: [
          { name: "ids", in: "query", style: "form", explode: false, schema: { type: "array", items: string } },
          { name: "tag", in: "query", schema: { type: "array", items: string } },
          {
            name: "words",
            in: "query",
            style: "spaceDelimited",
            explode: false,
            schema: { type: "array", items: string },
          },
          {
            name: "colors",
            in: "query",
            style: "pipeDelimited",
            explode: false,
            schema: { type: "array", items: string },
          },
          {
            name: "point",
            in: "query",
            style: "form",
            explode: false,
            schema: { type: "object", properties: { x: string, y: string } },
          },
          {
            name: "filter",
            in: "query",
            style: "deepObject",
            explode: true,
            schema: { type: "object", properties: { status: string, min: string } },
          },
          { name: "next", in: "query", allowReserved: true, schema: string },
        ],
        responses: ok,
      },
    },
    "/v1/files": {
      post: {
        operationId: "uploadFile",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                additionalProperties: false,
                properties: {
                  name: string,
                  meta: { type: "object", properties: { author: string } },
                  parts: { type: "array", items: string },
                  labels: { type: "object", additionalProperties: string },
                },
              },
              encoding: { labels: { style: "deepObject", explode: true } },
            },
          },
        },
        responses: ok,
      },
    },
    "/v1/users": {
      post: {
        operationId: "createUser",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: false,
                required: ["email"],
                properties: { email: string, name: string },
              },
            },
          },
        },
        responses: ok,
      },
    },
    "/v1/errors/{shape}": {
      get: {
        operationId: "failWith",
        parameters: [{ name: "shape", in: "path", required: true, schema: string }],
        responses: ok,
      },
    },
  },
};

/** A request the recording server received. */
export interface Recorded {
  readonly method: string;
  /** The path and query, as sent (still percent-encoded). */
  readonly url: string;
  readonly contentType: string | null;
  readonly body: string;
}

/** Error bodies by shape, as `GET /v1/errors/{shape}` answers them (status 401). */
export const ERROR_BODIES: Readonly<Record<string, unknown>> = {
  stripe: { error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_***" } },
  graph: { error: { code: "InvalidAuthenticationToken", message: "Access token is empty." } },
  github: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" },
  oauth: { error: "invalid_token", error_description: "The access token expired" },
  problem: { type: "https://example.com/probs/auth", title: "Unauthorized", status: 401, detail: "Token revoked" },
};

/**
 * Starts an HTTP server on 127.0.0.1 that records every request and answers `{"id":"ok_1"}`, or, under
 * `/v1/errors/{shape}`, 401 with that shape's error body.
 */
export async function recordingServer(): Promise<{ listener: Listener; seen: Recorded[] }> {
  const seen: Recorded[] = [];
  const listener = await serve({
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        url: url.pathname + url.search,
        contentType: request.headers.get("content-type"),
        body: await request.text(),
      });
      const shape = /^\/v1\/errors\/(\w+)$/.exec(url.pathname)?.[1];
      if (shape !== undefined) {
        const type = shape === "problem" ? "application/problem+json" : "application/json";
        return new Response(JSON.stringify(ERROR_BODIES[shape]), { status: 401, headers: { "content-type": type } });
      }
      return Response.json({ id: "ok_1" });
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  return { listener, seen };
}
