/**
 * `Deno.serve`'s large body of a declared length, read in steps into one buffer (src/runtime/deno/read-declared.ts,
 * lent to each request by the listener; plain streams code, so run on every runtime): the same text as the
 * runtime's own read, bytes that are not UTF-8 refused, a body still arriving at `bodyTimeoutMs` refused, a
 * cancelled read cancels its stream, a body whose length is not the one declared refused, a small one left alone.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ProtocolError } from "../../src/errors/mod.ts";
import { readBody } from "../../src/server/read-body.ts";
import { lendReader } from "../../src/runtime/body-bound.ts";
import { readDeclared, STEPPED_FROM_BYTES } from "../../src/runtime/deno/read-declared.ts";

const limits = { maxBodyBytes: 4 * 1024 * 1024, bodyTimeoutMs: 5_000 };

/** A byte stream of these chunks; `open` keeps it from ending; `cancelled` resolves once it is cancelled. */
function byteStream(chunks: Uint8Array[], open = false) {
  let cancel!: () => void;
  const cancelled = new Promise<void>((resolve) => cancel = resolve);
  const stream = new ReadableStream<Uint8Array>({
    type: "bytes",
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk.slice());
      if (!open) controller.close();
    },
    cancel,
  });
  return { stream, cancelled };
}

/** A POST whose body is `stream`, declaring `length`, lent the reader as `Deno.serve`'s listener lends it. */
function post(stream: ReadableStream<Uint8Array>, length: number): Request {
  const request = new Request("http://localhost/x", {
    method: "POST",
    headers: { "content-length": String(length) },
    body: stream,
    duplex: "half",
  } as RequestInit);
  lendReader(request, readDeclared);
  return request;
}

describe("a large body of a declared length", () => {
  it("reads the same text, split across chunks and multi-byte characters", async () => {
    const text = `{"a":"${"é".repeat(STEPPED_FROM_BYTES)}"}`;
    const bytes = new TextEncoder().encode(text);
    const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 40_001), bytes.subarray(40_001)];
    assert.equal(await readBody(post(byteStream(chunks).stream, bytes.byteLength), limits), text);
  });

  it("refuses bytes that are not UTF-8", async () => {
    const bytes = new Uint8Array(STEPPED_FROM_BYTES * 2).fill(0x20);
    bytes[1000] = 0xff;
    await assert.rejects(
      async () => await readBody(post(byteStream([bytes]).stream, bytes.byteLength), limits),
      (error) => error instanceof ProtocolError && error.code === "parse_error",
    );
  });

  it("refuses a body still arriving at bodyTimeoutMs", async () => {
    const { stream } = byteStream([new Uint8Array(STEPPED_FROM_BYTES)], true);
    // The deadlines' shared timer does not keep a process alive (a listener does): this test's does.
    const alive = setTimeout(() => {}, 10_000);
    try {
      await assert.rejects(
        async () => await readBody(post(stream, STEPPED_FROM_BYTES * 2), { ...limits, bodyTimeoutMs: 100 }),
        (error) => error instanceof ProtocolError && error.code === "request_timeout",
      );
    } finally {
      clearTimeout(alive);
    }
  });

  it("cancelled: the stream is cancelled, and the read rejects", async () => {
    const { stream, cancelled } = byteStream([new Uint8Array(100)], true);
    const read = readDeclared(post(stream, STEPPED_FROM_BYTES), STEPPED_FROM_BYTES)!;
    void read.body.cancel();
    await cancelled;
    await assert.rejects(read.bytes);
  });

  it("refuses a body shorter or longer than it declared", async () => {
    const bytes = new Uint8Array(STEPPED_FROM_BYTES + 1).fill(0x20);
    for (const [declared, how] of [[bytes.byteLength + 1, "ended before"], [bytes.byteLength - 1, "longer"]] as const) {
      await assert.rejects(
        async () => await readDeclared(post(byteStream([bytes]).stream, declared), declared)!.bytes,
        (error) => error instanceof RangeError && error.message.includes(how),
      );
    }
  });

  it("leaves a small body to the runtime's own read", () => {
    const { stream } = byteStream([new Uint8Array(10)]);
    assert.equal(readDeclared(post(stream, 10), 10), undefined);
    assert.equal(stream.locked, false);
  });

  it("leaves a plain stream to the runtime's own read", () => {
    const plain = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    assert.equal(readDeclared(post(plain, STEPPED_FROM_BYTES), STEPPED_FROM_BYTES), undefined);
    assert.equal(plain.locked, false);
  });
});
