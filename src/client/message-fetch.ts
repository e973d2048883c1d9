/**
 * The client's message middleware over HTTP (`MessageMiddleware`): a `fetch` around the one the transports send
 * through, so every MCP request they POST (2026-07-28 and the 2025 session alike) passes the middleware going out,
 * and every message of the answer (a JSON body, each event of an SSE stream, the 2025 GET stream) coming in. A
 * request that carries no JSON-RPC message (MCP-lite's, OAuth's) passes untouched. Loaded on demand: a client
 * without middleware never loads it.
 *
 * @module
 */
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";
import {
  eventsThrough,
  internalError,
  isMessage,
  isRequest,
  isResponse,
  type Message,
  through,
  Trail,
} from "../message-middleware/chain.ts";
import type { FetchLike } from "./http.ts";

/**
 * Wraps a fetch so that the JSON-RPC messages it carries pass the middleware.
 *
 * @param fetch The fetch the requests go through.
 * @param chain The middleware, outermost first.
 * @returns The fetch with the middleware.
 */
export function fetchThrough(fetch: FetchLike, chain: readonly MessageMiddleware[]): FetchLike {
  const trail = new Trail();
  const send: FetchLike = async (request) => {
    const posted = request.method === "POST";
    let sent = request;
    if (posted) {
      const text = await request.text();
      let messages: unknown;
      try {
        messages = JSON.parse(text);
      } catch { /* not JSON: as it is */ }
      const list = Array.isArray(messages) ? messages : [messages];
      if (!list.every((m) => isMessage(m) && m.jsonrpc === "2.0")) {
        return await fetch(new Request(request, { body: text }));
      }
      const passed: Message[] = [];
      for (const message of list as Message[]) {
        const info = { direction: "out", transport: "http", method: trail.methodOf(message, "out") } as const;
        await through(chain, message, info, (m) => void passed.push(m)); // a throw fails the request
      }
      if (passed.length === 0) return new Response(null, { status: 202 });
      sent = new Request(request, { body: JSON.stringify(Array.isArray(messages) ? passed : passed[0]) });
    } else if (request.method !== "GET") {
      return await fetch(request); // the 2025 session's DELETE
    }
    const response = await fetch(sent);
    // A server's request (2025) answered by a middleware, or failed by one: the answer goes back in a POST of its
    // own, the middleware's through the middleware going out.
    const reply = async (message: Message, answer: Message, passing: boolean) => {
      if (!isRequest(message)) return;
      const headers = new Headers(request.headers);
      headers.set("content-type", "application/json");
      headers.set("accept", "application/json, text/event-stream");
      const post = new Request(request.url, { method: "POST", headers, body: JSON.stringify(answer) });
      await (await (passing ? send : fetch)(post)).body?.cancel();
    };
    const inbound = async (message: Message, transport: "http" | "sse"): Promise<Message | undefined> => {
      let kept: Message | undefined;
      try {
        const info = { direction: "in", transport, method: trail.methodOf(message, "in") } as const;
        const early = await through(chain, message, info, (m) => void (kept = m));
        if (early !== undefined) void reply(message, { jsonrpc: "2.0", ...early, id: message.id }, true).catch(noop);
      } catch {
        if (isResponse(message)) return internalError(message.id); // the request fails
        void reply(message, internalError(message.id), false).catch(noop);
      }
      return kept;
    };
    const type = response.headers.get("content-type") ?? "";
    if (response.body !== null && type.startsWith("text/event-stream")) {
      return new Response(eventsThrough(response.body, (m) => inbound(m, "sse")), response);
    }
    if (!posted || !type.includes("json")) return response;
    const body = await response.text();
    let replies: unknown;
    try {
      replies = JSON.parse(body);
    } catch {
      return new Response(body, response);
    }
    const kept: unknown[] = [];
    for (const reply of Array.isArray(replies) ? replies : [replies]) {
      const passedIn = isMessage(reply) && reply.jsonrpc === "2.0" ? await inbound(reply, "http") : reply;
      if (passedIn !== undefined) kept.push(passedIn);
    }
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    const out = Array.isArray(replies) ? JSON.stringify(kept) : kept.length === 0 ? null : JSON.stringify(kept[0]);
    return new Response(out, { status: response.status, statusText: response.statusText, headers });
  };
  return send;
}

function noop(): void {}
