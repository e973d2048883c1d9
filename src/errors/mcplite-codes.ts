/**
 * MCP-lite's table from error codes to JSON-RPC codes (MCP-lite spec v0.042 §4.4, A.5) and HTTP statuses.
 *
 * @module
 */
import { type ErrorCode, servedCode } from "./error.ts";
import { type WireError, wireErrorRows } from "./jsonrpc-codes.ts";

/** The shared JSON-RPC rows, but where MCP-lite gives the call's own failures an HTTP status too. */
const ROWS = wireErrorRows({
  ["unknown_tool"]: [-32601, 200], // MCP-lite spec v0.042 A.5: "Tool not found" is -32601
  ["forbidden"]: [-32600, 403],
  ["rate_limited"]: [-32029, 429],
  ["deadline_exceeded"]: [-32603, 504],
  ["internal"]: [-32603, 500],
});

/**
 * Maps an error code to MCP-lite's JSON-RPC code and HTTP status. Errors of the HTTP envelope carry
 * a 4xx status; errors of the call itself travel in a 200 response, as JSON-RPC intends.
 *
 * @param code The error code.
 * @returns The JSON-RPC code and HTTP status.
 */
export function errorCodeToWire(code: ErrorCode): WireError {
  return ROWS[servedCode(code)];
}
