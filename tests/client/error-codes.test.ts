/**
 * The client's error code comes from the server: a server of ours sends its `ErrorCode` (JSON-RPC
 * `error.data.code`); from another server the client takes the nearest to the wire's own code, one table
 * per wire (JSON-RPC code, HTTP status, gRPC status, Webtools code).
 */
import { codeOfWebtools } from "../../src/errors/webtools-codes.ts";
import { codeOfGrpcStatus } from "../../src/errors/grpc-status.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, McpliteError, ProtocolError } from "../../src/errors/mod.ts";
import { errorFromRpc, transportError } from "../../src/client/errors.ts";

describe("the client's error codes", () => {
  it("are the server's: one ErrorCode holds the server's codes and the conditions only a client meets", () => {
    const clientOnly = {
      ToolFailed: "tool_error",
      Protocol: "protocol",
      Transport: "transport",
      Timeout: "timeout",
      Cancelled: "cancelled",
      InputRequired: "input_required",
      Unsupported: "unsupported",
    };
    for (const [name, code] of Object.entries(clientOnly)) {
      assert.equal((ErrorCode as Record<string, string>)[name], code, name);
    }
    assert.equal(new Set(Object.values(ErrorCode)).size, Object.keys(ErrorCode).length, "no code named twice");
  });

  it("reads data.code from a server of ours, whatever the JSON-RPC code", () => {
    const mcp = errorFromRpc({ code: -32602, message: "Unknown tool: x", data: { code: "unknown_tool" } }, {
      method: "tools/call",
      wire: "mcp",
    });
    const lite = errorFromRpc({ code: -32601, message: "Tool not found", data: { code: "unknown_tool" } }, {
      method: "tools/call",
      wire: "mcp-lite",
    });
    assert.ok(mcp instanceof ProtocolError && lite instanceof ProtocolError);
    assert.equal(mcp.code, ErrorCode.UnknownTool);
    assert.equal(lite.code, ErrorCode.UnknownTool);
    const limited = errorFromRpc({ code: -32029, message: "Slow down", data: { code: "rate_limited" } }, {
      method: "tools/list",
      wire: "mcp",
    });
    assert.ok(limited instanceof ProtocolError);
    assert.equal(limited.code, ErrorCode.RateLimited);
  });

  it("maps a foreign server's JSON-RPC code and HTTP status to the nearest code", () => {
    const cases: [number, number | undefined, string, string, ErrorCode][] = [
      [-32601, 200, "tools/call", "mcp-lite", ErrorCode.UnknownTool], // MCP-lite spec v0.042 A.5
      [-32602, 200, "tools/call", "mcp", ErrorCode.InvalidArguments],
      [-32601, 200, "tools/list", "mcp", ErrorCode.MethodNotFound],
      [-32600, 400, "tools/list", "mcp", ErrorCode.InvalidRequest],
      [-32603, 200, "tools/list", "mcp", ErrorCode.Internal],
      [-32001, 401, "tools/list", "mcp", ErrorCode.Unauthenticated],
      [-32000, 403, "tools/list", "mcp", ErrorCode.PermissionDenied],
      [-32050, 200, "tools/list", "mcp", ErrorCode.Custom], // the server application's own code
    ];
    for (const [code, status, method, wire, expected] of cases) {
      const error = errorFromRpc({ code, message: "no data" }, { method, wire, status });
      assert.equal(error.code, expected, `${code} on ${status} (${method}, ${wire})`);
    }
    const named = errorFromRpc({ code: -32602, message: "Unknown tool: nope" }, { method: "tools/call", wire: "mcp" });
    assert.ok(named instanceof ProtocolError);
    assert.equal(named.code, ErrorCode.UnknownTool);
    const bad = errorFromRpc({ code: -32602, message: "bad" }, { method: "tools/call", wire: "mcp" });
    assert.ok(bad instanceof ProtocolError);
    assert.equal(bad.code, ErrorCode.InvalidArguments);
  });

  it("names an HTTP error without a readable body by its status where the status names a condition", () => {
    assert.equal(transportError("HTTP 401", { status: 401 }).code, ErrorCode.Unauthenticated);
    assert.equal(transportError("HTTP 429", { status: 429 }).code, ErrorCode.RateLimited);
    assert.equal(transportError("HTTP 503", { status: 503 }).code, ErrorCode.Unavailable);
    assert.equal(transportError("HTTP 502", { status: 502 }).code, ErrorCode.Transport);
    assert.equal(transportError("refused").code, ErrorCode.Transport);
    const error = transportError("HTTP 401", { status: 401 });
    assert.ok(error instanceof McpliteError && !(error instanceof ProtocolError), "not a refusal the server answered");
    assert.equal(error.status, 401);
  });

  it("maps gRPC statuses and Webtools codes without the server's code", () => {
    assert.equal(codeOfGrpcStatus(16), ErrorCode.Unauthenticated); // UNAUTHENTICATED
    assert.equal(codeOfGrpcStatus(7), ErrorCode.PermissionDenied); // PERMISSION_DENIED
    assert.equal(codeOfGrpcStatus(12), ErrorCode.MethodNotFound); // UNIMPLEMENTED
    assert.equal(codeOfGrpcStatus(99), ErrorCode.Internal);
    assert.equal(codeOfWebtools("WEBTOOL_NOT_FOUND", 404), ErrorCode.UnknownTool);
    assert.equal(codeOfWebtools("SCHEMA_ERROR", 400), ErrorCode.InvalidArguments);
    assert.equal(codeOfWebtools("QUOTA", 401), ErrorCode.Unauthenticated);
  });
});
