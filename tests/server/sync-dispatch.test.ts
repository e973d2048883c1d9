/**
 * A tool whose handler answers synchronously is served without a promise between its body and its
 * answer (MCP-lite, MCP 2026-07-28 and 2025 as JSON, gRPC unary `CallTool` on Connect over `fetch` and
 * on `serveGrpc()`'s HTTP/2 path): what a client and a server's owner see of it is the same as for an
 * asynchronous handler. Its answer, its failures (a thrown error, a `ProtocolError`, a result its output
 * schema refuses), request middleware's order around it, and the budgets it takes and gives back, on
 * every wire; on Bun (whose bodies built in process are held at once) the answer is ready before any
 * microtask runs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, type Middleware } from "../../mod.ts";
import {
  grpcBinding,
  type GrpcListener,
  serveGrpc,
  ToolRequestSchema,
  ToolResponseSchema,
} from "../../src/bindings/grpc/mod.ts";
import { DENO_H2_ABORTS } from "../helpers/h2-sessions.ts";
import { grpcFrame, h2Exchange } from "../helpers/grpc-exchange.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { CAN_PEEK } from "../../src/runtime/bun/peek.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";

const input = v.object({ a: v.number(), b: v.number() });
const sum = v.object({ sum: v.number() });
const later = <T>(value: () => T) => Promise.resolve().then(value);

/** Each tool twice: answering at once, and through a promise. */
function tools() {
  const defined = [];
  for (const [suffix, wrap] of [["", <T>(f: () => T) => f()], ["_async", later]] as const) {
    defined.push(
      defineTool(`add${suffix}`).input(input).handle(({ a, b }) => wrap(() => ({ sum: a + b }))),
      defineTool(`boom${suffix}`).input(input).handle(() =>
        wrap(() => {
          throw new Error("boom");
        })
      ),
      defineTool(`refuse${suffix}`).input(input).handle(() =>
        wrap(() => {
          throw new ProtocolError(ErrorCode.PermissionDenied, "not for you");
        })
      ),
      defineTool(`checked${suffix}`).input(input).output(sum).handle(({ a }) =>
        wrap(() => ({ sum: String(a) } as unknown as { sum: number }))
      ),
    );
  }
  return defined;
}

function server(options: { limits?: { calls?: number }; middleware?: Middleware[] } = {}) {
  const made = createServer({
    name: "sync",
    version: "1.0.0",
    limits: options.limits,
    logger: false, // its tools throw and break their output schema on purpose: no error line each
    bindings: [
      mcpLiteBinding(),
      mcpBinding(),
      grpcBinding(),
    ],
  });
  for (const tool of tools()) made.tool(tool);
  for (const middleware of options.middleware ?? []) made.use(middleware);
  return made;
}

/** A wire: a request for `tools/call` of `name`, and its answer as a client reads it. */
interface Wire {
  request(name: string, args: Record<string, number>): Request;
  read(response: Response): Promise<unknown>;
  /** Whether it is MCP-lite's or MCP's JSON-RPC (built in process without a length; a refusal is its HTTP status). */
  jsonRpc?: boolean;
}

/** A response as a client reads it, the clock's fields (MCP-lite's timestamp and processing time) left out. */
async function seen(response: Response): Promise<unknown> {
  const body = JSON.parse(
    await response.text(),
    (key, value) => key === "timestamp" || key === "processing_time_ms" ? undefined : value,
  );
  return { status: response.status, type: response.headers.get("content-type"), body };
}

/** A `ToolResponse`'s clock fields, left out of the comparison. */
const CLOCK = new Set(["timestamp", "processingTimeMs"]);

/** A Connect answer as a client reads it (a binary `ToolResponse` as its JSON form), the clock left out. */
async function seenConnect(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type");
  const text = type === "application/proto"
    ? JSON.stringify(
      toJson(ToolResponseSchema, fromBinary(ToolResponseSchema, new Uint8Array(await response.arrayBuffer()))),
    )
    : await response.text();
  const body = JSON.parse(text, (key, value) => CLOCK.has(key) ? undefined : value);
  return { status: response.status, type, body };
}

