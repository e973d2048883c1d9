// `npm test`: the test files under tests/ in three lanes, started at once.
//
// - Bun's lane: `bun test` over every file but the packaging lane's, in one worker process per core
//   (`--parallel`), the slowest first (tests/timings.json). Its output streams as it comes.
// - The packaging lane: the checks whose subject is the npm package, the docs site or a project built from them
//   (PACKAGING below: `npm pack` and installs, tsc, Next.js and VitePress builds, Node 22), under `bun test` in
//   two workers of their own. These wait mostly on their children (npm, tsc, next, vitepress), and they share one
//   `npm pack` per run (MCPLITE_PACK_DIR, tests/helpers/npm-pack.ts: two `prepare` builds would race on dist/), and
//   one `npm install` of it, which each project that installs the tarball copies (`cp -al`).
//   Its workers then take Bun's slowest files too, as many as keep the two lanes' expected times even (evened()).
// - Deno's lane: `deno check --doc` (npm run test:types, and the docs' TypeScript blocks beside the sources, for
//   tests/docs/code-blocks.test.ts) beside `deno test --no-check` in DENO_PROCESSES processes
//   split by time (tests/timings-deno.json, denoParts), the documentation's examples (`--doc`) in one of them; each
//   process loads its files through one generated module, but for those with top-level hooks (isolated()). The check
//   runs beside the tests rather than before them, so that it does not lengthen the longest lane; if it fails,
//   it stops every lane, and the run fails on it whatever ran meanwhile.
//
// Which files run where is declared here, once (issue 99): every file runs once, under Bun, in Bun's or the
// packaging lane; ON_EACH_RUNTIME lists the files whose subject differs by runtime (a listener, bodies and streams as a
// runtime reads them, worker threads, child processes and stdio, Deno KV, the runtime's fetch and WebSocket), each with
// its reason, and those run under Deno too. The type check still covers every test file and source. Files that mix the
// two keep a test-level marker (ONCE_PER_RUN, tests/helpers/once-per-run.ts: skipped under Deno). A listed file that
// no longer exists, or a test file no lane runs, stops the run before it starts. `--all` (`npm run test:all`, or
// MCPLITE_EVERY_RUNTIME=1) runs every file under Deno too and lifts ONCE_PER_RUN: before a release, and when a change
// touches a listener, a stream, a worker or a runtime adapter. How the lanes are chosen: the packaging lane takes the
// checks that build or install something, and as many of Bun's slowest other files as even its two workers with Bun's
// lane's two: most of the suite's files wait on children and timers (a redis-server, workers, BullMQ's locks) more
// than they compute, so a lane's length is the sum of its files' waits, and two lanes that end together end sooner.
// Deno's lane runs ON_EACH_RUNTIME's files and the documentation's examples in DENO_PROCESSES processes beside the
// type check, which, the first to end, frees a core for the conformance suites (.ci/run).
// `node tools/test.mjs --list` prints each lane's files and expected time, and why each of Deno's files is there.
// `node tools/test.mjs tests/a.test.ts …` runs the lanes on the files named only (each where it belongs; no `--doc`).
//
// Bun's lane streams; the packaging lane's output, the type check's and each Deno process's are held in files
// and printed whole once Bun is done, then stream on, so none interleave. Last comes a digest of each failed
// lane's failures (tools/failure-digest.mjs), so that the end of the log says what failed. Each lane's failure
// fails the run, and a type error stops every lane at once. When MCPLITE_LANE_DONE names a file, each lane
// appends its name there as it ends, the type check too (.ci/run starts the conformance suites on the core the
// first frees).
// MCPLITE_TEST_SERIAL=1 runs the type check, then Bun (both of its lanes' files) and Deno, one process each, one
// after the other.
//
// MCPLITE_UPDATE_TIMINGS=1 refreshes both timings files from the run (refreshTimings(): Bun's lanes measure their
// files, each Deno file runs in a module of its own so that its tests' durations are printed under its name); run it
// on a quiet machine after adding or moving slow files: a file missing from them counts a second, and runs last.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdirSync,
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
import { pathToFileURL } from "node:url";
import process from "node:process";
import { docExamples } from "./doc-examples.mjs";
import { failureDigest, uncoloured } from "./failure-digest.mjs";
import { leftovers } from "./leftovers.mjs";
import { RECIPE_DIGEST_FILE, recipeDigest, recipesPassedOn, recordRecipesPassed } from "./recipe-builds.mjs";
import { repoEnv } from "./repo-bin.mjs";

/**
 * The packaging and site checks: their own lane, under Bun. Each runs the packed package or a built site on a
 * runtime of its own choosing (Node 22, Bun, Deno as children), so the lane's runtime is only their harness.
 */
