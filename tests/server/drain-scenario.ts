/**
 * What tests/server/drain.test.ts tries on each runtime (Bun and Deno in its own process, Node 22 through
 * ./drain-node.ts): a server on 127.0.0.1 with a `subscriptions/listen` stream and an `events/stream` push stream
 * open, read by raw fetch and an SSE reader, then `listener.close()` (or `server.drain()`), bounded by a 10 s timer.
 */
import { createServer, serve } from "../../mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { SECRET, shipped } from "../events/shipped-event.ts";
import { readSse } from "../helpers/sse.ts";

/** A JSON-RPC message read from a stream. */
export type Message = { id?: unknown; method?: string; params?: any; result?: any; error?: unknown };

/** What one stream's client read: its messages, and whether its body ended. */
export interface Read {
  readonly messages: Message[];
  readonly ended: boolean;
}

/** What a scenario saw. */
export interface DrainReport {
  /** `"resolved"`, or `"pending after 10 s"`. */
  readonly closed: string;
  /** The `subscriptions/listen` stream. */
  readonly listen: Read;
  /** The `events/stream` push stream. */
  readonly push: Read;
}

/** How long a close (or a drain) may take before the scenario says it hangs. */
const BOUND_MS = 10_000;

/** An SSE answer read as a client reads it: each `data:` frame one JSON-RPC message, until the body ends. */
export class StreamReader {
  readonly messages: Message[] = [];
  ended = false;
  readonly done: Promise<void>;
  /** Who waits for a message (`next`): woken as each is read. */
  readonly #waiting = new Set<() => void>();

  constructor(response: Response) {
    // The bound of a read is BOUND_MS (`read()`); the parser's own, longer, never cuts first.
    this.done = readSse(response, 6 * BOUND_MS, (event) => {
      if (event.data !== "") this.messages.push(JSON.parse(event.data));
      for (const wake of this.#waiting) wake();
    }).then(() => void (this.ended = true), () => {}); // cut: `ended` stays false
  }

  /** Waits (at most 10 s) for a message `test` takes, as each is read. */
  next(test: (message: Message) => boolean): Promise<Message> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const found = this.messages.find(test);
        if (found === undefined) return;
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(wake);
        reject(new Error(`no such message within ${BOUND_MS} ms; got ${JSON.stringify(this.messages)}`));
      }, BOUND_MS);
      this.#waiting.add(wake);
      wake();
    });
  }

  /** What was read, once the body ended (at most 10 s). */
  async read(): Promise<Read> {
    await bounded(this.done);
    return { messages: this.messages, ended: this.ended };
  }
}

/** `work`'s outcome within 10 s: `"resolved"`, or `"pending after 10 s"`. */
export async function bounded(work: Promise<unknown>): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => timer = setTimeout(() => resolve("pending after 10 s"), BOUND_MS));
  try {
    return await Promise.race([work.then(() => "resolved"), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A server with the MCP binding and one event (its push streams' heartbeats every 300 ms). */
export function drainServer() {
  return createServer({ name: "drained", version: "1.0.0", secret: SECRET, events: { heartbeatMs: 300 } })
    .event(shipped);
}

/** Opens a `subscriptions/listen` stream (id `sub-1`) and waits for its acknowledgement. */
export async function openListen(url: string, id: string | number = "sub-1"): Promise<StreamReader> {
  const request = modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }, id);
  const stream = new StreamReader(await fetch(`${url}/mcp`, request));
  await stream.next((m) => m.method === "notifications/subscriptions/acknowledged");
  return stream;
}

/** Opens an `events/stream` push stream (id `push-1`) and waits for its `active`. */
export async function openPush(url: string, id: string | number = "push-1"): Promise<StreamReader> {
  const params = { name: "order.shipped", arguments: { customerId: "c1" }, cursor: null };
  const request = modernRequest("events/stream", params, id);
  const stream = new StreamReader(await fetch(`${url}/mcp`, request));
  await stream.next((m) => m.method === "notifications/events/active");
  return stream;
}

/**
 * Serves, opens both streams, and closes the listener while their clients still read.
 *
 * @param httpServer Which HTTP server listens (`serve()`'s option).
 * @returns What the close and each client saw.
 */
export async function closeWhileListening(httpServer: "native" | "node:http" = "native"): Promise<DrainReport> {
  const listener = await serve(drainServer(), { port: 0, hostname: "127.0.0.1", quiet: true, httpServer });
  const listen = await openListen(listener.url);
  const push = await openPush(listener.url);
  const closed = await bounded(listener.close());
  return { closed, listen: await listen.read(), push: await push.read() };
}
