/**
 * `toolResponseBinary`: the bytes protobuf-es writes for the same `ToolResponse`, for every kind of
 * response and every kind of JSON value a `Struct` carries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { ToolResponseSchema } from "../../../src/bindings/grpc/mod.ts";
import type { ToolResponseInit } from "../../../src/bindings/grpc/envelope.ts";
import { ENVELOPE_ROOM, toolResponseBinary } from "../../../src/bindings/grpc/tool-response-binary.ts";

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
  // Lengths of two and three varint bytes, UTF-8 of every width, lone surrogates (U+FFFD, as TextEncoder).
  {
    result: {
      long: "x".repeat(200),
      longer: "é".repeat(9000),
      wide: "a\u00e9\u4e2d\ud83d\ude42",
      lone: "\ud800x\udc00\ud83d",
      many: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, [i, -i, i / 3]])),
      special: [Number.NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE],
    },
  },
  // Integers beyond 2^53 and negative ones (ten bytes, two's complement).
  {
    meta: {
      responseType: 2,
      timestamp: 2n ** 62n + 1n,
      processingTimeMs: -1,
      retryAfterMs: 2 ** 31 - 1,
      expiresAt: -5n,
      estimatedCompletion: 2n ** 53n + 7n,
    },
  },
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

  it("leaves room for the gRPC envelope's prefix in front of the message, in a buffer of its own", () => {
    for (const response of RESPONSES) {
      const bytes = toolResponseBinary(response);
      assert.equal(bytes.byteOffset, ENVELOPE_ROOM);
      assert.equal(bytes.buffer.byteLength, ENVELOPE_ROOM + bytes.byteLength);
    }
  });
});
