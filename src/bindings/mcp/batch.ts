/**
 * JSON-RPC batches, which only the 2025-03-26 revision allows (a request without `MCP-Protocol-Version`
 * counts as 2025-03-26). Every element is routed like a single message; the answers come back as one
 * JSON array, in order, without streams (so nothing in a batch can ask the client a question).
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import { errorMessage, resultMessage } from "../../internal/jsonrpc.ts";
import { JSON_HEADERS } from "../../server/server-core.ts";
import { errorToWire } from "../jsonrpc-error.ts";
import { META, PROTOCOL_VERSION_HEADER } from "./envelope.ts";
import { type ErrorTarget, route } from "./route.ts";
import { finishResult, runQuietly } from "./reply.ts";
import type { McpContext } from "./request.ts";
import { legacyErrorToWire } from "./status.ts";

/** The one revision whose transport allows batches. */
export const BATCH_VERSION = "2025-03-26";

/**
 * Answers a batch.
 *
 * @param ctx The binding.
 * @param http The HTTP request.
 * @param messages The batch.
 * @returns The array of answers, or 202 when the batch held only notifications and answers.
 * @throws {ProtocolError} `invalid_request` (HTTP 400) for an empty batch, a batch under another
 *   revision, or one carrying a 2026-07-28 envelope.
 */
export async function respondBatch(ctx: McpContext, http: Request, messages: unknown[]): Promise<Response> {
  if (messages.length === 0) throw invalid("an empty batch");
  if (messages.some(carriesModernEnvelope)) throw invalid("a batch of 2026-07-28 requests (that revision has no batches)");
  const header = http.headers.get(PROTOCOL_VERSION_HEADER);
  if (header !== null && header.trim() !== BATCH_VERSION) {
    throw invalid(`a batch under MCP-Protocol-Version ${header} (only ${BATCH_VERSION} allows batches)`);
  }
  const answers = await Promise.all(messages.map((message) => answer(ctx, http, message)));
  const parts = answers.filter((a): a is string => a !== undefined);
  if (parts.length === 0) return new Response(null, { status: 202 });
  return new Response(`[${parts.join(",")}]`, { headers: JSON_HEADERS });
}

async function answer(ctx: McpContext, http: Request, message: unknown): Promise<string | undefined> {
  const target: ErrorTarget = { id: null, table: legacyErrorToWire };
  try {
    if (typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize") {
      throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: initialize must not be part of a batch");
    }
    const routed = await route(ctx, http, message, target, false);
    if (routed === undefined) return undefined;
    const { request, reply } = routed;
    switch (reply.kind) {
      case "cached":
        return `{"jsonrpc":"2.0","id":${JSON.stringify(target.id)},"result":${reply.cached.body}}`;
      case "result":
        return resultMessage(target.id, finishResult(reply.result, request.envelope, ctx.serverInfo));
      case "run":
        return resultMessage(target.id, finishResult(await runQuietly(request, reply), request.envelope, ctx.serverInfo));
      case "listen":
        throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: a stream cannot be part of a batch");
    }
  } catch (error) {
    const isNotification = typeof message === "object" && message !== null && "method" in message && !("id" in message);
    if (isNotification) return undefined;
    const wire = errorToWire(error, target.table, ctx.report);
    return errorMessage(target.id, wire.code, wire.message, wire.data);
  }
}

function carriesModernEnvelope(message: unknown): boolean {
  const params = typeof message === "object" && message !== null ? (message as { params?: unknown }).params : undefined;
  const meta = typeof params === "object" && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  return typeof meta === "object" && meta !== null && META.protocolVersion in meta;
}

function invalid(what: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Invalid Request: ${what}`);
}
