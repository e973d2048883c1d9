/**
 * MCP's tables from error codes to JSON-RPC codes and HTTP statuses, one per era. A JSON-RPC error
 * travels with HTTP 200 unless the transport spec assigns a status (MCP 2025-11-25 and 2026-07-28,
 * Streamable HTTP; Authorization): clients read a 4xx or 5xx as a transport failure and lose the
 * JSON-RPC code, so a handler's error, an internal error and a rate limit stay on 200.
 *
 * @module
 */
import { ErrorCode } from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { McpErrorCode } from "../../internal/mcp-wire.ts";
import type { WireError } from "../jsonrpc-error.ts";

/**
 * Maps an error code for a 2026-07-28 request (MCP 2026-07-28, Basic: error codes, and Streamable HTTP).
 *
 * @param code The error code.
 * @returns The JSON-RPC code and HTTP status.
 */
export function modernErrorToWire(code: ErrorCode): WireError {
  switch (code) {
    case ErrorCode.MethodNotFound: // unknown and removed methods are 404 in the stateless revision
      return { code: -32601, status: 404 };
    case ErrorCode.InvalidEnvelope: // missing _meta, protocolVersion or clientCapabilities
      return { code: -32602, status: 400 };
    case ErrorCode.ResourceNotFound: // -32002 is retired in 2026-07-28
      return { code: -32602, status: 200 };
    default:
      return sharedErrorToWire(code);
  }
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
  switch (code) {
    case ErrorCode.MethodNotFound:
      return { code: -32601, status: 200 };
    case ErrorCode.InvalidEnvelope:
      return { code: -32602, status: 200 };
    case ErrorCode.ResourceNotFound: // the 2025 revisions' "resource not found"
      return { code: -32002, status: 200 };
    case ErrorCode.MissingCapability: // no transport status in 2025: the call's own error
      return { code: McpErrorCode.MissingCapability, status: 200 };
    default:
      return sharedErrorToWire(code);
  }
}

function sharedErrorToWire(code: ErrorCode): WireError {
  switch (code) {
    case ErrorCode.ParseError:
      return { code: -32700, status: 400 };
    case ErrorCode.InvalidRequest:
      return { code: -32600, status: 400 };
    case ErrorCode.UnknownTool: // MCP: an unknown tool is invalid params, not an unknown method
    case ErrorCode.InvalidArguments:
    case ErrorCode.InvalidParams:
    case ErrorCode.InvalidConfig:
      return { code: -32602, status: 200 };
    case ErrorCode.RequestTimeout: // RFC 9110 §15.5.9: the body did not arrive in time
      return { code: -32600, status: 408 };
    case ErrorCode.PayloadTooLarge:
      return { code: -32600, status: 413 };
    case ErrorCode.UnsupportedMediaType:
      return { code: -32600, status: 415 };
    case ErrorCode.MethodNotAllowed:
      return { code: -32600, status: 405 };
    case ErrorCode.Forbidden:
      return { code: -32000, status: 403 };
    case ErrorCode.Unauthenticated:
      return { code: -32001, status: 401 };
    case ErrorCode.PermissionDenied:
      return { code: -32003, status: 403 };
    case ErrorCode.RateLimited: // raised by middleware; no transport status assigned, the client keeps the code
      return { code: -32029, status: 200 };
    case ErrorCode.HeaderMismatch:
      return { code: McpErrorCode.HeaderMismatch, status: 400 };
    case ErrorCode.MissingCapability: // 2026-07-28, Streamable HTTP: 400 (2025: see legacyErrorToWire)
      return { code: McpErrorCode.MissingCapability, status: 400 };
    case ErrorCode.UnsupportedVersion:
      return { code: McpErrorCode.UnsupportedVersion, status: 400 };
    case ErrorCode.DeadlineExceeded:
      return { code: -32603, status: 200 };
    case ErrorCode.Internal: // the reference servers answer 200, and clients then surface -32603
      return { code: -32603, status: 200 };
    case ErrorCode.Custom: // the application's own code (its `rpcCode` replaces this one), on 200 as the call's error
      return { code: -32000, status: 200 };
    case ErrorCode.MethodNotFound:
    case ErrorCode.InvalidEnvelope:
    case ErrorCode.ResourceNotFound:
      return { code: -32602, status: 200 }; // handled per era above
    default:
      return assertNever(code);
  }
}