const PACKAGING = [
  "tests/npm-types-node.test.ts", // tsc on the packed package's declarations
  "tests/cli/cli-init.test.ts", // projects `mcplite init` writes, installed and run (its light checks run on Deno too)
  "tests/npm-package.test.ts", // the tarball on Node 22 and Bun; JSR's and npm's publish dry runs
  "tests/docs/mounting.test.ts", // the mounting guide from the package, and its Next.js build
  "tests/docs-site.test.ts", // the VitePress build
  "tests/npm-checkout.test.ts", // the package installed from a git checkout
  "tests/node/node22-battery.test.ts", // the battery's scenarios on Node 22
  "tests/docs/getting-started.test.ts", // the Getting started pages, run as written by children
  "tests/docs/run-against-server.test.ts", // the docs' blocks that call a server, run as children
  "tests/readme-node-route.test.ts", // the README's Node route, on Node 22
];

/**
 * The files whose subject differs by runtime: they run under Deno as well as under Bun (issue 99: a test file runs
 * under the runtime its subject depends on, once; this is the exception, each entry with its reason, which
 * `node tools/test.mjs --list` prints). Every other file runs once, under Bun: a store, a queue, a codec, a binding or
 * the protocol through an in-process call is the same code on either runtime, and `deno check` of every test file and
 * source (the type check's lane) still covers where Deno differs for such code, its types. An entry ending in "/"
 * covers its folder's files. `npm run test:all` (MCPLITE_EVERY_RUNTIME=1) runs every file under Deno too.
 */
const ON_EACH_RUNTIME = [
  [
    "tests/runtime/",
    "the runtime adapters themselves (src/runtime/): each runtime's listener, body reader, thread priority",
  ],
  ["tests/node/node-handler.test.ts", "nodeHandler() on the runtime's node:http (Deno's and Bun's are their own)"],
  ["tests/node/node-handler-frameworks.test.ts", "nodeHandler() under Express and Fastify, on the runtime's node:http"],
  ["tests/node/request-headers.test.ts", "request heads as the runtime's node:http hands them over"],
  [
    "tests/server/serve.test.ts",
    "serve(): the runtime's own listener (Deno.serve, Bun.serve, node:http), in a child of it",
  ],
  ["tests/server/serve-node-http.test.ts", 'serve({ httpServer: "node:http" }) on Deno and Bun\'s node:http'],
  ["tests/server/serve-port-in-use.test.ts", "the listener's bind error as each runtime reports it"],
  ["tests/server/slow-sender.test.ts", "slow senders on each runtime's listener (caught Deno.serve's kept socket)"],
  ["tests/server/deadlines.test.ts", "head and body deadlines on each runtime's listener (Deno.serve differs)"],
  ["tests/server/drain.test.ts", "graceful shutdown of open streams, as each runtime's server closes"],
  ["tests/server/cancellation.test.ts", "a client that goes away, as each runtime's listener signals it"],
  ["tests/server/rebinding-socket.test.ts", "the socket's local address as each runtime's listener gives it"],
  [
    "tests/server/bad-input.test.ts",
    "malformed, huge and streamed bodies, read by the runtime's Request (the Deno body reader)",
  ],
  ["tests/server/read-json.test.ts", "bodies with and without a length, read by the runtime's streams"],
  ["tests/server/budgets.test.ts", "bodies held and refused on serve() in a child of each runtime"],
  ["tests/bindings/grpc/node.test.ts", "serveGrpc() on the runtime's node:http2 (Deno's aborts: denoland/deno#36788)"],
  ["tests/bindings/grpc/node-unary.test.ts", "the direct gRPC path's body reader on the runtime's node:http2"],
  ["tests/bindings/grpc/node-guard.test.ts", "serveGrpc()'s guard on the runtime's node:http2"],
  ["tests/bindings/mcp/stream-progress.test.ts", "SSE progress flushed by each runtime's listener, server in a child"],
  ["tests/bindings/mcp/held-progress.test.ts", "held calls' SSE streams through each runtime's listener"],
  ["tests/bindings/mcp/session-stream.test.ts", "a 2025 session's SSE stream through each runtime's listener"],
  ["tests/bindings/mcp/sse-polling.test.ts", "SSE polling and resumption through each runtime's listener"],
  ["tests/bindings/mcp/long-running-without-tasks.test.ts", "a held answer over a listener in a child of each runtime"],
  ["tests/events/events-push.test.ts", "SEP-3415 push streams through each runtime's listener and fetch"],
  ["tests/events/events-push-websocket.test.ts", "push over the runtime's WebSocket"],
  ["tests/events/client-stream-stdio.test.ts", "an event stream over a child's stdio, as each runtime spawns it"],
  [
    "tests/cli/cli-events.test.ts",
    "streams and polls across a server's restart, as the runtime's fetch reports a cut body",
  ],
  ["tests/client/network.test.ts", "the client over the runtime's fetch and a real socket"],
  ["tests/client/response-bound.test.ts", "the client's response bounds as the runtime's fetch and streams read"],
  [
    "tests/client/transports/stdio.test.ts",
    "the stdio transport on the runtime's child_process (the stdio probe's timing)",
  ],
  [
    "tests/client/transports/stdio-slow-start.test.ts",
    "a slow child's start as the runtime's child_process reports it",
  ],
  ["tests/stdio/", "serveStdio() and its peers: the runtime's stdin, stdout and child processes"],
  ["tests/websocket/websocket.test.ts", "the WebSocket binding on the runtime's own WebSocket server and client"],
  ["tests/websocket/backpressure.test.ts", "WebSocket backpressure as each runtime's socket buffers"],
  ["tests/deno-kv/", "Deno KV (its store runs on Deno only)"],
  ["tests/auth/dpop-replay.test.ts", "DPoP replay marks in Deno KV shared by instances (and on Redis)"],
  ["tests/code-mode/worker-executor.test.ts", "code mode's worker threads on each runtime"],
  ["tests/code-mode/stopped-threads.test.ts", "stopping a program's worker thread, as each runtime terminates one"],
  ["tests/code-mode/starved-threads.test.ts", "worker threads under a starved core, in a child of each runtime"],
  [
    "tests/code-mode/hostile-battery.test.ts",
    "the server's thread beside hostile programs' threads (caught Deno's malloc_trim hold)",
  ],
  ["tests/internal/lazy-node-crypto.test.ts", "node:crypto loaded on first use: each runtime's cold start"],
  ["tests/apps/apps-bundle-failure.test.ts", "the view's bundler: deno bundle on Deno, Bun.build on Bun"],
  ["tests/apps/apps-stdio.test.ts", "the forecast example over stdio, bundled by each runtime's bundler"],
  ["tests/apps/apps-preview.test.ts", "mcplite app started as a child of each runtime"],
  ["tests/cli/cli-stdio.test.ts", "the CLI's stdio target, a child of each runtime"],
  ["tests/cli/cli-worker.test.ts", "mcplite worker's command line, on each runtime"],
  ["tests/cli/dev/dev-command.test.ts", "mcplite dev's file watching and restarts on each runtime"],
  [
    "tests/cli/dev/dev-live.test.ts",
    "a WebSocket and a listen stream kept across mcplite dev's restart, on each runtime",
  ],
  ["tests/proxy/proxy-stdio-backoff.test.ts", "a proxied stdio server's child, restarted by each runtime"],
  ["tests/proxy/proxy-stdio-restart.test.ts", "a proxied stdio server's child, restarted by each runtime"],
  ["tests/proxy/proxy-follow.test.ts", "a proxied stdio server's child, as each runtime spawns it"],
  ["tests/examples/gateway.test.ts", "the example run as its header says, by each runtime (and Node 22)"],
  ["tests/examples/queue.test.ts", "the queue example's README command lines for each runtime"],
  ["tests/examples/code-mode.test.ts", "the code mode example's worker threads, run by each runtime"],
  ["tests/examples/auth.test.ts", "the example run as its header says, by each runtime"],
];

