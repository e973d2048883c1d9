/**
 * A fetch `Request` from Node's `http.IncomingMessage`, made cheaply: an object that is a `Request` whose `method`,
 * `url`, `headers` and `signal` are plain values and whose body, when it arrived with the head, is read straight from
 * the bytes; anything else (`body`, `clone()`, a body still arriving) makes the runtime's own `Request` once and hands
 * over. The `signal` aborts when the client goes away before the answer is written. The global `Request` is left
 * alone. Why: docs/concepts/runtimes.md.
 *
 * @module
 */
import type { NodeRequest } from "./node-types.ts";
import type { Lent } from "../listen-types.ts";

/** `src/runtime/peer.ts`'s `PEER`, the registered symbol under which a listener's own request gives its client's address. */
const PEER: unique symbol = Symbol.for("mcplite.peer") as never;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** What a {@link NodeFetchRequest} holds until (and unless) the runtime's `Request` is made. */
interface Held {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly incoming: NodeRequest;
  /** The whole body, when it had arrived; null: no body (GET, HEAD); undefined: still arriving. */
  readonly bytes: Uint8Array | string | null | undefined;
  readonly signal: () => AbortSignal;
  readonly concatBytes: Lent["concatBytes"];
  madeSignal?: AbortSignal;
  /** The body was read from `bytes`. */
  used: boolean;
  real?: Request;
}

const HELD: unique symbol = Symbol("held");

/** The runtime's `Request` for `held`, made once. */
function real(held: Held): Request {
  if (held.real !== undefined) return held.real;
  const { method, url, headers } = held;
  if (held.bytes === null || held.used) held.real = new Request(url, { method, headers });
  else {
    const body = held.bytes ?? bodyStream(held.incoming);
    held.real = new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
  }
  return held.real;
}

/**
 * The body as bytes, read once; undefined when it must come through the runtime's `Request`. A body
 * still arriving is read whole from the Node stream itself: a `Request` around a `ReadableStream` of
 * it, read back by the runtime, costs a whole-request read on Node more than the rest of the bridge.
 */
function direct(held: Held): Promise<Uint8Array | string> | undefined {
  if (held.real !== undefined) return undefined;
  if (held.used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
  held.used = true;
  return held.bytes === undefined
    ? wholeStream(held.incoming, held.concatBytes)
    : Promise.resolve(held.bytes ?? new Uint8Array());
}

/**
 * The rest of a body still arriving, read to its end. Who reads it whole bounded it first (a declared
 * `Content-Length` within the limit, which Node's parser holds the body to). The client going away
 * before the end rejects, as the runtime's own read does.
 */
function wholeStream(incoming: NodeRequest, concat: Lent["concatBytes"]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0, ended = false;
    incoming.on("data", (chunk: Uint8Array) => {
      chunks.push(chunk);
      size += chunk.byteLength;
    });
    incoming.on("end", () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0] : concat(chunks, size));
    });
    incoming.on("error", reject);
    incoming.on("close", () => ended || reject(new TypeError("terminated: the client went away")));
  });
}

const text = (body: Uint8Array | string) => typeof body === "string" ? body : decoder.decode(body);
const bytes = (body: Uint8Array | string) => typeof body === "string" ? encoder.encode(body) : new Uint8Array(body); // a copy (a Buffer's slice() is a view)

/** A `Request` whose body and runtime object are made only when needed. */
class NodeFetchRequest {
  declare readonly [HELD]: Held;
  constructor(held: Held) {
    Object.defineProperty(this, HELD, { value: held });
  }
  get method(): string {
    return this[HELD].method;
  }
  get url(): string {
    return this[HELD].url;
  }
  get headers(): Headers {
    return this[HELD].headers;
  }
  get signal(): AbortSignal {
    const held = this[HELD];
    return held.madeSignal ??= held.signal();
  }
  /** The client's address, for the server's per-caller budgets (`src/runtime/peer.ts`). */
  get [PEER](): string | undefined {
    return (this[HELD].incoming.socket as { remoteAddress?: string }).remoteAddress;
  }
  get body(): ReadableStream<Uint8Array> | null {
    const held = this[HELD];
    return held.bytes === null && held.real === undefined ? null : real(held).body;
  }
  get bodyUsed(): boolean {
    const held = this[HELD];
    return held.used || (held.real?.bodyUsed ?? false);
  }
  text(): Promise<string> {
    return direct(this[HELD])?.then(text) ?? real(this[HELD]).text();
  }
  json(): Promise<unknown> {
    return direct(this[HELD])?.then((body) => JSON.parse(text(body))) ?? real(this[HELD]).json();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return direct(this[HELD])?.then((body) => bytes(body).buffer as ArrayBuffer) ?? real(this[HELD]).arrayBuffer();
  }
  bytes(): Promise<Uint8Array> {
    return direct(this[HELD])?.then(bytes) ??
      (real(this[HELD]) as Request & { bytes(): Promise<Uint8Array> }).bytes();
  }
}

