import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../../src/errors/mod.ts";
import { servedCode } from "../../../src/errors/error.ts";
import { WebtoolsCode } from "../../../src/bindings/webtools/mod.ts";
import { errorCodeToWebtools } from "../../../src/errors/webtools-codes.ts";

describe("errorCodeToWebtools", () => {
  it("maps every error code to a Webtools code and an error status", () => {
    const codes = new Set<string>(Object.values(WebtoolsCode));
    for (const code of Object.values(ErrorCode)) {
      // A code only a client meets (a handler let one through) is answered as the nearest the server serves.
      const wire = errorCodeToWebtools(code);
      assert.deepEqual(wire, errorCodeToWebtools(servedCode(code)), code);
      assert.ok(codes.has(wire.code), code);
      assert.ok(wire.status >= 400 && wire.status < 600, code);
    }
  });

  it("uses the spec's codes and statuses", () => {
    assert.deepEqual(errorCodeToWebtools(ErrorCode.UnknownTool), { code: "WEBTOOL_NOT_FOUND", status: 404 });
    assert.deepEqual(errorCodeToWebtools(ErrorCode.UnsupportedVersion), { code: "WEBTOOL_NOT_FOUND", status: 404 });
    assert.deepEqual(errorCodeToWebtools(ErrorCode.InvalidArguments), { code: "SCHEMA_ERROR", status: 400 });
    assert.deepEqual(errorCodeToWebtools(ErrorCode.RateLimited), { code: "RATE_LIMIT", status: 429 });
    assert.deepEqual(errorCodeToWebtools(ErrorCode.Internal), { code: "INTERNAL_ERROR", status: 500 });
    assert.deepEqual(errorCodeToWebtools(ErrorCode.UnsupportedMediaType), {
      code: "UNSUPPORTED_MEDIA_TYPE",
      status: 415,
    });
  });
});
