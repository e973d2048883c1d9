/**
 * One error family on every wire (issue 64): each condition a caller meets is thrown on the server (or met by the
 * client) and read back by our client over MCP 2026-07-28, MCP 2025-11-25, MCP-lite, gRPC (Connect through the
 * fetch handler, and gRPC over HTTP/2), Webtools and through `proxy()`: the same class, the same `code`, the same
 * `instanceof`, whichever wire carried it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { ErrorCode, McpliteError, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { createClient, type Transport } from "../../src/client/mod.ts";
import { createWebtoolsTransport } from "../../src/client/webtools/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { grpcOverH2 } from "../helpers/h2-sessions.ts";

const tools = [
  defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => ({ sum: a + b })),
  defineTool("fail").handle(() => {
    throw new ToolError("the oven is cold", { data: { oven: "cold" } });
  }),
  defineTool("refuse").handle(() => {
    throw new ProtocolError(ErrorCode.PermissionDenied, "not for this caller");
  }),
  defineTool("busy").handle(() => {
    throw new ProtocolError(ErrorCode.Unavailable, "the kitchen is full", { data: { retryAfterMs: 2000 } });
  }),
  defineTool("custom").handle(() => {
    throw new ProtocolError(-32050, "the ledger is closed", { data: { ledger: "2026" } });
  }),
  defineTool("flood").handle(() => {
    throw new ProtocolError(ErrorCode.RateLimited, "slow down", { data: { retryAfterMs: 1000 } });
  }),
  defineTool("slow").handle(async (_args, ctx) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    return { late: true };
  }),
];

/** What a condition must read as: its class (and no narrower one of the family) and its code. */
interface Expected {
  readonly class: typeof McpliteError | typeof ProtocolError | typeof ToolError;
  readonly code: ErrorCode;
}

function assertReads(error: unknown, expected: Expected, where: string): void {
  assert.ok(error instanceof McpliteError, `${where}: not an McpliteError: ${error}`);
  assert.ok(error instanceof expected.class, `${where}: ${error.name} (${error.code}) is not a ${expected.class.name}`);
  for (const narrower of [ProtocolError, ToolError]) {
    if (narrower !== expected.class) assert.ok(!(error instanceof narrower), `${where}: also a ${narrower.name}`);
  }
  assert.equal(error.code, expected.code, `${where}: ${error.message}`);
}

async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  assert.fail("the call did not fail");
}

