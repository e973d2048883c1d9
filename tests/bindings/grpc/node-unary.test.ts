/**
 * The direct gRPC unary path of `serveGrpc()` (`createNodeUnary`), against the same server with every
 * call through Connect's Node adapter: each request goes to both listeners over real HTTP/2 (h2c), and
 * the answers must match: status, headers, the message (decoded, with per-call times and tokens
 * masked) and the trailers (`grpc-status`, `grpc-message`, `grpc-status-details-bin`).
 */
import assert from "node:assert/strict";
import { type ClientHttp2Session, connect, constants, type IncomingHttpHeaders } from "node:http2";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import {
  type GrpcListener,
  serveGrpc,
  ToolRequestSchema,
  ToolResponseSchema,
  ToolsListSchema,
} from "../../../src/bindings/grpc/mod.ts";
import { NO_DIRECT_PATH } from "../../../src/bindings/grpc/node.ts";
import { slowProbe } from "../../helpers/fixtures.ts";
import { grpcServer, waitFor } from "./grpc-fixtures.ts";

const CALL = "/mcplite.MCPLite/CallTool";
const LIST = "/mcplite.MCPLite/GetTools";
/** The read limit of both listeners: small, so that a message over it is cheap to send. */
const LIMIT = 4096;

/** What a client sees of an answer. */
interface Seen {
  status: number;
  headers: Record<string, string>;
  messages: unknown[];
  /** Whether any message came compressed. */
  compressed: boolean;
  trailers: Record<string, string>;
}

/** One h2c client session to a listener. */
function client(listener: GrpcListener): ClientHttp2Session {
  const session = connect(listener.url);
  session.on("error", () => {}); // a test that resets a stream must not fail the session
  return session;
}

/** Sends one gRPC request; resolves with the answer once the stream ends, within 10 s. */
function send(
  session: ClientHttp2Session,
  path: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Uint8Array; trailers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      ...headers,
    });
    const timer = setTimeout(() => {
      stream.close(constants.NGHTTP2_CANCEL);
      reject(new Error(`no answer to ${path} within 10 s`));
    }, 10_000);
    let head: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Uint8Array[] = [];
    stream.on("response", (h) => head = h);
    stream.on("trailers", (t) => trailers = t);
    stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    stream.on("end", () => {
      clearTimeout(timer);
      resolve({ status: Number(head[":status"]), headers: head, body: Buffer.concat(chunks), trailers });
    });
    stream.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    stream.end(body);
  });
}

/** A length-prefixed message (gRPC over HTTP/2 protocol, "Length-Prefixed-Message"). */
function frame(message: Uint8Array, compressed = false): Uint8Array {
  const out = new Uint8Array(5 + message.byteLength);
  out[0] = compressed ? 1 : 0;
  new DataView(out.buffer).setUint32(1, message.byteLength);
  out.set(message, 5);
  return out;
}

function toolRequest(name: string, args: Record<string, unknown> = {}): Uint8Array {
  return toBinary(ToolRequestSchema, create(ToolRequestSchema, { name, arguments: args as never }));
}

/** The answer as a client reads it: messages decoded (and decompressed), times and tokens masked. */
async function seen(answer: Awaited<ReturnType<typeof send>>): Promise<Seen> {
  const messages: unknown[] = [];
  let compressed = false;
  const body = answer.body;
  for (let at = 0; at + 5 <= body.byteLength;) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    let data: Uint8Array = body.subarray(at + 5, at + 5 + length);
    if (body[at] === 1) {
      compressed = true;
      data = new Uint8Array(
        await new Response(
          new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip")),
        ).arrayBuffer(),
      );
    }
    messages.push(decode(data));
    at += 5 + length;
  }
  return {
    status: answer.status,
    headers: pick(answer.headers, ["content-type", "grpc-encoding"]),
    messages,
    compressed,
    trailers: pick(answer.trailers, ["grpc-status", "grpc-message", "grpc-status-details-bin"]),
  };
}

function decode(data: Uint8Array): unknown {
  try {
    return mask(toJson(ToolResponseSchema, fromBinary(ToolResponseSchema, data)));
  } catch {
    return toJson(ToolsListSchema, fromBinary(ToolsListSchema, data));
  }
}

function mask(body: unknown): unknown {
  const meta = (body as { meta?: Record<string, unknown> } | null)?.meta;
  if (meta === undefined) return body;
  const masked: Record<string, unknown> = { ...meta, timestamp: typeof meta.timestamp };
  delete masked.processingTimeMs;
  for (const key of ["promiseToken", "requestState", "expiresAt"]) if (key in masked) masked[key] = typeof masked[key];
  return { ...(body as object), meta: masked };
}

function pick(headers: IncomingHttpHeaders, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) if (typeof headers[name] === "string") out[name] = headers[name] as string;
  return out;
}

