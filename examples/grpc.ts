/**
 * gRPC: the same tools as the `mcplite.MCPLite` service (MCP-lite spec §5), two ways at once.
 *
 *   bun run examples/grpc.ts          (production: Bun or Node serve the HTTP/2 listener)
 *   bun build examples/grpc.ts --target node --outfile grpc.mjs && node grpc.mjs   (Node: gRPC only)
 *   deno run -A --unstable-no-legacy-abort examples/grpc.ts   (development; see the README's gRPC section)
 *
 * - PORT (default 8000): `server.fetch` with MCP-lite, MCP, and Connect + gRPC-Web at /mcplite.MCPLite/*
 *   (HTTP/1.1, browser-friendly; plain gRPC gets 415 there).
 * - GRPC_PORT (default 50051): real gRPC, plus Connect and gRPC-Web, over cleartext HTTP/2.
 *
 * Try it (the schema is this repository's buf module):
 *
 *   buf curl --protocol grpc --http2-prior-knowledge --schema . \
 *     -d '{"name":"search_documents","arguments":{"query":"mcp"}}' http://127.0.0.1:50051/mcplite.MCPLite/CallTool
 *   buf curl --protocol grpc --http2-prior-knowledge --schema . \
 *     -d '{"name":"generate_report","arguments":{"topic":"q4"}}' http://127.0.0.1:50051/mcplite.MCPLite/CallToolStream
 *   buf curl --protocol connect --schema . http://127.0.0.1:8000/mcplite.MCPLite/GetTools
 *   buf curl --protocol grpcweb --schema . -d '{"name":"search_documents","arguments":{"query":"grpc"}}' \
 *     http://127.0.0.1:8000/mcplite.MCPLite/CallTool
 *   curl -s -H 'content-type: application/json' -d '{"name":"search_documents","arguments":{"query":"mcp"}}' \
 *     http://127.0.0.1:8000/mcplite.MCPLite/CallTool
 */
import * as v from "valibot";
import { createServer, defineTool, env, mcpBinding, mcpLiteBinding, serve } from "../mod.ts";
import { grpcBinding, serveGrpc } from "../src/bindings/grpc/mod.ts";

const DOCUMENTS = [
  { id: "doc_1", title: "MCP Protocol Overview" },
  { id: "doc_2", title: "MCP-lite over gRPC" },
  { id: "doc_3", title: "Streaming tool results" },
];

const search = defineTool("search_documents")
  .type("query")
  .describe("Search through available documents")
  .input(v.object({
    query: v.pipe(v.string(), v.minLength(1), v.description("Search query")),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 10),
  }))
  .output(v.object({ hits: v.array(v.object({ id: v.string(), title: v.string() })) }))
  .handle(({ query, limit }) => ({
    hits: DOCUMENTS.filter((d) => d.title.toLowerCase().includes(query.toLowerCase())).slice(0, limit),
  }));

/** On CallToolStream each line is one ToolResponse; the last carries the whole report and the meta. */
const report = defineTool("generate_report")
  .type("report")
  .describe("Writes a short report, line by line")
  .input(v.object({ topic: v.string() }))
  .stream(async function* ({ topic }, ctx) {
    for (const line of [`Report: ${topic}\n`, "Revenue grew 15%.\n", "Costs fell 3%.\n"]) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (ctx.signal.aborted) return; // a cancelled call or a passed deadline stops the work
      yield line;
    }
  });

// MCP-lite, MCP, and Connect + gRPC-Web on server.fetch; serveGrpc() below adds real gRPC on HTTP/2.
const server = createServer({
  name: "docs",
  version: "1.0.0",
  bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding()],
})
  .tool(search)
  .tool(report);

const grpc = await serveGrpc(server, {
  hostname: env("HOSTNAME") ?? "127.0.0.1",
  port: Number(env("GRPC_PORT") ?? 50051),
});
console.log(`gRPC, Connect and gRPC-Web (h2c) on ${grpc.url}`);
// serve() runs on Deno.serve or Bun.serve; on Node (e.g. after `bun build --target node`) only gRPC listens.
if ("Deno" in globalThis || "Bun" in globalThis) {
  const http = await serve(server, { quiet: true }); // the line below says more
  console.log(`MCP-lite, MCP, Connect and gRPC-Web (server.fetch) on ${http.url}`);
}
