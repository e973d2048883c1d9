/**
 * The direct gRPC unary path of `serveGrpc()` (`createNodeUnary`), against Connect's Node adapter over
 * the same server: each request goes over real HTTP/2 (h2c) to a listener with the direct path and to
 * one without it, and must get the same answer back (status and headers, body frames byte for byte with
 * per-call fields blanked, trailers). The requests the direct path leaves (gRPC-Web, gRPC with JSON,
 * streaming) still reach Connect's adapter.
 *
 * Under Bun only: each comparison opens and ends two HTTP/2 connections, and Deno's `node:http2` aborts the whole
 * test process now and then as they end (tests/helpers/h2-sessions.ts; CI's Deno lane died in the first test of this
 * file, three times), taking every other file of the lane with it. Deno still serves `serveGrpc()` in node.test.ts.
 */
import assert from "node:assert/strict";
import { gunzipSync, gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { create, fromBinary, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { createServer, defineTool } from "../../../mod.ts";
import {
  type GrpcListener,
  ResponseType,
  serveGrpc,
  ToolRequestSchema,
  ToolResponseSchema,
} from "../../../src/bindings/grpc/mod.ts";
import { NO_DIRECT_PATH } from "../../../src/bindings/grpc/serve-grpc.ts";
import { slowProbe } from "../../helpers/fixtures.ts";
import { bearer, opaqueAuth } from "../../helpers/opaque-auth.ts";
import { coreOf, grpcJs, grpcServer, waitFor } from "./grpc-fixtures.ts";
import { DENO_H2_ABORTS } from "../../helpers/h2-sessions.ts";
import { grpcFrame, h2Exchange } from "../../helpers/grpc-exchange.ts";

const CALL = "/mcplite.MCPLite/CallTool";
const LIST = "/mcplite.MCPLite/GetTools";
const GRPC = { "content-type": "application/grpc" };

/** What a call got back, with the per-call fields of a `ToolResponse` (time, duration) zeroed. */
interface Exchange {
  headers: Record<string, unknown>;
  frames: { flags: number; message: Uint8Array }[];
  trailers: Record<string, unknown>;
}

const frame = grpcFrame;

function callBody(name: string, args: JsonObject = {}): Uint8Array {
  return toBinary(ToolRequestSchema, create(ToolRequestSchema, { name, arguments: args }));
}

/**
 * Splits a body into frames; a `ToolResponse` has its per-call fields (timestamp, duration, a promise's
 * token and expiry, an input round's state) blanked so answers compare.
 */
function framesOf(body: Uint8Array, toolResponses: boolean): Exchange["frames"] {
  const frames: Exchange["frames"] = [];
  for (let at = 0; at < body.byteLength;) {
    const flags = body[at];
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    let message = body.subarray(at + 5, at + 5 + length);
    if (toolResponses && (flags & 0x80) === 0) {
      const plain = flags === 1 ? gunzipSync(message) : message;
      const response = fromBinary(ToolResponseSchema, plain);
      if (response.meta !== undefined) {
        response.meta.timestamp = 0n;
        response.meta.processingTimeMs = 0;
        response.meta.promiseToken = "";
        response.meta.expiresAt = 0n;
        response.meta.requestState = "";
      }
      message = toBinary(ToolResponseSchema, response);
    }
    frames.push({ flags, message });
    at += 5 + length;
  }
  return frames;
}

/** Sends one request on its own connection and collects the answer; `reset` cancels it after that many ms. */
function exchange(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  reset?: number,
): Promise<Exchange> {
  return h2Exchange(url, path, headers, body, reset).then(({ headers, body, trailers }) => {
    const proto = String(headers["content-type"]).endsWith("proto");
    return { headers, frames: framesOf(body, proto && path !== LIST), trailers };
  });
}

/**
 * Serves one server twice for the enclosing suite: with the direct path and without it (Connect's
 * adapter alone). `same` sends a request to both and requires the same answer.
 */
function bothPaths(server: Parameters<typeof serveGrpc>[0]) {
  const listeners: { direct?: GrpcListener; generic?: GrpcListener } = {};
  before(async () => {
    listeners.direct = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
    listeners.generic = await serveGrpc(server, { port: 0, closeGraceMs: 200, [NO_DIRECT_PATH]: true });
  });
  after(async () => {
    await listeners.direct?.close();
    await listeners.generic?.close();
  });
  return {
    directUrl: () => listeners.direct!.url,
    directPort: () => listeners.direct!.port,
    /** Sends the request to both listeners, requires the same answer, and returns it. */
    async same(path: string, headers: Record<string, string>, body: Uint8Array): Promise<Exchange> {
      const ours = await exchange(listeners.direct!.url, path, headers, body);
      const theirs = await exchange(listeners.generic!.url, path, headers, body);
      const show = (e: Exchange) =>
        JSON.stringify({ ...e, frames: e.frames.map((f) => ({ flags: f.flags, length: f.message.byteLength })) });
      assert.deepEqual(ours, theirs, `${show(ours)}\n${show(theirs)}`);
      return ours;
    },
  };
}

describe("serveGrpc's direct gRPC unary path", { skip: DENO_H2_ABORTS }, () => {
  const server = grpcServer();
  const limit = coreOf(server).options.maxBodyBytes;
  const { same, directUrl, directPort } = bothPaths(server);

  it("answers CallTool and GetTools as Connect does", async () => {
    const add = await same(CALL, GRPC, frame(callBody("add", { a: 2, b: 3 })));
    assert.equal(add.trailers["grpc-status"], "0");
    assert.deepEqual(
      fromBinary(ToolResponseSchema, add.frames[0].message).result?.structuredContent,
      { sum: 5 },
    );
    const list = await same(LIST, { "content-type": "application/grpc+proto" }, frame(new Uint8Array()));
    assert.equal(list.frames.length, 1);
    await same(CALL, { "content-type": "application/grpc+proto" }, frame(callBody("add", { a: 2, b: 3 })));
    const promised = await same(CALL, GRPC, frame(callBody("analyze_dataset", { n: 2 })));
    assert.equal(fromBinary(ToolResponseSchema, promised.frames[0].message).meta?.responseType, ResponseType.PROMISE);
  });

  it("answers tool errors, unknown tools and invalid arguments with Connect's trailers", async () => {
    const failed = await same(CALL, GRPC, frame(callBody("fails")));
    assert.equal(failed.trailers["grpc-status"], "0"); // a tool error is a FAILURE answer
    const crashed = await same(CALL, GRPC, frame(callBody("crashes")));
    assert.equal(crashed.trailers["grpc-status"], "0"); // so is a crash, its message masked
    const unknown = await same(CALL, GRPC, frame(callBody("ad")));
    assert.equal(unknown.trailers["grpc-status"], "5");
    assert.equal(typeof unknown.trailers["grpc-status-details-bin"], "string");
    const invalid = await same(CALL, GRPC, frame(callBody("add", { a: "x" })));
    assert.equal(invalid.trailers["grpc-status"], "3");
    const denied = await same(CALL, { ...GRPC, "x-test-auth": "deny" }, frame(callBody("add", { a: 1, b: 2 })));
    assert.equal(denied.trailers["grpc-status"], "7");
    const anonymous = await same(CALL, { ...GRPC, "x-test-auth": "none" }, frame(callBody("add", { a: 1, b: 2 })));
    assert.equal(anonymous.trailers["grpc-status"], "16");
    const nameless = await same(CALL, GRPC, frame(callBody("")));
    assert.equal(nameless.trailers["grpc-status"], "3");
  });

  it("refuses malformed, compressed-without-encoding and oversize frames as Connect does", async () => {
    const message = callBody("add", { a: 1, b: 2 });
    for (
      const body of [
        new Uint8Array(), // no message
        new Uint8Array([0, 0, 0]), // a truncated prefix
        frame(message).subarray(0, 9), // a truncated message
        new Uint8Array([...frame(message), ...frame(message)]), // two messages
        frame(message, 1), // compressed, without grpc-encoding
        frame(new Uint8Array(16), 0, limit + 1), // declares more than the limit
      ]
    ) {
      const answer = await same(CALL, GRPC, body);
      assert.notEqual(answer.trailers["grpc-status"], "0");
    }
    const oversize = await same(CALL, GRPC, frame(new Uint8Array(16), 0, limit + 1));
    assert.equal(oversize.trailers["grpc-status"], "8"); // RESOURCE_EXHAUSTED
    // Not a ToolRequest: the caller's error, INVALID_ARGUMENT, where Connect-ES says INTERNAL.
    const garbled = await exchange(directUrl(), CALL, GRPC, frame(new Uint8Array([0xff, 0xff])));
    assert.equal(garbled.trailers["grpc-status"], "3");
    assert.match(decodeURIComponent(String(garbled.trailers["grpc-message"])), /^parse binary: /);
  });

  it("reads gzip requests and answers gzip only as Connect does", async () => {
    const zipped = frame(gzipSync(callBody("echo", { text: "hi ".repeat(400) })), 1);
    const answer = await same(CALL, { ...GRPC, "grpc-encoding": "gzip", "grpc-accept-encoding": "gzip" }, zipped);
    assert.equal(answer.trailers["grpc-status"], "0");
    await same(CALL, { ...GRPC, "grpc-accept-encoding": "gzip" }, frame(callBody("echo", { text: "hi ".repeat(400) })));
    await same(
      CALL,
      { ...GRPC, "grpc-accept-encoding": "identity,deflate,gzip" },
      frame(callBody("echo", { text: "z".repeat(4000) })),
    );
    await same(CALL, { ...GRPC, "grpc-encoding": "snappy" }, frame(callBody("add", { a: 1, b: 2 })));
  });

  it("names the encoding it negotiated even for a message it sends plain, as Connect does", async () => {
    const small = await same(CALL, { ...GRPC, "grpc-accept-encoding": "gzip" }, frame(callBody("add", { a: 1, b: 2 })));
    assert.equal(small.headers["grpc-encoding"], "gzip");
    assert.equal(small.frames[0].flags, 0);
  });

  it("answers DEADLINE_EXCEEDED once grpc-timeout passes, and refuses a malformed one", async () => {
    for (const timeout of ["30m", "30000u", "30000000n"]) {
      const aborted = slowProbe.aborted;
      // The tool would answer after 10 minutes: DEADLINE_EXCEEDED (4), and the tool seeing its signal abort on
      // both paths, say the 30 ms deadline ended it, whatever the load (no clock read here).
      const answer = await same(CALL, { ...GRPC, "grpc-timeout": timeout }, frame(callBody("slow", { ms: 600_000 })));
      assert.equal(answer.trailers["grpc-status"], "4");
      await waitFor(() => slowProbe.aborted >= aborted + 2);
    }
    for (const timeout of ["1H", "1M", "5S", "2m"]) {
      await same(CALL, { ...GRPC, "grpc-timeout": timeout }, frame(callBody("add", { a: 1, b: 2 })));
    }
    await same(CALL, { ...GRPC, "grpc-timeout": "soon" }, frame(callBody("add", { a: 1, b: 2 })));
  });

  it("aborts ctx.signal when the client resets the stream, with or without a deadline", async () => {
    for (const headers of [GRPC, { ...GRPC, "grpc-timeout": "10S" }]) {
      const aborted = slowProbe.aborted;
      await exchange(directUrl(), CALL, headers, frame(callBody("slow", { ms: 5000 })), 100);
      await waitFor(() => slowProbe.aborted > aborted);
    }
    const after = await exchange(directUrl(), CALL, GRPC, frame(callBody("add", { a: 1, b: 2 })));
    assert.equal(after.trailers["grpc-status"], "0"); // and keeps serving
  });

  it("leaves gRPC-Web, JSON and streaming calls to Connect", async () => {
    await same(CALL, { "content-type": "application/grpc-web+proto" }, frame(callBody("add", { a: 1, b: 2 })));
    await same(LIST, { "content-type": "application/grpc+json" }, frame(new TextEncoder().encode("{}")));
    const stream = await same("/mcplite.MCPLite/CallToolStream", GRPC, frame(callBody("ticks", { count: 2 })));
    assert.equal(stream.frames.length, 3);
  });

  it("serves grpc-js", async () => {
    const r = await grpcJs(`127.0.0.1:${directPort()}`, "basic");
    assert.deepEqual(r.add.result.structuredContent, { sum: 5 });
    assert.equal(r.unknown.message, "Tool not found: ad");
  });
});

describe("serveGrpc's direct gRPC unary path with auth", { skip: DENO_H2_ABORTS }, () => {
  const server = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth("https://api.example.com") })
    .tool(defineTool("read_doc").handle((_input, ctx) => `doc for ${ctx.auth?.subject}`))
    .tool(defineTool("purge").scopes("docs:admin").handle(() => "purged"));
  const { same } = bothPaths(server);

  it("refuses and challenges as Connect's interceptor does", async () => {
    const anonymous = await same(CALL, GRPC, frame(callBody("read_doc")));
    assert.equal(anonymous.trailers["grpc-status"], "16");
    assert.match(String(anonymous.trailers["www-authenticate"]), /^Bearer /);
    const wrong = await same(CALL, { ...GRPC, ...bearer("nobody") }, frame(callBody("read_doc")));
    assert.equal(wrong.trailers["grpc-status"], "16");
    const stepUp = await same(CALL, { ...GRPC, ...bearer("reader") }, frame(callBody("purge")));
    assert.equal(stepUp.trailers["grpc-status"], "7");
    assert.match(String(stepUp.trailers["www-authenticate"]), /insufficient_scope/);
    const read = await same(CALL, { ...GRPC, ...bearer("reader") }, frame(callBody("read_doc")));
    assert.equal(read.trailers["grpc-status"], "0");
    for (const token of ["reader", "admin"]) {
      await same(LIST, { ...GRPC, ...bearer(token) }, frame(new Uint8Array()));
    }
  });
});