/** The wires whose answer is one body: the three JSON ones, and gRPC unary on Connect over `fetch`. */
const WIRES: Record<string, Wire> = {
  "MCP-lite": {
    request: (name, args) => post("/mcp-lite/v1/calltools", toolsCall(name, args)),
    read: seen,
    jsonRpc: true,
  },
  "MCP 2026-07-28": {
    request: (name, args) => modernRequest("tools/call", { name, arguments: args }, 1, { accept: "application/json" }),
    read: seen,
    jsonRpc: true,
  },
  "MCP 2025": {
    request: (name, args) =>
      legacyRequest("tools/call", { name, arguments: args }, 1, "2025-11-25", { accept: "application/json" }),
    read: seen,
    jsonRpc: true,
  },
  "gRPC, Connect JSON": {
    request: (name, args) => post("/mcplite.MCPLite/CallTool", { name, arguments: args }),
    read: seenConnect,
  },
  "gRPC, Connect binary": {
    request: (name, args) =>
      new Request("http://localhost/mcplite.MCPLite/CallTool", {
        method: "POST",
        headers: { "content-type": "application/proto" },
        body: toBinary(ToolRequestSchema, create(ToolRequestSchema, { name, arguments: args })),
      }),
    read: seenConnect,
  },
};

/** Two request middleware that note, in `order`, entering and leaving around the handler. */
function recording(order: string[]): [outer: Middleware, inner: Middleware] {
  return [
    async (call, next) => {
      order.push(`outer in ${call.name}`);
      const outcome = await next();
      order.push("outer out");
      return outcome;
    },
    (_call, next) => {
      order.push("inner in");
      return next().then((outcome) => (order.push("inner out"), outcome));
    },
  ];
}

const ARGS = { a: 1, b: 2 };

/** The request with its `Content-Length`, as a socket's request carries it (a body within it is read whole). */
async function sized(request: Request): Promise<Request> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  const headers = new Headers(request.headers);
  headers.set("content-length", String(bytes.byteLength));
  return new Request(request.url, { method: "POST", headers, body: bytes });
}

