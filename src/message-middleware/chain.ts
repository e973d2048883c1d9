/**
 * Running message middleware (`MessageMiddleware`): one message through a chain, the method a response answers,
 * and what stands in for a message whose middleware threw. Shared by every place messages pass, on the server
 * (HTTP, a connection) and on the client (HTTP, a connection); loaded only where middleware is given.
 *
 * @module
 */
import type { MessageMiddleware } from "./message-middleware.ts";

/** A parsed JSON-RPC message. */
export type Message = Record<string, unknown>;
/** What a middleware is told of a message. */
export type MessageInfo = Parameters<MessageMiddleware>[1];

/**
 * Runs a message through the chain.
 *
 * @param chain The middleware, outermost first.
 * @param message The message.
 * @param info Its direction, transport and method.
 * @param last Receives the message that reaches the end of the chain (the SDK, or the wire).
 * @returns The response a middleware answered with, when the message never reached `last`.
 * @throws What a middleware threw.
 */
export async function through(
  chain: readonly MessageMiddleware[],
  message: Message,
  info: MessageInfo,
  last: (message: Message) => unknown,
): Promise<Message | undefined> {
  let reached = false;
  const layer = async (i: number, passed: Message): Promise<Message | undefined> => {
    if (i === chain.length) {
      reached = true;
      await last(passed);
      return undefined;
    }
    let inner: Message | undefined;
    const own = await chain[i](passed, info, async (next = passed) => inner = await layer(i + 1, next as Message));
    return isMessage(own) && !reached ? own : inner;
  };
  const answer = await layer(0, message);
  return reached || !isResponse(answer) ? undefined : answer;
}

/**
 * Tells whether a message is a response (a result or an error, no method).
 *
 * @param message The message.
 * @returns Whether it is one.
 */
export function isResponse(message: unknown): boolean {
  return isMessage(message) && !("method" in message) && ("result" in message || "error" in message);
}

/**
 * Tells whether a value is a JSON object (what a message is); no import of `is-object.ts`, so that a client's
 * split build keeps that one in its entry chunk.
 *
 * @param value The value.
 * @returns Whether it is one.
 */
export function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Tells whether a message is a request (a method and an id).
 *
 * @param message The message.
 * @returns Whether it is one.
 */
export function isRequest(message: Message): boolean {
  return typeof message.method === "string" && message.id !== undefined && message.id !== null;
}

/**
 * A JSON-RPC internal error (-32603) answering a message's id, as the SDK masks an error (`data.code: "internal"`): what stands in for a response whose middleware
 * threw, or answers a request whose middleware threw. The error's own words stay out of it (they go to the
 * server's `onError`).
 *
 * @param id The id.
 * @returns The error response.
 */
export function internalError(id: unknown): Message {
  return { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error", data: { code: "internal" } } };
}

/**
 * The method of each request in flight on one connection or exchange, in both directions, so that a response
 * is told with the method of the request it answers.
 */
export class Trail {
  readonly #asked = new Map<string, string>();

  /**
   * Tells a message's method, remembering a request's (a response forgets the request it answers).
   *
   * @param message The message.
   * @param direction Which way it goes.
   * @returns Its method; for a response, the request's, if it passed here.
   */
  methodOf(message: Message, direction: "in" | "out"): string | undefined {
    const asked = this.#asked;
    if (typeof message.method === "string") {
      if (isRequest(message)) {
        if (asked.size >= 4096) asked.delete(asked.keys().next().value!); // never answered (cancelled): bounded
        asked.set(direction + JSON.stringify(message.id), message.method);
      }
      return message.method;
    }
    const key = (direction === "in" ? "out" : "in") + JSON.stringify(message.id);
    const method = asked.get(key);
    asked.delete(key);
    return method;
  }
}

/**
 * One direction of a connection: its messages pass the chain one at a time, in order.
 *
 * @param chain The middleware.
 * @param transport What carries the messages.
 * @param direction Which way they go.
 * @param trail The connection's trail of requests.
 * @param last Receives what reaches the end of the chain.
 * @param failed Receives the message whose middleware threw, with the error.
 * @param answered Receives the response a middleware answered an incoming request with.
 * @returns What takes each message.
 */
export function lane(
  chain: readonly MessageMiddleware[],
  transport: MessageInfo["transport"],
  direction: "in" | "out",
  trail: Trail,
  last: (message: Message) => unknown,
  failed: (message: Message, error: unknown) => void,
  answered?: (response: Message) => void,
): { take(message: Message): void; readonly idle: Promise<void> } {
  let queue = Promise.resolve();
  return {
    take(message) {
      queue = queue.then(async () => {
        try {
          const info = { direction, transport, method: trail.methodOf(message, direction) };
          const answer = await through(chain, message, info, last);
          if (answer !== undefined && isRequest(message)) answered?.({ ...answer, id: message.id });
        } catch (error) {
          failed(message, error);
        }
      });
    },
    get idle() {
      return queue;
    },
  };
}

/**
 * Passes the JSON-RPC messages an SSE stream carries through `each`, in order (one event at a time); other events
 * (comments, keep-alives, data that is no JSON-RPC message) pass as they are.
 *
 * @param body The stream.
 * @param each Passes one message; `undefined` drops its event.
 * @returns The stream with what passed.
 */
export function eventsThrough(
  body: ReadableStream<Uint8Array>,
  each: (message: Message) => Promise<Message | undefined>,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = "";
  const pass = async (frame: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    const lines = frame.split(/\r?\n/);
    const data = lines.filter((line) => line.startsWith("data:"));
    let message: unknown;
    try {
      message = JSON.parse(data.map((line) => line.slice(line[5] === " " ? 6 : 5)).join("\n"));
    } catch { /* not JSON: as it is */ }
    if (isMessage(message) && message.jsonrpc === "2.0") {
      const sent = await each(message);
      if (sent === undefined) return;
      frame = [...lines.filter((line) => !line.startsWith("data:")), `data: ${JSON.stringify(sent)}`].join("\n");
    }
    controller.enqueue(encoder.encode(frame + "\n\n"));
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        const frames = (rest + decoder.decode(chunk, { stream: true })).split(/\r?\n\r?\n/);
        rest = frames.pop()!;
        for (const frame of frames) await pass(frame, controller);
      },
      async flush(controller) {
        if (rest.trim() !== "") await pass(rest, controller);
      },
    }),
  );
}
