/**
 * A body without `Content-Length` (a chunked upload) on each runtime's `serve()`: read when within the
 * server's `maxBodyBytes`, refused with 413 past it, whether the listener bounds it (Bun's
 * `maxRequestBodySize`, set by `serve()`) or the streaming reader does (Deno, Node); and a body the
 * listener bounds is read whole by the runtime, never chunk by chunk.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createServer, defineTool, serve } from "../../mod.ts";
import { bodyLimitOf, declareBodyLimit, isBounded, markBounded } from "../../src/runtime/body-bound.ts";
import { resolveOptions } from "../../src/server/server-options.ts";
import { readJson } from "../../src/server/read-json.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const LIMIT = 2048;
const call = (padding: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "x".repeat(padding) } },
  });

/** Sends `body` in 256-byte chunks without Content-Length (Transfer-Encoding: chunked). */
async function sendChunked(url: string, body: string): Promise<Response> {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += 256) controller.enqueue(bytes.slice(at, at + 256));
      controller.close();
    },
  });
  return await fetch(`${url}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

describe("a chunked body on serve()", () => {
  it("is read within maxBodyBytes and refused with 413 past it, on this runtime's serve()", async () => {
    const server = createServer({ name: "bound", version: "1.0.0", maxBodyBytes: LIMIT })
      .tool(defineTool("echo").handle((args) => String((args as unknown as { text: string }).text.length)));
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const small = await sendChunked(listener.url, call(1000));
      assert.equal(small.status, 200);
      assert.match(await small.text(), /"text":"1000"/);
      const large = await sendChunked(listener.url, call(LIMIT * 4));
      assert.equal(large.status, 413);
      await large.body?.cancel();
    } finally {
      await listener.close();
    }
  });

  it("on Bun, serve() gives Bun.serve the server's limit and marks its requests bounded; on Deno, the streaming reader bounds them", async () => {
    const server = createServer({ name: "bound", version: "1.0.0", maxBodyBytes: LIMIT });
    assert.equal(bodyLimitOf(server), LIMIT);
    const seen: boolean[] = [];
    const app = {
      fetch: (request: Request) => {
        seen.push(isBounded(request));
        return new Response("ok");
      },
    };
    declareBodyLimit(app.fetch, LIMIT);
    const listener = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      await (await sendChunked(listener.url, "{}")).text();
    } finally {
      await listener.close();
    }
    const bun = (globalThis as { Bun?: unknown }).Bun !== undefined;
    assert.deepEqual(seen, [bun]);
  });

  it(
    "is refused with 413 past maxBodyBytes and read within it on Node's serve()",
    { skip: ONCE_PER_RUN },
    async (t) => {
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      const script = join(scratchDir("mcplite-bound-"), "server.ts");
      writeFileSync(
        script,
        `import { createServer, defineTool, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
          `const server = createServer({ name: "b", version: "1.0.0", maxBodyBytes: ${LIMIT} })\n` +
          `  .tool(defineTool("echo").handle((args) => String(args.text.length)));\n` +
          `const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });\n` +
          `${
            sendChunked.toString().replace(
              "async function sendChunked(url: string, body: string): Promise<Response>",
              "async function sendChunked(url, body)",
            ).replace(" as RequestInit", "").replace("new ReadableStream<Uint8Array>", "new ReadableStream")
          }\n` +
          `const small = await sendChunked(listener.url, ${JSON.stringify(call(1000))});\n` +
          `const large = await sendChunked(listener.url, ${JSON.stringify(call(LIMIT * 4))});\n` +
          `console.log(JSON.stringify([small.status, await small.text(), large.status]));\n` +
          `await listener.close();\n`,
      );
      const { code, stdout, stderr } = await run(node, [script], 20_000);
      assert.equal(code, 0, stderr);
      const [smallStatus, smallText, largeStatus] = JSON.parse(stdout.trim().split("\n").at(-1)!);
      assert.equal(smallStatus, 200);
      assert.match(smallText, /"text":"1000"/);
      assert.equal(largeStatus, 413);
    },
  );
});

describe("readJson of a body the listener bounds", () => {
  const options = resolveOptions({ name: "t", version: "1", maxBodyBytes: 64 });
  const marked = (body: string) => {
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    markBounded(request);
    // The streaming reader would take the body's stream: a bounded body is the runtime's to read whole.
    Object.defineProperty(request, "body", { get: () => assert.fail("read chunk by chunk") });
    return request;
  };

  it("reads it whole without Content-Length", async () => {
    assert.deepEqual(await readJson(marked('{"a":1}'), options), { a: 1 });
  });

  it("still refuses it past maxBodyBytes (a listener's bound looser than the server's)", async () => {
    await assert.rejects(readJson(marked(JSON.stringify({ a: "x".repeat(100) })), options), {
      code: "payload_too_large",
    });
  });

  it("still refuses bytes that are not UTF-8", async () => {
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    markBounded(request);
    await assert.rejects(readJson(request, options), { code: "parse_error" });
  });
});
