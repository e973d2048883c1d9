/**
 * Nothing silent: with no `onError` or `logger`, a handler's unexpected error and a result its output schema
 * refuses each print one line on `console.error` (the tool, the request id, the trace id), once per call;
 * `logger: false` prints nothing; `maskErrors: true` answers "Internal error" with a reference that the line
 * carries, on every wire (MCP 2026-07-28 and 2025, MCP-lite as JSON and SSE, Webtools, gRPC through Connect's JSON,
 * stdio).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker, type ServerOptions } from "../../mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { waitFor } from "../helpers/long-running.ts";
import { createClient } from "../../src/client/mod.ts";
import { ToolError } from "../../src/errors/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { legacyRequest, modernRequest, post } from "../helpers/request.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { withDefaults } from "../helpers/fixtures.ts";

const SECRET = "postgres://admin:hunter2@db:5432";
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

const buggy = defineTool("buggy").describe("Has a bug").input(v.object({})).handle(() => {
  const row = undefined as unknown as { id: number };
  if (row.id > 0) return SECRET; // a TypeError: reading `id` of undefined
  return "never";
});
const leaky = defineTool("leaky").describe("Leaks its connection string").input(v.object({})).handle(() => {
  throw new Error(`connect ECONNREFUSED ${SECRET}`);
});
const drifted = defineTool("drifted")
  .describe("Returns what its schema refuses")
  .input(v.object({}))
  .output(v.object({ celsius: v.number() }))
  .handle(() => ({ celsius: "warm" }) as unknown as { celsius: number });

function server(options: Partial<ServerOptions> = {}) {
  return createServer({
    name: "errors",
    version: "1.0.0",
    bindings: withDefaults(webtoolsBinding(), grpcBinding()),
    ...options,
  }).tool(buggy).tool(leaky).tool(drifted);
}

/** Runs `body` with `console.error` captured: what it printed, each call's arguments joined. */
async function printed(body: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    await body();
  } finally {
    console.error = error;
  }
  return lines;
}

/** An MCP-lite call with a JSON-RPC id and a W3C `traceparent`. */
function liteCall(name: string, id = 7): Request {
  const body = { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } };
  return post("/mcp-lite/v1/calltools", body, { traceparent: TRACEPARENT });
}

describe("a server with no onError or logger", () => {
  it("prints one line for a handler's TypeError: the tool, the request id, the trace id, the error and where", async () => {
    const app = server();
    let body = "";
    const lines = await printed(async () => void (body = await (await app.fetch(liteCall("buggy"))).text()));
    assert.equal(lines.length, 1, lines.join("\n"));
    const [line] = lines;
    assert.ok(!line.includes("\n"), line);
    assert.match(
      line,
      /^mcplite: tool "buggy" failed \(request 7, trace 4bf92f3577b34da6a3ce929d0e0e4736, span 00f067aa0ba902b7\): TypeError: /,
    );
    assert.match(line, / at /); // the frame where the handler threw
    assert.match(body, /"response_type":"failure"/); // the caller still reads the message without maskErrors
  });

  it("prints one line for a result that breaks .output(), the caller answered a bare -32603", async () => {
    const app = server();
    let error: Record<string, unknown> = {};
    const lines = await printed(async () => void ({ error } = await (await app.fetch(liteCall("drifted", 8))).json()));
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(
      lines[0],
      /^mcplite: tool "drifted" failed \(request 8, trace [0-9a-f]{32}, span [0-9a-f]{16}\): OutputMismatchError: .*celsius/,
    );
    assert.ok(!/ at /.test(lines[0]), "the SDK's own report, without a frame of the SDK");
    assert.deepEqual(error, { code: -32603, message: "Internal error", data: { code: "internal" } });
  });

  it("prints one line per call in process, without a request id (server.call has none)", async () => {
    const app = server();
    const lines = await printed(async () => {
      assert.equal((await app.call("leaky", {})).kind, "failure");
      assert.equal((await app.call("leaky", {})).kind, "failure");
    });
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[0], /^mcplite: tool "leaky" failed: Error: connect ECONNREFUSED/);
  });
  it("names a queued job's tool, request id, trace, job and attempt in its worker's line, as in process", async () => {
    const ids: string[] = [];
    const memory = createMemoryResultStore();
    const ledger = defineTool("ledger").describe("Fails later").input(v.object({})).defer(() => {
      throw new Error("ledger for s1 refused the write");
    });
    const app = createServer({
      name: "jobs",
      version: "1.0.0",
      secret: "s".repeat(32),
      queue: memoryQueue().queue,
      resultStore: {
        ...memory,
        set: (id, entry, ttlMs) => (entry.status === "working" && ids.push(id), memory.set(id, entry, ttlMs)),
      },
    }).tool(ledger);
    const worker = runWorker(app);
    try {
      const lines = await printed(async () => {
        assert.equal((await app.fetch(liteCall("ledger", 7))).status, 200);
        await waitFor(async () => (await memory.get(ids[0]))?.status !== "working", 20_000); // the job ended
      });
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(
        lines[0],
        new RegExp(
          `^mcplite: tool "ledger" failed \\(request 7, trace ${TRACE}, span [0-9a-f]{16}, job ${
            ids[0]
          }, attempt 1\\): ` +
            "Error: ledger for s1 refused the write at ",
        ),
      );
    } finally {
      await worker.close();
    }
  });
});

