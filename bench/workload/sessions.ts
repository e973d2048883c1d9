/**
 * The workload's sessions without their tool I/O: what a server costs per HTTP request of the session
 * flow itself. Each of `--loops` client loops (20) (Bun's `fetch`, keep-alive, in this process) runs sessions back to
 * back — `initialize`, `notifications/initialized` with the answered `Mcp-Session-Id`, `tools/list` (or
 * with `--call` the workload's `get_user_cart`, its I/O included), `DELETE` — against one server process (`ours.ts`, `floor-mcp.ts`, or `ours.ts` of the `--before`
 * checkout; one process, no cluster) on Node 22 or Bun, Redis and the product API started as the
 * workload starts them and left idle (none of these requests reaches a tool). Reads the server's CPU time (/proc/<pid>/stat) over the window and
 * prints µs per request, the servers alternated round by round; every answer's status is checked.
 *
 *   bun bench/workload/sessions.ts [--rounds 5] [--seconds 4] [--servers ours,floor-mcp] [--before <checkout>]
 *     [--runtime node|bun] [--loops 20] [--call]
 *
 * @module
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BUN, node22, startBackends, usage } from "./measure.ts";
import { freePort } from "./redis.ts";
import { HEADERS, INITIALIZE, INITIALIZED } from "./session-requests.ts";

const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "4" },
    servers: { type: "string", default: "ours,floor-mcp" },
    before: { type: "string" },
    runtime: { type: "string", default: "node" },
    loops: { type: "string", default: "20" },
    call: { type: "boolean", default: false },
  },
});
const HERE = fileURLToPath(new URL("./", import.meta.url));
const BINARY = opts.runtime === "bun" ? BUN : node22()!;
/** Each server: the module that starts it. */
const SERVERS: [name: string, module: string][] = opts.servers.split(",").map((name) => [name, `${HERE}${name}.ts`]);
if (opts.before !== undefined) {
  SERVERS.push(["before", `${opts.before.replace(/\/$/, "")}/bench/workload/ours.ts`]);
}

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
/** With `--call`: the workload's `get_user_cart` (a Redis hash, then the API and a Redis list in parallel). */
const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "get_user_cart", arguments: { user_id: "user-00042" } },
});

/** One server driven for `seconds` after a second of warm-up: its CPU µs per request. */
async function measure(module: string, seconds: number, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const start = `const m = await import(${JSON.stringify(module)}); await m.start(${port}); ` +
    `process.on("SIGTERM", () => process.exit(0)); console.log("LISTENING");`;
  const child = spawn(BINARY, ["--input-type=module", "-e", start], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`${module} exited (${code})`)));
      createInterface({ input: child.stdout! }).on("line", (line) => line === "LISTENING" && resolve());
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    let requests = 0, measuring = false, stop = false;
    const loop = async () => {
      while (!stop) {
        const init = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
        await init.text();
        const session = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id")! };
        const note = await fetch(url, { method: "POST", headers: session, body: INITIALIZED });
        await note.text();
        const list = await fetch(url, { method: "POST", headers: session, body: opts.call ? CALL : LIST });
        const answer = await list.text();
        if (opts.call && !answer.includes("recent_history")) throw new Error(`${module}: ${answer.slice(0, 200)}`);
        const end = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session["mcp-session-id"] } });
        await end.text();
        const statuses = [init.status, note.status, list.status, end.status].join();
        if (statuses !== "200,202,200,204") throw new Error(`${module}: answered ${statuses}`);
        if (measuring) requests += 4;
      }
    };
    const loops = Array.from({ length: Number(opts.loops) }, loop);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    measuring = true;
    const from = usage([child.pid!]).cpu;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const to = usage([child.pid!]).cpu;
    measuring = false;
    stop = true;
    await Promise.all(loops);
    return (to - from) / requests * 1e6;
  } finally {
    child.kill("SIGTERM");
  }
}

const results = new Map<string, number[]>();
const backends = await startBackends();
try {
  for (let round = 0; round < Number(opts.rounds); round++) {
    const order = [...SERVERS.slice(round % SERVERS.length), ...SERVERS.slice(0, round % SERVERS.length)];
    for (const [name, module] of order) {
      const us = await measure(module, Number(opts.seconds), backends.env);
      results.set(name, [...results.get(name) ?? [], us]);
      console.log(`round ${round + 1} ${opts.runtime} ${name}: ${us.toFixed(1)} µs of server CPU per request`);
    }
  }
} finally {
  backends.stop();
}
const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
for (const [name, xs] of results) {
  console.log(`${name}: ${mean(xs).toFixed(1)} µs per request (rounds ${xs.map((x) => x.toFixed(1)).join(", ")})`);
}
const ours = results.get("ours"), floor = results.get("floor-mcp"), before = results.get("before");
if (ours && floor) console.log(`ours ÷ floor-mcp: ${(mean(ours) / mean(floor)).toFixed(2)}×`);
if (before && floor) console.log(`before ÷ floor-mcp: ${(mean(before) / mean(floor)).toFixed(2)}×`);
if (ours && before) {
  const perRound = ours.map((x, i) => (x / before[i]).toFixed(2)).join(", ");
  console.log(`ours ÷ before: ${(mean(ours) / mean(before)).toFixed(2)}× (per round ${perRound})`);
}
