/**
 * The direct Connect unary path (`createConnectUnary`), against Connect's generic handler built over the
 * same server: every request it takes must get the answer Connect's handler gives (status, content type,
 * body: messages, error JSON and details), and every request it leaves must reach Connect's handler.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { createConnectRouter } from "@connectrpc/connect";
import {
  type UniversalHandler,
  universalServerRequestFromFetch,
  universalServerResponseToFetch,
} from "@connectrpc/connect/protocol";
import { NO_HOST } from "../../../src/server/binding-contract.ts";
import { createConnectUnary } from "../../../src/bindings/grpc/connect-unary.ts";
import {
  createGrpcRoutes,
  ToolRequestSchema,
  ToolResponseSchema,
  ToolsListSchema,
} from "../../../src/bindings/grpc/mod.ts";
import { BASE } from "../../helpers/request.ts";
import { slowProbe } from "../../helpers/fixtures.ts";
import { coreOf, grpcServer, waitFor } from "./grpc-fixtures.ts";

const CALL = "/mcplite.MCPLite/CallTool";
const LIST = "/mcplite.MCPLite/GetTools";
const JSON_TYPE = { "content-type": "application/json" };
const PROTO_TYPE = { "content-type": "application/proto" };

/** The direct path and Connect's generic handler over one server's core, with a given read limit. */
function pair(readMaxBytes?: number) {
  const server = grpcServer();
  const core = coreOf(server);
  const limit = readMaxBytes ?? core.options.maxBodyBytes;
  const direct = createConnectUnary(core, { readMaxBytes: limit });
  const router = createConnectRouter({ grpc: false, readMaxBytes: limit });
  createGrpcRoutes(core)(router);
  const generic = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, h]));
  return {
    server,
    /** The direct path's answer, or undefined when it leaves the request to Connect. */
    direct: (request: Request) => direct.get(new URL(request.url).pathname)!(request, NO_HOST),
    connect: async (request: Request) =>
      universalServerResponseToFetch(
        await generic.get(new URL(request.url).pathname)!(universalServerRequestFromFetch(request, {})),
      ),
  };
}

type Init = { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal };

function request(path: string, init: Init): Request {
  return new Request(BASE + path, {
    method: init.method ?? "POST",
    headers: init.headers,
    body: init.body as BodyInit | undefined,
    signal: init.signal,
  });
}

/** What a client sees of a response, with the values that change per call (times, tokens) masked. */
async function seen(response: Response): Promise<Record<string, unknown>> {
  const type = response.headers.get("content-type");
  const bytes = new Uint8Array(await response.arrayBuffer());
  let body: unknown = null;
  if (bytes.byteLength === 0) {
    // an empty body (415, 405)
  } else if (type === "application/proto") {
    // A ToolResponse or a ToolsList: decode as whichever it is.
    try {
      body = toJson(ToolResponseSchema, fromBinary(ToolResponseSchema, bytes));
    } catch {
      body = toJson(ToolsListSchema, fromBinary(ToolsListSchema, bytes));
    }
  } else if (type === "application/json") {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } else {
    body = Array.from(bytes); // gRPC-Web frames, compared as they are
  }
  return { status: response.status, type, body: mask(body) };
}

function mask(body: unknown): unknown {
  const meta = (body as { meta?: Record<string, unknown> } | null)?.meta;
  if (meta === undefined) return body;
  const masked: Record<string, unknown> = { ...meta, timestamp: typeof meta.timestamp };
  delete masked.processingTimeMs;
  for (const key of ["promiseToken", "requestState", "expiresAt", "estimatedCompletion"]) {
    if (key in masked) masked[key] = typeof masked[key];
  }
  return { ...(body as object), meta: masked };
}

/** Sends the same request both ways (direct first) and checks that the direct path took it. */
async function both(p: ReturnType<typeof pair>, path: string, init: Init) {
  const answered = p.direct(request(path, init));
  assert.notEqual(answered, undefined, "the direct path should take this request");
  const [direct, connect] = await Promise.all([
    Promise.resolve(answered!).then(seen),
    p.connect(request(path, init)).then(seen),
  ]);
  return { direct, connect };
}

function json(body: unknown, extra: Record<string, string> = {}, withLength = true): Init {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = { ...JSON_TYPE, ...extra };
  if (withLength) headers["content-length"] = String(new TextEncoder().encode(text).byteLength);
  return { headers, body: text };
}

function proto(body: Uint8Array, extra: Record<string, string> = {}): Init {
  return { headers: { ...PROTO_TYPE, "content-length": String(body.byteLength), ...extra }, body };
}

const addProto = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name: "add", arguments: { a: 2, b: 3 } }));

