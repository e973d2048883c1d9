/**
 * Every class of bad input gets a clear error with the right code, and the server keeps serving.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fixtureServer } from "../helpers/fixtures.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";

const LITE = "/mcp-lite/v1/calltools";
const ENDPOINTS = [LITE, "/mcp"] as const;
const server = fixtureServer({ maxBodyBytes: 64 * 1024, logger: false }); // `crashes` throws on purpose: no line each

/** After every bad request the same server must still answer a good one. */
async function stillServes(): Promise<void> {
  const ok = await (await server.fetch(post(LITE, toolsCall("add", { a: 1, b: 1 })))).json();
  assert.deepEqual(ok.result.structuredContent, { sum: 2 });
}

async function expectError(request: Request, status: number, code: number): Promise<Record<string, any>> {
  const response = await server.fetch(request);
  assert.equal(response.status, status, `HTTP status for ${request.url}`);
  assert.equal(response.headers.get("content-type"), "application/json");
  const body = await response.json();
  assert.equal(body.jsonrpc, "2.0");
  assert.equal(body.error.code, code, JSON.stringify(body));
  await stillServes();
  return body;
}

describe("bad input", () => {
  for (const path of ENDPOINTS) {
    describe(path, () => {
      it("refuses a body over the limit with 413, by Content-Length", async () => {
        const big = JSON.stringify(toolsCall("echo", { text: "x".repeat(100 * 1024) }));
        await expectError(post(path, big, { "content-length": String(big.length) }), 413, -32600);
      });

      it("refuses a streamed body over the limit with 413, without buffering all of it", async () => {
        let pulled = 0;
        const chunk = new TextEncoder().encode(" ".repeat(16 * 1024));
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++;
            if (pulled > 1000) controller.close();
            else controller.enqueue(chunk);
          },
        });
        const request = new Request(BASE + path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          duplex: "half",
        } as RequestInit);
        await expectError(request, 413, -32600);
        assert.ok(pulled < 20, `read ${pulled} chunks before refusing`);
      });

      it("refuses a non-JSON content type with 415", async () => {
        await expectError(post(path, "a=1", { "content-type": "application/x-www-form-urlencoded" }), 415, -32600);
        const none = new Request(BASE + path, { method: "POST", body: new Blob(["{}"]) });
        await expectError(none, 415, -32600);
      });

      it("accepts JSON with a charset parameter", async () => {
        const response = await server.fetch(post(path, toolsCall("add", { a: 1, b: 2 }), {
          "content-type": "application/json; charset=utf-8",
          "mcp-protocol-version": "2025-11-25",
        }));
        assert.equal(response.status, 200);
      });

      it("answers malformed JSON with -32700", async () => {
        for (const text of ["{", "{'a':1}", "", "nul", '{"jsonrpc":"2.0",}']) {
          const body = await expectError(post(path, text), 400, -32700);
          assert.equal(body.id, null);
        }
      });

      it("answers a wrong JSON-RPC shape with -32600", async () => {
        const cases: unknown[] = [
          { jsonrpc: "2.0", id: 1 }, // no method
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: [1, 2] }, // params not an object
          { jsonrpc: "2.0", id: { nested: true }, method: "tools/call" }, // id an object
          { jsonrpc: "1.0", id: 3, method: "tools/call" }, // wrong version
          { jsonrpc: "2.0", id: 4, method: 7 }, // method not a string
          JSON.stringify("just a string"),
          42,
        ];
        for (const body of cases) await expectError(post(path, body), 400, -32600);
      });

      it("echoes the id on errors whenever it can be read", async () => {
        const body = await expectError(post(path, { jsonrpc: "2.0", id: "abc", method: 7 }), 400, -32600);
        assert.equal(body.id, "abc");
      });

      // The depth check answers before anything walks 100k levels; its message shows it ran (no stopwatch).
      it("answers deeply nested JSON (100k levels) with a clear parse error", async () => {
        const deep = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + "[".repeat(100_000) +
          "]".repeat(100_000) + "}";
        const response = await fixtureServer().fetch(post(path, deep)); // default 4 MiB limit
        assert.equal(response.status, 400);
        const body = await response.json();
        assert.equal(body.error.code, -32700);
        assert.match(body.error.message, /nested deeper than 64/);
        await stillServes();
      });

      it("answers nesting just inside the limit normally", async () => {
        const nested = "[".repeat(50) + "]".repeat(50);
        const response = await server.fetch(post(path, toolsCall("echo", { text: nested })));
        assert.equal(response.status, 200);
      });
    });
  }

  it("never lets __proto__ or constructor keys reach a prototype", async () => {
    let seen: unknown;
    const probe = fixtureServer().useTool((call, next) => {
      seen = call.arguments;
      return next();
    });
    const payload = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":' +
      '{"a":1,"b":2,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}';
    for (const path of ENDPOINTS) {
      const response = await probe.fetch(post(path, payload, { "mcp-protocol-version": "2025-11-25" }));
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.deepEqual(body.result.structuredContent, { sum: 3 });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.getPrototypeOf(seen), Object.prototype);
      assert.equal(Object.hasOwn(seen as object, "__proto__"), false);
    }
  });

  it("refuses other HTTP methods with 405 and an Allow header", async () => {
    for (const path of ENDPOINTS) {
      // MCP's endpoint takes a DELETE too, ending a 2025 session (tests/bindings/mcp/sessions.test.ts).
      for (const method of path === LITE ? ["GET", "DELETE", "PUT"] : ["GET", "PUT"]) {
        const response = await server.fetch(new Request(BASE + path, { method }));
        assert.equal(response.status, 405);
        assert.equal(response.headers.get("allow"), path === LITE ? "POST" : "POST, DELETE");
        assert.equal((await response.json()).error.code, -32600);
      }
    }
    await stillServes();
  });

  it("answers unknown paths with a JSON 404", async () => {
    const response = await server.fetch(post("/nowhere", {}));
    assert.equal(response.status, 404);
    assert.equal(response.headers.get("content-type"), "application/json");
    await stillServes();
  });

  it("survives a burst of mixed bad requests and stays correct", async () => {
    const bad = [
      post(LITE, "{"),
      post(LITE, { jsonrpc: "2.0", id: 1 }),
      post(LITE, toolsCall("nope", {})),
      post(LITE, toolsCall("add", { a: "x" })),
      post(LITE, toolsCall("crashes", {})),
    ];
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => server.fetch(bad[i % bad.length].clone())),
    );
    assert.equal(responses.length, 200);
    await Promise.all(responses.map((r) => r.text()));
    await stillServes();
  });
});

