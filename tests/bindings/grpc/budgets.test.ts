/**
 * The server's budgets on `serveGrpc()` as gRPC clients meet them. One backend client multiplexing
 * 300 unary `CallTool`s on one connection (grpc-js, the canonical Node client) is an ordinary client:
 * with the default budgets every call is answered. Past a caller's share (set small here), a refused
 * call carries its status, `RESOURCE_EXHAUSTED` with `retry-after` and the refusal's `ErrorInfo`, to
 * grpc-js and to Connect-ES, never a stream reset without one ("Call ended without gRPC status").
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { type GrpcListener, MCPLite, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import type { Limits } from "../../../src/core/instance/budgets.ts";
import { gated, gatedProbe, grpcJs, grpcServer, openGate, refusalsOf, waitFor } from "./grpc-fixtures.ts";
import { closeClientSessions, DENO_H2_ABORTS, grpcOverH2 } from "../../helpers/h2-sessions.ts";

const listeners: GrpcListener[] = [];
after(async () => {
  closeClientSessions(); // before the listeners' GOAWAY (tests/helpers/h2-sessions.ts)
  await Promise.all(listeners.map((listener) => listener.close()));
});

/** A listener, and how many calls its budgets refused so far. */
async function listen(limits: Limits): Promise<GrpcListener & { refused: () => number }> {
  const server = grpcServer({ limits }).tool(gated);
  const refused = refusalsOf(server);
  const listener = await serveGrpc(server, { port: 0, closeGraceMs: 500 });
  listeners.push(listener);
  return Object.assign(listener, { refused });
}

/**
 * Runs `calls`, which make `count` calls of `gated`, and opens the gate once each of them is in: held at the gate
 * or refused. The admitted calls are then all in flight at once, however slowly a loaded machine sends them.
 */
async function allIn<T>(listener: { refused: () => number }, count: number, calls: () => Promise<T>): Promise<T> {
  const held = gatedProbe.held, refused = listener.refused();
  const done = calls();
  await waitFor(() => gatedProbe.held - held + listener.refused() - refused >= count);
  openGate();
  return await done;
}

describe("serveGrpc's budgets", () => {
  it(
    "answers 300 concurrent CallTool on one grpc-js connection with the default budgets",
    // Deno's node:http2 aborts the whole process under this load (an nghttp2 assertion in
    // find_stream_on_goaway_func as the client's GOAWAY arrives, denoland/deno#36788; 120 calls suffice),
    // as node.test.ts's stress says: it runs on Bun, where serveGrpc() is meant for production.
    {
      timeout: 60_000,
      skip: DENO_H2_ABORTS,
    },
    async () => {
      const listener = await listen({});
      const report = await allIn(listener, 300, () => grpcJs(`127.0.0.1:${listener.port}`, "concurrent", 300));
      assert.deepEqual(report.codes, { OK: 300 }, JSON.stringify(report.refused));
    },
  );

  it(
    "refuses past a caller's share with RESOURCE_EXHAUSTED and retry information, to grpc-js",
    { timeout: 60_000 },
    async () => {
      const listener = await listen({ perCaller: { calls: 10 } });
      const report = await allIn(listener, 40, () => grpcJs(`127.0.0.1:${listener.port}`, "concurrent", 40));
      assert.equal(report.codes.OK >= 10, true, JSON.stringify(report.codes));
      assert.equal((report.codes.OK ?? 0) + (report.codes.RESOURCE_EXHAUSTED ?? 0), 40, JSON.stringify(report));
      assert.equal(report.refused.code, "RESOURCE_EXHAUSTED");
      assert.match(report.refused.message, /^Too busy \(limits\.perCaller\.calls\); retry in \d+ s$/);
      assert.match(report.refused.trailers["retry-after"], /^\d+$/);
      const info = report.refused.details.find((d: { type: string }) => d.type.endsWith("google.rpc.ErrorInfo"));
      assert.equal(info.value.reason, "RATE_LIMITED");
      assert.ok(Number(info.value.metadata.retryAfterMs) > 0, JSON.stringify(info));
    },
  );

  it(
    "refuses past a caller's share with RESOURCE_EXHAUSTED, to Connect-ES over gRPC",
    { timeout: 60_000 },
    async () => {
      const listener = await listen({ perCaller: { calls: 10 } });
      const client = createClient(MCPLite, grpcOverH2(listener.url));
      const outcomes = await allIn(listener, 40, () =>
        Promise.all(
          Array.from(
            { length: 40 },
            () =>
              // Held at the gate: the first calls still run when the last arrive, however loaded the machine.
              client.callTool({ name: "gated" }).then(() => "OK", (error) => {
                const e = ConnectError.from(error);
                return e.code === Code.ResourceExhausted ? "RESOURCE_EXHAUSTED" : `${Code[e.code]}: ${e.rawMessage}`;
              }),
          ),
        ));
      const codes: Record<string, number> = {};
      for (const outcome of outcomes) {
        codes[outcome] = (codes[outcome] ?? 0) + 1;
      }
      assert.deepEqual(Object.keys(codes).sort(), ["OK", "RESOURCE_EXHAUSTED"], JSON.stringify(codes));
    },
  );
});