const SERIAL = process.env.MCPLITE_TEST_SERIAL === "1";
const UPDATE_TIMINGS = process.env.MCPLITE_UPDATE_TIMINGS === "1";
/** `--all` (`npm run test:all`) or MCPLITE_EVERY_RUNTIME=1: every file under Deno too, ONCE_PER_RUN lifted. */
const EVERY_RUNTIME = process.env.MCPLITE_EVERY_RUNTIME === "1" || process.argv.includes("--all");
const LIST = process.argv.includes("--list");
/**
 * The recipes' framework builds (tools/recipe-builds.mjs): run with `--all`, and when what they check changed since
 * they last passed; RECIPE_DIGEST is written once they pass again.
 */
const RECIPE_DIGEST = recipeDigest();
const RECIPE_BUILDS = EVERY_RUNTIME || !recipesPassedOn(RECIPE_DIGEST);
/** Test files named on the command line: each lane runs those of its files only, without `--doc`. */
const ONLY = process.argv.slice(2).filter((arg) => !arg.startsWith("--")).map((arg) => arg.replace(/^\.\//, ""));

/**
 * Every test file under `dir`, relative to the repository (as the timings files name them). Not in hidden folders:
 * a test's scratch projects (tests/cli/.init-ready-*, with tests of their own) are one, as deno.json excludes them.
 */
function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => !entry.name.startsWith(".")).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? testFiles(path) : entry.name.endsWith(".test.ts") ? [path] : [];
  }).sort();
}

/** Per-file durations in ms from a timings file; a file not in it counts a second. */
function timings(file) {
  const files = JSON.parse(readFileSync(file, "utf8")).files;
  return (path) => files[path] ?? 1000;
}
/**
 * How much of a file's time in tests/timings.json is the recipes' framework builds (RECIPE_BUILD: measured in CI,
 * issue 99), left out of its expected time when they skip, so that the lanes stay even.
 */
const RECIPE_BUILD_MS = {
  "tests/cli/cli-init.test.ts": 100_000,
  "tests/docs-site.test.ts": 79_000,
  "tests/docs/mounting.test.ts": 30_000,
};
const measuredBunMs = timings("tests/timings.json");
const bunMs = (file) => Math.max(0, measuredBunMs(file) - (RECIPE_BUILDS ? 0 : RECIPE_BUILD_MS[file] ?? 0));
const denoMs = timings("tests/timings-deno.json");
/** The files whose JSDoc examples run (as `deno test --doc mod.ts src/` would run them). */
const DOC_PATHS = ["mod.ts", "src"];
/** The documentation's examples' time (about 250, in the shared module: tools/doc-examples.mjs). */
const DOC_MS = 15_000;

