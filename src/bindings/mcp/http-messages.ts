/**
 * Message middleware over HTTP (`MessageMiddleware`; MCP 2026-07-28 and 2025-11-25, Streamable HTTP): the
 * messages a POST carries (one, or a 2025-03-26 batch) pass it before the MCP binding takes them, and the messages
 * of the answer pass it before they go out: a JSON answer's, and each that an SSE answer carries, in order. The
 * binding itself is untouched: a server without middleware never comes here, nor bundles this file (the feature of
 * an extension with middleware brings it, `src/message-middleware/message-feature.ts`).
 *
 * @module
 */
import { acceptsEventStream, answersRefusal, type Host, JSON_HEADERS, refusalAnswered } from "../../server/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import {
  eventsThrough,
  internalError,
  isRequest,
  isResponse,
  type Message,
  through,
  Trail,
} from "../../message-middleware/chain.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";
import { jsonRpcErrorMessage, jsonRpcErrorResponse } from "../jsonrpc-error.ts";
import { respondBatch } from "./batch.ts";
import { SESSION_HEADER } from "./envelope.ts";
import type { McpContext } from "./mcp-request.ts";
import type { MessageMiddleware } from "../../message-middleware/message-middleware.ts";
import { respondHttp } from "./reply.ts";

/** The server's questions to its clients (2025 revisions), whose answers come in POSTs of their own (pure: a bundle
 * that imports the module without the binding, as the lite entry does, drops it). */
const ASKED = /* @__PURE__ */ new Trail();

/**
 * Answers one POST of the MCP binding through the server's message middleware.
 *
 * @param ctx The binding.
 * @param http The HTTP request.
 * @param host What the platform handed `fetch` besides the request.
 * @param body The decoded body: a message, or a batch.
 * @param chain The middleware, outermost first.
 * @returns The response.
 */
export async function respondThrough(
  ctx: McpContext,
  http: Request,
  host: Host,
  body: unknown,
  chain: readonly MessageMiddleware[],
): Promise<Response> {
  const report = ctx.report;
  const trail = new Trail();
  const batch = Array.isArray(body);
  const passed: unknown[] = [];
  const answers: Message[] = [];
  const refused: string[] = [];
  for (const message of batch ? body : [body]) {
    if (!isObject(message)) { // not a message: the binding answers it as invalid
      passed.push(message);
      continue;
    }
    const method = (isResponse(message) ? ASKED : trail).methodOf(message, "in");
    try {
      const answer = await through(chain, message, { direction: "in", transport: "http", method }, (m) => {
        passed.push(m);
      });
      if (answer !== undefined && isRequest(message)) answers.push({ jsonrpc: "2.0", ...answer, id: message.id });
    } catch (error) {
      if (isRequest(message)) {
        if (!batch) return jsonRpcErrorResponse(message.id as string, error, legacyErrorToWire, report);
        refused.push(jsonRpcErrorMessage(message.id as string, error, legacyErrorToWire, report));
      } else {
        report(error);
        if (isResponse(message)) passed.push(internalError(message.id)); // its asker fails
      }
    }
  }
  let response: Response | undefined;
  if (passed.length > 0) {
    try {
      response = batch
        ? await respondBatch(ctx, http, host, passed)
        : await respondHttp(ctx, http, host, passed[0], acceptsEventStream(http));
    } catch (error) {
      response = jsonRpcErrorResponse(null, error, legacyErrorToWire, report);
    }
  }
  const session = http.headers.get(SESSION_HEADER);
  const out = async (message: Message, transport: "http" | "sse"): Promise<Message | undefined> => {
    const method = (isRequest(message) ? ASKED : trail).methodOf(message, "out");
    let sent: Message | undefined;
    try {
      await through(chain, message, { direction: "out", transport, method }, (m) => void (sent = m));
    } catch (error) {
      report(error);
      if (isResponse(message)) return internalError(message.id);
      if (isRequest(message)) ctx.pending.answer(internalError(message.id), session); // its asker fails
    }
    return sent;
  };
  const type = response?.headers.get("content-type") ?? "";
  if (response?.body && type.startsWith("text/event-stream")) {
    return new Response(eventsThrough(response.body, (m) => out(m, "sse")), response);
  }
  let replies: unknown[] = answers;
  let headers = new Headers(JSON_HEADERS);
  let text: string | undefined;
  if (response !== undefined) {
    if (!type.includes("json")) {
      if (answers.length === 0 && refused.length === 0) return response; // 202, 304: no message
    } else {
      text = await response.text();
      const parsed = JSON.parse(text);
      replies = [...(batch ? parsed : [parsed]), ...answers];
      headers = new Headers(response.headers);
      headers.delete("content-length");
    }
  }
  const sent: string[] = [];
  for (const reply of replies) {
    const passedOut = isObject(reply) ? await out(reply, "http") : reply;
    if (passedOut !== undefined) sent.push(JSON.stringify(passedOut));
  }
  sent.push(...refused);
  if (sent.length === 0) return new Response(null, { status: 202 });
  const answer = batch ? `[${sent.join(",")}]` : sent[0];
  if (answer !== text) headers.delete("etag"); // the entity changed
  // A refusal for a scope keeps its mark, for the edge's step-up challenge.
  const refusal = response && refusalAnswered(response);
  return answersRefusal(new Response(answer, { status: response?.status ?? 200, headers }), refusal);
}