describe("logger: false", () => {
  it("prints nothing for either (the quiet switch for tests that throw on purpose)", async () => {
    const app = server({ logger: false });
    const lines = await printed(async () => {
      await app.fetch(liteCall("buggy"));
      await app.fetch(liteCall("drifted"));
    });
    assert.deepEqual(lines, []);
  });

  it("keeps onError: it still receives both, with the call", async () => {
    const seen: string[] = [];
    const app = server({ logger: false, onError: (error, call) => void seen.push(`${call?.name}: ${String(error)}`) });
    await app.call("leaky", {});
    await app.call("drifted", {}).catch(() => {});
    assert.equal(seen.length, 2);
    assert.match(seen[0], /^leaky: Error: connect/);
    assert.match(seen[1], /^drifted: OutputMismatchError/);
  });
});

describe("a logger", () => {
  it("gets one record per error with the tool, the request id, the trace id and the reference", async () => {
    const records: [Record<string, unknown>, string | undefined][] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (f: Record<string, unknown>, m?: string) => void records.push([f, m]),
    };
    const app = server({ logger, maskErrors: true });
    const lines = await printed(async () => void await app.fetch(liteCall("leaky", 9)));
    assert.deepEqual(lines, []);
    assert.equal(records.length, 1);
    const [fields, message] = records[0];
    assert.equal(fields.tool, "leaky");
    assert.equal(fields.requestId, 9);
    assert.equal(fields.trace_id, TRACE);
    assert.match(String(fields.reference), /^[0-9a-f]{8}$/);
    assert.ok(fields.err instanceof Error);
    assert.match(String(message), /ECONNREFUSED/);
  });
});

/** Each wire's call of a tool: the request, or a stdio exchange, and the answer's text. */
const WIRES: [string, (app: ReturnType<typeof server>, name: string) => Promise<string>][] = [
  [
    "MCP 2026-07-28",
    async (app, name) => await (await app.fetch(modernRequest("tools/call", { name, arguments: {} }, 3))).text(),
  ],
  [
    "MCP 2025-11-25",
    async (app, name) => await (await app.fetch(legacyRequest("tools/call", { name, arguments: {} }, 3))).text(),
  ],
  ["MCP-lite", async (app, name) => await (await app.fetch(liteCall(name, 3))).text()],
  ["MCP-lite over SSE", async (app, name) => {
    const body = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name, arguments: {}, _meta: { stream: true } },
    };
    return await (await app.fetch(post("/mcp-lite/v1/calltools", body, { accept: "text/event-stream" }))).text();
  }],
  ["Webtools", async (app, name) => await (await app.fetch(post("/webtools/", { action: name, request: {} }))).text()],
  [
    "gRPC (Connect JSON)",
    async (app, name) => await (await app.fetch(post("/mcplite.MCPLite/CallTool", { name, arguments: {} }))).text(),
  ],
  ["stdio", async (app, name) => {
    const piped = pipeServer(app);
    try {
      piped.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: {} } });
      return JSON.stringify(await piped.answer(3));
    } finally {
      await piped.end();
    }
  }],
];

