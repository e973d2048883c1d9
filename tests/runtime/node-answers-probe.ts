/**
 * Run by tests/runtime/node-answers.test.ts on Node itself (bundled with `bun build --target node`, so
 * that Node 20 runs it too): the server's own answers as `serve()` and `nodeHandler()` make them on
 * Node (`src/runtime/node/outgoing-response.ts`, `answerLazily`) against the `Response` the makers make
 * elsewhere (`Response.json`, `new Response(text)`), member by member; how `writeResponse` writes each;
 * and MCP-lite and MCP `tools/call` over HTTP with the lazy answers and without them. Prints one JSON
 * document (see {@link Report}).
 */
import process from "node:process";
import { createServer as createHttpServer } from "node:http";
import { connect } from "node:net";
import { inspect } from "node:util";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { otel } from "../../src/otel/mod.ts";
import { nodeHandler } from "../../src/runtime/node/mod.ts";
import { answerLazily, writeResponse } from "../../src/runtime/node/outgoing-response.ts";
import type { NodeResponse } from "../../src/runtime/node/node-types.ts";
import { answers } from "../../src/runtime/answer-makers.ts";

/** What the probe prints. */
export interface Report {
  /** `process.version`. */
  node: string;
  /** Whether the makers were replaced (undici keeps its body as the lazy answer stands in for). */
  lazy: boolean;
  /** Per case: what a plain `Response` showed, and what the server's answer showed. */
  table: Record<string, { expected: unknown; actual: unknown }>;
  /**
   * How `writeResponse` wrote each answer (its chunks as the bytes Node sends), and the calls it made for the
   * server's answer with what each chunk was (`end:string`: written from the answer's string).
   */
  writes: Record<string, { expected: unknown; actual: unknown; calls: string[] }>;
  /** Raw HTTP answers (the Date line left out) without the lazy answers and with them. */
  wire: Record<string, { expected: string; actual: string }>;
  /**
   * The makers once `globalThis.Response` was replaced: `text` made by it, `json` an undici body record
   * with its stream (not the lazy one, whose `stream` is made when read).
   */
  replaced: { text: boolean; json: boolean };
}

const original = { json: answers.json, text: answers.text };
const NodeResponseClass = Response;

/** A value whose JSON is not ASCII: two-, three- and four-byte UTF-8. */
const VALUE = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "héllo ✓ 𝄞" }], isError: false } };
const SESSION_INIT = { headers: { "content-type": "application/json", "mcp-session-id": "s-1" } };

/** The makers' cases: each makes one answer with the makers given. */
const MAKES: Record<string, (make: typeof original) => Response> = {
  "json, no init": (make) => make.json(VALUE),
  "json, headers": (make) => make.json(VALUE, SESSION_INIT),
  "json, status 201 and statusText": (make) => make.json(VALUE, { status: 201, statusText: "Made" }),
  "text, JSON headers": (make) => make.text(JSON.stringify(VALUE), { headers: { "content-type": "application/json" } }),
  "text, no content-type": (make) => make.text("a lone surrogate \ud800 and é", {}),
  "text, status 500": (make) => make.text("{}", { status: 500, headers: { "content-type": "application/json" } }),
  "json, empty string": (make) => make.json(""),
};

