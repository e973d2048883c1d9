/**
 * A server that adopts the `org.example/ledger` extension (./ledger.ts) beside its tools, on MCP (both
 * revisions), MCP-lite, a WebSocket and gRPC, for callers with a bearer token: this example's opaque demo tokens
 * (`TOKENS`); a real server verifies its authorization server's (`jwtAuth()` from `@mcplite/sdk/auth`).
 *
 *   deno run -A --unstable-no-legacy-abort examples/extension/server.ts      bun run examples/extension/server.ts
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment.
 */
import process from "node:process";
import { type AuthInfo, createServer, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { ledger } from "./ledger.ts";

/** The accounts the ledger keeps. */
export const accounts = new Map([["alice", 100], ["bob", 20]]);
/** The accounts clients said they audited (`org.example/ledger/audited`). */
export const audits: string[] = [];

/** The demo tokens, by token: each stands for an account holder and what it may do. */
export const TOKENS: Readonly<Record<string, AuthInfo>> = {
  "alice-token": { subject: "alice", scopes: ["ledger:write"] },
  "bob-token": { subject: "bob", scopes: ["ledger:write"] },
  "auditor-token": { subject: "carol", scopes: [] }, // reads balances, posts nothing
};

const port = Number(process.env.PORT ?? 8000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

/** The server, for `serve()` or a test. */
export const server = createServer({
  name: "bank",
  version: "1.0.0",
  bindings: [mcpBinding(), mcpLiteBinding(), webSocketBinding(), grpcBinding()],
  auth: protectedResource({
    resource: `http://${hostname}:${port}`,
    authorizationServers: ["https://auth.example.com"],
    scopesSupported: ["ledger:write"],
    verify: (token) => TOKENS[token],
  }),
}).extension(ledger(accounts, audits));

if (import.meta.main) await serve(server, { port, hostname });
