/**
 * `serve()` as a script run from a terminal sees it, on this runtime and on Node 22: one line on stderr
 * saying where it listens (as `Deno.serve` prints), nothing on stdout, nothing at all with `quiet: true`,
 * `onListen` called instead of the line; and `signal` closing the listener.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createServer, serve } from "../../mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { waitFor } from "../helpers/long-running.ts";
import { ROOT, run } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

/** Runs a script that serves an empty server on a free port, then closes it; on Node 22 with `node`. */
async function serveOnce(options: string, node?: string) {
  const script = join(scratchDir("mcplite-serve-"), "server.ts");
  writeFileSync(
    script,
    `import { createServer, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
      `const listener = await serve(createServer({ name: "s", version: "1.0.0" }), ${options});\n` +
      `await listener.close();\n` +
      `console.log("port=" + listener.port);\n`,
  );
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (node !== undefined) return await run(node, [script], 20_000); // Node 22 strips the types itself
  return deno
    ? await run(
      deno.execPath(),
      ["run", "-A", "--unstable-no-legacy-abort", "--config", `${ROOT}deno.json`, script],
      20_000,
    )
    : await run(process.execPath, [script], 20_000);
}

describe("serve()", () => {
  it("says on stderr where it listens, in one line", async () => {
    const { code, stdout, stderr } = await serveOnce(`{ port: 0, hostname: "127.0.0.1" }`);
    assert.equal(code, 0, stderr);
    const port = /^port=(\d+)$/m.exec(stdout)?.[1];
    assert.ok(port, stdout);
    assert.equal(stderr, `Listening on http://127.0.0.1:${port}\n`);
    assert.equal(stdout, `port=${port}\n`);
  });

  it("prints nothing with quiet: true", async () => {
    const { code, stdout, stderr } = await serveOnce(`{ port: 0, hostname: "127.0.0.1", quiet: true }`);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.match(stdout, /^port=\d+\n$/);
  });

  it("calls onListen with the listener instead of printing the line", async () => {
    const { code, stdout, stderr } = await serveOnce(
      `{ port: 0, hostname: "127.0.0.1", onListen: (listener) => console.log("onListen " + listener.url) }`,
    );
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    const port = /^port=(\d+)$/m.exec(stdout)?.[1];
    assert.match(stdout, new RegExp(`^onListen http://127\\.0\\.0\\.1:${port}$`, "m"));
  });

  it("closes when its signal aborts", async () => {
    const stop = new AbortController();
    const listener = await serve(createServer({ name: "s", version: "1.0.0" }), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      signal: stop.signal,
    });
    assert.equal((await fetch(`${listener.url}/healthz`)).status < 500, true);
    stop.abort();
    let refused = false;
    // Probes until a connection is refused (the close the abort began has stopped listening).
    await waitFor(
      async () =>
        refused = await fetch(`${listener.url}/healthz`, { headers: { connection: "close" } }).then(
          async (answer) => (await answer.body?.cancel(), false),
          () => true,
        ),
      10_000,
    ).catch(() => {}); // asserted below
    await listener.close();
    assert.ok(refused, "still accepting connections after the signal aborted");
  });

  it("listens, prints the line and closes on Node 22", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const { code, stdout, stderr } = await serveOnce(`{ port: 0, hostname: "127.0.0.1" }`, node);
    assert.equal(code, 0, stderr);
    const port = /^port=(\d+)$/m.exec(stdout)?.[1];
    assert.ok(port, stdout);
    assert.equal(stderr, `Listening on http://127.0.0.1:${port}\n`);
  });

  it("closes on Node 22 when its signal aborts: the process then ends by itself", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const script = join(scratchDir("mcplite-serve-"), "server.ts");
    writeFileSync(
      script,
      `import { createServer, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
        `const stop = new AbortController();\n` +
        `const listener = await serve(createServer({ name: "s", version: "1.0.0" }), ` +
        `{ port: 0, hostname: "127.0.0.1", quiet: true, signal: stop.signal });\n` +
        `const answer = await fetch(listener.url + "/mcp-lite/v1/listtools", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });\n` +
        `console.log("status=" + answer.status);\n` +
        `stop.abort();\n`,
    );
    const { code, stdout, stderr } = await run(node, [script], 20_000);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "status=200\n");
  });

  it("refuses an unknown httpServer before listening", async () => {
    const server = createServer({ name: "s", version: "1.0.0" });
    // @ts-expect-error: not one of the servers
    await assert.rejects(serve(server, { port: 0, quiet: true, httpServer: "hyper" }), TypeError);
  });
});