/** Settles `run()` to its value, or to its error's name and message. */
async function settle(run: () => unknown): Promise<unknown> {
  try {
    const value = await run();
    return value instanceof Uint8Array ? { bytes: [...value] } : value;
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Every text of a stream, read to its end. */
async function drain(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (stream === null) return "null";
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** What a reader of a `Response` sees: each observation on an answer of its own. */
const OBSERVE: Record<string, (response: Response) => unknown> = {
  "instanceof, prototype, tag": (
    r,
  ) => [r instanceof NodeResponseClass, Object.getPrototypeOf(r) === NodeResponseClass.prototype, String(r)],
  "status, ok, statusText, type, url, redirected": (r) => [r.status, r.ok, r.statusText, r.type, r.url, r.redirected],
  "headers": (r) => [[...r.headers], r.headers.get("content-length")],
  "bodyUsed, body": (
    r,
  ) => [r.bodyUsed, r.body instanceof ReadableStream, r.body === r.body, r.body?.locked, r.bodyUsed],
  "inspect": (r) => inspect(r, { colors: false }),
  "text()": (r) => r.text(),
  "text() twice": async (r) => [await r.text(), await settle(() => r.text()), r.bodyUsed],
  "json()": (r) => settle(() => r.json()),
  "arrayBuffer()": async (r) => [...new Uint8Array(await r.arrayBuffer())],
  "bytes()": (r) => settle(() => (r as { bytes?: () => Promise<Uint8Array> }).bytes?.() ?? "absent"),
  "blob()": async (r) => {
    const blob = await r.blob();
    return [blob.type, blob.size, await blob.text()];
  },
  "formData()": (r) => settle(() => r.formData()),
  "body read through its stream": async (r) => [await drain(r.body), r.bodyUsed, await settle(() => r.text())],
  "body locked by a reader": (r) => {
    r.body!.getReader();
    return settle(async () => [r.bodyUsed, await r.text()]);
  },
  "clone(): both halves": async (r) => {
    const copy = r.clone();
    return [copy instanceof NodeResponseClass, [...copy.headers], copy.status, await copy.text(), await r.text()];
  },
  "clone(), original first": async (r) => {
    const copy = r.clone();
    return [await r.text(), r.bodyUsed, copy.bodyUsed, await copy.text()];
  },
  "clone() after a read": async (r) => {
    await r.text();
    return settle(() => r.clone());
  },
  "clone() of a clone": async (r) => {
    const copy = r.clone().clone();
    return [await copy.text(), await r.text()];
  },
  "new Response(res.body)": async (r) => {
    const wrapped = new NodeResponseClass(r.body);
    return [r.bodyUsed, [...wrapped.headers], await wrapped.text(), r.bodyUsed, await settle(() => r.text())];
  },
  "new Response(res.body, res)": async (r) => {
    const wrapped = new NodeResponseClass(r.body, r);
    return [[...wrapped.headers], wrapped.status, await wrapped.text()];
  },
  "new Request(url, { body: res.body })": async (r) => {
    const request = new Request("http://localhost/", { method: "POST", body: r.body, duplex: "half" } as RequestInit);
    return [await request.text(), r.bodyUsed];
  },
  "structuredClone": (r) => settle(() => structuredClone(r)),
};

/** The calls `writeResponse` made on a Node response, chunks as their bytes. */
async function written(response: Response): Promise<unknown[]> {
  const calls: unknown[] = [];
  const bytes = (chunk?: Uint8Array | string) =>
    chunk === undefined
      ? undefined
      : typeof chunk === "string"
      ? { string: chunk }
      : { bytes: chunk.buffer.byteLength === 0 && chunk.byteOffset === 0 ? "detached?" : [...chunk] };
  const res: NodeResponse = {
    headersSent: false,
    writableFinished: false,
    writeHead: (status, statusText, headers) => calls.push(["writeHead", status, statusText, headers]),
    write: (chunk) => (calls.push(["write", bytes(chunk)]), true),
    end: (chunk) => calls.push(["end", bytes(chunk)]),
    flushHeaders: () => calls.push(["flushHeaders"]),
    destroy: () => calls.push(["destroy"]),
    once: () => res,
    off: () => res,
  };
  try {
    await writeResponse(response, res);
  } catch (error) {
    calls.push(["threw", `${(error as Error).name}: ${(error as Error).message}`]);
  }
  return calls;
}

/** What `writeResponse` is handed: the answer as made, or as a reader left it. */
const WRITES: Record<string, (response: Response) => Response | Promise<Response>> = {
  "untouched": (r) => r,
  "its body asked for": (r) => (r.body, r),
  "cloned, the clone read": async (r) => (await r.clone().text(), r),
  "wrapped: new Response(res.body, res)": (r) => new NodeResponseClass(r.body, r),
  "read (its body unusable)": async (r) => (await r.text(), r),
};

/** Whether a call handed `writeResponse`'s chunk to the Node response. */
const chunkOf = (call: unknown) => {
  const [name, chunk] = call as [string, { string?: string; bytes?: number[] } | undefined];
  return name === "write" || name === "end" ? chunk : undefined;
};

/**
 * `writeResponse`'s chunks as the bytes Node sends, in hexadecimal: a string as `res.end(string)`
 * encodes it (UTF-8, a lone surrogate as U+FFFD, as undici's body does).
 */
function asBytes(calls: unknown[]): unknown[] {
  return calls.map((call) => {
    const chunk = chunkOf(call);
    if (chunk === undefined) return call;
    const bytes = chunk.string === undefined ? Buffer.from(chunk.bytes!) : Buffer.from(chunk.string);
    return [(call as string[])[0], bytes.toString("hex")];
  });
}

/** One raw HTTP/1.1 exchange on its own connection, the Date line left out. */
function exchange(port: number, path: string, body: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const payload = Buffer.from(body);
    const head = [`POST ${path} HTTP/1.1`, "host: 127.0.0.1", "connection: close", `content-length: ${payload.length}`]
      .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`)).join("\r\n");
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), payload])));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1").replace(/\r\nDate: [^\r]*/i, "")));
  });
}

const echo = defineTool("echo")
  .describe("Echoes its text")
  .input(v.object({ text: v.string() }))
  .handle(({ text }) => `${text} ✓ 𝄞`);

/** Sends the wire cases to `port` (`/mcp-lite`, `/mcp` under `base`). */
async function wireCases(port: number, base: string): Promise<Record<string, string>> {
  const text = "héllo, 世界";
  const call = (id: number) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text } } });
  const json = { "content-type": "application/json" };
  const mcp = { ...json, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  return {
    "MCP-lite tools/call": await exchange(port, `${base}/mcp-lite/v1/calltools`, call(1), json),
    "MCP-lite listtools": await exchange(port, `${base}/mcp-lite/v1/listtools`, "{}", json),
    "MCP tools/call": await exchange(port, `${base}/mcp`, call(2), mcp),
    "MCP tools/list": await exchange(port, `${base}/mcp`, '{"jsonrpc":"2.0","id":3,"method":"tools/list"}', mcp),
  };
}

/** Serves the server through `nodeHandler()` (and `serve()` where Node has it), before and after. */
async function wire(): Promise<Report["wire"]> {
  Date.now = () => 1_800_000_000_000; // MCP-lite's timestamp and processing time, the same in both runs
  const server = createServer({ name: "probe", version: "1.0.0", bindings: [mcpLiteBinding(), mcpBinding()] })
    .tool(echo)
    .use(otel())
    .use(async (_call, next) => await next());
  const wrapped = {
    // A fetch wrapper that reads a copy of the answer and hands on a new Response around its body.
    async fetch(request: Request) {
      const response = await server.fetch(request);
      const copy = await response.clone().text();
      const out = new Response(response.body, response);
      out.headers.set("x-read", String(copy.length));
      return out;
    },
  };
  const handler = nodeHandler(server);
  const http = createHttpServer((req, res) => void handler(req as never, res as never));
  const wrappedHandler = nodeHandler(wrapped);
  const other = createHttpServer((req, res) => void wrappedHandler(req as never, res as never));
  const port = (listening: ReturnType<typeof createHttpServer>) =>
    new Promise<number>((resolve) =>
      listening.listen(0, "127.0.0.1", () => resolve((listening.address() as { port: number }).port))
    );
  const ports = { node: await port(http), wrapped: await port(other) };
  const hasServe = typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule === "function";
  const served = hasServe ? await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }) : undefined;
  const all = async () => {
    const out: Record<string, string> = {};
    for (const [name, answer] of Object.entries(await wireCases(ports.node, ""))) out[`nodeHandler: ${name}`] = answer;
    for (const [name, answer] of Object.entries(await wireCases(ports.wrapped, ""))) {
      out[`wrapped fetch: ${name}`] = answer;
    }
    if (served !== undefined) {
      for (const [name, answer] of Object.entries(await wireCases(Number(new URL(served.url).port), ""))) {
        out[`serve(): ${name}`] = answer;
      }
    }
    return out;
  };
  const after = await all();
  // Without the lazy answers: the global Response replaced (as @hono/node-server does) makes them as before.
  globalThis.Response = class extends NodeResponseClass {} as typeof Response;
  const before = await all();
  globalThis.Response = NodeResponseClass;
  await served?.close();
  http.close();
  other.close();
  const report: Report["wire"] = {};
  for (const name of Object.keys(after)) report[name] = { expected: before[name]!, actual: after[name]! };
  return report;
}

const table: Report["table"] = {};
const writes: Report["writes"] = {};
answerLazily(answers);
const lazy = answers.json !== original.json;
for (const [made, make] of Object.entries(MAKES)) {
  for (const [seen, observe] of Object.entries(OBSERVE)) {
    table[`${made} / ${seen}`] = {
      expected: await settle(async () => await observe(make(original))),
      actual: await settle(async () => await observe(make(answers))),
    };
  }
  for (const [how, hand] of Object.entries(WRITES)) {
    const actual = await written(await hand(make(answers)));
    writes[`${made} / ${how}`] = {
      expected: asBytes(await written(await hand(make(original)))),
      actual: asBytes(actual),
      calls: actual.map((call) => {
        const chunk = chunkOf(call);
        return chunk === undefined
          ? (call as string[])[0]!
          : `${(call as string[])[0]}:${chunk.string === undefined ? "bytes" : "string"}`;
      }),
    };
  }
}
// What the makers refuse, they refuse alike: a null body status, a value JSON cannot hold, a bad status.
for (
  const [name, make] of Object.entries<(m: typeof original) => Response>({
    "json, status 204": (m) => m.json(VALUE, { status: 204 }),
    "text, status 304": (m) => m.text("x", { status: 304 }),
    "json, undefined": (m) => m.json(undefined),
    "json, a cycle": (m) => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      return m.json(cycle);
    },
    "json, a BigInt": (m) => m.json(1n),
    "json, status 99": (m) => m.json(VALUE, { status: 99 }),
    "text, a bad header": (m) => m.text("x", { headers: { "bad header": "x" } }),
  })
) {
  table[`refused: ${name}`] = {
    expected: await settle(() => [...make(original).headers]),
    actual: await settle(() => [...make(answers).headers]),
  };
}
const wireReport = await wire();
// Once the global Response is replaced, the answers are made by it, as before.
const Replaced = class extends NodeResponseClass {};
globalThis.Response = Replaced as typeof Response;
const STATE = Object.getOwnPropertySymbols(new NodeResponseClass()).find((key) => key.description === "state");
const record = (response: Response) => STATE && (response as unknown as Record<symbol, { body: object }>)[STATE]?.body;
const replaced = {
  text: answers.text("x", {}) instanceof Replaced,
  json: Object.hasOwn(record(answers.json(VALUE)) ?? {}, "stream"),
};
globalThis.Response = NodeResponseClass;
const report: Report = { node: process.version, lazy, table, writes, wire: wireReport, replaced };
process.stdout.write(JSON.stringify(report));
