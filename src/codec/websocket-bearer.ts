/**
 * A bearer token carried in the `Sec-WebSocket-Protocol` header (RFC 6455 §4.1), as Kubernetes does
 * (`base64url.bearer.authorization.k8s.io.<token>`): a browser's `WebSocket` cannot set
 * `Authorization`, and a token in the query string ends up in logs (RFC 6750 §2.3 discourages it).
 * The client offers two subprotocols, the MCP-lite one and the token; the server answers with the
 * MCP-lite one only, so the token is never echoed.
 *
 * @module
 */
import { base64urlDecode, base64urlEncode } from "./base64url.ts";

/** The subprotocol of MCP-lite over WebSocket, the one a server selects. */
export const WEBSOCKET_PROTOCOL = "mcp-lite.v1";

/** The prefix of the subprotocol that carries a bearer token, base64url-encoded (RFC 4648 §5, no padding). */
export const BEARER_PROTOCOL_PREFIX = "base64url.bearer.authorization.mcp-lite.";

/**
 * The subprotocol that carries a token.
 *
 * @param token The access token.
 * @returns `base64url.bearer.authorization.mcp-lite.<base64url(token)>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bearerFromProtocols, bearerProtocol } from "./websocket-bearer.ts";
 * const offered = `mcp-lite.v1, ${bearerProtocol("abc.def")}`;
 * assert.equal(bearerFromProtocols(offered), "abc.def");
 * ```
 */
export function bearerProtocol(token: string): string {
  return BEARER_PROTOCOL_PREFIX + base64urlEncode(new TextEncoder().encode(token));
}

/**
 * Reads the token a client offered among its subprotocols.
 *
 * @param header The `Sec-WebSocket-Protocol` header (comma-separated), or `null`.
 * @returns The token; `undefined` when none was offered; `""` for one that does not decode.
 */
export function bearerFromProtocols(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const offered of header.split(",")) {
    const protocol = offered.trim();
    if (!protocol.startsWith(BEARER_PROTOCOL_PREFIX)) continue;
    const bytes = base64urlDecode(protocol.slice(BEARER_PROTOCOL_PREFIX.length));
    if (bytes === undefined) return "";
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return "";
    }
  }
  return undefined;
}
