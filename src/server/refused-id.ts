/**
 * The JSON-RPC id of a request the gate refused before its route read it, so that the refusal answers
 * that id (JSON-RPC 2.0 §5: the response's id is the request's; `null` only when it could not be read).
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import { readBody } from "./read-body.ts";
import { isJsonContentType } from "./read-json.ts";
import { parseJson } from "./parse-json.ts";

/**
 * The largest body read for its id: a refused caller costs at most this much (a declared longer
 * `Content-Length` is not read at all; a body of unknown length stops being read past it).
 */
const MAX_BYTES = 16 * 1024;
/** The longest the body may take to arrive before the refusal goes out without its id, in ms. */
const MAX_MS = 500;
/** The nesting a refused body may have; deeper is not parsed. */
const MAX_DEPTH = 32;

/**
 * Reads the id of a refused JSON-RPC request, cheaply and within bounds: a `POST` with a JSON body of
 * at most 16 KiB that arrives within 500 ms. Anything else (a larger or slower body, a batch, a body
 * that is not JSON-RPC) gives `null`, as before the body was read.
 *
 * @param request The refused request (its body unread).
 * @returns Its id, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusedRequestId } from "./refused-id.ts";
 * const post = (body: string) =>
 *   new Request("http://localhost/mcp", { method: "POST", headers: { "content-type": "application/json" }, body });
 * assert.equal(await refusedRequestId(post('{"jsonrpc":"2.0","id":7,"method":"tools/list"}')), 7);
 * assert.equal(await refusedRequestId(post('[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]')), null);
 * ```
 */
export async function refusedRequestId(request: Request): Promise<string | number | null> {
  if (request.method !== "POST" || !isJsonContentType(request.headers.get("content-type"))) return null;
  try {
    const message = parseJson(await readBody(request, { maxBodyBytes: MAX_BYTES, bodyTimeoutMs: MAX_MS }), MAX_DEPTH);
    if (!isObject(message) || message.jsonrpc !== "2.0") return null;
    const id = message.id;
    return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
  } catch {
    return null; // unreadable: answered as before, with a null id
  }
}
