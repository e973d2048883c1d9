/**
 * `serve()` on a port another server holds fails with an error that names the port and how to choose
 * another — the `PORT` variable when the port came from it, the `port` option when the code gave it —
 * not the runtime's bare `EADDRINUSE` / `AddrInUse`; on this runtime (Bun or Deno) and on Node 22.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { createServer, serve } from "../../mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

const app = createServer({ name: "busy", version: "1.0.0" });
const dir = scratchDir("mcplite-port-in-use-");

/** A script that serves on PORT (from the environment) and prints the error it gets. */
const script = join(dir, "main.ts");
writeFileSync(
  script,
  `import { createServer, serve } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
    `try {\n  await serve(createServer({ name: "s", version: "1.0.0" }), { hostname: "127.0.0.1" });\n` +
    `} catch (error) {\n  console.log(JSON.stringify({ message: error.message, code: error.code }));\n}\n`,
);

/** Runs the script with PORT set: on Node 22 when `node` is given, else on this runtime. */
async function serveOnPort(port: number, node?: string) {
  const env = { ...process.env, PORT: String(port) };
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  const [command, args] = node !== undefined
    ? [node, [script]]
    : deno
    ? [deno.execPath(), ["run", "-A", "--config", `${ROOT}deno.json`, script]]
    : [process.execPath, [script]];
  const done = await run(command, args, 30_000, dir, env);
  assert.equal(done.code, 0, done.stderr);
  return JSON.parse(done.stdout) as { message: string; code: string };
}

describe("serve() on a port in use", () => {
  it("names the port and the port option when the code chose it", async () => {
    const first = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      await assert.rejects(serve(app, { port: first.port, hostname: "127.0.0.1", quiet: true }), (error: Error) => {
        assert.equal(
          error.message,
          `serve(): port ${first.port} on 127.0.0.1 is already in use (another server listens there); ` +
            `pass serve() another port (port: ${first.port + 1}), or 0 for a free one`,
        );
        assert.equal((error as Error & { code?: string }).code, "EADDRINUSE");
        assert.ok(error.cause instanceof Error, "the runtime's own error is the cause");
        return true;
      });
    } finally {
      await first.close();
    }
  });

  it("names the PORT variable when the port came from it", async () => {
    const first = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const { message, code } = await serveOnPort(first.port);
      assert.equal(code, "EADDRINUSE");
      assert.match(message, new RegExp(`^serve\\(\\): port ${first.port} on 127\\.0\\.0\\.1 is already in use`));
      assert.match(message, new RegExp(`set PORT to another \\(PORT=${first.port + 1}\\), or 0 for a free one$`));
    } finally {
      await first.close();
    }
  });

  it("says the same on Node 22", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const first = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const { message, code } = await serveOnPort(first.port, node);
      assert.equal(code, "EADDRINUSE");
      assert.match(message, new RegExp(`port ${first.port} on 127\\.0\\.0\\.1 is already in use.*PORT=`));
    } finally {
      await first.close();
    }
  });
});
