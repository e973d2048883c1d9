/**
 * Scenario 6: cost as tools grow. Each server is built with 10, 1,000 and 10,000 tools (the same `add`
 * tool under as many names), each as its docs recommend, in a fresh child process per server and size;
 * the child reports the time to its first answered `tools/list`, the RSS it grew by, and the time of
 * `tools/list` (the first page, and the whole list by its cursors) and of `tools/call` on the last tool.
 *
 *   bun bench/scaling.bench.ts · deno run -A bench/scaling.bench.ts · `npm run bench` (all runtimes)
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import process from "node:process";
import { median, runtime } from "./harness.ts";
import { ADD_PARAMS, legacy, modern, type RequestFactory } from "./requests.ts";
import type { Fetch } from "./servers/common.ts";
import { type ScaleRow, scalingTable, SIZES } from "./scaling-table.ts";
import { SCALE_SERVERS, type ScaleServer } from "./servers/scaling.ts";
import { flag } from "./exec.ts";

function gc(): void {
  const g = globalThis as { gc?: () => void; Bun?: { gc(force: boolean): void } };
  if (g.Bun) g.Bun.gc(true);
  else g.gc?.();
}

/**
 * CPU time per call (`process.cpuUsage()`), the median of three slices: in process a request is all CPU work of
 * this process, and on a shared machine the time spent waiting for a core would otherwise count.
 */
async function timeOf(fn: () => Promise<unknown>, cpuMs: number): Promise<number> {
  const slices: number[] = [];
  const warm = process.cpuUsage();
  do await fn(); while (process.cpuUsage(warm).user < (cpuMs / 6) * 1e3); // JIT and caches first
  for (let i = 0; i < 3; i++) {
    const start = process.cpuUsage();
    let calls = 0, used = 0;
    do {
      await fn();
      calls++;
      const u = process.cpuUsage(start);
      used = u.user + u.system;
    } while (used < (cpuMs / 3) * 1e3 || calls < 3);
    slices.push((used * 1e3) / calls);
  }
  return median(slices);
}

function requestFor(server: ScaleServer, method: string, params: Record<string, unknown>): RequestFactory {
  return server.era === "2025" ? legacy(method, params) : modern(method, params);
}

/**
 * One `tools/list` page: its tool count (the names counted in the text, so that timing the whole list times the
 * server, not a client's parse of it) and its `nextCursor` (read from the end of the answer).
 */
async function page(fetch: Fetch, request: Request): Promise<{ tools: number; nextCursor?: string }> {
  const response = await fetch(request);
  const text = await response.text();
  if (!text.includes('"tools":[')) throw new Error(`tools/list answered ${text.slice(0, 200)}`);
  const cursor = /"nextCursor":"([^"]+)"/.exec(text.slice(-400))?.[1];
  return { tools: text.split('"name":"tool_').length - 1, nextCursor: cursor };
}

/** Every page of the list: the tool count and the page count. */
async function wholeList(server: ScaleServer, fetch: Fetch): Promise<{ tools: number; pages: number }> {
  let cursor: string | undefined, tools = 0, pages = 0;
  do {
    const result = await page(fetch, requestFor(server, "tools/list", cursor ? { cursor } : {})());
    tools += result.tools;
    pages++;
    cursor = result.nextCursor;
  } while (cursor !== undefined && pages < 1_000);
  return { tools, pages };
}

/** Measures one server at one size, in this process. */
export async function measureOne(server: ScaleServer, tools: number, cpuMs: number): Promise<ScaleRow> {
  gc();
  const rssBefore = process.memoryUsage().rss;
  const start = process.cpuUsage();
  const fetch = server.build(tools);
  const listed = await wholeList(server, fetch);
  const used = process.cpuUsage(start);
  const readyMs = (used.user + used.system) / 1e3;
  gc();
  const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
  if (listed.tools !== tools) throw new Error(`${server.name}: listed ${listed.tools} of ${tools} tools`);
  const last = { ...ADD_PARAMS, name: `tool_${tools - 1}` };
  const call = requestFor(server, "tools/call", last);
  const first = await (await fetch(call())).text();
  if (!first.includes("3")) throw new Error(`${server.name}: tools/call answered ${first.slice(0, 200)}`);
  const list = requestFor(server, "tools/list", {});
  return {
    server: server.name,
    tools,
    readyMs,
    rssMb,
    firstPage: await timeOf(async () => await (await fetch(list())).arrayBuffer(), cpuMs),
    wholeList: await timeOf(() => wholeList(server, fetch), cpuMs),
    pages: listed.pages,
    call: await timeOf(async () => await (await fetch(call())).arrayBuffer(), cpuMs),
  };
}

/** The command that runs this file again on the current runtime (a Node run is the bundle `bench/run.ts` built). */
function self(): [string, string[]] {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (deno) return [deno.execPath(), ["run", "-A", "--v8-flags=--expose-gc", process.argv[1]]];
  if ((globalThis as { Bun?: unknown }).Bun) return [process.execPath, [process.argv[1]]];
  return [process.execPath, ["--expose-gc", process.argv[1]]];
}

const cpuMs = Number(flag("cpu-ms") ?? 600);
const child = flag("child");
if (child !== undefined) {
  const server = SCALE_SERVERS.find((s) => s.name === child)!;
  const row = await measureOne(server, Number(flag("tools")), cpuMs);
  console.log(`SCALE_ROW ${JSON.stringify(row)}`);
} else {
  const rows: ScaleRow[] = [];
  const [cmd, args] = self();
  for (const server of SCALE_SERVERS) {
    for (const tools of SIZES) {
      const run = spawnSync(
        cmd,
        [...args, "--child", server.name, "--tools", String(tools), "--cpu-ms", String(cpuMs)],
        {
          encoding: "utf8",
          timeout: 600_000,
        },
      );
      const line = run.stdout?.split("\n").find((l) => l.startsWith("SCALE_ROW "));
      if (line === undefined) {
        console.error(`! ${server.name} × ${tools}: exit ${run.status}\n${String(run.stderr).slice(-1500)}`);
        continue;
      }
      rows.push(JSON.parse(line.slice("SCALE_ROW ".length)));
      if (!process.argv.includes("--json")) console.error(`  ${server.name} × ${tools} done`);
    }
  }
  const { name, version } = runtime();
  if (process.argv.includes("--json")) console.log(`BENCH_SCALING ${JSON.stringify({ runtime: name, version, rows })}`);
  else console.log(scalingTable(new Map([[name, rows]])));
}
