/**
 * The load generator, in its own process: the benchmark's k6 script (`benchmark/benchmark.js`) followed
 * step by step by `--vus` virtual users. Each iteration of a user, as the script's default function:
 * for each tool (`search_products`, `get_user_cart`, `checkout`, with the user's `user-000NN`) a full MCP
 * session — `initialize`, `notifications/initialized` with the answered `Mcp-Session-Id`, `tools/call`,
 * then `DELETE` when a session id was answered — then a `tools/list` session, then 50 ms of sleep. With
 * `--floor`, one `POST /tools/<name>` per call instead of the session, and the same sleep.
 *
 * Counted as k6 counts: `http_req_failed` is every request answered 4xx/5xx or not answered (k6's
 * default expected statuses are 200–399), the script's threshold is a rate under 5 %; a check fails as
 * the script's checks do (`total_found == 2251`, ten products and ten popular ids; a cart item and five
 * orders; `confirmed`, a total, two items); an MCP error as its `mcp_errors` (no result, or an error).
 * Only what completes after `--warmup` seconds and before the end counts; the tools/call latencies
 * (time to the whole answer) give p50 and p99.
 *
 *   bun bench/workload/load.ts --url http://127.0.0.1:8083 [--floor] [--vus 50] [--seconds 10] [--warmup 2]
 *
 * Prints `MEASURING` when the warm-up ends, `DONE` when the window closes, then one JSON line of figures.
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { HEADERS, INITIALIZE, INITIALIZED } from "./session-requests.ts";

const { values: opts } = parseArgs({
  options: {
    url: { type: "string" },
    floor: { type: "boolean", default: false },
    vus: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
  },
});
if (opts.url === undefined) {
  throw new Error("usage: load.ts --url <base> [--floor] [--vus n] [--seconds s] [--warmup s]");
}
const BASE = opts.url.replace(/\/$/, "");
const MCP = `${BASE}/mcp`;
const VUS = Number(opts.vus);
const start = performance.now();
const measureFrom = start + Number(opts.warmup) * 1000;
const measureTo = measureFrom + Number(opts.seconds) * 1000;

/** What the window counted. */
const figures = {
  requests: 0,
  failed: 0,
  failedByKind: {} as Record<string, number>,
  calls: 0,
  checksFailed: 0,
  mcpErrors: 0,
  mcpRequests: 0,
};
const latencies: number[] = [];
const measuring = (at: number) => at >= measureFrom && at < measureTo;

/** One HTTP request: its status, headers and body, counted as `http_req_failed` counts it. */
async function request(kind: string, url: string, init: RequestInit) {
  let status = 0, text = "", headers = new Headers();
  try {
    const response = await fetch(url, init);
    status = response.status;
    headers = response.headers;
    text = await response.text();
  } catch { /* status 0: not answered, a failure as in k6 */ }
  const at = performance.now();
  if (measuring(at)) {
    figures.requests++;
    if (status === 0 || status >= 400) {
      figures.failed++;
      figures.failedByKind[`${kind} ${status}`] = (figures.failedByKind[`${kind} ${status}`] ?? 0) + 1;
    }
  }
  return { status, text, headers, at };
}

/** A JSON-RPC answer from a JSON or SSE body, as the script's `parseBody`. */
function parseBody(body: string): Record<string, unknown> | null {
  const text = body.trim();
  if (text.startsWith("{")) {
    try {
      return JSON.parse(text);
    } catch { /* fall through */ }
  }
  for (const line of text.split("\n")) {
    const data = line.trim();
    if (data.startsWith("data:") && data.slice(5).trim().startsWith("{")) {
      try {
        return JSON.parse(data.slice(5).trim());
      } catch { /* next line */ }
    }
  }
  return null;
}

// deno-lint-ignore no-explicit-any
type Check = (d: Record<string, any>) => boolean;
interface Tool {
  name: string;
  args: object;
  check: Check;
}

