/**
 * An imported operation's call: the HTTP request built from the arguments (path templating, query
 * serialization per `style`, `explode` and `allowReserved`, headers, a JSON, form or multipart body;
 * OpenAPI 3.1.0 §4.8.12.4, §4.8.15), and the response turned into a result (2xx JSON structured, other
 * statuses `isError` with the status and the message the body carries).
 *
 * @module
 */
import { fail, type ToolResult } from "../../core/results/result.ts";
import { isObject } from "../../internal/is-object.ts";
import type { OperationInput } from "./operation-input.ts";
import { WRAPPED_KEY } from "./operation-output.ts";
import { encodeBody, isJsonMediaType } from "./request-body.ts";
import { type DeepObjectArrays, percentEncode, scalarText, styledPairs } from "./serialize.ts";

/**
 * Builds the request of a call.
 *
 * @param baseUrl Where the API is, e.g. `https://api.example.com/v1`.
 * @param method The HTTP method.
 * @param path The path template, e.g. `/repos/{owner}/{repo}`.
 * @param input Where each argument goes.
 * @param args The (validated) arguments.
 * @param headers The configured headers (credentials), which the operation's header parameters join.
 * @param arrays How `deepObject` writes arrays, which OpenAPI leaves undefined.
 * @returns The URL and the request init.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequest } from "./http-call.ts";
 * const input = { schema: {}, mediaType: undefined, encoding: {}, forwardsUnknown: false, slots: [
 *   { key: "id", in: "path", name: "id", style: "simple", explode: false, allowReserved: false },
 *   { key: "tag", in: "query", name: "tag", style: "form", explode: true, allowReserved: false },
 * ] } as const;
 * const { url } = buildRequest("http://api.test/v1", "get", "/pets/{id}", input, { id: "a b", tag: ["x", "y"] }, new Headers());
 * assert.equal(url, "http://api.test/v1/pets/a%20b?tag=x&tag=y");
 * ```
 */
export function buildRequest(
  baseUrl: string,
  method: string,
  path: string,
  input: OperationInput,
  args: Record<string, unknown>,
  headers: Headers,
  arrays: DeepObjectArrays = "indexed",
): { url: string; init: RequestInit } {
  let resolved = path;
  const query: string[] = [];
  const body: Record<string, unknown> = {};
  let whole: unknown;
  let hasBody = false;
  for (const slot of input.slots) {
    const value = args[slot.key];
    if (value === undefined) continue;
    switch (slot.in) {
      case "path":
        resolved = resolved.replaceAll(`{${slot.name}}`, simple(value, slot.explode));
        break;
      case "query":
        query.push(...styledPairs(slot.name, value, slot, arrays));
        break;
      case "header":
        headers.set(slot.name, simple(value, slot.explode, false));
        break;
      case "bodyProperty":
        body[slot.name] = value;
        hasBody = true;
        break;
      case "body":
        whole = value;
        hasBody = true;
        break;
    }
  }
  if (input.forwardsUnknown) {
    // What no slot names (the schema let it through) joins the object body, as given.
    const named = new Set(input.slots.map((slot) => slot.key));
    for (const [key, value] of Object.entries(args)) {
      if (named.has(key) || value === undefined) continue;
      body[key] = value;
      hasBody = true;
    }
  }
  const url = baseUrl.replace(/\/+$/, "") + resolved + (query.length > 0 ? `?${query.join("&")}` : "");
  const init: RequestInit = { method: method.toUpperCase(), headers };
  if (hasBody && input.mediaType !== undefined) {
    const encoded = encodeBody(input.mediaType, whole !== undefined ? whole : body, input.encoding, arrays);
    headers.set("content-type", encoded.contentType);
    init.body = encoded.body;
  }
  if (!headers.has("accept")) headers.set("accept", "application/json, application/problem+json;q=0.9, */*;q=0.8");
  return { url, init };
}

/** `simple` style (path and header parameters): `a,b,c`; an object `k,v,k,v`, or `k=v,k=v` exploded. */
function simple(value: unknown, explode: boolean, encode = true): string {
  const e = encode ? percentEncode : (s: string) => s;
  if (Array.isArray(value)) return value.map((v) => e(scalarText(v))).join(",");
  if (isObject(value)) {
    return Object.entries(value).map(([k, v]) =>
      explode ? `${e(k)}=${e(scalarText(v))}` : `${e(k)},${e(scalarText(v))}`
    ).join(",");
  }
  return e(scalarText(value));
}

