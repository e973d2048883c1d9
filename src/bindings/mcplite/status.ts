/**
 * MCP-lite's table from error codes to JSON-RPC codes (MCP-lite spec v0.042 §4.4, A.5) and HTTP statuses.
 *
 * @module
 */
import { ErrorCode } from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { McpErrorCode } from "../../internal/mcp-wire.ts";
import type { WireError } from "../jsonrpc-error.ts";

/**
 * Maps an error code to MCP-lite's JSON-RPC code and HTTP status. Errors of the HTTP envelope carry
 * a 4xx status; errors of the call itself travel in a 200 response, as JSON-RPC intends.
 *
 * @param code The error code.
 * @returns The JSON-RPC code and HTTP status.
 */
export function errorCodeToWire(code: ErrorCode): WireError {
  switch (code) {
    case ErrorCode.ParseError:
      return { code: -32700, status: 400 };
    case ErrorCode.InvalidRequest:
      return { code: -32600, status: 400 };
    case ErrorCode.MethodNotFound:
      return { code: -32601, status: 200 };
    case ErrorCode.UnknownTool: // MCP-lite spec v0.042 A.5: "Tool not found" is -32601
      return { code: -32601, status: 200 };
    case ErrorCode.InvalidArguments: // MCP-lite reports schema failures as -32602 with the paths in data
    case ErrorCode.InvalidParams:
    case ErrorCode.InvalidConfig:
    case ErrorCode.InvalidEnvelope:
    case ErrorCode.ResourceNotFound:
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
      return { code: -32600, status: 403 };
    case ErrorCode.Unauthenticated: // implementation-defined server error range
      return { code: -32001, status: 401 };
    case ErrorCode.PermissionDenied:
      return { code: -32003, status: 403 };
    case ErrorCode.RateLimited:
      return { code: -32029, status: 429 };
    case ErrorCode.HeaderMismatch:
      return { code: McpErrorCode.HeaderMismatch, status: 400 };
    case ErrorCode.MissingCapability:
      return { code: McpErrorCode.MissingCapability, status: 400 };
    case ErrorCode.UnsupportedVersion:
      return { code: McpErrorCode.UnsupportedVersion, status: 400 };
    case ErrorCode.DeadlineExceeded:
      return { code: -32603, status: 504 };
    case ErrorCode.Internal:
      return { code: -32603, status: 500 };
    case ErrorCode.Custom: // the application's own code (its `rpcCode` replaces this one): the call's error, on 200
      return { code: -32000, status: 200 };
    default:
      return assertNever(code);
  }
}
