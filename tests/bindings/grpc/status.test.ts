import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCode, ProtocolError, ToolError } from "../../../src/errors/mod.ts";
import { errorCodeToGrpc, errorToConnectError } from "../../../src/bindings/grpc/status.ts";
import { BadRequestSchema, ErrorInfoSchema } from "../../../src/gen/google/rpc/error_details_pb.ts";

describe("errorCodeToGrpc", () => {
  it("maps the codes of MCP-lite spec v0.042 §5.5 and middleware's auth codes", () => {
    assert.equal(errorCodeToGrpc(ErrorCode.InvalidArguments), Code.InvalidArgument);
    assert.equal(errorCodeToGrpc(ErrorCode.UnknownTool), Code.NotFound);
    assert.equal(errorCodeToGrpc(ErrorCode.DeadlineExceeded), Code.DeadlineExceeded);
    assert.equal(errorCodeToGrpc(ErrorCode.Internal), Code.Internal);
    assert.equal(errorCodeToGrpc(ErrorCode.Unauthenticated), Code.Unauthenticated);
    assert.equal(errorCodeToGrpc(ErrorCode.PermissionDenied), Code.PermissionDenied);
  });

  it("maps every error code to a gRPC code other than OK and UNKNOWN, but a custom JSON-RPC code to UNKNOWN", () => {
    assert.equal(errorCodeToGrpc(ErrorCode.Custom), Code.Unknown); // no gRPC meaning: the code travels in ErrorInfo
    for (const code of Object.values(ErrorCode).filter((c) => c !== ErrorCode.Custom)) {
      const grpc = errorCodeToGrpc(code);
      assert.ok(grpc > Code.Unknown && grpc <= Code.Unauthenticated, `${code} → ${grpc}`);
    }
  });
});

describe("errorToConnectError", () => {
  it("keeps an SDK error's message and puts its data in ErrorInfo", () => {
    const error = errorToConnectError(
      new ProtocolError(ErrorCode.UnknownTool, "Tool not found: x", {
        data: { requested_tool: "x", available_tools: ["a", "b"], extra: { n: 1 } },
      }),
    );
    assert.equal(error.code, Code.NotFound);
    assert.equal(error.rawMessage, "Tool not found: x");
    const [info] = error.findDetails(ErrorInfoSchema);
    assert.deepEqual({ ...info.metadata }, { requested_tool: "x", available_tools: "a,b", extra: '{"n":1}' });
    assert.equal(info.reason, "UNKNOWN_TOOL");
  });

  it("lists invalid arguments as BadRequest field violations", () => {
    const error = errorToConnectError(
      new ProtocolError(ErrorCode.InvalidArguments, "bad", {
        data: { tool: "t", issues: [{ path: "a.b", message: "too small" }, { path: "", message: "not an object" }] },
      }),
    );
    const [bad] = error.findDetails(BadRequestSchema);
    assert.deepEqual(bad.fieldViolations.map((v) => [v.field, v.description]), [
      ["arguments.a.b", "too small"],
      ["arguments", "not an object"],
    ]);
    assert.equal(error.findDetails(ErrorInfoSchema)[0].metadata.issues, undefined);
  });

  it("passes a ConnectError through", () => {
    const deadline = new ConnectError("the operation timed out", Code.DeadlineExceeded);
    assert.equal(errorToConnectError(deadline), deadline);
  });

  it("masks anything else as internal error and reports it", () => {
    const seen: unknown[] = [];
    const bug = new TypeError("secret detail at /srv/app.ts:12");
    const error = errorToConnectError(bug, (e) => seen.push(e));
    assert.equal(error.code, Code.Internal);
    assert.equal(error.rawMessage, "internal error");
    assert.equal(error.details.length, 0);
    assert.deepEqual(seen, [bug]);
    assert.equal(errorToConnectError(new ToolError("quota")).code, Code.Internal);
  });
});
