/**
 * JSON-RPC batches, which only the 2025-03-26 revision allows (a request without `MCP-Protocol-Version`
 * counts as 2025-03-26). Every element is routed like a single message; the answers come back as one
 * JSON array, in order, without streams (so nothing in a batch can ask the client a question).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { answersRefusal, type Host, JSON_HEADERS } from "../../server/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { jsonRpcErrorMessage } from "../jsonrpc-error.ts";
import type { Carrier, Exchange, FinishedResult } from "./carrier.ts";
import { dispatch } from "./dispatch.ts";
import { META, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from "./envelope.ts";
import type { McpContext } from "./mcp-request.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";

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
  const carriers = messages.map((message) => new BatchCarrier(http, host, message));
  await Promise.all(carriers.map((carrier) => carrier.run(ctx)));
  const parts = carriers.map((carrier) => carrier.answer).filter((a): a is string => a !== undefined);
  if (parts.length === 0) return new Response(null, { status: 202 });
  const response = new Response(`[${parts.join(",")}]`, { headers: JSON_HEADERS });
  // An element refused for a scope: the batch's response hands that refusal back, for the step-up challenge.
  return answersRefusal(response, carriers.find((carrier) => carrier.refusal !== undefined)?.refusal);
}

/** The carrier of one element of a batch: nothing reaches the client before the answers, in one array. */
class BatchCarrier implements Carrier {
  readonly streaming = false;
  readonly persistent = false;
  readonly session: string | null;
  readonly headers: Headers;
  readonly host: Host;
  /** The element's answer, once given. */
  answer: string | undefined;
  /** What the element was refused with, when it failed. */
  refusal: unknown;
  readonly #http: Request;
  readonly #message: unknown;

  constructor(http: Request, host: Host, message: unknown) {
    this.#http = http;
    this.#message = message;
    this.host = host;
    this.headers = http.headers;
    this.session = http.headers.get(SESSION_HEADER);
  }

  get signal(): AbortSignal {
    return this.#http.signal;
  }

  /** Dispatches the element. */
  run(ctx: McpContext): Promise<void> | undefined {
    const message = this.#message;
    if (isObject(message) && message.method === "initialize") {
      const error = invalid("initialize must not be part of a batch");
      if (!this.#isNotification()) this.answer = jsonRpcErrorMessage(null, error, legacyErrorToWire, ctx.report);
      return undefined;
    }
    return dispatch(ctx, message, this);
  }

  send(_message: string): void {} // never called: the carrier does not stream

  respond(exchange: Exchange, result: FinishedResult): void {
    this.answer = exchange.message(result);
  }

  fail(
    _exchange: Exchange,
    message: string,
    _status: number,
    _headers?: Record<string, string>,
    error?: unknown,
  ): void {
    if (!this.#isNotification()) this.answer = message; // JSON-RPC 2.0 §6: no answer to a notification
    this.refusal = error;
  }

  opened(_session: string): void {} // initialize is refused in a batch

  #isNotification(): boolean {
    const message = this.#message;
    return isObject(message) && "method" in message && !("id" in message);
  }
}

function carriesModernEnvelope(message: unknown): boolean {
  const params = isObject(message) ? message.params : undefined;
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) && META.protocolVersion in meta;
}

function invalid(what: string): ProtocolError {
  return new ProtocolError("invalid_request", `Invalid Request: ${what}`);
}
