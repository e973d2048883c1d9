/**
 * A fetch `Request` from Node's `http.IncomingMessage`, made cheaply: an object that is a `Request` whose `method`,
 * `url`, `headers` and `signal` are plain values and whose body, when it arrived with the head, is read straight from
 * the bytes; anything else (`body`, `clone()`, a body still arriving) makes the runtime's own `Request` once and hands
 * over. Its `headers` answer `get()` and `has()` from the fields Node's parser read, and make the runtime's own
 * `Headers` when anything else is asked of them. The `signal` aborts when the client goes away before the answer is
 * written. The global `Request` is left alone. Why: docs/concepts/runtimes.md.
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

/** The runtime's `Request` for `held`, made once. */
function real(held: Held): Request {
  if (held.real !== undefined) return held.real;
  const { method, url } = held;
  const headers = realHeaders(held.headers);
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

/**
 * Makes instances of `stand` pass for the runtime's class: `instanceof` holds, and each of `keys` that `stand` does
 * not define itself answers from the runtime's own object, `realOf(this)` (made on first use).
 */
function standIn<T>(
  stand: { prototype: T },
  runtime: { prototype: object },
  keys: readonly (string | symbol)[],
  realOf: (self: T) => object,
): void {
  const own = new Set(Reflect.ownKeys(stand.prototype as object));
  for (const key of keys) {
    if (own.has(key) || key === "constructor" || key === Symbol.toStringTag) continue;
    const member = Object.getOwnPropertyDescriptor(runtime.prototype, key)!;
    Object.defineProperty(
      stand.prototype,
      key,
      typeof member.value === "function"
        ? {
          value(this: T, ...args: unknown[]) {
            return (realOf(this) as Record<PropertyKey, (...args: unknown[]) => unknown>)[key](...args);
          },
          writable: true,
          configurable: true,
        }
        : {
          get(this: T) {
            return (realOf(this) as Record<PropertyKey, unknown>)[key];
          },
          configurable: true,
        },
    );
  }
  Object.setPrototypeOf(stand.prototype, runtime.prototype);
}

/** A field name as RFC 9110 §5.6.2 defines a token: the only names taken as they came. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A field value every runtime's `Headers` keeps as it is given (Fetch, "header value"; RFC 9110 §5.5):
 * no NUL, CR or LF, nothing beyond a byte, no whitespace at either end (which `Headers` would strip).
 */
const PLAIN_VALUE = /^(?:[^\0\r\n\t \u0100-\uffff](?:[^\0\r\n\u0100-\uffff]*[^\0\r\n\t \u0100-\uffff])?)?$/;

/**
 * The fields of `raw` (`rawHeaders`: name, value, name, value…) by lowercase name, when `Headers`
 * would hold them exactly so: every name a token and named once, every value plain; else undefined
 * (the runtime's `Headers` joins, strips or refuses them its own way).
 */
function plainFields(raw: readonly string[], drop: string | undefined): Map<string, string> | undefined {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase(), value = raw[i + 1];
    if (fields.has(name) || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return undefined;
    fields.set(name, value);
  }
  if (drop !== undefined) fields.delete(drop);
  return fields;
}

/** The runtime's `Headers` of `raw`, without the field `drop`. */
function headersOf(raw: readonly string[], drop: string | undefined): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  if (drop !== undefined) headers.delete(drop);
  return headers;
}

const { get: GET, has: HAS } = Headers.prototype;

/**
 * A `Headers` that answers `get()` and `has()` from the fields as Node's parser read them; the
 * runtime's own `Headers` is made (with its checks) the first time anything else is asked (`set()`,
 * `forEach()`, iteration…), and answers everything from then on. Making it costs ~1 µs a field on
 * Node (undici checks each name and value in JavaScript); a request's handler reads a few fields.
 */
