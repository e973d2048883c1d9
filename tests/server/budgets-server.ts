/**
 * The server the budgets tests start in a child process (`deno run`, `bun`, or Node 22), with `serve()`:
 * MCP-lite with `hold` (waits `{ ms }`, or until `GET /release` was asked when negative, then answers the length
 * of `{ data }`) and `later` (defers work that finishes with "finished" once `GET /release` was asked), callers authenticated by their token
 * (`Bearer ada` is the subject `ada`), and the server's `limits` from the first argument (JSON; `{}` for
 * the defaults). Beside the server: `GET /budgets` what its budgets hold now (JSON); `GET /seen` the most
 * each budget held and how many refusals (503, 429) left their body unread or read it, since the last
 * `GET /seen?reset`; `GET /rss` the highest resident set seen since the last `GET /rss?reset`, sampled
 * every 20 ms (which collects garbage first), for bench/budgets-rss.ts. Prints `{"port":…}` once
 * listening, and stops when its stdin closes.
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { declareBodyLimit } from "../../src/runtime/body-bound.ts";
import { attachListener } from "../../src/server/listener.ts";
import { budgetsOf } from "../../src/core/instance/runtime.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { protectedResource } from "../../src/auth/mod.ts";

let release!: () => void;
const released = new Promise<void>((resolve) => release = resolve);

const server = createServer({
  name: "budgets",
  version: "1.0.0",
  secret: "a test secret of thirty-two bytes!",
  limits: JSON.parse(process.argv[2] ?? "{}"),
  auth: protectedResource({
    resource: "http://127.0.0.1/",
    authorizationServers: ["https://auth.example"],
    verify: (token) => ({ subject: token, scopes: [] }),
  }),
}).tool(
  defineTool("hold").describe("Waits ms (a negative ms: until released), then answers the length of data")
    .input(v.object({ data: v.string(), ms: v.number() }))
    .handle(async ({ data, ms }) => {
      // A call that takes ms: its duration is what the tests load the budgets with.
      await (ms < 0 ? released : new Promise((resolve) => setTimeout(resolve, ms)));
      return String(data.length);
    }),
).tool(
  defineTool("later").describe("Finishes in the background once released").longRunning({ retryAfterMs: 5 })
    .handle((_args, ctx) => ctx.defer(async () => (await released, "finished"))),
);
const budgets = budgetsOf(registryOf(attachListener(server).core).runtime);

/** The most each budget held, and the refusals by whether their body was read. */
let seen = { peak: { ...budgets.inUse }, refusedUnread: 0, refusedRead: 0 };
const take = budgets.take.bind(budgets);
budgets.take = (name, amount, caller) => {
  const refusal = take(name, amount, caller);
  seen.peak[name] = Math.max(seen.peak[name], budgets.inUse[name]);
  return refusal;
};
/** Counts a refusal of the budgets by whether the request's body was read before it. */
const counted = (request: Request, response: Response) => {
  if (response.status === 503 || response.status === 429) {
    if (request.bodyUsed) seen.refusedRead++;
    else seen.refusedUnread++;
  }
  return response;
};

/**
 * Collects garbage as V8's memory reducer does for an idle process: a full collection that also gives back the
 * young generation a burst grew (`flavor: "last-resort"`; V8 versions without options take a plain full one).
 */
const collect = () => {
  (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
  (globalThis as { gc?: (options?: object) => void }).gc?.({ type: "major", execution: "sync", flavor: "last-resort" });
};
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().rss);
};
setInterval(sample, 20);
const app = {
  fetch(request: Request): Response | Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/budgets") return Response.json(budgets.inUse);
    if (url.pathname === "/seen") {
      if (url.searchParams.has("reset")) seen = { peak: { ...budgets.inUse }, refusedUnread: 0, refusedRead: 0 };
      return Response.json(seen);
    }
    if (url.pathname === "/release") return new Response(String(release()));
    if (url.pathname !== "/rss") {
      const answer = server.fetch(request);
      return answer instanceof Promise
        ? answer.then((response) => counted(request, response))
        : counted(request, answer);
    }
    if (url.searchParams.has("reset")) {
      collect();
      peak = 0;
    }
    sample();
    return new Response(String(peak));
  },
};
declareBodyLimit(app.fetch, 4 * 1024 * 1024); // as the server's own (Bun's listener bounds bodies by it)
const listener = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
console.log(JSON.stringify({ port: listener.port }));
process.stdin.resume();
process.stdin.on("end", () => void listener.close().then(() => process.exit(0)));