describe("maskErrors: true", () => {
  for (const [wire, call] of WIRES) {
    for (const name of ["leaky", "buggy", "drifted"]) {
      it(`${wire}: ${name} is answered "Internal error" with the reference its one log line carries`, async () => {
        const app = server({ maskErrors: true });
        let answer = "";
        const lines = await printed(async () => void (answer = await call(app, name)));
        assert.equal(lines.length, 1, lines.join("\n"));
        const reference = /reference ([0-9a-f]{8})/.exec(lines[0])?.[1];
        assert.ok(reference !== undefined, lines[0]);
        assert.ok(answer.includes(`Internal error (reference ${reference})`), answer);
        assert.ok(
          !answer.includes("hunter2") && !answer.includes("ECONNREFUSED") && !answer.includes("TypeError"),
          answer,
        );
        if (name !== "drifted") assert.match(lines[0], new RegExp(`tool "${name}" failed`));
      });
    }
  }

  it("masks deferred work's error too, reported once by the job, with the tool", async () => {
    const later = defineTool("later").describe("Fails later").input(v.object({})).longRunning().handle((_args, ctx) =>
      ctx.defer(() => {
        throw new Error(`connect ECONNREFUSED ${SECRET}`);
      })
    );
    const app = createServer({ name: "jobs", version: "1.0.0", secret: "s".repeat(32), maskErrors: true }).tool(later);
    let error: unknown;
    const lines = await printed(async () => {
      error = await createClient(app).call("later", {}).catch((e: unknown) => e);
    });
    assert.equal(lines.length, 1, lines.join("\n"));
    const reference = /^mcplite: tool "later" failed \(.*reference ([0-9a-f]{8})\): Error: connect/.exec(lines[0])?.[1];
    assert.ok(reference !== undefined, lines[0]);
    assert.ok(error instanceof ToolError);
    assert.equal(error.message, `Internal error (reference ${reference})`);
    assert.deepEqual(error.data, { reference });
  });

  it("masks a queued job's failure on its worker too (what its declared work throws there), reported once", async () => {
    let runs = 0;
    const later = defineTool("later").describe("Fails later").input(v.object({})).defer(() => {
      runs++;
      throw new Error(`connect ECONNREFUSED ${SECRET}`);
    });
    const app = createServer({
      name: "jobs",
      version: "1.0.0",
      secret: "s".repeat(32),
      maskErrors: true,
      queue: memoryQueue().queue,
      resultStore: createMemoryResultStore(),
    }).tool(later);
    const worker = runWorker(app);
    let error: unknown;
    try {
      const lines = await printed(async () => {
        error = await createClient(app).call("later", {}).catch((e: unknown) => e);
      });
      assert.equal(lines.length, 1, lines.join("\n"));
      const reference = /\(.*reference ([0-9a-f]{8})\): Error: connect/.exec(lines[0])?.[1];
      assert.ok(reference !== undefined, lines[0]);
      assert.ok(error instanceof ToolError, String(error));
      assert.equal(error.message, `Internal error (reference ${reference})`);
      assert.equal(runs, 1);
    } finally {
      await worker.close();
    }
  });

  it("answers a ToolError as raised, and onError's replacement wins over the mask", async () => {
    const declined = defineTool("declined").describe("Declines").input(v.object({})).handle(() => {
      throw new ToolError("No table that large tonight");
    });
    const seen: unknown[] = [];
    const app = createServer({
      name: "errors",
      version: "1.0.0",
      maskErrors: true,
      onError: (_error, _call, report) => {
        seen.push(report?.reference);
        return { code: -32050, message: "Upstream unavailable" };
      },
    }).tool(declined).tool(leaky);
    const outcome = await app.call("declined", {});
    assert.deepEqual(outcome.kind === "failure" && outcome.result.content, [{
      type: "text",
      text: "No table that large tonight",
    }]);
    await assert.rejects(app.call("leaky", {}), { message: "Upstream unavailable" });
    assert.equal(seen.length, 1); // the ToolError is the tool's own answer: not reported
    assert.match(String(seen[0]), /^[0-9a-f]{8}$/);
  });
});
