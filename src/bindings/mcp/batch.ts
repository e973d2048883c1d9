/**
 * JSON-RPC batches, which only the 2025-03-26 revision allows (a request without `MCP-Protocol-Version`
 * counts as 2025-03-26). Every element is routed like a single message; the answers come back as one
 * JSON array, in order, without streams (so nothing in a batch can ask the client a question).
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import type { Host } from "../../server/binding.ts";
import { JSON_HEADERS } from "../../server/responses.ts";
import { isObject } from "../../internal/is-object.ts";
import { errorMessage, resultMessage } from "../jsonrpc.ts";
import { errorToWire } from "../jsonrpc-error.ts";
import { CachedBody } from "./caching.ts";
import { META, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from "./envelope.ts";
import { finishResult, quietChannel } from "./reply.ts";
import { type McpContext, Subscription } from "./request.ts";
import { type ErrorTarget, route } from "./route.ts";
import { legacyErrorToWire } from "./status.ts";

/** The one revision whose transport allows batches. */
export const BATCH_VERSION = "2025-03-26";

/**
 * Answers a batch.
 *
 * @param ctx The binding.
 * @param http The HTTP request.
 * @param host What the platform handed `fetch` besides the request.
 * @param messages The batch.
 * @returns The array of answers, or 202 when the batch held only notifications and answers.
 * @throws {ProtocolError} `invalid_request` (HTTP 400) for an empty batch, a batch under another
 *   revision, or one carrying a 2026-07-28 envelope.
 */
export async function respondBatch(ctx: McpContext, http: Request, host: Host, messages: unknown[]): Promise<Response> {
  if (messages.length === 0) throw invalid("an empty batch");
  if (messages.some(carriesModernEnvelope)) {
    throw invalid("a batch of 2026-07-28 requests (that revision has no batches)");
  }
  const header = http.headers.get(PROTOCOL_VERSION_HEADER);
  if (header !== null && header.trim() !== BATCH_VERSION) {
    throw invalid(`a batch under MCP-Protocol-Version ${header} (only ${BATCH_VERSION} allows batches)`);
  }
  const answers = await Promise.all(messages.map((message) => answer(ctx, http, host, message)));
  const parts = answers.filter((a): a is string => a !== undefined);
  if (parts.length === 0) return new Response(null, { status: 202 });
  return new Response(`[${parts.join(",")}]`, { headers: JSON_HEADERS });
}

async function answer(ctx: McpContext, http: Request, host: Host, message: unknown): Promise<string | undefined> {
  const target: ErrorTarget = { id: null, table: legacyErrorToWire };
  try {
    if (isObject(message) && message.method === "initialize") {
      throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: initialize must not be part of a batch");
    }
    const transport = {
      headers: http.headers,
      http: true,
      sse: false,
      session: http.headers.get(SESSION_HEADER),
      host,
    };
    const routed = route(ctx, message, transport, target);
    if (routed === undefined) return undefined;
    const { request, method } = routed;
    const result = await method(ctx, request, quietChannel(http, ctx));
    if (result instanceof Subscription) {
      throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: a stream cannot be part of a batch");
    }
    if (result instanceof CachedBody) {
      return `{"jsonrpc":"2.0","id":${JSON.stringify(target.id)},"result":${result.body}}`;
    }
    return resultMessage(target.id, finishResult(result, request.envelope, ctx.serverInfo));
  } catch (error) {
    const isNotification = isObject(message) && "method" in message && !("id" in message);
    if (isNotification) return undefined;
    const wire = errorToWire(error, target.table, ctx.report);
    return errorMessage(target.id, wire.code, wire.message, wire.data);
  }
}

function carriesModernEnvelope(message: unknown): boolean {
  const params = isObject(message) ? message.params : undefined;
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) && META.protocolVersion in meta;
}

function invalid(what: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${what}`);
}
