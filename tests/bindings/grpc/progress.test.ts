/**
 * `CallToolStream` streams the progress a handler reports with `ctx.progress()` while it runs, not
 * only the progress of deferred work (MCP-lite spec v0.042 §5.3): as every other wire does, over real
 * gRPC on `serveGrpc()` (grpc-js's own client and ours) and over Connect on `server.fetch`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient as createConnectClient } from "@connectrpc/connect";
import { closeClientSessions, grpcOverH2 } from "../../helpers/h2-sessions.ts";
import * as v from "valibot";
import { createServer, defineTool } from "../../../mod.ts";
import { grpcBinding, type GrpcListener, MCPLite, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import type { Progress } from "../../../src/client/transport.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";

/** A handler that is not deferred: it reports progress, then answers. */
const steps = defineTool("steps").describe("Reports each step").input(v.object({ n: v.number() })).handle(
  async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) {
      ctx.progress(i, n, `step ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 1)); // the handler's own work between steps
    }
    return `${n} steps`;
  },
);

const EXPECTED: Progress[] = [
  { progress: 1, total: 3, message: "step 1" },
  { progress: 2, total: 3, message: "step 2" },
  { progress: 3, total: 3, message: "step 3" },
];

describe("CallToolStream: a handler's own ctx.progress()", () => {
  const server = createServer({ name: "progress", version: "1.0.0", bindings: [grpcBinding()] }).tool(steps);
  let grpc: GrpcListener;
  before(async () => {
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });
  after(() => (closeClientSessions(), grpc.close())); // the clients leave before the GOAWAY (h2-sessions.ts)

  it("arrives as progress messages before the answer, over gRPC on serveGrpc()", async () => {
    const connect = createConnectClient(MCPLite, grpcOverH2(grpc.url));
    const messages = [];
    for await (const message of connect.callToolStream({ name: "steps", arguments: { n: 3 } })) messages.push(message);
    assert.deepEqual(messages.slice(0, 3).map((m) => m.result?.progress), EXPECTED);
    assert.equal(messages.length, 4);
    assert.equal(messages[3].meta !== undefined, true);
    assert.deepEqual(messages[3].result?.content, [{ type: "text", text: "3 steps" }]);
  });

  it("reaches our client's onProgress, over gRPC and over Connect on server.fetch", async () => {
    const transports = {
      grpc: grpcTransport(grpcOverH2(grpc.url)),
      connect: grpcTransport("http://localhost", { fetch: (input, init) => server.fetch(new Request(input, init)) }),
    };
    for (const [wire, transport] of Object.entries(transports)) {
      const client = createClient(transport);
      const seen: Progress[] = [];
      const answer = await client.call("steps", { n: 3 }, { onProgress: (p) => seen.push(p) });
      assert.equal(String(answer), "3 steps", wire);
      assert.deepEqual(seen, EXPECTED, wire);
      await client.close();
    }
  });
});