class NodeHeaders {
  #raw: readonly string[];
  #drop: string | undefined;
  #fields: Map<string, string> | undefined;
  #real: Headers | undefined;
  constructor(raw: readonly string[], fields: Map<string, string>, drop: string | undefined) {
    this.#raw = raw;
    this.#fields = fields;
    this.#drop = drop;
  }
  /** The runtime's `Headers`, made once. */
  static real(headers: NodeHeaders): Headers {
    if (headers.#real === undefined) {
      headers.#real = headersOf(headers.#raw, headers.#drop);
      headers.#fields = undefined;
    }
    return headers.#real;
  }
  /** The field's value, or undefined when the runtime's `Headers` must answer. */
  #field(name: unknown): string | null | undefined {
    const fields = this.#fields;
    if (fields === undefined || typeof name !== "string") return undefined;
    const value = fields.get(name);
    if (value !== undefined) return value;
    if (!TOKEN.test(name)) return undefined; // a name that is no token: the runtime's own TypeError
    return fields.get(name.toLowerCase()) ?? null;
  }
  get(name: string): string | null {
    const value = arguments.length === 1 ? this.#field(name) : undefined;
    return value !== undefined ? value : Reflect.apply(GET, NodeHeaders.real(this), arguments);
  }
  has(name: string): boolean {
    const value = arguments.length === 1 ? this.#field(name) : undefined;
    return value !== undefined ? value !== null : Reflect.apply(HAS, NodeHeaders.real(this), arguments);
  }
}

// Every other member of `Headers` (`set()`, `forEach()`, iteration, `getSetCookie()`…) is the runtime's own.
standIn(NodeHeaders, Headers, Reflect.ownKeys(Headers.prototype), (headers) => NodeHeaders.real(headers));

/** The runtime's `Headers` behind `headers`. */
const realHeaders = (headers: Headers): Headers => headers instanceof NodeHeaders ? NodeHeaders.real(headers) : headers;

/** A `Request` whose body and runtime object are made only when needed. */
class NodeFetchRequest {
  readonly #held: Held;
  constructor(held: Held) {
    this.#held = held;
  }
  /** What `request` holds. */
  static held(request: NodeFetchRequest): Held {
    return request.#held;
  }
  get method(): string {
    return this.#held.method;
  }
  get url(): string {
    return this.#held.url;
  }
  get headers(): Headers {
    return this.#held.headers;
  }
  get signal(): AbortSignal {
    const held = this.#held;
    return held.madeSignal ??= held.signal();
  }
  /** The client's address, for the server's per-caller budgets (`src/runtime/peer.ts`). */
  get [PEER](): string | undefined {
    return (this.#held.incoming.socket as { remoteAddress?: string }).remoteAddress;
  }
  get body(): ReadableStream<Uint8Array> | null {
    const held = this.#held;
    return held.bytes === null && held.real === undefined ? null : real(held).body;
  }
  get bodyUsed(): boolean {
    const held = this.#held;
    return held.used || (held.real?.bodyUsed ?? false);
  }
  text(): Promise<string> {
    return direct(this.#held)?.then(text) ?? real(this.#held).text();
  }
  json(): Promise<unknown> {
    return direct(this.#held)?.then((body) => JSON.parse(text(body))) ?? real(this.#held).json();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return direct(this.#held)?.then((body) => bytes(body).buffer as ArrayBuffer) ?? real(this.#held).arrayBuffer();
  }
  bytes(): Promise<Uint8Array> {
    return direct(this.#held)?.then(bytes) ??
      (real(this.#held) as Request & { bytes(): Promise<Uint8Array> }).bytes();
  }
}

// Every other member of `Request` (`clone()`, `formData()`, `cache`, `redirect`…) is the runtime's own.
standIn(
  NodeFetchRequest,
  Request,
  Object.getOwnPropertyNames(Request.prototype),
  (r) => real(NodeFetchRequest.held(r)),
);

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
  const method = incoming.method ?? "GET";
  const scheme = (incoming.socket as { encrypted?: boolean }).encrypted === true ? "https" : "http";
  const url = `${scheme}://${incoming.headers.host ?? "localhost"}${path}`;
  let body: Uint8Array | string | null | undefined = null;
  let drop: string | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const parsed = parsedBody(incoming, given);
    if (parsed !== undefined) drop = "content-length"; // the body as the parser left it
    body = parsed ?? arrived(incoming, lent);
  }
  const raw = incoming.rawHeaders;
  const fields = plainFields(raw, drop);
  const headers = fields === undefined
    ? headersOf(raw, drop)
    : new NodeHeaders(raw, fields, drop) as unknown as Headers;
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
