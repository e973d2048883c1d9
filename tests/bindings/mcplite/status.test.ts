import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../../mod.ts";
import { errorCodeToWire } from "../../../src/bindings/mcplite/status.ts";

/** Each code's JSON-RPC code and HTTP status (MCP-lite spec v0.042 §4.4, A.5). */
const LITE: Record<ErrorCode, [number, number]> = {
  parse_error: [-32700, 400],
  invalid_request: [-32600, 400],
  method_not_found: [-32601, 200],
  unknown_tool: [-32601, 200],
  invalid_arguments: [-32602, 200],
  invalid_envelope: [-32602, 200],
  invalid_params: [-32602, 200],
  invalid_config: [-32602, 200],
  payload_too_large: [-32600, 413],
  request_timeout: [-32600, 408],
  unsupported_media_type: [-32600, 415],
  method_not_allowed: [-32600, 405],
  forbidden: [-32600, 403],
  unauthenticated: [-32001, 401],
  permission_denied: [-32003, 403],
  header_mismatch: [-32020, 400],
  missing_capability: [-32021, 400],
  unsupported_version: [-32022, 400],
  resource_not_found: [-32602, 200],
  rate_limited: [-32029, 429],
  deadline_exceeded: [-32603, 504],
  internal: [-32603, 500],
};

describe("MCP-lite status table", () => {
  it("maps every error code to its JSON-RPC code and HTTP status", () => {
    for (const code of Object.values(ErrorCode)) {
      const [rpc, status] = LITE[code];
      assert.deepEqual({ ...errorCodeToWire(code) }, { code: rpc, status }, code);
    }
  });
});
