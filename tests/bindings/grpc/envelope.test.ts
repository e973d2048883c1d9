import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, toJsonString } from "@bufbuild/protobuf";
import {
  partialResponse,
  responseFromOutcome,
  toJsonValue,
  type ToolResponseInit,
  toolResponseJson,
} from "../../../src/bindings/grpc/envelope.ts";
import { ResponseType, ToolResponseSchema } from "../../../src/gen/mcplite/mcplite_pb.ts";

describe("toJsonValue", () => {
  it("returns plain JSON as is, without a copy", () => {
    const value = { a: [1, "x", null, { b: true }] };
    assert.equal(toJsonValue(value), value);
  });

  it("normalises other values as JSON.stringify sees them", () => {
    assert.deepEqual(toJsonValue({ u: undefined, d: new Date(0), n: NaN, l: [undefined] }), {
      d: "1970-01-01T00:00:00.000Z",
      n: null,
      l: [null],
    });
    assert.equal(toJsonValue(undefined), null);
    assert.deepEqual(toJsonValue(new Map()), {});
  });
});

describe("responseFromOutcome", () => {
  it("sends the result as MCP-lite does and FAILURE for a failure", () => {
    const started = performance.now();
    const failure = responseFromOutcome(
      { kind: "failure", result: { content: [{ type: "text", text: "no" }], isError: true } },
      started,
      "9.9.9",
    );
    assert.deepEqual(failure.result, { content: [{ type: "text", text: "no" }], isError: true });
    assert.equal(failure.meta?.responseType, ResponseType.FAILURE);
    assert.equal(failure.meta?.serverVersion, "9.9.9");
    const answer = responseFromOutcome(
      { kind: "answer", result: { content: [], structuredContent: { a: 1 } } },
      started,
      "1",
    );
    assert.deepEqual(answer.result, { content: [], structuredContent: { a: 1 } });
    assert.equal(answer.meta?.responseType, ResponseType.ANSWER);
  });

  it("sends a partial with no meta", () => {
    assert.deepEqual(partialResponse("x"), { result: { partial: "x" } });
  });
});

describe("toolResponseJson", () => {
  const started = performance.now() - 3;
  const responses: [string, ToolResponseInit][] = [
    [
      "an answer",
      responseFromOutcome({ kind: "answer", result: { content: [], structuredContent: { a: 1 } } }, started, "1.0.0"),
    ],
    [
      "an answer with nested, unicode and odd keys",
      responseFromOutcome(
        {
          kind: "answer",
          result: {
            content: [{ type: "text", text: 'é 😀 \u2028 "q"' }],
            structuredContent: { "2": [1.5, -0, 1e21, null, true, { "": "" }], "a b": {}, z: [] },
          },
        },
        started,
        "",
      ),
    ],
    [
      "a result that is not plain JSON",
      responseFromOutcome(
        {
          kind: "answer",
          result: {
            content: [{ type: "text", text: "x" }],
            structuredContent: { d: new Date(0), u: undefined, n: NaN },
          },
        },
        started,
        "1",
      ),
    ],
    [
      "a failure",
      responseFromOutcome(
        { kind: "failure", result: { content: [{ type: "text", text: "no" }], isError: true } },
        started,
        "9.9.9",
      ),
    ],
    [
      "a promise",
      responseFromOutcome(
        {
          kind: "promise",
          token: "tok.en",
          retryAfterMs: 250,
          estimatedCompletion: "2030-01-01T00:00:00.000Z",
          expiresAt: "2030-01-02T00:00:00.000Z",
          caller: undefined,
        },
        started,
        "1",
      ),
    ],
    [
      "a promise without an estimate, expiring at an unreadable time",
      responseFromOutcome(
        {
          kind: "promise",
          token: "t",
          retryAfterMs: 0,
          estimatedCompletion: undefined,
          expiresAt: "never",
          caller: undefined,
        },
        started,
        "1",
      ),
    ],
    [
      "an input round",
      responseFromOutcome(
        {
          kind: "input_required",
          requests: { confirm: { method: "elicitation/create", params: { message: "ok?", requestedSchema: {} } } },
          requestState: "st.ate",
        },
        started,
        "1",
      ),
    ],
    [
      "an input round with no requests",
      responseFromOutcome(
        {
          kind: "input_required",
          requests: {},
          requestState: "",
        },
        performance.now(),
        "1",
      ),
    ],
    ["a partial", partialResponse({ n: 1, at: new Date(0) })],
    ["a partial string", partialResponse("x")],
    ["a response type beyond the enum", { result: {}, meta: { responseType: 9 as ResponseType, timestamp: 0n } }],
  ];
  for (const [label, response] of responses) {
    it(`writes what protobuf-es writes: ${label}`, () => {
      assert.equal(toolResponseJson(response), toJsonString(ToolResponseSchema, create(ToolResponseSchema, response)));
    });
  }
});
