// What the API reference's landing page says of each entry point jsr.json exports: one line of purpose and the guide
// that teaches it (a page of this site, without its extension). docs/scripts/api.mjs refuses to build when an entry point
// is missing here, so a new one cannot go unlisted. The longer account of each is docs/public-api.md.

/** @type {Record<string, { purpose: string, guide: string }>} */
export const ENTRY_POINTS = {
  ".": {
    purpose: "Define tools, resources and prompts; serve them on MCP-lite and MCP.",
    guide: "getting-started/index",
  },
  "./lite": {
    purpose: "The same API with MCP-lite the one default wire: a smaller bundle, capabilities passed as values.",
    guide: "concepts/one-definition-many-wires",
  },
  "./types": {
    purpose: "The types the public API names, for annotating your own code (no runtime code).",
    guide: "public-api",
  },
  "./binding": {
    purpose: "The contract a binding author needs to serve the same tools on a new wire.",
    guide: "public-api",
  },
  "./webtools": {
    purpose: "The Webtools binding: the tools as a plain, versioned, pinnable HTTP API (opt-in).",
    guide: "guides/webtools",
  },
  "./openapi": {
    purpose: "An OpenAPI 3.1 document of your tools, and tools made from a document.",
    guide: "guides/openapi",
  },
  "./proxy": {
    purpose:
      "A remote MCP or MCP-lite server (a URL, a stdio command, a client) served as one of yours, on every wire.",
    guide: "guides/composing",
  },
  "./grpc": {
    purpose: "gRPC, Connect and gRPC-Web: the fetch binding and `serveGrpc()` over HTTP/2.",
    guide: "guides/grpc",
  },
  "./codec": {
    purpose: "The signed tokens of promises and cursors, signed and verified without a server.",
    guide: "concepts/long-running",
  },
  "./errors": {
    purpose: "The one error family of servers and clients: `McpliteError`, `ProtocolError`, `ToolError`, `ErrorCode`.",
    guide: "concepts/errors",
  },
  "./client": {
    purpose: "The typed client: calls tools over MCP-lite or MCP, typed by the server's type.",
    guide: "guides/client",
  },
  "./client/auth": {
    purpose:
      "The client's authorization flows: a user's consent, client credentials, enterprise and workload identity.",
    guide: "guides/client-authorization",
  },
  "./client/webtools": {
    purpose: "The client's Webtools transport, its version pin, and Webtools as AI SDK tools.",
    guide: "guides/webtools",
  },
  "./client/grpc": { purpose: "The client's gRPC and Connect transport.", guide: "guides/grpc" },
  "./client/stdio": {
    purpose: "The client's stdio transport: launches a local server and speaks to it.",
    guide: "guides/stdio",
  },
  "./client/websocket": { purpose: "The client's MCP-lite over WebSocket transport.", guide: "guides/websocket" },
  "./stdio": { purpose: "Serves a server over stdin and stdout, for local hosts.", guide: "guides/stdio" },
  "./websocket": { purpose: "MCP-lite over WebSocket on the server.", guide: "guides/websocket" },
  "./deno": {
    purpose: "`serve()` on `Deno.serve`, chosen by import rather than by runtime detection.",
    guide: "getting-started/deno",
  },
  "./bun": {
    purpose: "`serve()` on `Bun.serve`, and `bunWebSocket` for WebSocket upgrades on Bun.",
    guide: "getting-started/bun",
  },
  "./node": {
    purpose: "`nodeHandler()` for `node:http`, Express and other Node frameworks; WebSocket on a Node server.",
    guide: "guides/mounting",
  },
  "./auth": {
    purpose: "JWT bearer and DPoP authentication of the server's callers (RFC 6750, RFC 9449).",
    guide: "guides/authorization",
  },
  "./auth-server": {
    purpose: "An authorization server: ID-JAGs and workload JWTs redeemed for DPoP-bound tokens (SEP-990, SEP-1933).",
    guide: "guides/authorization-server",
  },
  "./cli": { purpose: "The `mcplite` command line (exports nothing).", guide: "guides/cli" },
  "./skills": {
    purpose: "Agent Skills (SEP-2640): skills from a `SKILL.md` or a folder, published by the server.",
    guide: "guides/skills",
  },
  "./events": {
    purpose: "MCP Events (SEP-3415, ChatGPT's MCP Events): events a server defines and delivers to webhooks.",
    guide: "guides/events",
  },
  "./apps": { purpose: "MCP Apps (SEP-1865) on the server: a tool's interactive `ui://` view.", guide: "guides/apps" },
  "./apps/view": {
    purpose: "MCP Apps in the browser: the view connects to its host and calls tools back, typed.",
    guide: "guides/apps",
  },
  "./redis": { purpose: "A Redis result store and notifier, for many instances.", guide: "guides/many-instances" },
  "./deno-kv": { purpose: "A Deno KV result store, for many instances.", guide: "guides/many-instances" },
  "./postgres": {
    purpose: "A PostgreSQL result store and a LISTEN/NOTIFY notifier, for many instances.",
    guide: "guides/many-instances",
  },
  "./bullmq": {
    purpose: "A BullMQ job queue (Redis, Valkey or PostgreSQL), for workers that run long-running jobs.",
    guide: "guides/many-instances",
  },
  "./durable-object": {
    purpose: "A Cloudflare Durable Object result store, for a Worker's many isolates.",
    guide: "guides/cloudflare-workers",
  },
  "./testing": {
    purpose: "Conformance cases for a result store or a job queue of your own, under any test runner.",
    guide: "guides/own-store-or-queue",
  },
  "./otel": { purpose: "OpenTelemetry traces and metrics of a server and its clients.", guide: "guides/observability" },
  "./code-mode": {
    purpose: "Code mode: a model's program against the server's tools, run in a sandbox (QuickJS in WebAssembly).",
    guide: "guides/code-mode",
  },
};
