/**
 * `serve()` as a script run from a terminal sees it: one line on stderr saying where it listens (as
 * `Deno.serve` prints), nothing on stdout, and nothing at all with `quiet: true`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT, run } from "../helpers/process.ts";

/** Runs a script that serves an empty server on a free port, then closes it. */
async function serveOnce(options: string) {
  const script = join(mkdtempSync(join(tmpdir(), "mcplite-serve-")), "server.ts");
  writeFileSync(
    script,
    `import { createServer, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
      `const listener = await serve(createServer({ name: "s", version: "1.0.0" }), ${options});\n` +
      `await listener.close();\n` +
      `console.log("port=" + listener.port);\n`,
  );
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
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
});