/**
 * Turns a response into what the tool answers: a 2xx JSON body its value (an object becomes the
 * structured result), a text body its text, no body an empty result; any other status a failure that
 * names the status and the message the body carries ({@link messageOf}), else the body's text. With an
 * `output`, a 2xx answers the structured result of the tool's output schema, or a tool error (`structuredResult`).
 *
 * @param response The API's response.
 * @param output How a tool that lists an output schema answers a 2xx response.
 * @returns The handler's return value.
 */
export async function resultFromResponse(
  response: Response,
  output?: ResponseOutput,
): Promise<ToolResult | unknown> {
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (response.ok && output !== undefined) {
    return structuredResult(response.status, isJsonMediaType(type) ? text : "", output);
  }
  const json = isJsonMediaType(type) && text !== "" ? parseOrText(text) : undefined;
  if (response.ok) {
    if (json !== undefined) return json;
    return text === "" ? `${response.status} ${response.statusText}`.trim() : text;
  }
  const detail = messageOf(json) ?? (text.slice(0, 2000) || response.statusText);
  const structured: Record<string, unknown> = { status: response.status };
  if (json !== undefined) structured.body = json;
  return fail(`HTTP ${response.status}: ${detail}`, structured);
}

/** What a tool that lists an output schema answers a 2xx response with (see operation-output.ts). */
export interface ResponseOutput {
  /** Whether the body answers as `{ result: body }`. */
  readonly wrapped: boolean;
  /** The status of the documented response, for messages. */
  readonly status: string;
  /** Checks the structured result against the output schema (`outputSchemas: "enforce"`); none: not checked. */
  readonly check?: (value: unknown) => { path: string; message: string } | undefined;
}

/**
 * The structured result of a 2xx response, or a tool error saying why there is none that conforms: MCP 2025-11-25,
 * Tools, Output Schema: "Servers MUST provide structured results that conform to this schema". An error result
 * (`isError`) is exempt, and says what the API answered instead of what its document promised.
 */
function structuredResult(status: number, jsonText: string, output: ResponseOutput): ToolResult | unknown {
  const documented = `the ${output.status} response the operation documents`;
  let body: unknown;
  try {
    body = jsonText === "" ? undefined : JSON.parse(jsonText);
  } catch {
    body = undefined;
  }
  if (body === undefined) {
    return fail(`HTTP ${status}: the response has no JSON body, unlike ${documented}`, { status });
  }
  if (!output.wrapped && !isObject(body)) {
    return fail(`HTTP ${status}: the response body is not a JSON object, unlike ${documented}`, { status, body });
  }
  const value = output.wrapped ? { [WRAPPED_KEY]: body } : body;
  const mismatch = output.check?.(value);
  if (mismatch === undefined) return value;
  const at = mismatch.path === "" ? "" : ` at ${mismatch.path}`;
  return fail(`HTTP ${status}: the response does not match ${documented}${at}: ${mismatch.message}`, {
    status,
    body,
  });
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

/**
 * The human-readable message of an error body, in the shapes APIs commonly use: an RFC 9457 problem's
 * `detail` (else its `title`), a nested `{"error": {"message"}}` (Stripe; Microsoft Graph's
 * `{"error": {"code", "message"}}`), a top-level `message` (GitHub), OAuth 2.0's `error_description`
 * (RFC 6749 §5.2), a string `error`, or the first of an `errors` array's messages.
 *
 * @param body The parsed JSON body.
 * @returns The message, or `undefined` when the body has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messageOf } from "./http-call.ts";
 * assert.equal(messageOf({ error: { type: "invalid_request_error", message: "No such customer" } }), "No such customer");
 * assert.equal(messageOf({ error: "invalid_token", error_description: "The token expired" }), "The token expired");
 * assert.equal(messageOf({ type: "about:blank", title: "Not Found", status: 404 }), "Not Found");
 * ```
 */
export function messageOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const nested = isObject(body.error) ? body.error : undefined;
  const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
  return nonEmpty(body.detail) ?? nonEmpty(nested?.message) ?? nonEmpty(body.message) ??
    nonEmpty(body.error_description) ??
    nonEmpty(nested?.detail) ?? nonEmpty(body.title) ?? nonEmpty(body.error) ??
    (isObject(first) ? nonEmpty(first.message) ?? nonEmpty(first.detail) : nonEmpty(first));
}
