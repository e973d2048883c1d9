/**
 * `toolResponseBinary`: the bytes protobuf-es writes for the same `ToolResponse`, for every kind of
 * response and every kind of JSON value a `Struct` carries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { ToolResponseSchema } from "../../../src/bindings/grpc/mod.ts";
import type { ToolResponseInit } from "../../../src/bindings/grpc/envelope.ts";
import { toolResponseBinary } from "../../../src/bindings/grpc/tool-response-binary.ts";

const RESPONSES: ToolResponseInit[] = [
  {},
  { result: {} },
  {
    result: {
      content: [{ type: "text", text: '{"sum":3}' }],
      structuredContent: {
        sum: 3,
        negative: -1.5,
        zero: 0,
        huge: 1e300,
        none: null,
        no: false,
        yes: true,
        empty: "",
        list: [],
        object: {},
        nested: { a: [1, "x", null, { q: [true] }] },
      },
      isError: true,
    },
    meta: { responseType: 0, timestamp: 1763884800000n, processingTimeMs: 3, serverVersion: "1.0.0" },
  },
  {
    result: {},
    meta: {
      responseType: 1,
      promiseToken: "token",
      retryAfterMs: 5,
      expiresAt: 1763884800000n,
      estimatedCompletion: 1763884801000n,
      timestamp: 5n,
    },
  },
  {
    result: {},
    meta: { responseType: 3, requestState: "state", inputRequests: { k: { method: "m", params: { x: "é🙂" } } } },
  },
  { result: { partial: "x" } },
];

describe("toolResponseBinary", () => {
  it("writes what protobuf-es writes", () => {
    for (const response of RESPONSES) {
      assert.deepEqual(
        toolResponseBinary(response),
        toBinary(ToolResponseSchema, create(ToolResponseSchema, response)),
      );
    }
  });
});
