/**
 * gRPC unary `CallTool` on `server.fetch` (`grpcBinding()`, Connect's unary protocol, JSON and binary),
 * before and after, in CPU time in one process: this checkout's server and an earlier checkout's, both
 * serving the `add` tool, beside a floor (a bare fetch handler that decodes the same request and answers
 * the sum as a `ToolResponse`, with protobuf-es for the binary row). Each request carries its
 * `Content-Length`, as a socket's does. Rows interleaved in blocks timed by `process.cpuUsage()`, the
 * median block kept (`cpuTimePerCall`).
 *
 *   bun bench/grpc-fetch.ts --before /tmp/before [--block 2000]
 *   deno run -A bench/grpc-fetch.ts --before /tmp/before
 *
 * @module
 */
import process from "node:process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ToolRequestSchema, ToolResponseSchema } from "../src/bindings/grpc/mod.ts";
import { type CpuRow, cpuTimePerCall, runtime } from "./harness.ts";
import { AddInput, type Fetch } from "./servers/common.ts";

/** What the rows need of a checkout. */
interface Checkout {
  createServer(options: { name: string; version: string; bindings: unknown[] }): {
    tool(t: unknown): { fetch: Fetch };
  };
  defineTool(name: string): any;
  grpcBinding(): unknown;
}

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};

async function load(root: string): Promise<Checkout> {
  return {
    ...await import(pathToFileURL(join(root, "mod.ts")).href),
    ...await import(pathToFileURL(join(root, "src/bindings/grpc/mod.ts")).href),
  } as Checkout;
}

/** A checkout's server: the `add` tool, answering synchronously, on Connect over `fetch`. */
function ours(sdk: Checkout): Fetch {
  const add = sdk.defineTool("add").describe("Adds two numbers").input(AddInput)
    .handle(({ a, b }: { a: number; b: number }) => ({ sum: a + b }));
  const server = sdk.createServer({ name: "bench", version: "1.0.0", bindings: [sdk.grpcBinding()] }).tool(add);
  return (request) => server.fetch(request);
}

const URL = "http://localhost/mcplite.MCPLite/CallTool";
const JSON_BODY = JSON.stringify({ name: "add", arguments: { a: 1, b: 2 } });
const PROTO_BODY = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name: "add", arguments: { a: 1, b: 2 } }));

const jsonRequest = () =>
  new Request(URL, {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(JSON_BODY.length) },
    body: JSON_BODY,
  });
const protoRequest = () =>
  new Request(URL, {
    method: "POST",
    headers: { "content-type": "application/proto", "content-length": String(PROTO_BODY.byteLength) },
    body: PROTO_BODY,
  });

/** The floor: decodes the request, answers the sum as a `ToolResponse` (JSON or binary), nothing else. */
const floor: Fetch = async (request) => {
  if (request.headers.get("content-type") === "application/proto") {
    const call = fromBinary(ToolRequestSchema, new Uint8Array(await request.arrayBuffer()));
    const { a, b } = call.arguments as { a: number; b: number };
    const text = JSON.stringify({ sum: a + b });
    const response = create(ToolResponseSchema, {
      result: { content: [{ content: { case: "text", value: { text } } }], structuredContent: { sum: a + b } },
    });
    return new Response(toBinary(ToolResponseSchema, response), { headers: { "content-type": "application/proto" } });
  }
  const { arguments: { a, b } } = await request.json();
  return Response.json({
    result: { content: [{ text: { text: JSON.stringify({ sum: a + b }) } }], structuredContent: { sum: a + b } },
  });
};

if (import.meta.main) {
  const beforeRoot = flag("before", "");
  if (beforeRoot === "") {
    console.error("usage: bench/grpc-fetch.ts --before <checkout of the earlier commit>");
    process.exit(2);
  }
  const after = ours(await load(resolve(import.meta.dirname ?? ".", "..")));
  const before = ours(await load(resolve(beforeRoot)));
  const rows: CpuRow[] = [];
  for (const [shape, request] of [["JSON", jsonRequest], ["binary", protoRequest]] as const) {
    rows.push([`${shape} floor`, floor, request], [`${shape} before`, before, request], [
      `${shape} after`,
      after,
      request,
    ]);
  }
  const times = await cpuTimePerCall(rows, "", Number(flag("block", "2000")));
  const rt = runtime();
  console.log(
    `${rt.name} ${rt.version} — gRPC CallTool on server.fetch (Connect unary), CPU µs per call, median of 40 blocks`,
  );
  for (const shape of ["JSON", "binary"]) {
    const f = times.get(`${shape} floor`)!, b = times.get(`${shape} before`)!, a = times.get(`${shape} after`)!;
    console.log(
      `${shape.padEnd(6)} floor ${f.toFixed(2)} · before ${b.toFixed(2)} (${(b / f).toFixed(2)}×) · after ${
        a.toFixed(2)
      } (${(a / f).toFixed(2)}×) · after ÷ before ${(a / b).toFixed(3)}`,
    );
  }
}
