/**
 * The client's gRPC transport against the server's gRPC binding: Connect over `server.fetch` (in
 * process, via the `fetch` option) and real gRPC over HTTP/2 against `serveGrpc()`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { closeClientSessions, grpcOverH2 } from "../../helpers/h2-sessions.ts";
import { createServer, defineTool } from "../../../mod.ts";
import { grpcBinding, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { ErrorCode, type McpliteError } from "../../../src/errors/mod.ts";
import type { Reply, RequestContext, Transport } from "../../../src/client/transport.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";
import { grpcServer } from "../../bindings/grpc/grpc-fixtures.ts";

const server = grpcServer();

function context(extra: Partial<RequestContext> = {}): RequestContext {
  return {
    signal: new AbortController().signal,
    activity: () => {},
    capabilities: {},
    clientInfo: { name: "tests", version: "0.0.0" },
    stream: false,
    answer: () => Promise.reject(new Error("no handler")),
    ...extra,
  };
}

async function failure(promise: Promise<unknown>): Promise<McpliteError> {
  try {
    await promise;
  } catch (error) {
    return error as McpliteError;
  }
  assert.fail("expected a failure");
}

async function exercise(transport: Transport): Promise<void> {
  assert.equal(transport.wire, "grpc");
  const { tools } = await transport.listTools(context());
  const add = tools.find((t) => t.name === "add");
  assert.equal(add?.["@type"], "math");
  assert.deepEqual(add?.inputSchema.required, ["a", "b"]);

  const sum = await transport.callTool({ name: "add", arguments: { a: 1, b: 2 } }, context());
  assert.equal(sum.kind, "complete");
  assert.deepEqual((sum as Reply & { kind: "complete" }).result.structuredContent, { sum: 3 });

  const partials: unknown[] = [];
  const streamed = await transport.callTool(
    { name: "countdown", arguments: { count: 2 } },
    context({ stream: true, onPartial: (p) => partials.push(p) }),
  );
  assert.deepEqual(partials, ["2 ", "1 ", "liftoff"]);
  assert.deepEqual((streamed as Reply & { kind: "complete" }).result.content, [{ type: "text", text: "2 1 liftoff" }]);

  const failed = await transport.callTool({ name: "fails", arguments: {} }, context());
  assert.equal((failed as Reply & { kind: "complete" }).result.isError, true);

  const promised = await transport.callTool({ name: "analyze_dataset", arguments: { n: 2 } }, context());
  assert.equal(promised.kind, "promise");
  const { token, retryAfterMs, expiresAt } = promised as Reply & { kind: "promise" };
  assert.equal(retryAfterMs, 5);
  assert.ok(Date.parse(expiresAt!) > Date.now());
  const again = await transport.callTool({ name: "redeem", arguments: { promise: token } }, context());
  assert.equal(again.kind, "promise");

  const unknown = await failure(transport.callTool({ name: "ad", arguments: {} }, context()));
  assert.equal(unknown.code, ErrorCode.UnknownTool);
  assert.equal(unknown.message, "Tool not found: ad");
  assert.deepEqual((unknown.data as { available_tools: string[] }).available_tools.slice(0, 2), ["add", "echo"]);
  assert.equal((unknown.data as { suggestion: string }).suggestion, "Did you mean 'add'?");

  const invalid = await failure(transport.callTool({ name: "add", arguments: { a: "x", b: 1 } }, context()));
  assert.equal(invalid.code, ErrorCode.InvalidArguments);
  assert.equal((invalid.data as { issues: { path: string }[] }).issues[0].path, "a");

  const late = await failure(
    transport.callTool({ name: "slow", arguments: { ms: 5000 } }, context({ signal: AbortSignal.timeout(100) })),
  );
  assert.equal((late as Error).name, "TimeoutError"); // the caller's own signal reason
}

describe("grpcTransport", () => {
  it("calls, streams, redeems and classifies errors over Connect on server.fetch", async () => {
    await exercise(
      grpcTransport("http://localhost", { fetch: (input, init) => server.fetch(new Request(input, init)) }),
    );
  });

  it("does the same over gRPC-Web JSON", async () => {
    await exercise(grpcTransport("http://localhost", {
      protocol: "grpc-web",
      binary: false,
      fetch: (input, init) => server.fetch(new Request(input, init)),
    }));
  });

  it("does the same over real gRPC (HTTP/2) against serveGrpc", async () => {
    const listener = await serveGrpc(grpcServer(), { port: 0, closeGraceMs: 200 });
    try {
      await exercise(grpcTransport(grpcOverH2(listener.url)));
    } finally {
      closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
      await listener.close();
    }
  });

  it("reads ELICITATION as input_required, and sends the answers with the state", async () => {
    const confirm = defineTool("confirm")
      .handle(async (_args, ctx) => {
        const answer = await ctx.elicit("ok", {
          message: "Sure?",
          requestedSchema: { type: "object", properties: {} },
        });
        return answer.action;
      });
    const app = createServer({
      name: "c",
      version: "1",
      secret: "grpc-client-secret-0123456789abcdef",
      bindings: [grpcBinding()],
    })
      .tool(confirm);
    const transport = grpcTransport("http://localhost", {
      fetch: (input, init) => app.fetch(new Request(input, init)),
    });
    const first = await transport.callTool({ name: "confirm", arguments: {} }, context());
    assert.equal(first.kind, "input_required");
    const { inputRequests, requestState } = first as Reply & { kind: "input_required" };
    assert.equal(inputRequests.ok.method, "elicitation/create");
    const second = await transport.callTool(
      { name: "confirm", arguments: {}, inputResponses: { ok: { action: "accept", content: {} } }, requestState },
      context(),
    );
    assert.deepEqual((second as Reply & { kind: "complete" }).result.content, [{ type: "text", text: "accept" }]);
  });

  it("given serveGrpc()'s HTTP/2 URL, fails at once naming the form that speaks it, which then works", async () => {
    const listener = await serveGrpc(grpcServer(), { port: 0, closeGraceMs: 200 });
    try {
      const error = await failure(grpcTransport(listener.url).listTools(context()));
      assert.equal(error.code, ErrorCode.Transport, error.message);
      assert.match(error.message, /did not answer in HTTP\/1\.1/);
      assert.ok(
        error.message.includes(`grpcTransport(createGrpcTransport({ baseUrl: "${listener.url}" }))`),
        error.message,
      );
      assert.match(error.message, /@connectrpc\/connect-node/);
      // The form it names lists the same tools (createGrpcTransport, its session closed before the listener).
      const { tools } = await grpcTransport(grpcOverH2(listener.url)).listTools(context());
      assert.ok(tools.some((t) => t.name === "add"));
    } finally {
      closeClientSessions();
      await listener.close();
    }
  });

  it("reports an unreachable server as a transport error", async () => {
    const transport = grpcTransport(createGrpcTransport({ baseUrl: "http://127.0.0.1:1" }));
    const error = await failure(transport.listTools(context()));
    assert.equal(error.code, ErrorCode.Transport);
    // Over fetch, the message names the URL and the runtime's reason (not Node's bare "fetch failed").
    const overFetch = await failure(grpcTransport("http://127.0.0.1:1").listTools(context()));
    assert.equal(overFetch.code, ErrorCode.Transport);
    assert.match(overFetch.message, /^Could not reach http:\/\/127\.0\.0\.1:1\/mcplite\.MCPLite\/GetTools: ./);
  });
});