const ALL = testFiles("tests").filter((file) => ONLY.length === 0 || ONLY.includes(file));
for (const file of ONLY) if (!ALL.includes(file)) throw new Error(`no test file ${file}`);
const DOC = ONLY.length === 0 ? ["--doc"] : [];
for (const file of new Set([...PACKAGING, ...ON_EACH_RUNTIME.map(([entry]) => entry)])) {
  if (!existsSync(file)) {
    throw new Error(`tools/test.mjs lists ${file}, which is not there: update PACKAGING or ON_EACH_RUNTIME`);
  }
}
/** Why a file runs under Deno too (its entry in ON_EACH_RUNTIME), or undefined: it runs once, under Bun. */
function onEachRuntime(file) {
  return ON_EACH_RUNTIME.find(([entry]) => entry.endsWith("/") ? file.startsWith(entry) : file === entry)?.[1];
}
for (const file of PACKAGING) {
  if (onEachRuntime(file)) throw new Error(`${file} is a packaging check: it runs once, so not in ON_EACH_RUNTIME`);
}
/** Slowest first, as `--timings` orders them, for the lists a process is given. */
const slowestFirst = (ms) => (a, b) => ms(b) - ms(a) || (a < b ? -1 : 1);
const CORES = availableParallelism();
/** Bun's workers in the packaging lane. */
const PACKAGING_WORKERS = 2;

/**
 * What a file costs Bun's lane beyond its tests' time (tests/timings.json counts tests only): loading it and the
 * SDK's modules, its hooks. Measured: Bun's lane ran its 349 files in 432 s where their timings add up to 343 s a
 * worker, about 0.5 s a file, and 0.2 s on a quieter run.
 */
const BUN_FILE_MS = 400;

/**
 * The packaging lane's files: PACKAGING's, then Bun's other files, slowest first, each one that leaves the packaging
 * lane's expected time per worker (tests/timings.json, and BUN_FILE_MS a file) no longer than Bun's lane's, so that
 * the two lanes end together rather than the packaging lane minutes before (it took 265 s in CI, Bun's lane 467 s).
 */
function evened(files) {
  const cost = (file) => bunMs(file) + BUN_FILE_MS;
  const packaging = files.filter((file) => PACKAGING.includes(file));
  const others = files.filter((file) => !PACKAGING.includes(file)).sort(slowestFirst(bunMs));
  let taken = packaging.reduce((total, file) => total + cost(file), 0);
  let left = others.reduce((total, file) => total + cost(file), 0);
  for (const file of others) {
    const ms = cost(file);
    if ((taken + ms) / PACKAGING_WORKERS > (left - ms) / CORES) continue;
    packaging.push(file);
    taken += ms;
    left -= ms;
  }
  return packaging;
}

/** The files each runtime runs, by lane. */
const PACKAGING_LANE = evened(ALL);
const LANES = {
  bun: ALL.filter((file) => !PACKAGING_LANE.includes(file)),
  packaging: ALL.filter((file) => PACKAGING_LANE.includes(file)),
  // Under `--all` too, never the packaging lane's files: their subject is the package or a build run by children of
  // their own choosing, and a second harness at once would race the first on dist/ and docs/.vitepress/dist (a run of
  // both got 404s from the site being rebuilt under it, and a Bun install from a checkout refused mid-install).
  deno: ALL.filter((file) => !PACKAGING.includes(file) && (EVERY_RUNTIME || onEachRuntime(file) !== undefined)),
};
for (const file of ALL) {
  if (!LANES.bun.includes(file) && !LANES.packaging.includes(file) && !LANES.deno.includes(file)) {
    throw new Error(`tools/test.mjs runs ${file} in no lane`);
  }
}

/** The hidden folders under `dir` (a test's scratch projects inside the checkout, as tests/cli/.init-ready-*). */
function hiddenFolders(dir) {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.name.startsWith(".") ? [path] : hiddenFolders(path);
  });
}

/**
 * How many `deno test` processes run Deno's files at once. Its files mostly wait (on their children, servers and
 * timers), so a second process beside the other lanes' halves Deno's lane where two cores are not both busy; the
 * whole matrix (`--all`, about 1,200 s of Deno's test time) takes a third (two took about 460 s each in CI).
 */
const DENO_PROCESSES = EVERY_RUNTIME ? 3 : 2;

/**
 * Deno's files in DENO_PROCESSES processes at once, split by the time each file took (tests/timings-deno.json, from
 * a measured run; a file not in it counts a second): the files, longest first, each to the part with less so far;
 * the documentation's examples count as one file of DOC_MS. Processes, not `deno test --parallel`'s threads: a
 * test that sets an environment variable (MCPLITE_SECRET) then sets it in its own process only.
 */
