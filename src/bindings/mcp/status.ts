/**
 * MCP's tables from error codes to JSON-RPC codes and HTTP statuses, one per era.
 *
 * @module
 */
import { ErrorCode } from "../../core/error.ts";
import { assertNever } from "../../internal/assert-never.ts";
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
 * means "session expired".
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
    case ErrorCode.RateLimited:
      return { code: -32029, status: 429 };
    case ErrorCode.HeaderMismatch:
      return { code: -32020, status: 400 };
    case ErrorCode.MissingCapability:
      return { code: -32021, status: 400 };
    case ErrorCode.UnsupportedVersion:
      return { code: -32022, status: 400 };
    case ErrorCode.DeadlineExceeded:
      return { code: -32603, status: 200 };
    case ErrorCode.Internal:
      return { code: -32603, status: 500 };
    case ErrorCode.MethodNotFound:
    case ErrorCode.InvalidEnvelope:
    case ErrorCode.ResourceNotFound:
      return { code: -32602, status: 200 }; // handled per era above
    default:
      return assertNever(code);
  }
}
