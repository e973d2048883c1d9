/**
 * An imported operation's call: the HTTP request built from the arguments (path templating, query
 * serialisation per `style` and `explode`, headers, a JSON or form body; OpenAPI 3.1.1 §4.8.12.4), and
 * the response turned into a result (2xx JSON structured, other statuses `isError` with the status and
 * the problem detail, RFC 9457).
 *
 * @module
 */
import { fail, type ToolResult } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { type InputSlot, isJsonMediaType, type OperationInput } from "./operation-input.ts";

/**
 * Builds the request of a call.
 *
 * @param baseUrl Where the API is, e.g. `https://api.example.com/v1`.
 * @param method The HTTP method.
 * @param path The path template, e.g. `/repos/{owner}/{repo}`.
 * @param input Where each argument goes.
 * @param args The (validated) arguments.
 * @param headers The configured headers (credentials), which the operation's header parameters join.
 * @returns The URL and the request init.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequest } from "./http-call.ts";
 * const input = { schema: {}, mediaType: undefined, slots: [
 *   { key: "id", in: "path", name: "id", style: "simple", explode: false },
 *   { key: "tag", in: "query", name: "tag", style: "form", explode: true },
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
        query.push(...queryPairs(slot, value));
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
  const url = baseUrl.replace(/\/+$/, "") + resolved + (query.length > 0 ? `?${query.join("&")}` : "");
  const init: RequestInit = { method: method.toUpperCase(), headers };
  if (hasBody && input.mediaType !== undefined) {
    const payload = whole !== undefined ? whole : body;
    headers.set("content-type", input.mediaType);
    if (isJsonMediaType(input.mediaType)) init.body = JSON.stringify(payload);
    else if (input.mediaType === "application/x-www-form-urlencoded" && isObject(payload)) {
      init.body = new URLSearchParams(Object.entries(payload).map(([k, v]) => [k, scalar(v)])).toString();
    } else init.body = typeof payload === "string" ? payload : JSON.stringify(payload);
  }
  if (!headers.has("accept")) headers.set("accept", "application/json, application/problem+json;q=0.9, */*;q=0.8");
  return { url, init };
}

const enc = encodeURIComponent;

function scalar(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `simple` style (path and header parameters): `a,b,c`; an object `k,v,k,v`, or `k=v,k=v` exploded. */
function simple(value: unknown, explode: boolean, encode = true): string {
  const e = encode ? enc : (s: string) => s;
  if (Array.isArray(value)) return value.map((v) => e(scalar(v))).join(",");
  if (isObject(value)) {
    return Object.entries(value).map(([k, v]) => explode ? `${e(k)}=${e(scalar(v))}` : `${e(k)},${e(scalar(v))}`)
      .join(",");
  }
  return e(scalar(value));
}

/** Query pairs per style: `form` (exploded: repeated keys), `spaceDelimited`, `pipeDelimited`, `deepObject`. */
function queryPairs(slot: InputSlot, value: unknown): string[] {
  const name = enc(slot.name);
  if (Array.isArray(value)) {
    if (slot.explode) return value.map((v) => `${name}=${enc(scalar(v))}`);
    const separator = slot.style === "spaceDelimited" ? "%20" : slot.style === "pipeDelimited" ? "|" : ",";
    return [`${name}=${value.map((v) => enc(scalar(v))).join(separator)}`];
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (slot.style === "deepObject") return entries.map(([k, v]) => `${name}%5B${enc(k)}%5D=${enc(scalar(v))}`);
    if (slot.explode) return entries.map(([k, v]) => `${enc(k)}=${enc(scalar(v))}`);
    return [`${name}=${entries.map(([k, v]) => `${enc(k)},${enc(scalar(v))}`).join(",")}`];
  }
  return [`${name}=${enc(scalar(value))}`];
}

/**
 * Turns a response into what the tool answers: a 2xx JSON body its value (an object becomes the
 * structured result), a text body its text, no body an empty result; any other status a failure that
 * names the status and the detail of the problem (RFC 9457) or the body's text.
 *
 * @param response The API's response.
 * @returns The handler's return value.
 */
export async function resultFromResponse(response: Response): Promise<ToolResult | unknown> {
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  const json = isJsonMediaType(type) && text !== "" ? parseOrText(text) : undefined;
  if (response.ok) {
    if (json !== undefined) return json;
    return text === "" ? `${response.status} ${response.statusText}`.trim() : text;
  }
  const detail = isObject(json)
    ? String(json.detail ?? json.message ?? json.title ?? text)
    : text.slice(0, 2000) || response.statusText;
  const structured: Record<string, unknown> = { status: response.status };
  if (json !== undefined) structured.body = json;
  return fail(`HTTP ${response.status}: ${detail}`, structured);
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
