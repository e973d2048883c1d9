import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { partialResponse, responseFromOutcome, toJsonValue } from "../../../src/bindings/grpc/envelope.ts";
import { ResponseType } from "../../../src/gen/mcplite/mcplite_pb.ts";

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