describe("synchronous dispatch", () => {
  for (const [wire, { request, read, jsonRpc }] of Object.entries(WIRES)) {
    describe(wire, () => {
      for (const tool of ["add", "boom", "refuse", "checked"]) {
        it(`answers ${tool} as it answers its asynchronous twin`, async () => {
          const s = server();
          // Connect's requests with their `Content-Length` (as a socket's), the JSON-RPC ones as built in process.
          const send = async (name: string) =>
            await s.fetch(jsonRpc ? request(name, ARGS) : await sized(request(name, ARGS)));
          const sync = await read(await send(tool));
          const async = await read(await send(`${tool}_async`));
          const renamed = JSON.parse(JSON.stringify(async).replaceAll(`${tool}_async`, tool));
          assert.deepEqual(sync, renamed);
        });
      }

      it("runs request middleware around the handler, in order, for a synchronous tool", async () => {
        const order: string[] = [];
        const logged = defineTool("logged").input(input).handle(({ a, b }) => (order.push("handler"), a + b));
        const s = server({ middleware: recording(order) }).tool(logged);
        const response = await s.fetch(request("logged", ARGS));
        assert.equal(response.status, 200);
        if (jsonRpc) assert.match(await response.text(), /"text":"3"/);
        assert.deepEqual(order, ["outer in logged", "inner in", "handler", "inner out", "outer out"]);
      });

      it("answers a synchronous tool before any microtask runs where the body is held at once (Bun)", {
        skip: !CAN_PEEK,
      }, async () => {
        const s = server();
        const response = s.fetch(await sized(request("add", ARGS)));
        const first = await Promise.race([response, Promise.resolve("a microtask later")]);
        assert.ok(first instanceof Response, String(first));
        // An asynchronous handler still answers, later.
        const pending = s.fetch(await sized(request("add_async", ARGS)));
        assert.equal(await Promise.race([pending, Promise.resolve("later")]), "later");
        assert.equal((await pending).status, 200);
      });
    });
  }

  for (const [wire, { request, jsonRpc }] of Object.entries(WIRES)) {
    describe(`${wire}: refusals and budgets`, () => {
      if (jsonRpc) {
        it("lets request middleware refuse before a synchronous handler runs", async () => {
          let ran = false;
          const s = server({
            middleware: [() => {
              throw new ProtocolError(ErrorCode.Unauthenticated, "a key is required");
            }],
          }).tool(defineTool("ran").handle(() => (ran = true, "ran")));
          const response = await s.fetch(request("ran", {}));
          assert.equal(response.status, 401);
          assert.equal(ran, false);
        });

        it("gives the call and its body bytes back to the budgets as soon as it answers", async () => {
          const s = server({ limits: { calls: 1 } });
          for (let i = 0; i < 3; i++) assert.equal((await s.fetch(request("add", ARGS))).status, 200);
          for (let i = 0; i < 3; i++) assert.equal((await s.fetch(request("boom", ARGS))).status, 200);
          // Held by an asynchronous call, the one call the budget allows refuses a synchronous one.
          let release!: () => void;
          const gate = new Promise<void>((resolve) => release = resolve);
          let started!: () => void;
          const running = new Promise<void>((resolve) => started = resolve);
          s.tool(defineTool("held").handle(async () => (started(), await gate, "held")));
          const held = s.fetch(request("held", {}));
          await running; // its handler runs: the call holds its place in the budget
          const refused = await s.fetch(request("add", ARGS));
          assert.ok(refused.status === 429 || refused.status === 503, `status ${refused.status}`);
          assert.ok(refused.headers.has("retry-after"));
          release();
          assert.equal((await held).status, 200);
          assert.equal((await s.fetch(request("add", ARGS))).status, 200);
        });
      } else {
        it("gives the call back to the budgets as soon as it answers", async () => {
          const s = server({ limits: { calls: 1 } });
          for (let i = 0; i < 3; i++) assert.equal((await s.fetch(await sized(request("add", ARGS)))).status, 200);
          for (let i = 0; i < 3; i++) assert.equal((await s.fetch(await sized(request("refuse", ARGS)))).status, 403);
        });
      }
    });
  }

  describe("gRPC on serveGrpc()'s HTTP/2 path", { skip: DENO_H2_ABORTS }, () => {
    const order: string[] = [];
    const [outer] = recording(order);
    const logged = defineTool("logged").input(input).handle(({ a, b }) => (order.push("handler"), a + b));
    let listener: GrpcListener | undefined;
    before(async () => {
      listener = await serveGrpc(server({ middleware: [outer] }).tool(logged), { port: 0, closeGraceMs: 200 });
    });
    after(() => listener?.close());

    /** One call on its own connection: the status, the `ToolResponse` as JSON (clock left out), the trailers. */
    function grpcCall(name: string): Promise<unknown> {
      const message = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name, arguments: ARGS }));
      const grpc = { "content-type": "application/grpc" };
      const call = h2Exchange(listener!.url, "/mcplite.MCPLite/CallTool", grpc, grpcFrame(message));
      return call.then(({ headers, body, trailers }) => {
        const response = body.byteLength < 5 ? undefined : JSON.parse(
          JSON.stringify(toJson(ToolResponseSchema, fromBinary(ToolResponseSchema, body.subarray(5)))),
          (key, value) => CLOCK.has(key) ? undefined : value,
        );
        return { headers, response, trailers };
      });
    }

    for (const tool of ["add", "boom", "refuse", "checked"]) {
      it(`answers ${tool} as it answers its asynchronous twin`, async () => {
        const sync = await grpcCall(tool);
        const async = await grpcCall(`${tool}_async`);
        assert.deepEqual(
          JSON.parse(JSON.stringify(sync)),
          JSON.parse(JSON.stringify(async).replaceAll(`${tool}_async`, tool)),
        );
      });
    }

    it("runs request middleware around the handler, in order, for a synchronous tool", async () => {
      order.length = 0;
      const answer = await grpcCall("logged") as { trailers: Record<string, string> };
      assert.equal(answer.trailers["grpc-status"], "0");
      assert.deepEqual(order, ["outer in logged", "handler", "outer out"]);
    });
  });
});
