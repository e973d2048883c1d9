import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../../mod.ts";
import { legacyErrorToWire, modernErrorToWire } from "../../../src/bindings/mcp/status.ts";

/** Each code's JSON-RPC code and HTTP status on 2026-07-28 (MCP 2026-07-28, Basic and Streamable HTTP). */
const MODERN: Record<ErrorCode, [number, number]> = {
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
};

/** The 2025 revisions: JSON-RPC errors on 200, but for the transport's bad requests. */
const LEGACY: Record<ErrorCode, [number, number]> = {
  ...MODERN,
  method_not_found: [-32601, 200],
  invalid_envelope: [-32602, 200],
  resource_not_found: [-32002, 200],
  missing_capability: [-32021, 200],
};

describe("MCP status tables", () => {
  it("maps every error code for a 2026-07-28 request", () => {
    for (const code of Object.values(ErrorCode)) {
      const [rpc, status] = MODERN[code];
      assert.deepEqual({ ...modernErrorToWire(code) }, { code: rpc, status }, code);
    }
  });

  it("maps every error code for a 2025-era request", () => {
    for (const code of Object.values(ErrorCode)) {
      const [rpc, status] = LEGACY[code];
      assert.deepEqual({ ...legacyErrorToWire(code) }, { code: rpc, status }, code);
    }
  });
});
