/**
 * The memory the server's budgets save (`limits`): 60 callers each send a 4 MiB `tools/call` at once to the
 * budgets server (tests/server/budgets-server.ts, `serve()` in a child process), and the server's peak resident
 * set grows by what this prints, in MB, after a garbage collection. With the default body budget (16 MiB) four
 * bodies are read and the others are refused 503 unread: docs/guides/limits.md quotes it against the same load
 * without budgets (`--unbounded`: every budget `Infinity`). A figure of the machine, not a test: a busy core
 * moves it (tests/server/budgets.test.ts asserts what the code guarantees instead, in bytes held and bodies read).
 *
 *   bun bench/budgets-rss.ts   ·   deno run -A bench/budgets-rss.ts   ·   `--node <node>` (Node 22: `bash .ci/node22.sh --path`)
 *
 * @module
 */
import process from "node:process";
import { budgetsServer, callHold } from "../tests/helpers/budgets-calls.ts";

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const node = args.includes("--node") ? args[args.indexOf("--node") + 1] : undefined;
const unbounded = args.includes("--unbounded");
const limits = unbounded
  ? { bodyBytes: Infinity, calls: Infinity, heldStreams: Infinity, jobs: Infinity, perCaller: false }
  : {};

const rss = async (port: number, reset = false) =>
  Number(await (await fetch(`http://127.0.0.1:${port}/rss${reset ? "?reset" : ""}`)).text());

// JSON has no Infinity: the server reads `limits` with JSON.parse, so 1e308 stands for it.
const server = await budgetsServer(
  JSON.parse(JSON.stringify(limits, (_key, value) => value === Infinity ? 1e308 : value)),
  node,
);
try {
  const before = await rss(server.port, true);
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => callHold(server.port, `caller-${i}`, 4 * MiB - 200, 300)),
  );
  const grown = (await rss(server.port) - before) / 1e6;
  const served = answers.filter((answer) => answer.status === 200).length;
  const runtime = (globalThis as { Deno?: unknown }).Deno !== undefined ? "deno" : "bun";
  console.log(
    `${node === undefined ? runtime : `node (${node})`}${unbounded ? ", no budgets" : ""}: ` +
      `+${grown.toFixed(0)} MB for 60 bodies of 4 MiB (${served} served, ${60 - served} refused)`,
  );
} finally {
  await server.stop();
}