describe("the direct Connect unary path", () => {
  const p = pair();

  const cases: [string, string, Init][] = [
    ["CallTool, JSON with Content-Length", CALL, json({ name: "add", arguments: { a: 2, b: 3 } })],
    ["CallTool, JSON without Content-Length", CALL, json({ name: "add", arguments: { a: 2, b: 3 } }, {}, false)],
    [
      "CallTool, JSON; charset=utf-8",
      CALL,
      json({ name: "add", arguments: { a: 2, b: 3 } }, {
        "content-type": "application/json; charset=utf-8",
      }),
    ],
    [
      "CallTool, Application/JSON",
      CALL,
      json({ name: "add", arguments: { a: 2, b: 3 } }, {
        "content-type": "Application/JSON",
      }),
    ],
    [
      "CallTool, identity content-encoding",
      CALL,
      json({ name: "add", arguments: { a: 1, b: 1 } }, {
        "content-encoding": "identity",
      }),
    ],
    ["CallTool, binary", CALL, proto(addProto)],
    ["CallTool, binary without Content-Length", CALL, { headers: PROTO_TYPE, body: addProto }],
    ["a default and a string result", CALL, json({ name: "echo", arguments: { text: "ab", times: 2 } })],
    ["a result that is not plain JSON", CALL, json({ name: "loose" })],
    ["a streaming tool, drained", CALL, json({ name: "countdown", arguments: { count: 2 } })],
    ["a business failure (FAILURE)", CALL, json({ name: "fails", arguments: {} })],
    ["a crash, masked as internal error", CALL, json({ name: "crashes" })],
    ["an unknown tool (NOT_FOUND with ErrorInfo)", CALL, json({ name: "ad", arguments: {} })],
    ["invalid arguments (BadRequest details)", CALL, json({ name: "add", arguments: { a: "x", b: 1 } })],
    ["a missing tool name", CALL, json({})],
    ["middleware's UNAUTHENTICATED", CALL, json({ name: "add", arguments: { a: 1, b: 1 } }, { "x-test-auth": "none" })],
    [
      "middleware's PERMISSION_DENIED",
      CALL,
      json({ name: "add", arguments: { a: 1, b: 1 } }, { "x-test-auth": "deny" }),
    ],
    ["a PROMISE", CALL, json({ name: "analyze_dataset", arguments: { n: 2 } })],
    ["a forged promise token", CALL, json({ name: "redeem", arguments: { token: "forged" } })],
    ["malformed JSON", CALL, json('{"name": "add",')],
    ["an empty body", CALL, json("")],
    ["a duplicate key", CALL, json('{"name":"add","name":"echo"}')],
    ["a field of the wrong type", CALL, json({ name: 5 })],
    ["an unknown field (ignored, as Connect does)", CALL, json({ name: "add", arguments: { a: 1, b: 2 }, nope: 1 })],
    ["a Struct that is not an object", CALL, json({ name: "add", arguments: [1, 2] })],
    ["a Content-Length that does not match the body", CALL, json({ name: "add" }, { "content-length": "03" })],
    ["GetTools, JSON", LIST, json({})],
    ["GetTools, JSON again (memoised)", LIST, json({})],
    ["GetTools, binary", LIST, proto(new Uint8Array(0))],
    ["GetTools, malformed JSON", LIST, json("{")],
    [
      "a valid deadline on a quick call",
      CALL,
      json({ name: "add", arguments: { a: 1, b: 1 } }, {
        "connect-timeout-ms": "5000",
      }),
    ],
    ["a malformed deadline", CALL, json({ name: "add" }, { "connect-timeout-ms": "soon" })],
    ["a deadline of more than 10 digits", CALL, json({ name: "add" }, { "connect-timeout-ms": "12345678901" })],
  ];

  for (const [label, path, init] of cases) {
    it(`answers as Connect does: ${label}`, async () => {
      const { direct, connect } = await both(p, path, init);
      assert.deepEqual(direct, connect);
    });
  }

  it("pins the status codes of Connect's error mapping", async () => {
    const status = async (path: string, init: Init) => (await p.direct(request(path, init))!).status;
    assert.equal(await status(CALL, json({ name: "ad" })), 404);
    assert.equal(await status(CALL, json({ name: "add", arguments: { a: "x" } })), 400);
    assert.equal(await status(CALL, json({ name: "add" }, { "x-test-auth": "none" })), 401);
    assert.equal(await status(CALL, json({ name: "add" }, { "x-test-auth": "deny" })), 403);
    assert.equal(await status(CALL, json("{"))!, 400);
    // A message that does not decode is the caller's error (invalid_argument), where Connect-ES says internal.
    const garbled = await p.direct(request(CALL, proto(new Uint8Array([0x0a, 0xff, 0xff]))))!;
    assert.equal(garbled.status, 400);
    assert.equal((await garbled.json()).code, "invalid_argument");
    const error = await (await p.direct(request(CALL, json({ name: "ad" })))!).json();
    assert.equal(error.code, "not_found");
    assert.equal(error.details[0].type, "google.rpc.ErrorInfo");
  });

  it("refuses a body over the limit, declared or not, as Connect does", async () => {
    const small = pair(32);
    const big = { name: "echo", arguments: { text: "x".repeat(100) } };
    for (const init of [json(big), json(big, {}, false)]) {
      const { direct, connect } = await both(small, CALL, init);
      assert.deepEqual(direct, connect);
      assert.equal(direct.status, 429); // resource_exhausted
    }
  });

  it("trusts a Content-Length within the limit, which HTTP servers enforce: the body is read whole", async () => {
    // Connect's reader would refuse this in-process request ("promised 1000 bytes, received 14"); no
    // request over a socket can have it, since the server holds the body to its declared length.
    const response = await p.direct(request(CALL, json({ name: "add" }, { "content-length": "1000" }, false)))!;
    assert.equal((await response.json()).code, "invalid_argument"); // the call itself: a and b are missing
  });

  it("answers DEADLINE_EXCEEDED on time as Connect does, and the deadline reaches ctx.signal", async () => {
    const aborted = slowProbe.aborted;
    const { direct, connect } = await both(
      p,
      CALL,
      json({ name: "slow", arguments: { ms: 600_000 } }, {
        "connect-timeout-ms": "100",
      }),
    );
    // The tool would answer "finished" after 10 minutes: deadline_exceeded, and the tool seeing its signal abort,
    // say the deadline ended it, whatever the load (no clock read here).
    assert.deepEqual(direct, connect);
    assert.equal((direct.body as { code: string }).code, "deadline_exceeded");
    await waitFor(() => slowProbe.aborted >= aborted + 2);
  });

  it("answers CANCELED as Connect does when the client goes away, and ctx.signal aborts", async () => {
    const { aborted, started } = slowProbe;
    // Both clients go away once both calls run, not 20 ms in (which a loaded machine can reach before the
    // handler started, and then no signal of the tool's would have been there to abort).
    const abort = new AbortController();
    const call = (answer: (request: Request) => Response | Promise<Response> | undefined) =>
      Promise.resolve(
        answer(request(CALL, { ...json({ name: "slow", arguments: { ms: 30_000 } }), signal: abort.signal }))!,
      );
    const both = Promise.all([call(p.direct).then(seen), call(p.connect).then(seen)]);
    await waitFor(() => slowProbe.started === started + 2);
    abort.abort();
    const [direct, connect] = await both;
    assert.deepEqual(direct, connect);
    assert.equal((direct.body as { code: string }).code, "canceled");
    await waitFor(() => slowProbe.aborted >= aborted + 2);
    assert.equal(slowProbe.aborted, aborted + 2);
  });

  it("reads the request's signal only for a handler that asks for it", async () => {
    // A handler that never looks at ctx.signal answers, as on MCP-lite: only an in-process caller could
    // see the difference, since a client that went away over a socket reads no answer.
    const abort = new AbortController();
    abort.abort();
    const response = await p.direct(
      request(CALL, { ...json({ name: "add", arguments: { a: 1, b: 2 } }), signal: abort.signal }),
    )!;
    assert.deepEqual((await response.json()).result.structuredContent, { sum: 3 });
  });

  const left: [string, string, Init][] = [
    ["a Connect GET", LIST, { method: "GET" }],
    ["a compressed body", CALL, json({ name: "add" }, { "content-encoding": "gzip" })],
    ["a text/plain body", CALL, { headers: { "content-type": "text/plain" }, body: "{}" }],
    ["no content type", CALL, { body: "{}" }],
    ["a streaming content type on a unary method", CALL, json({}, { "content-type": "application/connect+json" })],
    ["gRPC-Web", CALL, { headers: { "content-type": "application/grpc-web+proto" }, body: new Uint8Array(5) }],
    ["a PUT", CALL, { ...json({}), method: "PUT" }],
  ];

  for (const [label, path, init] of left) {
    it(`leaves ${label} to Connect's handler, and server.fetch answers as it does`, async () => {
      assert.equal(p.direct(request(path, init)), undefined);
      const [fetched, connect] = await Promise.all([
        p.server.fetch(request(path, init)).then(seen),
        p.connect(request(path, init)).then(seen),
      ]);
      assert.deepEqual(fetched, connect);
    });
  }

  it("answers a compressed body with UNIMPLEMENTED, through Connect", async () => {
    const response = await p.server.fetch(request(CALL, json({ name: "add" }, { "content-encoding": "gzip" })));
    assert.equal(response.status, 501);
    assert.equal((await response.json()).code, "unimplemented");
  });

  it("serves CallTool through server.fetch on the direct path", async () => {
    const response = await p.server.fetch(request(CALL, json({ name: "add", arguments: { a: 20, b: 22 } })));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    const { result, meta } = await response.json();
    assert.deepEqual(result.structuredContent, { sum: 42 });
    assert.equal(meta.serverVersion, "1.2.3");
  });
});
