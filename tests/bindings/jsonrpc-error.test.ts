import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { servedCode, type ServedErrorCode } from "../../src/errors/error.ts";
import { errorToWire } from "../../src/bindings/jsonrpc-error.ts";
import { legacyErrorToWire, modernErrorToWire } from "../../src/errors/mcp-codes.ts";
import { errorCodeToWire } from "../../src/errors/mcplite-codes.ts";

/** The codes only a client meets: a server answers them as the nearest code it serves, so no wire's table has them. */
const CLIENT_ONLY = new Set<ErrorCode>([
  "tool_error",
  "protocol",
  "transport",
  "timeout",
  "cancelled",
  "input_required",
  "unsupported",
]);
const SERVED = Object.values(ErrorCode).filter((code): code is ServedErrorCode => !CLIENT_ONLY.has(code));

/** Each code's JSON-RPC code and HTTP status on 2026-07-28 (MCP 2026-07-28, Basic and Streamable HTTP). */
const MODERN: Record<ServedErrorCode, [number, number]> = {
  parse_error: [-32700, 400],
  invalid_request: [-32600, 400],
  method_not_found: [-32601, 404],
  unknown_tool: [-32602, 200],
  invalid_arguments: [-32602, 200],
  invalid_envelope: [-32602, 400],
  invalid_params: [-32602, 200],
  invalid_config: [-32602, 200],
  payload_too_large: [-32600, 413],
  request_timeout: [-32600, 408],
  unsupported_media_type: [-32600, 415],
  method_not_allowed: [-32600, 405],
  forbidden: [-32000, 403],
  unauthenticated: [-32001, 401],
  permission_denied: [-32003, 403],
  header_mismatch: [-32020, 400],
  missing_capability: [-32021, 400],
  unsupported_version: [-32022, 400],
  resource_not_found: [-32602, 200],
  rate_limited: [-32029, 200],
  deadline_exceeded: [-32603, 200],
  internal: [-32603, 200],
  unavailable: [-32603, 503],
  custom: [-32000, 200], // the row's code stands in for the error's own `rpcCode`, which errorToWire sends
};

/** The 2025 revisions: JSON-RPC errors on 200, but for the transport's bad requests. */
const LEGACY: Record<ServedErrorCode, [number, number]> = {
  ...MODERN,
  method_not_found: [-32601, 200],
  invalid_envelope: [-32602, 200],
  resource_not_found: [-32002, 200],
  missing_capability: [-32021, 200],
};

/** MCP-lite (MCP-lite spec v0.042 §4.4, A.5): the call's own failures get an HTTP status too. */
const LITE: Record<ServedErrorCode, [number, number]> = {
  ...MODERN,
  method_not_found: [-32601, 200],
  unknown_tool: [-32601, 200],
  invalid_envelope: [-32602, 200],
  forbidden: [-32600, 403],
  rate_limited: [-32029, 429],
  deadline_exceeded: [-32603, 504],
  internal: [-32603, 500],
};

describe("the JSON-RPC wires' status tables", () => {
  const wires: [
    string,
    (code: ErrorCode) => { code: number; status: number },
    Record<ServedErrorCode, [number, number]>,
  ][] = [
    ["MCP 2026-07-28", modernErrorToWire, MODERN],
    ["MCP 2025", legacyErrorToWire, LEGACY],
    ["MCP-lite", errorCodeToWire, LITE],
  ];
  for (const [wire, table, expected] of wires) {
    it(`maps every error code to ${wire}'s JSON-RPC code and HTTP status`, () => {
      for (const code of SERVED) {
        const [rpc, status] = expected[code];
        assert.deepEqual({ ...table(code) }, { code: rpc, status }, code);
      }
      // A code only a client meets, thrown by a handler on purpose, is answered as the nearest one served.
      for (const code of CLIENT_ONLY) assert.deepEqual(table(code), table(servedCode(code)), code);
    });
    it(`sends a custom JSON-RPC code as raised on ${wire}, as the call's error on 200`, () => {
      const wire = errorToWire(new ProtocolError(-32001, "Custom error", { data: { retry: false } }), table);
      assert.deepEqual({ ...wire }, { code: -32001, status: 200, message: "Custom error", data: { retry: false } });
    });
  }
});
