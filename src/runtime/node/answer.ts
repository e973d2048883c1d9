/**
 * One Node request answered by a fetch handler: the `Request` built, the handler called, the `Response`
 * written; the request's `signal` aborts when the client goes away before the answer is written (an
 * SSE stream's call is cancelled, as on Deno and Bun).
 *
 * @module
 */
import type { Fetchable, Lent } from "../listen-types.ts";

/** What {@link answerNode} is lent: `serve()`'s `Lent`, or `nodeHandler()`'s own. */
export type AnswerLent = Pick<Lent, "markBounded" | "unrefTimer" | "concatBytes">;
import { bodyConsumed, requestFromNode } from "./incoming-request.ts";
import { lingerOnClose } from "./linger-close.ts";
import { writeResponse } from "./outgoing-response.ts";
import type { NodeRequest, NodeResponse } from "./node-types.ts";

/**
 * Answers a Node request with a fetch handler.
 *
 * @param app The fetch handler.
 * @param incoming The Node request.
 * @param res The Node response.
 * @param path The path and query the handler sees.
 * @param lent What it shares with the server (`serve()` and `nodeHandler()` lend it).
 * @param body The body a framework already read and handed over, or undefined.
 * @returns When the answer is written (or the client went away).
 */
export async function answerNode(
  app: Fetchable,
  incoming: NodeRequest,
  res: NodeResponse,
  path: string,
  lent: AnswerLent,
  body?: unknown,
): Promise<void> {
  if (bodyConsumed(incoming, body)) return writeResponse(consumed(), res);
  let abort: AbortController | undefined;
  let gone = false;
  const reason = () => new DOMException("the client went away", "AbortError");
  res.once("close", () => {
    if (res.writableFinished) return;
    gone = true;
    abort?.abort(reason());
  });
  const signal = () => {
    abort = new AbortController();
    if (gone) abort.abort(reason());
    return abort.signal;
  };
  // A small body usually comes with the head: the parser hands it over once this turn of the loop ends.
  if (incoming.method !== "GET" && incoming.method !== "HEAD" && incoming.complete !== true) await null;
  let response: Response;
  try {
    response = await app.fetch(requestFromNode(incoming, path, signal, lent, body));
  } catch {
    response = new Response("Internal Server Error", { status: 500 });
  }
  // A body the handler left unread (over the limit, a stalled sender, refused) is not waited for: the
  // connection closes, lingering so that the answer reaches the client (RFC 9112 §9.6).
  const unread = incoming.complete === false;
  if (unread) lingerOnClose(incoming, lent.unrefTimer);
  await writeResponse(response, res, unread, incoming.method === "HEAD");
}

/** The answer to a request whose body a framework read and did not hand over: what to do, not a hang. */
function consumed(): Response {
  return new Response(
    "nodeHandler(): the request's body was already read (by the framework's body parser) and not handed over. " +
      "Pass it as the third argument, as the parser left it: nodeHandler(server)(request.raw, reply.raw, request.body) " +
      "in Fastify, nodeHandler(server)(ctx.req, ctx.res, ctx.request.body) in Koa; or mount nodeHandler() ahead of " +
      'the body parser (the guide "Mounting in frameworks" shows each framework).',
    { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } },
  );
}