// Every other member of `Request` (`clone()`, `formData()`, `cache`, `redirect`…) is the runtime's own.
const own = new Set(Object.getOwnPropertyNames(NodeFetchRequest.prototype));
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (own.has(name)) continue;
  const member = Object.getOwnPropertyDescriptor(Request.prototype, name)!;
  Object.defineProperty(
    NodeFetchRequest.prototype,
    name,
    typeof member.value === "function"
      ? {
        value(this: NodeFetchRequest, ...args: unknown[]) {
          const made = real(this[HELD]) as unknown as Record<string, (...args: unknown[]) => unknown>;
          return made[name](...args);
        },
      }
      : {
        get(this: NodeFetchRequest) {
          return (real(this[HELD]) as unknown as Record<string, unknown>)[name];
        },
      },
  );
}
Object.setPrototypeOf(NodeFetchRequest.prototype, Request.prototype); // `instanceof Request` holds

/**
 * Builds the `Request` a fetch handler gets from a Node request.
 *
 * @param incoming The Node request.
 * @param path The path and query the handler sees.
 * @param signal Makes the signal that aborts when the client goes away, when it is first read.
 * @param lent What it shares with the server (`serve()` and `nodeHandler()` lend it).
 * @param given The body a framework read and handed over (Fastify's `request.body`…), or undefined.
 * @returns The request.
 */
export function requestFromNode(
  incoming: NodeRequest,
  path: string,
  signal: () => AbortSignal,
  lent: Pick<Lent, "markBounded" | "concatBytes">,
  given?: unknown,
): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = incoming.method ?? "GET";
  const scheme = (incoming.socket as { encrypted?: boolean }).encrypted === true ? "https" : "http";
  const url = `${scheme}://${incoming.headers.host ?? "localhost"}${path}`;
  let body: Uint8Array | string | null | undefined = null;
  if (method !== "GET" && method !== "HEAD") {
    const parsed = parsedBody(incoming, given);
    if (parsed !== undefined) headers.delete("content-length"); // the body as the parser left it
    body = parsed ?? arrived(incoming, lent);
  }
  const held: Held = {
    method,
    url,
    headers,
    incoming,
    bytes: body,
    signal,
    concatBytes: lent.concatBytes,
    used: false,
  };
  const request = new NodeFetchRequest(held) as unknown as Request;
  // A body already here is in memory: read whole even without Content-Length, its size checked after.
  if (body !== null && body !== undefined) lent.markBounded(request);
  return request;
}

/** The whole body, when the parser already received all of it (the usual small request) and nobody read it. */
function arrived(incoming: NodeRequest, lent: Pick<Lent, "concatBytes">): Uint8Array | undefined {
  if (incoming.complete !== true || incoming.readableFlowing === true) return undefined;
  const chunks: Uint8Array[] = [];
  for (let chunk = incoming.read(); chunk !== null; chunk = incoming.read()) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : lent.concatBytes(chunks, chunks.reduce((size, c) => size + c.byteLength, 0));
}

/**
 * The body a framework's parser already read: handed over (Fastify's `request.body`, Koa's
 * `ctx.request.body`) or left on the request (Express's `req.body`), as the parser made it; undefined
 * while the stream still holds the body (the parser passed it by: a content type it does not read).
 */
function parsedBody(incoming: NodeRequest, given: unknown): Uint8Array | string | undefined {
  if (incoming.readableEnded !== true) return undefined;
  const body = given !== undefined ? given : incoming.body; // a JSON body `null` is handed over as null
  if (body === undefined || typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return JSON.stringify(body);
}

/**
 * Whether the body was read from the stream by someone else (a framework's body parser) and nobody
 * handed it over: the stream has ended, so reading it would wait forever.
 *
 * @param incoming The Node request.
 * @param given The body handed over, or undefined.
 * @returns True when the request declared a body that is gone.
 */
export function bodyConsumed(incoming: NodeRequest, given: unknown): boolean {
  if (incoming.readableEnded !== true || given !== undefined || incoming.body !== undefined) return false;
  if (incoming.method === "GET" || incoming.method === "HEAD") return false;
  // RFC 9112 §6.3: a request has a body when it says so, by Transfer-Encoding or a Content-Length above 0.
  const { "content-length": length, "transfer-encoding": encoding } = incoming.headers;
  return encoding !== undefined || (length !== undefined && length !== "0");
}

/** The body as a stream pulled from the Node request: a paused request reads no more than asked (backpressure). */
function bodyStream(incoming: NodeRequest): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on("data", (chunk: Uint8Array) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.on("end", () => {
        if (open) controller.close();
        open = false;
      });
      incoming.on("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
      incoming.pause();
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      // The handler stopped reading (a body over the limit, a stalled sender): the rest is discarded.
      open = false;
      incoming.resume();
    },
  }, { highWaterMark: 1 });
}
