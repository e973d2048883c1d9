/**
 * `quickjsExecutor()` beyond Deno and Bun: on workerd (Cloudflare's Workers runtime, through Miniflare), where
 * the `.wasm` is a module the Worker imports and gives as `wasmModule`, and on Node 22, which runs
 * tests/code-mode/quickjs-node22.ts itself. Their subject is another runtime: each runs once per `npm test`.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Miniflare } from "miniflare";
import { workerdMissing } from "../durable-object/workerd.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

/** The variant's WebAssembly, which the Worker imports as `./quickjs.wasm`. */
const WASM = `${ROOT}node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm`;

/**
 * The Worker: it imports the `.wasm` as a module, as Workers require (they refuse to compile WebAssembly from
 * bytes; wrangler does the same with `import wasm from "@jitl/quickjs-wasmfile-release-sync/wasm"`), and gives
 * it to `quickjsExecutor({ wasmModule })`. POST `{ source, timeMs }` runs a program whose `__call` answers
 * after a timer. Written at run time: the `.wasm` import is for workerd, not for Deno's type check.
 */
const WORKER = `
import wasmModule from "./quickjs.wasm";
import { quickjsExecutor } from "${ROOT}src/code-mode/mod.ts";

const executor = quickjsExecutor({ wasmModule });
const limits = { timeMs: 10000, memoryBytes: 8 << 20, stackBytes: 128 << 10, outputBytes: 64 << 10, pendingCalls: 8 };

export default {
  async fetch(request) {
    const { source, timeMs } = await request.json();
    const call = async (name, args) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { name, args, worker: typeof WebSocketPair === "function" };
    };
    return Response.json(await executor.execute({ source, call, limits: { ...limits, timeMs: timeMs ?? 10000 } }));
  },
};
`;

describe("quickjsExecutor on other runtimes", () => {
  it("runs programs in workerd, the WebAssembly imported by the Worker", { skip: ONCE_PER_RUN }, async (t) => {
    const missing = await workerdMissing();
    if (missing) return t.skip(missing);
    // Bundled as a Worker is deployed (tests/examples/worker.test.ts); the .wasm left for workerd to compile.
    const entry = join(scratchDir("mcplite-quickjs-worker-"), "worker.js");
    writeFileSync(entry, WORKER);
    const bundled = await run(`${ROOT}node_modules/.bin/bun`, [
      "build",
      "--target=browser",
      "--format=esm",
      "--external=node:*",
      "--external=*.wasm",
      entry,
    ]);
    assert.equal(bundled.code, 0, bundled.stderr);
    const mf = new Miniflare({
      modules: [
        { type: "ESModule", path: "worker.mjs", contents: bundled.stdout },
        { type: "CompiledWasm", path: "quickjs.wasm", contents: readFileSync(WASM) },
      ],
      compatibilityDate: "2026-04-01",
    });
    try {
      const url = await mf.ready;
      const execute = async (source: string, timeMs?: number) =>
        await (await fetch(url, { method: "POST", body: JSON.stringify({ source, timeMs }) })).json();
      assert.deepEqual(
        await execute(
          `const r = await __call("echo", { n: 1 }); console.log("in", r.worker); return [r.name, r.args];`,
        ),
        { ok: true, value: ["echo", { n: 1 }], logs: ["in true"] },
      );
      const looped = await execute(`while (true) {}`, 200);
      assert.equal(looped.reason, "time", JSON.stringify(looped));
      assert.match(looped.message, /past its 200 ms time limit/);
      const reached = await execute(`return [typeof fetch, typeof caches, typeof WebAssembly, typeof setTimeout];`);
      assert.deepEqual(reached.value, ["undefined", "undefined", "undefined", "undefined"]);
      assert.deepEqual(await execute(`return 1 + 1;`), { ok: true, value: 2, logs: [] });
    } finally {
      await mf.dispose();
    }
  });

  it("runs programs on Node 22", { skip: ONCE_PER_RUN, timeout: 120_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const ran = await run(node, ["tests/code-mode/quickjs-node22.ts"], 60_000);
    assert.equal(ran.code, 0, ran.stderr);
    const { node: version, outcomes } = JSON.parse(ran.stdout);
    assert.match(version, /^22\./);
    assert.deepEqual(outcomes[0], {
      ok: true,
      value: { name: "echo", args: { n: 1 }, node: version },
      logs: [`on ${version}`],
    });
    assert.deepEqual([outcomes[1].reason, outcomes[2].reason], ["time", "memory"]);
    assert.match(outcomes[1].message, /past its 200 ms time limit/);
  });
});