/** The script's three tools and checks for one user. */
function toolsOf(userId: string): Tool[] {
  return [
    {
      name: "search_products",
      args: { category: "Electronics", min_price: 50.0, max_price: 500.0, limit: 10 },
      check: (d) => d.total_found === 2251 && d.products.length === 10 && d.top10_popular_ids.length === 10,
    },
    {
      name: "get_user_cart",
      args: { user_id: userId },
      check: (d) => !!d.user_id && d.cart.items.length >= 1 && d.recent_history.length === 5,
    },
    {
      name: "checkout",
      args: { user_id: userId, items: [{ product_id: 42, quantity: 2 }, { product_id: 1337, quantity: 1 }] },
      check: (d) => d.status === "confirmed" && d.total > 0 && d.items_count === 2,
    },
  ];
}

/** A check on a tools/call answer's first text content (or, for the floor, the answer itself). */
function passes(tool: Tool, result: unknown): boolean {
  try {
    const r = result as { result?: { content?: { text: string }[] } } | null;
    if (opts.floor) return tool.check(result as Record<string, unknown>);
    if (!r?.result?.content) return false;
    return tool.check(JSON.parse(r.result.content[0].text));
  } catch {
    return false;
  }
}

/** One MCP session around `method`: initialize, initialized, the request, DELETE when a session id came. */
async function session(method: string, params: object) {
  const init = await request("initialize", MCP, { method: "POST", headers: HEADERS, body: INITIALIZE });
  if (measuring(init.at)) figures.mcpRequests++;
  const sessionId = init.headers.get("mcp-session-id");
  const headers = sessionId ? { ...HEADERS, "mcp-session-id": sessionId } : HEADERS;
  await request("notifications/initialized", MCP, { method: "POST", headers, body: INITIALIZED });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method, params });
  const sent = performance.now();
  const answer = await request(method, MCP, { method: "POST", headers, body });
  if (measuring(answer.at)) figures.mcpRequests++;
  if (sessionId) await request("DELETE", MCP, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
  return { result: parseBody(answer.text), ms: answer.at - sent, at: answer.at };
}

/** One virtual user, until the window closes. */
async function user(vu: number) {
  const tools = toolsOf(`user-${String(vu % 1000).padStart(5, "0")}`);
  while (performance.now() < measureTo) {
    for (const tool of tools) {
      let result: unknown, ms: number, at: number;
      if (opts.floor) {
        const sent = performance.now();
        const answer = await request(tool.name, `${BASE}/tools/${tool.name}`, {
          method: "POST",
          headers: HEADERS,
          body: JSON.stringify(tool.args),
        });
        at = answer.at, ms = at - sent;
        try {
          result = JSON.parse(answer.text);
        } catch {
          result = null;
        }
      } else {
        ({ result, ms, at } = await session("tools/call", { name: tool.name, arguments: tool.args }));
        const r = result as { error?: unknown; result?: unknown } | null;
        if (measuring(at) && (!r || r.error || !r.result)) figures.mcpErrors++;
      }
      if (!measuring(at)) continue;
      figures.calls++;
      latencies.push(ms);
      if (!passes(tool, result)) figures.checksFailed++;
    }
    if (!opts.floor && performance.now() < measureTo) {
      const { result, at } = await session("tools/list", {});
      const r = result as { result?: { tools?: unknown } } | null;
      if (measuring(at) && !r?.result?.tools) figures.checksFailed++;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

setTimeout(() => console.log("MEASURING"), measureFrom - performance.now());
setTimeout(() => console.log("DONE"), measureTo - performance.now());
await Promise.all(Array.from({ length: VUS }, (_, i) => user(i + 1)));
latencies.sort((a, b) => a - b);
const seconds = Number(opts.seconds);
console.log(JSON.stringify({
  ...figures,
  seconds,
  callsPerSecond: figures.calls / seconds,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
  failedRate: figures.requests === 0 ? 0 : figures.failed / figures.requests,
}));
process.exit(0);