/** A body of raw bytes, with its `Content-Length` (or without one: sent as a stream, as chunked uploads are). */
function bytesPost(path: string, bytes: Uint8Array, withLength: boolean): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (withLength) headers["content-length"] = String(bytes.byteLength);
  const body = withLength ? bytes : new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Request(BASE + path, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

describe("bodies that are not UTF-8", () => {
  const encoder = new TextEncoder();
  /** A tools/call whose argument holds `raw` bytes, spliced into otherwise valid JSON. */
  const spliced = (raw: number[]) => {
    const [head, tail] = JSON.stringify(toolsCall("echo", { text: "@" })).split("@");
    return new Uint8Array([...encoder.encode(head), ...raw, ...encoder.encode(tail)]);
  };
  for (const path of ENDPOINTS) {
    for (const withLength of [true, false]) {
      const how = withLength ? "with Content-Length" : "streamed";
      it(`${path}, ${how}: invalid bytes are a parse error (400, -32700), not U+FFFD`, async () => {
        for (const raw of [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
          await expectError(bytesPost(path, spliced(raw), withLength), 400, -32700);
        }
      });
    }
  }

  it("accepts U+FFFD itself, and other multi-byte UTF-8, sent by a client", async () => {
    for (const withLength of [true, false]) {
      for (const text of ["\uFFFD", "héllo 👋 \uFFFD"]) {
        const bytes = encoder.encode(JSON.stringify(toolsCall("echo", { text })));
        const body = await (await server.fetch(bytesPost(LITE, bytes, withLength))).json();
        assert.deepEqual(body.result.content, [{ type: "text", text }], `${text} ${withLength}`);
      }
    }
  });
});

describe("slow senders", () => {
  const patient = fixtureServer({ bodyTimeoutMs: 150 });
  // The body deadline's timer does not keep a process alive (a server's socket does): with an in-memory
  // body and no socket, Deno would see an idle event loop, so a plain timer stands in for the socket.
  let alive: ReturnType<typeof setInterval>;
  before(() => void (alive = setInterval(() => {}, 1000)));
  after(() => clearInterval(alive));
  /** A body that sends its first byte, then nothing: a stalled (or 1 byte/s) sender. */
  const stalled = (path: string, withLength: boolean) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (withLength) headers["content-length"] = "100";
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode("{")) });
    return new Request(BASE + path, { method: "POST", headers, body, duplex: "half" } as RequestInit);
  };
  const encoder = new TextEncoder();

  for (const path of ENDPOINTS) {
    for (const withLength of [true, false]) {
      it(`${path}, ${withLength ? "with" : "without"} Content-Length: 408 once bodyTimeoutMs passes`, async () => {
        // The deadline's timer does not keep a process alive (a listener does); with no listener here,
        // Deno would end the test's event loop while the answer is pending, so hold it open. The body
        // never ends, so only the body timeout can answer: seconds of room for a loaded machine.
        let hold: ReturnType<typeof setTimeout> | undefined;
        const response = await Promise.race([
          patient.fetch(stalled(path, withLength)),
          new Promise<never>((_, reject) => hold = setTimeout(() => reject(new Error("no answer")), 10_000)),
        ]).finally(() => clearTimeout(hold));
        assert.equal(response.status, 408);
        const { error } = await response.json();
        assert.equal(error.code, -32600);
        // Answered by the body deadline (its own words), not by anything before it.
        assert.match(error.message, /did not arrive within 150 ms/);
        const ok = await (await patient.fetch(post(LITE, toolsCall("add", { a: 2, b: 2 })))).json();
        assert.deepEqual(ok.result.structuredContent, { sum: 4 });
      });
    }
  }
});
