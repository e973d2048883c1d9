/**
 * One failure, one name (issue 51, "One error vocabulary"): an unknown tool, bad arguments, a refused token
 * (401) and a scope refusal (403 `insufficient_scope`) carry the same `ErrorCode` in the client's error
 * (`err.code`), in its CLIENT span and in the server's SERVER span (`error.type`, OpenTelemetry semantic
 * conventions, Recording errors), on MCP, MCP-lite, gRPC (Connect) and Webtools; what each wire answered
 * stays in `rpc.response.status_code` (MCP 2026-07-28 answers an unknown tool -32602, MCP-lite -32601).
 * A refused token is refused at the server's edge before the request is read: the server's span for it is
 * an HTTP server span (the MCP method is unknown), with the same `error.type`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind } from "@opentelemetry/api";
import { Code } from "@connectrpc/connect";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../src/errors/mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { type Client, createClient } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createWebtoolsTransport } from "../../src/client/transports/webtools.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";
import { type Recorded, registerSdk } from "./telemetry.ts";

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);
const audit = defineTool("audit").describe("Reads the audit log").scopes("docs:admin").handle(() => "log");

/** How a client of each wire is made, with a token. */
const WIRES: Record<string, (url: string, token: string) => Client> = {
  "MCP 2026-07-28": (url, token) =>
    createClient(`${url}/mcp`, {
      transport: "mcp",
      protocolVersion: "2026-07-28",
      headers: bearer(token),
      telemetry: otelClient(),
    }),
  "MCP 2025-11-25": (url, token) =>
    createClient(`${url}/mcp`, {
      transport: "mcp",
      protocolVersion: "2025-11-25",
      headers: bearer(token),
      telemetry: otelClient(),
    }),
  "MCP-lite": (url, token) =>
    createClient(`${url}/mcp-lite/v1`, { transport: "mcp-lite", headers: bearer(token), telemetry: otelClient() }),
  "gRPC (Connect)": (url, token) =>
    createClient(grpcTransport(url, { headers: bearer(token) }), { telemetry: otelClient() }),
  Webtools: (url, token) =>
    createClient(createWebtoolsTransport(`${url}/webtools`, { headers: bearer(token) }), { telemetry: otelClient() }),
};

/** Each condition: the token, the call, and the code every side names it by. */
const CONDITIONS = [
  { label: "an unknown tool", token: "reader", tool: "nope", args: {}, code: ErrorCode.UnknownTool },
  { label: "bad arguments", token: "reader", tool: "add", args: { a: 1, b: "two" }, code: ErrorCode.InvalidArguments },
  {
    label: "a refused token (401)",
    token: "forged",
    tool: "add",
    args: { a: 1, b: 2 },
    code: ErrorCode.Unauthenticated,
  },
  {
    label: "a scope refusal (403 insufficient_scope)",
    token: "reader",
    tool: "audit",
    args: {},
    code: ErrorCode.PermissionDenied,
  },
] as const;

