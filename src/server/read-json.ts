/**
 * The shared preamble of every JSON POST: content type, bounded body, safe parse.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/error.ts";
import { readBody } from "./read-body.ts";
import { checkParsedJson, parseJson } from "./parse-json.ts";
import type { ResolvedOptions } from "./binding.ts";

/**
 * Tells whether a `Content-Type` value is JSON (`application/json`, with or without parameters, or
 * any `+json` type).
 *
 * @param contentType The header value.
 * @returns `true` for JSON.
 */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === "application/json") return true; // what nearly every client sends
  const semi = contentType.indexOf(";");
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads and parses a JSON request body within the server's limits.
 *
 * @param request The request.
 * @param options The limits.
 * @returns The parsed body.
 * @throws {ProtocolError} `unsupported_media_type`, `payload_too_large` or `parse_error`.
 */
export async function readJson(request: Request, options: ResolvedOptions): Promise<unknown> {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) {
    throw new ProtocolError(
      ErrorCode.UnsupportedMediaType,
      `Unsupported Content-Type ${JSON.stringify(contentType ?? "")}: send application/json`,
    );
  }
  const declared = request.headers.get("content-length");
  const length = declared === null ? NaN : Number(declared);
  if (length <= DIRECT_PARSE_BYTES && length <= options.maxBodyBytes) {
    // A small body of known length: the runtime parses the bytes itself (on Bun, without making a
    // string first), and the value is checked after; its size bounds what parsing it can cost.
    let value: unknown;
    try {
      value = await request.json();
    } catch {
      throw new ProtocolError(ErrorCode.ParseError, "Parse error: the body is not valid JSON");
    }
    return checkParsedJson(value, options.maxJsonDepth);
  }
  // Larger (or chunked) bodies are read within the limit and scanned for depth before parsing.
  return parseJson(await readBody(request, options.maxBodyBytes), options.maxJsonDepth);
}

/** Bodies up to this size (with a `Content-Length`) are parsed by the runtime directly. */
const DIRECT_PARSE_BYTES = 64 * 1024;

/**
 * Tells whether the client accepts an SSE response.
 *
 * @param request The request.
 * @returns `true` when `Accept` lists `text/event-stream`.
 */
export function acceptsEventStream(request: Request): boolean {
  const accept = request.headers.get("accept");
  return accept !== null && accept.includes("text/event-stream");
}
