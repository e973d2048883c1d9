/**
 * MCP's tables from error codes to JSON-RPC codes and HTTP statuses, one per era. A JSON-RPC error
 * travels with HTTP 200 unless the transport spec assigns a status (MCP 2025-11-25 and 2026-07-28,
 * Streamable HTTP; Authorization): clients read a 4xx or 5xx as a transport failure and lose the
 * JSON-RPC code, so a handler's error, an internal error and a rate limit stay on 200. A dependency
 * that is down (`unavailable`) is 503 with `Retry-After` (RFC 9110 §15.6.4), as on every other wire; its
 * body still carries -32603 with `data.reason: "unavailable"` for clients that read it.
 *
 * @module
 */
import { type ErrorCode, ProtocolError, servedCode } from "./error.ts";
import { type WireError, wireErrorRows } from "./jsonrpc-codes.ts";
import type { McpErrorCode } from "../internal/mcp-wire.ts";

// The rows are keyed by ErrorCode's literals (checked against it by `wireErrorRows`' type): a bundler keeps a call
// whose arguments read a property, so a server that imports this module but not the binding would bundle both.

/** MCP 2026-07-28, Basic: error codes, and Streamable HTTP. */
const MODERN = /* @__PURE__ */ wireErrorRows({
  method_not_found: [-32601, 404], // unknown and removed methods: 404 when stateless
  invalid_envelope: [-32602, 400], // missing _meta, protocolVersion or clientCapabilities
  // ResourceNotFound: -32602 on 200 (the shared row); -32002 is retired in 2026-07-28
});

/** The 2025 revisions (MCP 2025-11-25, Basic and Streamable HTTP). */
const LEGACY = /* @__PURE__ */ wireErrorRows({
  resource_not_found: [-32002, 200], // the 2025 revisions' "resource not found"
  // McpErrorCode.MissingCapability; no transport status in 2025
  missing_capability: [-32021 satisfies typeof McpErrorCode.MissingCapability, 200],
});

/**
 * Maps an error code for a 2026-07-28 request (MCP 2026-07-28, Basic: error codes, and Streamable HTTP).
 *
 * @param code The error code.
 * @returns The JSON-RPC code and HTTP status.
 */
export function modernErrorToWire(code: ErrorCode): WireError {
  return MODERN[servedCode(code)];
}

/**
 * Maps an error code for a 2025-era request. JSON-RPC errors travel with 200: to a 2025 client a 404
 * means "session expired", and a 400 is kept for what the transport spec calls a bad request (malformed
 * JSON-RPC, an unsupported `MCP-Protocol-Version`). A capability the client did not declare (-32021) is
 * the call's error, on 200.
 *
 * @param code The error code.
 * @returns The JSON-RPC code and HTTP status.
 */
export function legacyErrorToWire(code: ErrorCode): WireError {
  return LEGACY[servedCode(code)];
}

/**
 * Whether MCP answers a `tools/call`'s error as an `isError` tool result rather than a JSON-RPC error:
 * invalid arguments are a tool execution error, so that the model can correct itself (MCP 2025-11-25,
 * Server Features, Tools: Error Handling; SEP-1303).
 *
 * @param error The error the call raised.
 * @returns `true` when the wire answers it as an `isError` result.
 */
export function answersAsToolResult(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError && error.code === "invalid_arguments";
}