function denoParts() {
  const files = LANES.deno.map((file) => [file, denoMs(file) + (isolated(file) ? 500 : 0)]);
  if (DOC.length) files.push(["--doc", DOC_MS]);
  files.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const parts = Array.from({ length: DENO_PROCESSES }, () => ({ files: [], ms: 0 }));
  for (const [file, ms] of files) {
    const part = parts.reduce((least, each) => each.ms < least.ms ? each : least);
    part.files.push(file);
    part.ms += ms;
  }
  return parts;
}

/**
 * Whether a Deno file keeps a module (an isolate) of its own. Every other file of a process is imported by one
 * generated module (`sharedModule`), so that the SDK's module graph is loaded and compiled once per process, not once
 * per file (about 0.2 s of CPU per file; 50 s of the lane). Bun already runs a worker's files in one global, so the
 * files hold up to sharing one, but for their top-level hooks: under Deno, a top-level `before`/`after` belongs to
 * the whole module (every file's `before` runs before the first test, every `after` after the last), and a skipped
 * test anywhere in the module keeps every top-level `after` from running (Deno 2.9: a `describe(…, { skip })` then
 * `after()` never runs, in one file as in many). A file that restores the clock, removes a scratch directory
 * (`scratchDir()` registers an `after`) or closes a server in a top-level hook therefore keeps its own module.
 */
