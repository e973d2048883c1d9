/**
 * gRPC Server Reflection (grpc/grpc, doc/server-reflection.md) on `serveGrpc()` and on the fetch
 * binding, asked by `buf curl` (node_modules/.bin/buf) and grpc-js (under Node, the v1alpha revision,
 * the file decoded by protobufjs) with no `.proto` at hand: `buf curl` lists the services
 * and methods over v1 and v1alpha, calls a method with the schema it learnt, and gets the file that
 * declares a symbol, which decodes as a `FileDescriptorProto`. The fetch binding answers over h2c
 * where the runtime's server speaks it (Deno.serve); over HTTP/1.1 (Bun.serve) a client that sends its
 * requests first gets the answers, checked here with `fetch` and Connect's streaming JSON envelopes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createServer, defineTool, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { grpcJs, ROOT, run } from "./grpc-fixtures.ts";
import { opaqueAuth } from "../../helpers/opaque-auth.ts";

const BUF = `${ROOT}node_modules/.bin/buf`;
const SERVICES = ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", "mcplite.MCPLite"];
const METHODS = [
  "grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
  "grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
  "mcplite.MCPLite/CallMethod",
  "mcplite.MCPLite/CallMethodStream",
  "mcplite.MCPLite/CallTool",
  "mcplite.MCPLite/CallToolStream",
  "mcplite.MCPLite/GetPrompt",
  "mcplite.MCPLite/GetPrompts",
  "mcplite.MCPLite/GetResourceTemplates",
  "mcplite.MCPLite/GetResources",
  "mcplite.MCPLite/GetTools",
  "mcplite.MCPLite/ReadResource",
];

const add = defineTool("add").describe("Adds two numbers").handle((args: { a?: number; b?: number }) =>
  (args.a ?? 0) + (args.b ?? 0)
);
const reflected = () => createServer({ name: "reflected", version: "1.0.0", bindings: [grpcBinding()] }).tool(add);

/** Runs `buf curl` over h2c with the given arguments. */
function bufCurl(...args: string[]) {
  return run(BUF, ["curl", "--http2-prior-knowledge", ...args], 20_000);
}

/** Lines of `buf curl`'s output, sorted. */
function lines(stdout: string): string[] {
  return stdout.trim().split("\n").sort();
}

/** The names of the files `file_containing_symbol` answered, decoded, and the first one's services. */
function decodeFiles(stdout: string): { names: string[]; services: Record<string, string[]> } {
  const answer = JSON.parse(stdout);
  const files = (answer.fileDescriptorResponse.fileDescriptorProto as string[]).map((base64) =>
    fromBinary(FileDescriptorProtoSchema, Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)))
  );
  const services = Object.fromEntries(files[0].service.map((s) => [s.name, s.method.map((m) => m.name)]));
  return { names: files.map((file) => file.name), services };
}