describe("one error family, one code, on every wire", () => {
  const server = createServer({
    name: "kitchen",
    version: "1.0.0",
    heartbeatMs: 0,
    logger: false, // its handlers throw on purpose: no error line each
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
  });
  for (const tool of tools) server.tool(tool);
  let app: Awaited<ReturnType<typeof serve>>;
  let grpc: GrpcListener;
  let gateway: Awaited<ReturnType<typeof serve>>;
  let closed: string;

  before(async () => {
    app = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
    gateway = await serve(await proxy(`${app.url}/mcp`, { refreshMs: 0 }), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    // A port nothing listens on: the one a listener just gave back.
    const gone = await serve(createServer({ name: "gone", version: "1.0.0" }), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    closed = gone.url;
    await gone.close();
  });

  after(async () => {
    await gateway?.close();
    await grpc?.close();
    await app?.close();
  });

  const wires: Record<string, (base: string) => string | Transport> = {
    "MCP 2026-07-28": (base) => `${base}/mcp`,
    "MCP 2025-11-25": (base) => `${base}/mcp`,
    "MCP-lite": (base) => `${base}/mcp-lite/v1`,
    "gRPC (Connect on fetch)": (base) => grpcTransport(base),
    "Webtools": (base) => createWebtoolsTransport(`${base}/webtools`),
  };
  const clientOf = (wire: string, base: string, timeoutMs?: number) => {
    const target = wires[wire](base);
    const timeout = timeoutMs === undefined ? {} : { timeoutMs };
    if (typeof target !== "string") return createClient(target, { retry: false, ...timeout });
    const transport = wire === "MCP-lite" ? "mcp-lite" : "mcp";
    const version = wire === "MCP 2025-11-25" ? { protocolVersion: "2025-11-25" } : {};
    return createClient(target, { transport, retry: false, ...version, ...timeout });
  };

  const conditions: Record<string, { call: [string, Record<string, unknown>]; expected: Expected }> = {
    "an unknown tool": { call: ["nope", {}], expected: { class: ProtocolError, code: ErrorCode.UnknownTool } },
    "bad arguments": {
      call: ["add", { a: "one", b: 2 }],
      expected: { class: ProtocolError, code: ErrorCode.InvalidArguments },
    },
    "a tool's own failure": { call: ["fail", {}], expected: { class: ToolError, code: ErrorCode.ToolFailed } },
    "a refusal": { call: ["refuse", {}], expected: { class: ProtocolError, code: ErrorCode.PermissionDenied } },
    "a service out of reach": { call: ["busy", {}], expected: { class: ProtocolError, code: ErrorCode.Unavailable } },
    "an application's own JSON-RPC code": {
      call: ["custom", {}],
      expected: { class: ProtocolError, code: ErrorCode.Custom },
    },
    "too many requests": { call: ["flood", {}], expected: { class: ProtocolError, code: ErrorCode.RateLimited } },
  };

  for (const wire of [...Object.keys(wires), "gRPC over HTTP/2", "proxy() over MCP"]) {
    it(`${wire}: every condition reads as its one class and code`, async () => {
      const client = wire === "gRPC over HTTP/2"
        ? createClient(grpcTransport(grpcOverH2(grpc.url), { baseUrl: grpc.url }), { retry: false })
        : wire === "proxy() over MCP"
        ? createClient(`${gateway.url}/mcp`, { transport: "mcp", retry: false })
        : clientOf(wire, app.url);
      try {
        for (const [condition, { call: [name, args], expected }] of Object.entries(conditions)) {
          const error = await thrown(() => client.call(name as never, args as never));
          // A gateway calls with its own credentials: the remote's refusal is the gateway's, and its caller is told
          // the remote is unavailable for now (reason `credentials_refused`), never that the caller itself was refused.
          const asGateway = wire === "proxy() over MCP" && condition === "a refusal";
          assertReads(
            error,
            asGateway ? { class: ProtocolError, code: ErrorCode.Unavailable } : expected,
            `${wire}, ${condition}`,
          );
          if (asGateway) {
            assert.equal((error as ProtocolError & { data: { reason: string } }).data.reason, "credentials_refused");
          }
        }
        const failed = await thrown(() => client.call("fail" as never, {} as never)) as ToolError;
        assert.equal(failed.message, "the oven is cold", wire);
        assert.deepEqual(failed.data, { oven: "cold" }, wire);
        assert.equal(failed.tool, "fail", wire);
        assert.equal((await client.call("add" as never, { a: 1, b: 2 } as never) as { sum: number }).sum, 3, wire);
      } finally {
        await client.close?.();
      }
    });
  }

  for (const wire of Object.keys(wires)) {
    it(`${wire}: the client's own conditions (no server, no answer in time) read alike`, async () => {
      const down = clientOf(wire, closed);
      try {
        assertReads(await thrown(() => down.call("add" as never, { a: 1, b: 2 } as never)), {
          class: McpliteError,
          code: ErrorCode.Transport,
        }, `${wire}, no server`);
      } finally {
        await down.close?.();
      }
      const impatient = clientOf(wire, app.url, 150);
      try {
        assertReads(await thrown(() => impatient.call("slow" as never, {} as never)), {
          class: McpliteError,
          code: ErrorCode.Timeout,
        }, `${wire}, no answer in time`);
      } finally {
        await impatient.close?.();
      }
    });
  }
});