describe("one error vocabulary: the client's error and both spans name a failure by its ErrorCode", () => {
  let recorded: Recorded;
  let listener: Listener;
  before(async () => {
    recorded = registerSdk();
    const made: { app?: ReturnType<typeof createServer> } = {};
    listener = await serve({ fetch: (request) => made.app!.fetch(request) }, {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    made.app = createServer({
      name: "vocabulary",
      version: "1.0.0",
      heartbeatMs: 0,
      auth: opaqueAuth(listener.url),
      bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding(), webtoolsBinding()],
    }).tool(add).tool(audit).use(otel());
  });
  after(async () => {
    await listener.close();
    await recorded.close();
  });

  for (const [wire, connect] of Object.entries(WIRES)) {
    for (const condition of CONDITIONS) {
      it(`${wire}: ${condition.label} is ${condition.code} in err.code and in both spans`, async () => {
        recorded.reset();
        const client = connect(listener.url, condition.token);
        let caught: unknown;
        try {
          await client.call(condition.tool as never, condition.args as never);
        } catch (error) {
          caught = error;
        } finally {
          await client.close();
        }
        assert.ok(caught instanceof McpliteError, `${wire}: ${String(caught)}`);
        assert.equal(caught.code, condition.code, `${wire}: err.code (${caught.name}: ${caught.message})`);
        if (condition.code === ErrorCode.Unauthenticated) {
          // Refused at the edge before its body is read, the request names no MCP method: the server's
          // span is an HTTP server span (`POST`, `http.response.status_code` 401), a child of the CLIENT
          // span of the refused request (MCP's first is `server/discover` or `initialize`); both name the
          // failure as err.code does.
          const failed = recorded.spans().filter((span) => span.attributes["error.type"] !== undefined);
          const client = failed.find((span) => span.kind === SpanKind.CLIENT);
          const server = failed.find((span) => span.kind === SpanKind.SERVER);
          assert.ok(client !== undefined, `${wire}: no failed CLIENT span`);
          assert.ok(server !== undefined, `${wire}: no failed SERVER span`);
          assert.equal(server.name, "POST", `${wire}: the edge's span`);
          assert.equal(server.attributes["http.request.method"], "POST");
          assert.equal(server.attributes["http.response.status_code"], 401, `${wire}: the status answered`);
          assert.equal(
            server.parentSpanContext?.spanId,
            client.spanContext().spanId,
            `${wire}: the edge's span is the client span's child`,
          );
          for (const span of failed) {
            assert.equal(span.attributes["error.type"], condition.code, `${wire}: ${span.name} error.type`);
          }
          return;
        }
        const spans = recorded.spans().filter((span) => span.name === `tools/call ${condition.tool}`);
        const kinds = spans.map((span) => SpanKind[span.kind]).sort();
        assert.deepEqual(kinds, ["CLIENT", "SERVER"], `${wire}: the call's spans`);
        for (const span of spans) {
          assert.equal(span.attributes["error.type"], condition.code, `${wire}: ${SpanKind[span.kind]} error.type`);
        }
      });
    }
  }
});

describe("one error vocabulary: a deadline the server reports is deadline_exceeded on both sides", () => {
  let recorded: Recorded;
  let listener: Listener;
  before(async () => {
    recorded = registerSdk();
    // Waits until its call's deadline aborts it, and fails with the abort's reason (bounded: 10 s at most).
    const slow = defineTool("slow").describe("Waits for its deadline").handle((_args, ctx) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => resolve("late"), 10_000);
        ctx.signal.addEventListener("abort", () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
      })
    );
    const made: { app?: ReturnType<typeof createServer> } = {};
    listener = await serve({ fetch: (request) => made.app!.fetch(request) }, {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    made.app = createServer({ name: "deadlines", version: "1.0.0", bindings: [grpcBinding()] }).tool(slow)
      .use(otel());
  });
  after(async () => {
    await listener.close();
    await recorded.close();
  });

  it("gRPC (Connect): the server's DEADLINE_EXCEEDED is an McpliteError with code deadline_exceeded", async () => {
    recorded.reset();
    // The deadline travels to the server (Connect protocol, `connect-timeout-ms`); the client sets no timer of its own.
    const client = createClient(grpcTransport(listener.url, { headers: { "connect-timeout-ms": "50" } }), {
      telemetry: otelClient(),
    });
    let caught: unknown;
    try {
      await client.call("slow" as never, {} as never);
    } catch (error) {
      caught = error;
    } finally {
      await client.close();
    }
    assert.ok(caught instanceof McpliteError && !(caught instanceof ProtocolError), String(caught));
    assert.equal(caught.code, ErrorCode.DeadlineExceeded);
    const spans = recorded.spans().filter((span) => span.name === "tools/call slow");
    assert.deepEqual(spans.map((span) => SpanKind[span.kind]).sort(), ["CLIENT", "SERVER"]);
    for (const span of spans) {
      assert.equal(span.attributes["error.type"], ErrorCode.DeadlineExceeded, `${SpanKind[span.kind]} error.type`);
    }
  });

  it("the client's own timer stays timeout, a condition only the client meets", async () => {
    const client = createClient(grpcTransport(listener.url), { telemetry: otelClient() });
    try {
      const late = await client.call("slow" as never, {} as never, { timeoutMs: 50 }).catch((error) => error);
      assert.ok(late instanceof McpliteError && !(late instanceof ProtocolError), String(late));
      assert.equal(late.code, ErrorCode.Timeout);
    } finally {
      await client.close();
    }
  });
});

describe("one error vocabulary: serveGrpc() refuses a token at its edge with a server span too", () => {
  let recorded: Recorded;
  before(() => {
    recorded = registerSdk();
  });
  after(() => recorded.close());
  const served = grpcListener(
    createServer({ name: "h2", version: "1.0.0", auth: opaqueAuth("https://api.example.com") }).tool(add).use(otel()),
  );

  for (const [kind, status] of [["gRPC", 200], ["Connect", 401]] as const) {
    it(`${kind}: a refused token is an HTTP server span with error.type unauthenticated`, async () => {
      recorded.reset();
      const refused = await rejection(served.client(kind).getTools({}, { headers: bearer("forged") }));
      assert.equal(refused.code, Code.Unauthenticated);
      const spans = recorded.spans().filter((span) => span.kind === SpanKind.SERVER);
      assert.equal(spans.length, 1, `${kind}: ${spans.map((span) => span.name)}`);
      assert.equal(spans[0].name, "POST");
      assert.equal(spans[0].attributes["error.type"], ErrorCode.Unauthenticated);
      assert.equal(spans[0].attributes["http.response.status_code"], status);
      assert.equal(spans[0].attributes["url.path"], "/mcplite.MCPLite/GetTools");
    });
  }

  it("gRPC: a foreign Origin refused by the listener's guard is a server span with error.type forbidden", async () => {
    recorded.reset();
    const refused = await rejection(
      served.client("gRPC").getTools({}, { headers: { ...bearer("reader"), origin: "https://evil.example" } }),
    );
    assert.equal(refused.code, Code.PermissionDenied);
    const spans = recorded.spans().filter((span) => span.kind === SpanKind.SERVER);
    assert.deepEqual(spans.map((span) => [span.name, span.attributes["error.type"]]), [["POST", ErrorCode.Forbidden]]);
  });
});
