/**
 * Message middleware on a connection (stdio, a WebSocket; `MessageMiddleware`): every message the client sends
 * passes it before MCP or MCP-lite takes it, and every message the server writes passes it before the wire (below the
 * connection's budget of calls, which counts what the server's carriers answered). Each direction is one lane: its
 * messages pass one at a time, in order. Brought by the feature of an extension with middleware
 * (`src/message-middleware/message-feature.ts`): a server without any bundles none of it.
 *
 * @module
 */
import type { MessageMiddleware } from "./message-middleware.ts";
import { internalError, isRequest, isResponse, lane, type Message, Trail } from "./chain.ts";

/** Where a connection's messages go: `MessageOut` of `src/stdio/message-out.ts`, which this folder does not import. */
interface MessageOut {
  send(message: string): void;
  flush(): Promise<void>;
}

/** A connection's message middleware: where its messages come in, and the output they go out through. */
export interface ConnectionMessages extends MessageOut {
  /**
   * Takes a parsed message from the client.
   *
   * @param message The message (a JSON object).
   */
  receive(message: Message): void;
}

/**
 * Runs a connection's messages through the middleware.
 *
 * @param chain The middleware, outermost first.
 * @param sink The connection's output.
 * @param transport `stdio` or `websocket`.
 * @param handle Hands an incoming message to the server (its budget, then MCP or MCP-lite).
 * @param refuse The error answer (MCP's codes) to a request whose middleware threw; reports the error.
 * @param report Reports an error that is not answered.
 * @returns The connection's middleware.
 */
export function connectionMessages(
  chain: readonly MessageMiddleware[],
  sink: MessageOut,
  transport: "stdio" | "websocket",
  handle: (message: Message) => void,
  refuse: (id: string | number, error: unknown) => string,
  report: (error: unknown) => void,
): ConnectionMessages {
  const trail = new Trail();
  const outbound = lane(chain, transport, "out", trail, (message) => sink.send(JSON.stringify(message)), (m, e) => {
    report(e);
    // A response the client awaits still comes; a question to the client fails its asker as if answered so.
    if (isResponse(m)) sink.send(JSON.stringify(internalError(m.id)));
    else if (isRequest(m)) handle(internalError(m.id));
  });
  const inbound = lane(chain, transport, "in", trail, handle, (m, e) => {
    if (isRequest(m)) sink.send(refuse(m.id as string | number, e));
    else {
      report(e);
      if (isResponse(m)) handle(internalError(m.id));
    }
  }, (response) => outbound.take(response));
  return {
    receive: (message) => inbound.take(message),
    send: (text) => outbound.take(JSON.parse(text)),
    flush: () => outbound.idle.then(() => sink.flush()),
  };
}
