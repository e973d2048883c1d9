/**
 * JSON-RPC's table, both ways: the JSON-RPC code and HTTP status each error code is answered with on the JSON-RPC
 * wires (MCP-lite, MCP in both eras: each wire's module overrides the rows its spec assigns otherwise), and the
 * nearest error code to a JSON-RPC error a client reads from a server that names none.
 *
 * @module
 */
import { ErrorCode, NAMED_RPC_CODES, type ServedErrorCode } from "./error.ts";
import { codeOfHttpStatus } from "./http-status.ts";
import { McpErrorCode } from "../internal/mcp-wire.ts";

/** A JSON-RPC error code with the HTTP status that carries it. */
export interface WireError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The HTTP status. */
  readonly status: number;
}

/** A wire's table from error codes to JSON-RPC codes and HTTP statuses. */
export type StatusTable = (code: ErrorCode) => WireError;

/** A JSON-RPC code and HTTP status for every error code. */
export type WireErrorRows = Readonly<Record<ServedErrorCode, WireError>>;

/** The rows as written: `[JSON-RPC code, HTTP status]` for each error code (made {@link WireError}s once, at load). */
export type WireRows = Readonly<Record<ServedErrorCode, readonly [code: number, status: number]>>;

/**
 * The rows the JSON-RPC wires (MCP-lite, MCP in both eras) share: errors of the HTTP envelope carry a
 * 4xx status, errors of the call itself travel with 200, as JSON-RPC intends (JSON-RPC 2.0 §5.1 for the
 * codes). Each wire's `status.ts` overrides the rows its spec assigns otherwise.
 */
function sharedRows(): WireRows {
  // A function, not a constant: a module that imports this one for the client's table bundles none of these rows.
  return {
    ["parse_error"]: [-32700, 400],
    ["invalid_request"]: [-32600, 400],
    ["method_not_found"]: [-32601, 200],
    ["unknown_tool"]: [-32602, 200], // MCP: invalid params, not an unknown method
    ["invalid_arguments"]: [-32602, 200], // the failing paths go in data
    ["invalid_params"]: [-32602, 200],
    ["invalid_config"]: [-32602, 200],
    ["invalid_envelope"]: [-32602, 200],
    ["resource_not_found"]: [-32602, 200],
    ["request_timeout"]: [-32600, 408], // RFC 9110 §15.5.9: the body did not arrive in time
    ["payload_too_large"]: [-32600, 413],
    ["unsupported_media_type"]: [-32600, 415],
    ["method_not_allowed"]: [-32600, 405],
    ["forbidden"]: [-32000, 403],
    ["unauthenticated"]: [-32001, 401], // implementation-defined server error range
    ["permission_denied"]: [-32003, 403],
    ["rate_limited"]: [-32029, 200], // raised by middleware; the client keeps the code
    ["header_mismatch"]: [McpErrorCode.HeaderMismatch, 400],
    ["missing_capability"]: [McpErrorCode.MissingCapability, 400],
    ["unsupported_version"]: [McpErrorCode.UnsupportedVersion, 400],
    ["deadline_exceeded"]: [-32603, 200],
    ["internal"]: [-32603, 200], // the MCP reference servers answer 200; clients surface -32603
    // A dependency of ours is down (an issuer's keys, the shared store): JSON-RPC 2.0 §5.1 "Internal error", the
    // fault being ours (MCP 2026-07-28, Basic: -32000..-32019 are old implementation-defined codes, -32020..-32099
    // the spec's), told apart by `data.reason: "unavailable"`; 503 with `Retry-After` (RFC 9110 §15.6.4) says retry.
    ["unavailable"]: [-32603, 503],
    // The application's own code: `errorToWire` sends the error's `rpcCode` in place of this one, on 200 as the
    // call's error (JSON-RPC 2.0 §5.1 leaves -32099..-32000 and codes outside -32768..-32000 to the application).
    ["custom"]: [-32000, 200],
  };
}

/**
 * A wire's rows: the shared JSON-RPC rows with the wire's own overrides, frozen once at load so a
 * lookup allocates nothing.
 *
 * @param overrides The rows where the wire's spec differs from the shared ones.
 * @returns Every error code's JSON-RPC code and HTTP status.
 */
export function wireErrorRows(overrides: Partial<WireRows>): WireErrorRows {
  const rows: Record<string, WireError> = {};
  for (const [name, [code, status]] of Object.entries({ ...sharedRows(), ...overrides })) {
    rows[name] = Object.freeze({ code, status });
  }
  return Object.freeze(rows) as WireErrorRows;
}

/** JSON-RPC 2.0 §5.1's named codes, and the ones MCP 2026-07-28 (Basic: error codes) adds. */
const BY_JSONRPC_CODE: ReadonlyMap<number, ErrorCode> = /* @__PURE__ */ new Map([
  ...NAMED_RPC_CODES,
  [-32002, "resource_not_found"], // MCP 2025-11-25, Resources: error handling
  [-32020, "header_mismatch"],
  [-32021, "missing_capability"],
  [-32022, "unsupported_version"],
]);

/**
 * The nearest error code to a JSON-RPC error without `data.code`: the HTTP status where it names a
 * condition (a 401 carries -32001 on our servers, another code elsewhere), else the code; any other
 * number is the server application's own (`custom`).
 *
 * @param code The JSON-RPC code.
 * @param status The HTTP status that carried it, if any.
 * @returns The error code.
 */
export function codeOfJsonRpc(code: number, status?: number): ErrorCode {
  return codeOfHttpStatus(status) ?? BY_JSONRPC_CODE.get(code) ?? "custom";
}
