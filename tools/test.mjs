// `npm test`'s two runtimes at once: `bun test` and `deno test` run the same test files side by side. Bun
// runs its files in one worker process per core (`--parallel`), the slowest first (tests/timings.json, from
// a measured run). Deno's lane type-checks, then runs its files in two processes, split by time (denoHalves).
// Many tests wait on child processes (npm, tsc, a Python client, a slow stdio server), so these processes
// keep both cores of a CI machine busy (a whole run took 1,000–1,100 s with one process per runtime). Bun's
// output streams as it comes; each Deno process's is held in a file and printed whole once Bun is done, then
// streams on, so none interleave. Any failing fails the run. MCPLITE_TEST_SERIAL=1 runs the type check, Bun
// and Deno one after the other, one process each. A type error stops every lane at once. The tests that
// install the packed npm package share one `npm pack` per run (MCPLITE_PACK_DIR, tests/helpers/npm-pack.ts):
// two `prepack` builds at once would race on dist/. To refresh Bun's timings: `bun test --parallel
// --timings=tests/timings.json --update-timings tests/`; Deno's (tests/timings-deno.json) are each file's
// tests' durations as a run prints them.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { spawn } from "node:child_process";
import {
  createReadStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { repoEnv } from "./repo-bin.mjs";

const SERIAL = process.env.MCPLITE_TEST_SERIAL === "1";
const PACK_DIR = mkdtempSync(join(tmpdir(), "mcplite-pack-"));
const env = repoEnv({ MCPLITE_PACK_DIR: PACK_DIR });
// Each file in a fresh module registry (`--parallel` isolates them): `--no-isolate` is faster, but a file then
// sees another's leftovers (a CI run failed an OpenTelemetry span order and a Chromium view with it).
const BUN_WORKERS = SERIAL ? [] : [`--parallel=${availableParallelism()}`, "--timings=tests/timings.json"];

const RUNS = {
  types: ["npm", ["run", "--silent", "test:types"]],
  bun: ["bun", ["test", "--timeout", "30000", ...BUN_WORKERS, "tests/"]],
  deno: ["deno", ["test", "-A", "--unstable-no-legacy-abort", "--doc", "tests/", "mod.ts", "src/"]],
};
// `--no-check`: the lane's type check (`npm run test:types`, `deno check --doc`) has just checked every test
// file and documentation example, and stops every lane on an error; each process would check its half again
// (about 26 s of CPU each on a CI machine, the clone's new path missing Deno's cache).
const DENO_TEST = ["test", "-A", "--unstable-no-legacy-abort", "--no-check"];

/** Every test file under `dir`, relative to the repository (as the timings files name them). */
function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? testFiles(path) : entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * Deno's tests in two processes at once, split by the time each file took (tests/timings-deno.json, from a
 * measured run; a file not in it counts a second): the files, longest first, each to the half with less so
 * far; the documentation's examples (`--doc` over mod.ts and src/, about 240 modules of half a second to load
 * each) count as one file of 130 s. Two processes, not `deno test --parallel`'s threads: a test that sets
 * an environment variable (MCPLITE_SECRET) then sets it in its own process only.
 */
function denoHalves() {
  const times = JSON.parse(readFileSync("tests/timings-deno.json", "utf8")).files;
  const files = testFiles("tests").map((file) => [file, (times[file] ?? 1000) + 500]);
  files.push(["--doc", 130_000]);
  files.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const halves = [{ files: [], ms: 0 }, { files: [], ms: 0 }];
  for (const [file, ms] of files) {
    const half = halves[0].ms <= halves[1].ms ? halves[0] : halves[1];
    half.files.push(file);
    half.ms += ms;
  }
  return halves.map(({ files }) =>
    files.includes("--doc")
      ? [...DENO_TEST, "--doc", ...files.filter((f) => f !== "--doc").sort(), "mod.ts", "src/"]
      : [...DENO_TEST, ...files.sort()]
  );
}
/** The children running now, so that a failed type check can stop them. */
const running = new Set();

/** Runs one step, its output to `out` (a file descriptor) or inherited; answers its exit and time. */
function start(name, out, run = RUNS[name]) {
  const [command, args] = run;
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
 * When MCPLITE_LANE_DONE names a file, each lane appends its name there as it ends (the first name is the first
 * lane done), so that CI can start its next stage on the core that lane frees while the other finishes (.ci/run).
 */
function laneDone(name) {
  if (process.env.MCPLITE_LANE_DONE) writeFileSync(process.env.MCPLITE_LANE_DONE, name, { flag: "a" });
}

/**
 * Deno's lane: the type check, then Deno's tests in two processes (`outs`, one file descriptor each). A failed
 * check stops Bun's tests too (fails fast).
 */
async function denoLane(outs) {
  const types = await start("types", outs[0]);
  const results = [types];
  if (types.code !== 0) { for (const child of running) child.kill("SIGTERM"); }
  else {
    const halves = denoHalves();
    results.push(...await Promise.all(halves.map((args, i) => start(`deno ${i + 1}/2`, outs[i], ["deno", args]))));
  }
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
  const held = [join(dir, "deno-1.log"), join(dir, "deno-2.log")];
  const outs = held.map((file) => openSync(file, "w"));
  const deno = denoLane(outs);
  results.push(await start("bun"));
  laneDone("bun");
  console.log(
    "\n== type check and deno test's first half (ran alongside bun test; their output so far, then as it comes)\n",
  );
  await follow(held[0], deno);
  console.log("\n== deno test's second half (ran alongside the first)\n");
  await follow(held[1], deno);
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
