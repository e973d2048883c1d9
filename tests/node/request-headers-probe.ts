/**
 * The headers of a request `nodeHandler()` hands a fetch handler, beside a `Headers` made from the same
 * `rawHeaders` with `append()` (what the adapter made for every request before it answered `get()` and
 * `has()` itself): each request below, sent raw over a socket, is observed on both in the same order —
 * reads, a name that is no token, iteration, `getSetCookie()`, a copy, a mutation, reads after it —
 * and the observations must be equal. Run by tests/node/request-headers.test.ts in its own runtime's
 * `node:http` and on Node 22 itself (`node tests/node/request-headers-probe.ts` prints the results).
 */
import { createServer, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import process from "node:process";
import { nodeHandler } from "../../src/runtime/node/mod.ts";

/** The names each observation reads, in several cases. */
const NAMES = [
  "content-type",
  "Content-Type",
  "CONTENT-LENGTH",
  "x-dup",
  "X-Dup",
  "cookie",
  "x-tab",
  "x-latin",
  "missing",
];

/** What a `Headers` shows, read in a fixed order (the reads first: before anything else makes the runtime's own). */
function observe(headers: Headers): unknown[] {
  const seen: unknown[] = [];
  const attempt = (read: () => unknown) => {
    try {
      seen.push(read());
    } catch (error) {
      seen.push(`throws ${(error as Error).name}`);
    }
  };
  for (const name of NAMES) attempt(() => [headers.get(name), headers.has(name)]);
  attempt(() => headers.get("bad name"));
  attempt(() => headers.has("bad\u0100"));
  attempt(() => headers.get("\u212Aey")); // the Kelvin sign lowercases to "k": still no token
  attempt(() => (headers.get as (name?: string) => unknown)());
  seen.push(headers instanceof Headers, Object.prototype.toString.call(headers));
  attempt(() => [...headers]);
  attempt(() => headers.getSetCookie());
  attempt(() => [...new Headers(headers)]);
  attempt(() => [...new Request("http://x/", { headers }).headers]);
  attempt(() => {
    const names: string[] = [];
    headers.forEach((_value, name) => names.push(name));
    return names;
  });
  attempt(() => (headers.set("x-new", "1"), headers.append("x-dup", "c"), headers.delete("content-type")));
  for (const name of [...NAMES, "x-new"]) attempt(() => [headers.get(name), headers.has(name)]);
  attempt(() => [...headers.keys()]);
  return seen;
}

/** Each request's observations: the adapter's headers, the reference, and whether the adapter's were its own. */
interface Seen {
  lazy: boolean;
  adapter: unknown[];
  reference: unknown[];
}

/** The raw requests: plain fields, repeated ones, a tab inside a value, a byte above ASCII, a GET, a parsed body. */
const REQUESTS: Record<string, string> = {
  plain: "POST /plain HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nX-Tab: a\tb\r\n" +
    "Content-Length: 2\r\nConnection: close\r\n\r\n{}",
  repeated: "POST /repeated HTTP/1.1\r\nHost: h\r\nX-Dup: a\r\nx-dup: b\r\nCookie: a=1\r\nCookie: b=2\r\n" +
    "Content-Length: 2\r\nConnection: close\r\n\r\n{}",
  latin: "GET /latin HTTP/1.1\r\nHost: h\r\nX-Latin: caf\u00e9\r\nSet-Cookie: s=1\r\nConnection: close\r\n\r\n",
  parsed: "POST /parsed HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n" +
    "Connection: close\r\n\r\n{}",
};

/**
 * Sends every request to a `node:http` server answering through `nodeHandler()`, and returns what each showed.
 *
 * @returns The observations, by request.
 */
export async function probe(): Promise<Record<string, Seen>> {
  const seen: Record<string, Seen> = {};
  const handler = nodeHandler({
    fetch(request: Request) {
      const path = new URL(request.url).pathname.slice(1);
      seen[path] = {
        lazy: Object.getPrototypeOf(request.headers) !== Headers.prototype,
        adapter: observe(request.headers),
        reference: [],
      };
      return Promise.resolve(new Response("ok"));
    },
  });
  const server = createServer((req: IncomingMessage, res) => {
    const reference = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) reference.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    if (req.url === "/parsed") {
      // As Express's body parser leaves it: the body read, handed over; its length no longer the handler's.
      req.on("data", () => {});
      req.once("end", () => {
        reference.delete("content-length");
        void handler(req, res, { parsed: true }).then(() => seen.parsed.reference = observe(reference));
      });
      return;
    }
    void handler(req, res).then(() => seen[req.url!.slice(1)].reference = observe(reference));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    for (const raw of Object.values(REQUESTS)) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(Buffer.from(raw, "latin1")));
        socket.on("data", () => {}).once("close", () => resolve()).once("error", reject);
      });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return seen;
}

if (import.meta.main || process.argv[1]?.endsWith("request-headers-probe.ts")) {
  console.log(JSON.stringify(await probe()));
}
