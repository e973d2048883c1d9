/**
 * The gateway the proxy's tests serve: remote servers grouped into a server of ours that speaks every
 * wire (MCP, MCP-lite, Webtools, OpenAPI, Connect/gRPC over fetch), served on 127.0.0.1, and the plain
 * HTTP clients of its REST wires.
 */
import { createServer } from "../../mod.ts";
import type { Server } from "../../src/server/server.ts";
import { mcpBinding } from "../../src/bindings/mcp/handler.ts";
import { mcpLiteBinding } from "../../src/bindings/mcplite/handler.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { openapiBinding } from "../../src/bindings/openapi/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { serve } from "../../src/server/serve.ts";
import { run } from "../helpers/process.ts";
import { LOADED_MS, readUntil } from "../helpers/wait.ts";

/** A server of ours on every wire. */
export function gatewayServer(): Server {
  return createServer({
    name: "gateway",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), openapiBinding(), grpcBinding()],
  });
}

/**
 * Serves a remote of ours on 127.0.0.1 and counts the `subscriptions/listen` streams it answered (MCP 2026-07-28): a
 * proxy hears the remote's changes once one is open, so a test waits for it before changing the remote.
 */
export async function listenedRemote(
  remote: Server,
): Promise<{ url: string; listens(): number; close(): Promise<void> }> {
  let listens = 0;
  const listener = await serve({
    fetch: async (request: Request) => {
      const response = await remote.fetch(request);
      if (request.headers.get("mcp-method") === "subscriptions/listen" && response.ok) listens++;
      return response;
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  return { url: listener.url, listens: () => listens, close: () => listener.close() };
}

/** Serves a server on 127.0.0.1; the URL and how to stop it. */
export async function served(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  return { url: listener.url, close: () => listener.close() };
}

/**
 * Calls a tool as a client generated from the OpenAPI document would: finds the operation by its id in
 * `GET /api/openapi.json`, then sends its request body to its path.
 */
export async function callOpenApi(base: string, tool: string, args: unknown): Promise<Response> {
  const document = await (await fetch(`${base}/api/openapi.json`)).json();
  const found = Object.entries(document.paths as Record<string, Record<string, { operationId?: string }>>)
    .find(([, item]) => item.post?.operationId === tool);
  if (found === undefined) throw new Error(`no operation ${tool} in the OpenAPI document`);
  return await fetch(`${base}${found[0]}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(args),
  });
}

/** Executes a tool on the Webtools wire (`POST /webtools/`). */
export async function callWebtools(base: string, action: string, request: unknown): Promise<Response> {
  return await fetch(`${base}/webtools/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action, request }),
  });
}

/** Calls a tool with @grpc/grpc-js under Node: the result, or the status code. */
export async function callGrpcJs(
  address: string,
  tool: string,
  args: unknown,
  token?: string,
): Promise<Record<string, any>> {
  const script = ["tests/proxy/clients/grpc-js-call.mjs", address, tool, JSON.stringify(args)];
  const out = await run("node", token === undefined ? script : [...script, token]);
  if (out.code !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

/** Waits (bounded: {@link LOADED_MS} by default) until a state that announces itself by no event holds. */
export async function waitFor(what: string, holds: () => boolean | Promise<boolean>, ms = LOADED_MS): Promise<void> {
  await readUntil(holds, (held) => held, `waiting for ${what}`, { timeoutMs: ms, everyMs: 25 });
}
