/**
 * `readJson`: the same answers whether a body comes with a `Content-Length` (small bodies are parsed by
 * the runtime and checked after) or without one (read chunk by chunk, scanned before parsing).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/errors/mod.ts";
import { resolveOptions } from "../../src/server/server-options.ts";
import { answerJson, readJson } from "../../src/server/read-json.ts";
import { readBodyThen } from "../../src/server/read-body.ts";

const options = resolveOptions({ name: "t", version: "1", maxBodyBytes: 4096 });

/** The same body, with and without a declared length. */
function requests(body: string): [string, Request][] {
  const make = (withLength: boolean) =>
    new Request("http://localhost/x", {
      method: "POST",
      headers: withLength
        ? { "content-type": "application/json", "content-length": String(new TextEncoder().encode(body).byteLength) }
        : { "content-type": "application/json" },
      body,
    });
  return [["with Content-Length", make(true)], ["without Content-Length", make(false)]];
}

describe("readJson", () => {
  it("parses a body the same way with and without Content-Length", async () => {
    for (const [label, request] of requests('{"a":[1,{"b":"x"}],"é":"ü"}')) {
      assert.deepEqual(await readJson(request, options), { a: [1, { b: "x" }], "é": "ü" }, label);
    }
  });

  it("drops __proto__ keys at every level, so none reaches a prototype", async () => {
    const body = '{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2},"b":[{"__proto__":{"x":3}}]}}';
    for (const [label, request] of requests(body)) {
      const value = await readJson(request, options) as { a: { b: Record<string, unknown>[] } };
      assert.equal(Object.hasOwn(value, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a.b[0], "__proto__"), false, label);
      assert.equal(({} as Record<string, unknown>).polluted, undefined, label);
    }
  });

  it("drops __proto__ keys written with \\u escapes too", async () => {
    const body = '{"\\u005f_proto__":{"polluted":1},"a":{"__\\u0070roto__":{"polluted":2}},"t":"\\u00e9"}';
    for (const [label, request] of requests(body)) {
      const value = await readJson(request, options) as { a: Record<string, unknown>; t: string };
      assert.equal(Object.hasOwn(value, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a, "__proto__"), false, label);
      assert.equal(value.t, "é", label);
    }
  });

  it("refuses nesting deeper than maxJsonDepth, and accepts exactly maxJsonDepth", async () => {
    const depth = options.maxJsonDepth;
    for (const [label, request] of requests("[".repeat(depth + 1) + "]".repeat(depth + 1))) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.ParseError }, label);
    }
    for (const [label, request] of requests(`{"a":${"[".repeat(depth - 1)}"[{"${"]".repeat(depth - 1)}}`)) {
      await readJson(request, options).then(() => {}, (error) => assert.fail(`${label}: ${error}`));
    }
  });

  it("answers malformed JSON with parse_error and oversize bodies with payload_too_large", async () => {
    for (const [label, request] of requests('{"a":')) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.ParseError }, label);
    }
    for (const [label, request] of requests(`{"a":"${"x".repeat(5000)}"}`)) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.PayloadTooLarge }, label);
    }
  });

  it("answerJson: a body still arriving at bodyTimeoutMs is answered by failed, and the answer never runs", async () => {
    const timed = resolveOptions({ name: "t", version: "1", bodyTimeoutMs: 50 });
    // The body comes whole, but only after the deadline (once the deadline's answer came): too late to be answered.
    const late = '{"late":"xxxxxxxxx"}';
    let arrived = false;
    let deliver!: () => void;
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) =>
        void (deliver = () => {
          arrived = true;
          controller.enqueue(new TextEncoder().encode(late));
          controller.close();
        }),
    });
    const request = new Request("http://localhost/x", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "20" },
      body: stalled,
      duplex: "half",
    } as RequestInit);
    // The server's read of the body, to wait for its end once the body came.
    let read: Promise<string> | undefined;
    const text = request.text.bind(request);
    request.text = () => read = text();
    const answered: unknown[] = [];
    // The deadlines' shared timer does not keep a process alive (a listener does): this test's does.
    const alive = setTimeout(() => {}, 10_000);
    assert.equal(late.length, 20);
    let response: Response;
    try {
      response = await answerJson(request, timed, new Error("not POST"), (body) => {
        answered.push(body);
        return new Response("answered");
      }, (error) => new Response((error as { code?: string }).code, { status: 408 }));
    } finally {
      clearTimeout(alive);
    }
    assert.equal(response.status, 408);
    assert.equal(await response.text(), ErrorCode.RequestTimeout);
    deliver();
    assert.equal(await read, late, "the late body was read whole"); // and its answer, had it run, has by now
    assert.ok(arrived, "the body arrived after the deadline");
    assert.deepEqual(answered, [], "a body past its deadline is not answered");
  });

  it("answerJson: what the answer throws, or rejects with, once the body was waited for, goes to failed", async () => {
    for (const thrown of [true, false]) {
      const [, request] = requests('{"a":1}')[1]; // no Content-Length: read chunk by chunk, so waited for
      const response = await answerJson(request, options, new Error("not POST"), (body) => {
        assert.deepEqual(body, { a: 1 });
        const error = new Error("the tool failed");
        if (thrown) throw error;
        return Promise.reject(error);
      }, (error) => new Response((error as Error).message, { status: 500 }));
      assert.equal(response.status, 500);
      assert.equal(await response.text(), "the tool failed");
    }
  });
});

describe("readBodyThen", () => {
  it("a failed that throws at the deadline rejects its read, and the other reads' deadlines still fire", async () => {
    const stalled = () =>
      new Request("http://localhost/x", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": "2" },
        body: new ReadableStream<Uint8Array>({}), // sends nothing, never ends
        duplex: "half",
      } as RequestInit);
    const limits = { maxBodyBytes: 100, bodyTimeoutMs: 50 };
    const alive = setTimeout(() => {}, 10_000); // the deadlines' timer does not keep a process alive
    try {
      const thrown = new Error("failed threw");
      const first = readBodyThen(stalled(), limits, () => "answered", () => {
        throw thrown;
      });
      const second = readBodyThen(stalled(), limits, () => "answered", (error) => (error as { code: string }).code);
      await assert.rejects(Promise.resolve(first), thrown);
      assert.equal(await second, ErrorCode.RequestTimeout);
    } finally {
      clearTimeout(alive);
    }
  });
});
