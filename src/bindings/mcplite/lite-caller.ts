/**
 * What an MCP-lite request tells about its caller, the same over HTTP and stdio.
 *
 * @module
 */
import type { CallMeta } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import type { JsonRpcId } from "../jsonrpc.ts";

/**
 * Describes an MCP-lite request's caller for `ctx.meta`: its headers and JSON-RPC id, the `_meta` it
 * sent (trace context travels there, MCP SEP-414), and `pipe` over stdio.
 *
 * @param headers The request's headers (fresh ones over stdio: a handler may set some).
 * @param id The JSON-RPC id.
 * @param params The request's params.
 * @param piped Whether the request came through a pipe (stdio) rather than TCP (HTTP, a WebSocket).
 * @returns The call metadata.
 */
export function liteCallMeta(
  headers: Headers,
  id: JsonRpcId,
  params: Readonly<Record<string, unknown>>,
  piped = false,
): CallMeta {
  const sent = params._meta;
  const meta: { -readonly [K in keyof CallMeta]: CallMeta[K] } = { wire: "mcp-lite", headers, requestId: id };
  if (isObject(sent)) meta.requestMeta = sent;
  if (piped) meta.transport = "pipe";
  return meta;
}
