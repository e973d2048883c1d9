/**
 * A refusal of an unread body on `Deno.serve` (src/runtime/deno/close-unread.ts): the answer is sent whole, the
 * body the client was still sending is read and dropped, then the connection closes, silently. `Deno.serve` hands
 * small bodies as plain streams and large ones as byte streams (2.9), so both are read.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closingAfter, onServeError } from "../../src/runtime/deno/close-unread.ts";
import { unrefTimer } from "../../src/runtime/unref-timer.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** A body as `Deno.serve` hands it: a byte stream, or a plain one; `read` counts the chunks pulled from it. */
function body(byteStream: boolean, chunks: string[]) {
  const read = { chunks: 0 };
  const pull = (controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) => {
    const next = chunks[read.chunks++];
    if (next !== undefined) return controller.enqueue(encode(next));
    controller.close();
    // A BYOB read waiting on a closed byte stream ends when its request is answered (WHATWG Streams §4.10.4).
    if ("byobRequest" in controller) controller.byobRequest?.respond(0);
  };
  const stream = byteStream ? new ReadableStream({ type: "bytes", pull }) : new ReadableStream<Uint8Array>({ pull });
  return { stream, read };
}

/** Reads a response body, returning its text and how it ended. */
async function readToEnd(response: Response): Promise<{ text: string; ended: unknown }> {
  const reader = response.body!.getReader();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, ended: "done" };
      text += new TextDecoder().decode(value);
    }
  } catch (error) {
    return { text, ended: error };
  }
}

describe("closing the connection after a refusal on Deno.serve", () => {
  for (const byteStream of [true, false]) {
    it(`sends the answer whole, discards the unread ${byteStream ? "byte" : "plain"} body, then fails silently`, async () => {
      const sent = body(byteStream, ["abc", "def"]);
      const request = new Request("http://127.0.0.1/mcp", {
        method: "POST",
        body: sent.stream,
        headers: { "content-length": "6" },
        duplex: "half",
      } as RequestInit);
      const refusal = new Response("too many", { status: 429, headers: { "retry-after": "1" } });
      const response = await closingAfter(request, refusal, 1024, unrefTimer);
      assert.equal(response.status, 429);
      assert.equal(response.headers.get("connection"), "close");
      assert.equal(response.headers.get("retry-after"), "1");
      const { text, ended } = await readToEnd(response);
      assert.equal(text, "too many");
      assert.equal(sent.read.chunks, 3, "the body was read to its end");
      // The failure that closes the connection is the expected one, which onServeError does not print.
      assert.ok(ended instanceof Error && ended.name === "ConnectionClosed", String(ended));
    });
  }

  it("leaves a success, and a refusal whose body was read, as they are", async () => {
    const ok = new Response("fine");
    const request = new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" });
    assert.equal(closingAfter(request, ok, 1024, unrefTimer), ok);
    await request.text();
    const refusal = new Response("no", { status: 400 });
    assert.equal(closingAfter(request, refusal, 1024, unrefTimer), refusal);
  });

  it("answers another failure 500", () => {
    const original = console.error;
    const printed: unknown[] = [];
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      const response = onServeError(new TypeError("a bug"));
      assert.equal(response.status, 500);
      assert.equal(printed.length, 1);
    } finally {
      console.error = original;
    }
  });
});