function isolated(file) {
  if (UPDATE_TIMINGS) return true; // each file's tests printed under its own name (refreshTimings)
  const source = readFileSync(file, "utf8");
  if (/^(before|after|beforeEach|afterEach)\(/m.test(source)) return true;
  return HOOK_HELPERS.some((name) => new RegExp(`^(?:(?:const|let) [^=]+= )?(?:await )?${name}\\(`, "m").test(source));
}

/**
 * The helpers (tests/helpers/) that register a hook where they are called (`before`/`after` in their own body, as
 * `scratchDir()`, `queueBackends()` and `grpcListener()` do): called at a file's top level, they make a top-level
 * hook, which Deno would run module-wide in a shared module (and skip along with every other file's `after` there).
 * Read from the helpers themselves, so that a new one is seen without a list to keep.
 */
const HOOK_HELPERS = readdirSync("tests/helpers").filter((name) => name.endsWith(".ts")).flatMap((name) => {
  const source = readFileSync(join("tests/helpers", name), "utf8");
  return [...source.matchAll(/^export (?:async )?function (\w+)[^]*?\n}\n/gm)]
    .filter(([body]) => /^ {2}(before|after|beforeEach|afterEach)\(/m.test(body))
    .map(([, fn]) => fn);
});

/**
 * Writes the module that imports `files` (one isolate for them all), and each documentation example's module with
 * them when `doc` is set, and answers its path.
 */
function sharedModule(files, name, doc) {
  const modules = [];
  // The examples first: they run with Deno.test's sanitizers, which the node:test files (run without them) would
  // otherwise trip with what their servers and timers leave running.
  if (doc) {
    mkdirSync(join(SHARED_DIR, name));
    for (const [i, example] of docExamples(DOC_PATHS).entries()) {
      const path = join(SHARED_DIR, name, `example-${i + 1}.ts`);
      writeFileSync(path, example.source);
      modules.push(pathToFileURL(path).href);
    }
  }
  modules.push(...files.map((file) => pathToFileURL(join(process.cwd(), file)).href));
  const path = join(SHARED_DIR, `${name}.test.ts`);
  writeFileSync(path, modules.map((module) => `import ${JSON.stringify(module)};\n`).join(""));
  return path;
}

// `--no-check`: the lane's type check (`npm run test:types`, `deno check --doc`) checks every test file and
// documentation example beside them, and stops every lane on an error; each process would check its part again
// (about 26 s of CPU each on a CI machine, the clone's new path missing Deno's cache).
const DENO_TEST = ["test", "-A", "--unstable-no-legacy-abort", "--no-check"];
/**
 * `deno test`'s arguments for some of Deno's files, `--doc` among them for the documentation's examples (those of
 * DOC_PATHS, run from the shared module: tools/doc-examples.mjs).
 */
function denoArgs(files, name = "deno") {
  const tests = files.filter((file) => file !== "--doc").sort();
  const doc = files.includes("--doc");
  const shared = tests.filter((file) => !isolated(file));
  return [
    ...DENO_TEST,
    ...(shared.length > 1 || doc ? [sharedModule(shared, name, doc)] : shared),
    ...tests.filter((file) => !shared.includes(file)),
  ];
}

/**
 * `bun test`'s arguments for `files` in `workers` processes. A path starting with `./` names that file (a bare one
 * is a filter that would match others containing it).
 *
 * A test's default bound is 120 s: it guards against a hang, and each wait inside a test has its own bound. At 30 s
 * it measured the machine: tests that start Node 22, Chromium or a child server several times took 15–22 s on a
 * quiet 2-core run, more with a core busy, and CI failed one at 30.0 s (Deno's `deno test` has no default bound).
 */
function bunArgs(files, workers, measured) {
  const timings = measured
    ? [`--timings=${measured}`, "--timings=tests/timings.json", "--update-timings"]
    : ["--timings=tests/timings.json"];
  const parallel = workers > 1 ? [`--parallel=${workers}`, ...timings] : [];
  return ["test", "--timeout", "120000", ...parallel, ...[...files].sort(slowestFirst(bunMs)).map((f) => `./${f}`)];
}

/** The docs' blocks' type check: under `npm test`, in the type check's program (see below). */
const CODE_BLOCKS = "tests/docs/code-blocks.test.ts";

/** Where each Bun lane writes its files' measured durations under MCPLITE_UPDATE_TIMINGS (refreshTimings()). */
const MEASURED = UPDATE_TIMINGS
  ? { bun: ".timings-bun.json", packaging: ".timings-packaging.json" }
  : { bun: undefined, packaging: undefined };
const RUNS = {
  types: ["npm", ["run", "--silent", "test:types"]],
  bun: ["bun", bunArgs(LANES.bun, CORES, MEASURED.bun)],
  packaging: ["bun", bunArgs(LANES.packaging, PACKAGING_WORKERS, MEASURED.packaging)],
};

/** A duration as `deno test` prints it: "(12ms)", "(3s)", "(1m4s)". */
function denoDuration(text) {
  const [, m = "0", s = "0", ms = "0"] = /^(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(text) ?? [];
  return Number(m) * 60_000 + Number(s) * 1000 + Number(ms);
}

/**
 * Writes tests/timings.json from what Bun's lanes measured (each lane's files from its own file: the two lanes wrote
 * at once) and tests/timings-deno.json from Deno's logs: a file's time is the sum of its top-level tests' as printed
 * after "running N tests from ./<file>". Only the files this run ran and passed are changed.
 */
function refreshTimings(denoLogs, failed) {
  const bun = JSON.parse(readFileSync("tests/timings.json", "utf8"));
  for (const name of ["bun", "packaging"]) {
    if (failed.has(name) || !existsSync(MEASURED[name])) continue;
    const measured = JSON.parse(readFileSync(MEASURED[name], "utf8")).files;
    for (const file of LANES[name]) if (measured[file] !== undefined) bun.files[file] = measured[file];
    rmSync(MEASURED[name]);
  }
  const deno = JSON.parse(readFileSync("tests/timings-deno.json", "utf8"));
  for (const [i, log] of denoLogs.entries()) {
    if (failed.has(denoName(i))) continue;
    let file;
    for (const line of uncoloured(readFileSync(log, "utf8")).split("\n")) {
      const from = /^running \d+ tests? from \.\/(tests\/\S+\.test\.ts)$/.exec(line);
      if (from) (file = from[1]), (deno.files[file] = 0);
      const top = file && /^\S.* \.\.\. (?:ok|FAILED|ignored) \((\w+)\)$/.exec(line);
      if (top) deno.files[file] += denoDuration(top[1]);
    }
  }
  const sorted = (timings) => ({ ...timings, files: Object.fromEntries(Object.entries(timings.files).sort()) });
  writeFileSync("tests/timings.json", JSON.stringify(sorted(bun), null, 2) + "\n");
  writeFileSync("tests/timings-deno.json", JSON.stringify(sorted(deno), null, 2) + "\n");
  console.log("\n== tests/timings.json and tests/timings-deno.json refreshed from this run (MCPLITE_UPDATE_TIMINGS)");
}

if (LIST) {
  const sum = (files, ms) => files.reduce((total, file) => total + ms(file), 0);
  const s = (ms) => `${Math.round(ms / 1000)} s`;
  const show = (title, files) => console.log(`${title}\n${files.map((file) => `  ${file}`).join("\n")}\n`);
  show(
    `== bun (${LANES.bun.length} files, ${CORES} workers: ${s(sum(LANES.bun, bunMs))} of test time, ` +
      `about ${s(sum(LANES.bun, bunMs) / CORES)} each, and ${s((LANES.bun.length * BUN_FILE_MS) / CORES)} of loading)`,
    LANES.bun,
  );
  show(
    `== packaging, under bun (${LANES.packaging.length} files, ${PACKAGING_WORKERS} workers: ` +
      `${s(sum(LANES.packaging, bunMs))}, about ${s(sum(LANES.packaging, bunMs) / PACKAGING_WORKERS)} each; ` +
      `Bun's files after PACKAGING's)`,
    LANES.packaging,
  );
  denoParts().forEach((part, i) => {
    const tests = part.files.filter((file) => file !== "--doc");
    console.log(
      `== deno ${i + 1}/${DENO_PROCESSES} (${tests.length} files${part.files.includes("--doc") ? " and --doc" : ""}, ` +
        `beside the type check: ${s(sum(tests, denoMs) + (part.files.includes("--doc") ? DOC_MS : 0))}), each with ` +
        `why it runs under Deno too\n${
          tests.map((file) => `  ${file}\n      ${onEachRuntime(file) ?? "every file (--all)"}`).join("\n")
        }\n`,
    );
  });
  const once = ALL.filter((file) => !LANES.deno.includes(file));
  console.log(
    `${ALL.length} test files: bun runs ${LANES.bun.length + LANES.packaging.length}, deno ${LANES.deno.length} ` +
      `(${once.length} run once, under Bun only: ${s(sum(once, denoMs))} of Deno's test time not repeated; ` +
      `npm run test:all runs every file under Deno too)`,
  );
  console.log(
    `The recipes' framework builds (Next.js, VitePress, mcplite init's templates): ${
      RECIPE_BUILDS ? "run" : `skipped, their inputs as they last passed (${RECIPE_DIGEST_FILE})`
    }.`,
  );
  process.exit(0);
}

// The tests' scratch directories (tests/helpers/scratch-dir.ts): removed here at the end, since `bun test
// --parallel` kills the removal each test starts in the background with its worker (installed projects, 1.5 GB a run).
const SCRATCH_DIR = mkdtempSync(join(tmpdir(), "mcplite-scratch-"));
// Traversable by others (not listable): as root, PostgreSQL runs as the `postgres` user on clusters made in it
// (tests/helpers/postgres-server.ts).
chmodSync(SCRATCH_DIR, 0o711);
// The tests' temporary directory (TMPDIR: os.tmpdir()'s, and Deno's, Bun's, npm's and Chromium's): the run's own, as
// /tmp is (sticky, anyone's), so that what is left in it is this run's whatever else runs on the machine. A run that
// leaves a `mcplite-*` entry there fails (tools/leftovers.mjs); the run removes the directory with the rest.
const TEMP_DIR = mkdtempSync(join(tmpdir(), "mcplite-tmp-"));
chmodSync(TEMP_DIR, 0o1777);
// The packed tarball beside them: a project in a scratch directory names it `../mcplite-pack-…/…tgz`, as `npx` takes a
// tarball (npm 11 runs `../../x.tgz` as a command).
const PACK_DIR = mkdtempSync(join(SCRATCH_DIR, "mcplite-pack-"));
/** Those a test makes inside the checkout (hidden, under tests/) are removed too: the ones not there before the run. */
const HIDDEN_BEFORE = new Set(hiddenFolders("tests"));
// In the repository, not the system's temporary directory: the examples' bare specifiers (valibot) resolve through
// its package.json and node_modules, as the documented files' do (gitignored).
const SHARED_DIR = mkdtempSync(join(process.cwd(), ".deno-shared-"));
const env = repoEnv({
  MCPLITE_PACK_DIR: PACK_DIR,
  MCPLITE_SCRATCH_DIR: SCRATCH_DIR,
  TMPDIR: TEMP_DIR,
  ...(EVERY_RUNTIME ? { MCPLITE_EVERY_RUNTIME: "1" } : {}),
  MCPLITE_RECIPE_BUILDS: RECIPE_BUILDS ? "1" : "0",
});
console.log(
  RECIPE_BUILDS
    ? `== the recipes' framework builds run (${
      EVERY_RUNTIME ? "--all" : `their inputs changed since ${RECIPE_DIGEST_FILE}`
    })`
    : `== the recipes' framework builds (Next.js, VitePress, mcplite init's templates) skip: their inputs are as they ` +
      `last passed (${RECIPE_DIGEST_FILE}); npm run test:all runs them`,
);

// The docs' and the README's TypeScript blocks (tests/docs/code-blocks.test.ts), written where the type check reads
// them beside the sources, in one program, with the repository's configuration (as the blocks' own project has it):
// a `deno check` of their own would check the SDK again (about 20 s of CPU). The test then leaves them to it.
if (LANES.packaging.includes(CODE_BLOCKS) || LANES.bun.includes(CODE_BLOCKS)) {
  const blocks = join(SHARED_DIR, "code-blocks");
  mkdirSync(blocks);
  const written = spawnSync("bun", ["tests/docs/code-blocks-files.ts", blocks], { env, stdio: "inherit" });
  if (written.status !== 0) throw new Error(`tests/docs/code-blocks-files.ts failed (exit ${written.status})`);
  RUNS.types = ["npm", ["run", "--silent", "test:types", "--", blocks]];
  env.MCPLITE_DOCS_BLOCKS = blocks;
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
 * When MCPLITE_LANE_DONE names a file, each lane appends its name there, a line, as it ends (the first line is the
 * first lane done), so that CI can start its next stage on the core that lane frees while the others finish.
 */
function laneDone(name) {
  if (process.env.MCPLITE_LANE_DONE) writeFileSync(process.env.MCPLITE_LANE_DONE, `${name}\n`, { flag: "a" });
}

/**
 * Deno's lane: the type check beside Deno's tests in DENO_PROCESSES processes (`outs`: the check's file
 * descriptor, then one per process). A failed check stops every lane (fails fast): what runs unchecked meanwhile
 * is never reported.
 */
async function denoLane(outs) {
  const types = start("types", outs[0]).then((result) => {
    if (result.code !== 0) { for (const child of running) child.kill("SIGTERM"); }
    laneDone("types"); // the first to end, minutes before the others: CI starts its next stage beside them then
    return result;
  });
  // Without files, `deno test` would run every file it finds.
  const parts = denoParts().filter((part) => part.files.length);
  const results = await Promise.all([
    types,
    ...parts.map((part, i) => start(denoName(i), outs[i + 1], ["deno", denoArgs(part.files, `deno-${i + 1}`)])),
  ]);
  laneDone("deno");
  return results;
}

/** The name of Deno's process `i` (from 0), as the results and the failure digest name it. */
const denoName = (i) => `deno ${i + 1}/${DENO_PROCESSES}`;

/** A lane whose output goes to `out`, appending its name to MCPLITE_LANE_DONE as it ends. */
async function lane(name, out) {
  // Without files, `bun test` would run every file it finds.
  const result = LANES[name].length ? await start(name, out) : { name, code: 0, seconds: 0 };
  laneDone(name);
  return [result];
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
  results.push(await start("types"));
  const bun = [...LANES.bun, ...LANES.packaging];
  const deno = [...LANES.deno, ...DOC];
  if (bun.length) results.push(await start("bun", undefined, ["bun", bunArgs(bun, 1)]));
  if (deno.length) results.push(await start("deno", undefined, ["deno", denoArgs(deno)]));
} else {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-test-"));
  const denoLogs = Array.from({ length: DENO_PROCESSES }, (_, i) => `deno-${i + 1}.log`);
  const held = ["bun.log", "packaging.log", "types.log", ...denoLogs].map((name) => join(dir, name));
  const [bunOut, packagingOut, ...denoOuts] = held.map((file) => openSync(file, "w"));
  const packaging = lane("packaging", packagingOut);
  const deno = denoLane(denoOuts);
  const bun = lane("bun", bunOut);
  await follow(held[0], bun); // Bun's lane streams as it comes
  results.push(...await bun);
  const sections = [
    [packaging, "the packaging lane (bun test, ran alongside bun test; its output so far, then as it comes)"],
    [deno, "the type check (deno check --doc, ran alongside the others)"],
    ...denoLogs.map((_, i) => [deno, `deno test's part ${i + 1} of ${DENO_PROCESSES} (ran alongside bun test)`]),
  ];
  for (const [i, [done, title]] of sections.entries()) {
    console.log(`\n== ${title}\n`);
    await follow(held[i + 1], done);
  }
  results.push(...await packaging, ...await deno);
  // Last, what failed, lane by lane: the lane's output may have scrolled out of a CI log's view long before.
  const logs = { bun: held[0], packaging: held[1], types: held[2] };
  denoLogs.forEach((_, i) => logs[denoName(i)] = held[3 + i]);
  if (UPDATE_TIMINGS) refreshTimings(held.slice(3), new Set(results.filter((r) => r.code !== 0).map((r) => r.name)));
  for (const { name, code } of results) {
    if (code === 0 || logs[name] === undefined) continue;
    console.log(`\n== what failed in the ${name} lane (from its output above)\n`);
    console.log(failureDigest(readFileSync(logs[name], "utf8")).join("\n"));
  }
  rmSync(dir, { recursive: true, force: true });
}
rmSync(PACK_DIR, { recursive: true, force: true });
rmSync(SHARED_DIR, { recursive: true, force: true });
// In the background (Node leaves it running): deleting installed projects takes seconds the run need not wait for.
const made = hiddenFolders("tests").filter((path) => !HIDDEN_BEFORE.has(path));
// What a test made in the temporary directory and left there (a test's folder belongs in scratchDir()).
const left = leftovers(TEMP_DIR);
if (left.length) {
  results.push({ name: "leftovers", code: 1, seconds: 0 });
  console.log(`\n== the tests left these in their temporary directory (a test removes what it makes: scratchDir())\n`);
  console.log(left.map((name) => `  ${name}`).join("\n"));
}
spawn("rm", ["-rf", SCRATCH_DIR, TEMP_DIR, ...made], { detached: true, stdio: "ignore" }).unref();

// The recipes' framework builds ran on every file and passed: what they checked is recorded, so that the next run
// skips them until it changes (tools/recipe-builds.mjs; the digest belongs in the commit that changed their inputs).
const recipesRan = RECIPE_BUILDS && RECIPE_DIGEST !== undefined && ONLY.length === 0;
if (recipesRan && results.every((r) => r.code === 0) && !recipesPassedOn(RECIPE_DIGEST)) {
  recordRecipesPassed(RECIPE_DIGEST);
  console.log(`\n== the recipes' framework builds passed: ${RECIPE_DIGEST_FILE} records what they checked (commit it)`);
}

for (const { name, code, seconds, error } of results) {
  console.log(
    `${name} test: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds} s${
      error ? `: ${error.message}` : ""
    }`,
  );
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