describe("gRPC server reflection", () => {
  let grpc: GrpcListener;
  let http: Listener;
  before(async () => {
    grpc = await serveGrpc(reflected(), { port: 0, closeGraceMs: 200 });
    http = await serve(reflected(), { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await Promise.all([grpc.close(), http.close()]);
  });

  it("serveGrpc(): buf curl lists the services (v1 and v1alpha) and the methods", async () => {
    const [v1, v1alpha, methods] = await Promise.all([
      bufCurl("--list-services", "--reflect-protocol", "grpc-v1", grpc.url),
      bufCurl("--list-services", "--reflect-protocol", "grpc-v1alpha", grpc.url),
      bufCurl("--list-methods", grpc.url),
    ]);
    for (const out of [v1, v1alpha, methods]) assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(lines(v1.stdout), SERVICES);
    assert.deepEqual(lines(v1alpha.stdout), SERVICES);
    assert.deepEqual(lines(methods.stdout), METHODS);
  });

  it("serveGrpc(): buf curl calls a method with the schema reflection gave it", async () => {
    const out = await bufCurl(
      "--protocol",
      "grpc",
      "-d",
      JSON.stringify({ name: "add", arguments: { a: 2, b: 40 } }),
      `${grpc.url}/mcplite.MCPLite/CallTool`,
    );
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).result.content[0].text, "42");
  });

  it("serveGrpc(): the file declaring a method, with its imports; an unknown symbol is NOT_FOUND", async () => {
    const ask = (request: unknown) =>
      bufCurl(
        "--protocol",
        "grpc",
        "-d",
        JSON.stringify(request),
        `${grpc.url}/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo`,
      );
    const [symbol, unknown] = await Promise.all([
      ask({ fileContainingSymbol: "mcplite.MCPLite.CallToolStream" }),
      ask({ fileContainingSymbol: "mcplite.Nothing" }),
    ]);
    assert.equal(symbol.code, 0, symbol.stderr);
    const { names, services } = decodeFiles(symbol.stdout);
    assert.deepEqual(names, ["mcplite/mcplite.proto", "google/protobuf/struct.proto"]);
    assert.deepEqual(services.MCPLite, [
      "GetTools",
      "CallTool",
      "CallToolStream",
      "GetPrompts",
      "GetPrompt",
      "GetResources",
      "GetResourceTemplates",
      "ReadResource",
      "CallMethod",
      "CallMethodStream",
    ]);
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.equal(JSON.parse(unknown.stdout).errorResponse.errorCode, 5); // gRPC NOT_FOUND
  });

  it("serveGrpc(): grpc-js asks v1alpha, and decodes the service from the file it gets", async () => {
    const report = await grpcJs(`127.0.0.1:${grpc.port}`, "reflection");
    assert.deepEqual(report.services.sort(), SERVICES);
    assert.deepEqual(report.files, ["mcplite/mcplite.proto", "google/protobuf/struct.proto"]);
    assert.deepEqual(report.methods, [
      "GetTools(.mcplite.Empty) .mcplite.ToolsList",
      "CallTool(.mcplite.ToolRequest) .mcplite.ToolResponse",
      "CallToolStream(.mcplite.ToolRequest) stream .mcplite.ToolResponse",
      "GetPrompts(.mcplite.Empty) .mcplite.PromptsList",
      "GetPrompt(.mcplite.PromptRequest) .mcplite.PromptResponse",
      "GetResources(.mcplite.Empty) .mcplite.ResourcesList",
      "GetResourceTemplates(.mcplite.Empty) .mcplite.ResourceTemplatesList",
      "ReadResource(.mcplite.ResourceRequest) .mcplite.ResourceResponse",
      "CallMethod(.mcplite.MethodRequest) .mcplite.MethodResponse",
      "CallMethodStream(.mcplite.MethodRequest) stream .mcplite.MethodMessage",
    ]);
  });

  it("the fetch binding: buf curl lists the methods over h2c (Deno.serve speaks it; Bun.serve is HTTP/1.1)", async (t) => {
    if (!("Deno" in globalThis)) return t.skip("Bun.serve serves HTTP/1.1 only, and reflection needs a bidi stream");
    const methods = await bufCurl("--protocol", "connect", "--list-methods", http.url);
    assert.equal(methods.code, 0, methods.stderr);
    assert.deepEqual(lines(methods.stdout), METHODS);
  });

  it("the fetch binding: requests sent first are each answered, in order (Connect streaming JSON)", async () => {
    const requests = [
      { listServices: "" },
      { fileByFilename: "mcplite/mcplite.proto" },
      { fileContainingSymbol: "mcplite.ToolRequest" },
      {},
    ];
    const response = await fetch(`${http.url}/grpc.reflection.v1.ServerReflection/ServerReflectionInfo`, {
      method: "POST",
      headers: { "content-type": "application/connect+json" },
      body: concat(requests.map((request) => envelope(0, request))),
    });
    assert.equal(response.status, 200);
    const [listed, file, again, empty, end] = readEnvelopes(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(listed.message.listServicesResponse.service.map((s: { name: string }) => s.name).sort(), SERVICES);
    const names = (answer: Record<string, any>) =>
      answer.fileDescriptorResponse.fileDescriptorProto.map((base64: string) =>
        fromBinary(FileDescriptorProtoSchema, Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))).name
      );
    assert.deepEqual(names(file.message), ["mcplite/mcplite.proto", "google/protobuf/struct.proto"]);
    // The same stream sent struct.proto already: the file asked for comes alone.
    assert.deepEqual(names(again.message), ["mcplite/mcplite.proto"]);
    assert.equal(empty.message.errorResponse.errorCode, 3); // INVALID_ARGUMENT: the request asks nothing
    assert.equal(end.flags, 2); // Connect's end-of-stream message, without an error
    assert.equal(end.message.error, undefined);
  });

  it("a server made with auth authenticates reflection like every call", async () => {
    const guarded = createServer({ name: "guarded", version: "1.0.0", auth: opaqueAuth(`http://127.0.0.1`) }).tool(add);
    const listener = await serveGrpc(guarded, { port: 0, closeGraceMs: 200 });
    try {
      const [anonymous, reader] = await Promise.all([
        bufCurl("--list-services", listener.url),
        bufCurl("--list-services", "--reflect-header", "authorization: Bearer reader", listener.url),
      ]);
      assert.notEqual(anonymous.code, 0);
      assert.match(anonymous.stderr, /not authenticated|unauthenticated/i); // buf curl words UNAUTHENTICATED so
      assert.equal(reader.code, 0, reader.stderr);
      assert.deepEqual(lines(reader.stdout), SERVICES);
    } finally {
      await listener.close();
    }
  });

  it("reflection: false serves only mcplite.MCPLite", async () => {
    const server = createServer({ name: "plain", version: "1.0.0", bindings: [grpcBinding({ reflection: false })] })
      .tool(add);
    const listener = await serveGrpc(server, { port: 0, reflection: false, closeGraceMs: 200 });
    try {
      const listed = await bufCurl("--list-services", listener.url);
      assert.notEqual(listed.code, 0);
      assert.match(listed.stderr, /unimplemented/i);
      const viaFetch = await server.fetch(
        new Request("http://localhost/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", {
          method: "POST",
          headers: { "content-type": "application/connect+json" },
          body: envelope(0, { listServices: "" }),
        }),
      );
      assert.equal(viaFetch.status, 404);
      await viaFetch.body?.cancel();
    } finally {
      await listener.close();
    }
  });
});

/** One Connect streaming envelope: flags, big-endian length, the JSON message. */
function envelope(flags: number, message: unknown): Uint8Array<ArrayBuffer> {
  const body = new TextEncoder().encode(JSON.stringify(message));
  const out = new Uint8Array(5 + body.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, body.length);
  out.set(body, 5);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Reads every envelope of a Connect streaming response. */
function readEnvelopes(bytes: Uint8Array): { flags: number; message: Record<string, any> }[] {
  const out = [];
  for (let at = 0; at < bytes.length;) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getUint32(0);
    const text = new TextDecoder().decode(bytes.subarray(at + 5, at + 5 + length));
    out.push({ flags: bytes[at], message: JSON.parse(text) });
    at += 5 + length;
  }
  return out;
}
