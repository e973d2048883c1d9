/**
 * The shared preamble of every JSON POST: content type, bounded body, safe parse.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { readBodyThen } from "./read-body.ts";
import { parseJson } from "./parse-json.ts";
import type { ResolvedOptions } from "./binding-contract.ts";
import { echoed } from "../internal/echo.ts";

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
 * Reads and parses a JSON request body within the server's limits: its type, size, arrival time,
 * encoding (UTF-8) and nesting depth.
 *
 * @param request The request.
 * @param options The limits.
 * @returns The parsed body (`__proto__` keys dropped).
 * @throws {ProtocolError} `unsupported_media_type`, `payload_too_large`, `request_timeout` or `parse_error`.
 */
export async function readJson(request: Request, options: ResolvedOptions): Promise<unknown> {
  return await readJsonNow(request, options);
}

/**
 * {@link readJson} without a promise where the runtime already holds the body (Bun): the parsed
 * body itself, or a promise of it while the body is read. JSON never parses to a promise, so
 * `instanceof Promise` tells the two apart. It may throw synchronously.
 *
 * @param request The request.
 * @param options The limits.
 * @returns The parsed body, or a promise of it.
 * @throws {ProtocolError} As {@link readJson}.
 */
export function readJsonNow(request: Request, options: ResolvedOptions): unknown {
  checkJsonType(request);
  const depth = options.maxJsonDepth;
  return readBodyThen(request, options, (text) => parseJson(text, depth));
}

/** Refuses a body that is not JSON by its `Content-Type`. */
function checkJsonType(request: Request): void {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) {
    throw new ProtocolError(
      "unsupported_media_type",
      `Unsupported Content-Type ${echoed(JSON.stringify(contentType ?? ""))}: send application/json`,
    );
  }
}

/**
 * Answers a JSON POST: its body read ({@link readJsonNow}) and handed to `answer`, anything thrown or
 * rejected on the way handed to `failed`. No promise where nothing is pending: a body the runtime
 * already holds (Bun) and an `answer` given at once make a `Response` at once.
 *
 * @param request The request.
 * @param options The limits.
 * @param notPost What a method other than POST is refused with.
 * @param answer The answer to the parsed body.
 * @param failed The answer to an error.
 * @returns The response, or a promise of it.
 */
export function answerJson(
  request: Request,
  options: ResolvedOptions,
  notPost: Error,
  answer: (body: unknown) => Response | Promise<Response>,
  failed: (error: unknown) => Response,
): Response | Promise<Response> {
  try {
    if (request.method !== "POST") throw notPost;
    checkJsonType(request);
    // Text first: as fast as the runtime's own `json()`, and it lets the encoding and the nesting be
    // checked before parsing (a too-deep body is refused without being built). What `answer` throws
    // goes to `failed` in the same step; only an answer still pending needs a catch.
    const depth = options.maxJsonDepth;
    return readBodyThen(request, options, (text) => {
      const answered = answer(parseJson(text, depth));
      return answered instanceof Promise ? answered.catch(failed) : answered;
    }, failed);
  } catch (error) {
    return failed(error);
  }
}

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
