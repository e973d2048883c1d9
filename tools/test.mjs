// `npm test`'s two runtimes at once: `bun test` and `deno test` run the same test files side by side. Bun
// runs its files in one worker process per core (`--parallel`), the slowest first (tests/timings.json, from
// a measured run); many tests wait on child processes (npm, tsc, a Python client, a slow stdio server), so
// the workers and Deno's lane keep both cores of a CI machine busy (a whole run took 1,000–1,100 s with one
// Bun process). Bun's output streams as it comes; Deno's is held in a file and printed whole once Bun is
// done, then streams on, so the two never interleave. Either failing fails the run. MCPLITE_TEST_SERIAL=1
// runs them one after the other, Bun in one process. The type check (`npm run test:types`) opens Deno's
// lane, beside Bun's tests: a type error stops both at once. The tests that install the packed npm package
// share one `npm pack` per run (MCPLITE_PACK_DIR, tests/helpers/npm-pack.ts): two `prepack` builds at once
// would race on dist/. To refresh the timings: `bun test --parallel --timings=tests/timings.json
// --update-timings tests/`.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

// Deno and Bun come from npm (devDependencies): found in node_modules/.bin, whether npm runs this file or a shell does.
const BIN = fileURLToPath(new URL("../node_modules/.bin", import.meta.url));
const SERIAL = process.env.MCPLITE_TEST_SERIAL === "1";
const PACK_DIR = mkdtempSync(join(tmpdir(), "mcplite-pack-"));
const env = {
  ...process.env,
  PATH: [BIN, process.env.PATH].filter(Boolean).join(delimiter),
  MCPLITE_PACK_DIR: PACK_DIR,
};
const BUN_WORKERS = SERIAL ? [] : [`--parallel=${availableParallelism()}`, "--timings=tests/timings.json"];

const RUNS = {
  types: ["npm", ["run", "--silent", "test:types"]],
  bun: ["bun", ["test", "--timeout", "30000", ...BUN_WORKERS, "tests/"]],
  deno: ["deno", ["test", "-A", "--unstable-no-legacy-abort", "--doc", "tests/", "mod.ts", "src/"]],
};
/** The children running now, so that a failed type check can stop them. */
const running = new Set();

/** Runs one step, its output to `out` (a file descriptor) or inherited; answers its exit and time. */
function start(name, out) {
  const [command, args] = RUNS[name];
  const began = Date.now();
  const child = spawn(command, args, { env, stdio: ["ignore", out ?? "inherit", out ?? "inherit"] });
  running.add(child);
  return new Promise((resolve) => {
    child.once("error", (error) => resolve({ name, code: 127, seconds: 0, error }));
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ name, code: code ?? (signal ? 128 : 1), seconds: Math.round((Date.now() - began) / 1000) });
    });
  });
}

/**
 * When MCPLITE_LANE_DONE names a file, the first lane to end writes its name there, so that CI can start its
 * next stage on the core that lane frees while the other finishes (.ci/run).
 */
function laneDone(name) {
  if (process.env.MCPLITE_LANE_DONE) writeFileSync(process.env.MCPLITE_LANE_DONE, name, { flag: "a" });
}

/** Deno's lane: the type check, then Deno's tests. A failed check stops Bun's tests too (fails fast). */
async function denoLane(out) {
  const types = await start("types", out);
  const results = [types];
  if (types.code !== 0) { for (const child of running) child.kill("SIGTERM"); }
  else results.push(await start("deno", out));
  laneDone("deno");
  return results;
}

/** Copies `file` to stdout as it grows, until `done` settles and everything written is copied. */
async function follow(file, done) {
  let offset = 0;
  let finished = false;
  done.then(() => finished = true);
  for (;;) {
    const last = finished; // read before the size: a write before the exit is then never missed
    const size = statSync(file).size;
    if (size > offset) {
      await new Promise((resolve, reject) =>
        createReadStream(file, { start: offset, end: size - 1 }).once("end", resolve).once("error", reject)
          .pipe(process.stdout, { end: false })
      );
      offset = size;
    } else if (last) return;
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const results = [];
if (SERIAL) {
  for (const name of ["types", "bun", "deno"]) results.push(await start(name));
} else {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-test-"));
  const held = join(dir, "deno.log");
  const deno = denoLane(openSync(held, "w"));
  results.push(await start("bun"));
  laneDone("bun");
  console.log("\n== type check and deno test (ran alongside bun test; their output so far, then as it comes)\n");
  await follow(held, deno);
  results.push(...(await deno));
  rmSync(dir, { recursive: true, force: true });
}
rmSync(PACK_DIR, { recursive: true, force: true });

for (const { name, code, seconds, error } of results) {
  console.log(
    `${name} test: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds} s${
      error ? `: ${error.message}` : ""
    }`,
  );
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
