/**
 * `buf curl` (node_modules/.bin/buf) as an independent gRPC, Connect and gRPC-Web client, against
 * `serveGrpc()` (h2c) and against `server.fetch` behind `serve()` (HTTP/1.1). The schema is the
 * repository's buf module, so error details decode too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromBinary } from "@bufbuild/protobuf";
import { serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { ErrorInfoSchema } from "../../../src/gen/google/rpc/error_details_pb.ts";
import { type GrpcListener, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { grpcServer, ROOT, run } from "./grpc-fixtures.ts";

const BUF = `${ROOT}node_modules/.bin/buf`;

function bufCurl(protocol: "grpc" | "connect" | "grpcweb", url: string, body: unknown, h2 = true) {
  const args = ["curl", "--protocol", protocol, "--schema", ".", "-d", JSON.stringify(body), url];
  if (h2) args.splice(1, 0, "--http2-prior-knowledge");
  return run(BUF, args, 20_000);
}

function parseAll(stdout: string): Record<string, any>[] {
  // buf curl prints one pretty JSON object per message.
  return JSON.parse(`[${stdout.trim().replace(/\n}\n{/g, "\n},\n{")}]`);
}

describe("buf curl", () => {
  let grpc: GrpcListener;
  let http: Listener;
  before(async () => {
    grpc = await serveGrpc(grpcServer(), { port: 0, closeGraceMs: 500 });
    http = await serve(grpcServer(), { port: 0, quiet: true });
  });
  after(async () => {
    await Promise.all([grpc.close(), http.close()]);
  });

  it("calls serveGrpc in gRPC, Connect and gRPC-Web modes over h2c", async () => {
    const stream = `${grpc.url}/mcplite.MCPLite/CallToolStream`;
    const body = { name: "countdown", arguments: { count: 2 } };
    const runs = await Promise.all(
      (["grpc", "connect", "grpcweb"] as const).map((protocol) => bufCurl(protocol, stream, body)),
    );
    for (const out of runs) {
      assert.equal(out.code, 0, out.stderr);
      const messages = parseAll(out.stdout);
      assert.deepEqual(messages.map((m) => m.result.partial), ["2 ", "1 ", "liftoff", undefined]);
      assert.equal(messages[3].result.content[0].text, "2 1 liftoff");
      assert.equal(messages[3].meta.serverVersion, "1.2.3");
    }
  });

  it("shows NOT_FOUND with the ErrorInfo details in gRPC mode", async () => {
    const out = await bufCurl("grpc", `${grpc.url}/mcplite.MCPLite/CallTool`, { name: "ad" });
    assert.notEqual(out.code, 0);
    const error = JSON.parse(out.stderr);
    assert.equal(error.code, "not_found");
    assert.equal(error.message, "Tool not found: ad");
    assert.equal(error.details[0].type, "google.rpc.ErrorInfo");
    const bytes = Uint8Array.from(
      atob(error.details[0].value.replace(/-/g, "+").replace(/_/g, "/")),
      (c) => c.charCodeAt(0),
    );
    const info = fromBinary(ErrorInfoSchema, bytes);
    assert.equal(info.metadata.requested_tool, "ad");
    assert.equal(info.metadata.suggestion, "Did you mean 'add'?");
  });

  it("calls server.fetch in Connect and gRPC-Web modes over HTTP/1.1, and never serves plain gRPC", async () => {
    const unary = `${http.url}/mcplite.MCPLite/CallTool`;
    const body = { name: "add", arguments: { a: 2, b: 40 } };
    const [connect, grpcWeb, plain] = await Promise.all([
      bufCurl("connect", unary, body, false),
      bufCurl("grpcweb", unary, body, false),
      bufCurl("grpc", unary, body),
    ]);
    for (const out of [connect, grpcWeb]) {
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(parseAll(out.stdout)[0].result.structuredContent, { sum: 42 });
    }
    // gRPC is h2c: Deno.serve speaks it and answers 415; Bun.serve is HTTP/1.1 only, so the h2
    // connection itself fails (unavailable or a broken pipe, depending on timing).
    assert.notEqual(plain.code, 0);
    if ("Deno" in globalThis) assert.match(plain.stderr, /415/);
  });
});