describe("serveGrpc's direct unary path", () => {
  let direct: GrpcListener, connectOnly: GrpcListener;
  let toDirect: ClientHttp2Session, toConnect: ClientHttp2Session;
  before(async () => {
    direct = await serveGrpc(grpcServer({ maxBodyBytes: LIMIT }), { port: 0, closeGraceMs: 200 });
    connectOnly = await serveGrpc(grpcServer({ maxBodyBytes: LIMIT }), {
      port: 0,
      closeGraceMs: 200,
      [NO_DIRECT_PATH]: true,
    });
    toDirect = client(direct);
    toConnect = client(connectOnly);
  });
  after(async () => {
    toDirect.destroy();
    toConnect.destroy();
    await Promise.all([direct.close(), connectOnly.close()]);
  });

  /** Sends the request to both listeners and returns what each client saw. */
  async function both(path: string, body: Uint8Array, headers: Record<string, string> = {}) {
    const [d, c] = await Promise.all([send(toDirect, path, body, headers), send(toConnect, path, body, headers)]);
    return { direct: await seen(d), connect: await seen(c) };
  }

  const cases: [string, string, Uint8Array, Record<string, string>?][] = [
    ["GetTools", LIST, frame(new Uint8Array())],
    ["CallTool add", CALL, frame(toolRequest("add", { a: 2, b: 3 }))],
    ["CallTool add, application/grpc+proto", CALL, frame(toolRequest("add", { a: 2, b: 3 })), {
      "content-type": "application/grpc+proto",
    }],
    ["a tool's failure (isError)", CALL, frame(toolRequest("fails"))],
    ["a tool that throws", CALL, frame(toolRequest("crashes"))],
    ["an unknown tool: NOT_FOUND with its details", CALL, frame(toolRequest("ad"))],
    ["invalid arguments", CALL, frame(toolRequest("add", { a: "x" }))],
    ["no name: INVALID_ARGUMENT", CALL, frame(toolRequest(""))],
    ["middleware refusing: UNAUTHENTICATED", CALL, frame(toolRequest("add", { a: 1, b: 2 })), {
      "x-test-auth": "none",
    }],
    ["a promise (long-running tool)", CALL, frame(toolRequest("analyze_dataset", { n: 2 }))],
    ["bytes that are not a ToolRequest", CALL, frame(new Uint8Array([0xff, 0xff, 0xff]))],
    ["an empty body: missing input message", CALL, new Uint8Array()],
    ["a cut prefix: incomplete envelope", CALL, new Uint8Array([0, 0, 0])],
    ["a cut message: incomplete envelope", CALL, frame(toolRequest("add", { a: 1, b: 2 })).subarray(0, 9)],
    [
      "two messages: extra input message",
      CALL,
      new Uint8Array([...frame(toolRequest("add")), ...frame(toolRequest("add"))]),
    ],
    ["a message over the read limit: RESOURCE_EXHAUSTED", CALL, frame(new Uint8Array(LIMIT + 1))],
    ["a compressed message without grpc-encoding", CALL, frame(toolRequest("add", { a: 1, b: 2 }), true)],
    ["a gzip request", CALL, frame(gzipSync(toolRequest("add", { a: 4, b: 5 })), true), { "grpc-encoding": "gzip" }],
    ["an unknown encoding: UNIMPLEMENTED", CALL, frame(toolRequest("add")), { "grpc-encoding": "zstd" }],
    ["an unreadable grpc-timeout", CALL, frame(toolRequest("add", { a: 1, b: 2 })), { "grpc-timeout": "soon" }],
    ["a grpc-timeout that is met", CALL, frame(toolRequest("add", { a: 1, b: 2 })), { "grpc-timeout": "5S" }],
    ["a large answer the client accepts in gzip", CALL, frame(toolRequest("echo", { text: "z".repeat(4000) })), {
      "grpc-accept-encoding": "identity,deflate,gzip",
    }],
  ];
  for (const [name, path, body, headers] of cases) {
    it(`answers as Connect does: ${name}`, async () => {
      const { direct, connect } = await both(path, body, headers);
      assert.deepEqual(direct, connect);
    });
  }

  it("names the encoding it negotiated even for a message it sends plain, as Connect does", async () => {
    const { direct, connect } = await both(CALL, frame(toolRequest("add", { a: 1, b: 2 })), {
      "grpc-accept-encoding": "identity,deflate,gzip",
    });
    assert.equal(connect.headers["grpc-encoding"], "gzip");
    assert.equal(direct.headers["grpc-encoding"], "gzip");
    assert.deepEqual(direct, connect);
  });

  it("answers DEADLINE_EXCEEDED on time when the deadline passes, and ctx.signal aborts", async () => {
    const aborted = slowProbe.aborted;
    const started = Date.now();
    const { direct, connect } = await both(CALL, frame(toolRequest("slow", { ms: 5000 })), { "grpc-timeout": "100m" });
    assert.ok(Date.now() - started < 3000);
    assert.equal(direct.trailers["grpc-status"], "4");
    assert.deepEqual(direct, connect);
    await waitFor(() => slowProbe.aborted >= aborted + 2);
  });

  it("aborts ctx.signal when the client resets the stream, and keeps serving", async () => {
    const aborted = slowProbe.aborted;
    const stream = toDirect.request({
      ":method": "POST",
      ":path": CALL,
      "content-type": "application/grpc",
      te: "trailers",
    });
    stream.on("error", () => {});
    stream.end(frame(toolRequest("slow", { ms: 5000 })));
    await waitFor(() => slowProbe.started > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.close(constants.NGHTTP2_CANCEL);
    await waitFor(() => slowProbe.aborted > aborted);
    const after = await seen(await send(toDirect, CALL, frame(toolRequest("add", { a: 1, b: 2 }))));
    assert.equal(after.trailers["grpc-status"], "0");
  });

  it("leaves gRPC with JSON to Connect's adapter", async () => {
    const body = frame(new TextEncoder().encode(JSON.stringify({ name: "add", arguments: { a: 1, b: 2 } })));
    const answer = await send(toDirect, CALL, body, { "content-type": "application/grpc+json" });
    assert.equal(answer.trailers["grpc-status"], "0");
    assert.equal(answer.headers["content-type"], "application/grpc+json");
  });
});
