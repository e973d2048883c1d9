/**
 * Before and after, measured alongside: the same server (the `add` tool, every HTTP wire) built from
 * this checkout's `mod.ts` and from another checkout of the SDK (an earlier commit), timed in one
 * process with interleaved slices, each compared with the floor of its request. With `--middleware`,
 * both servers also carry one pass-through middleware (`server.use()`), the cost a typical
 * authentication check adds. With `--cpu`, each row is instead timed in CPU time (`process.cpuUsage()`)
 * over interleaved blocks of calls, the median block kept: on a loaded machine the time a process
 * waits for a core does not count, so before/after ratios stay readable where wall time is noise.
 * With `--promise` (CPU time), the rows are instead a promise → redeem round trip on MCP-lite (sealed
 * tokens, the default) against two floor requests and two plain `tools/call`s of each checkout.
 * With `--string` (CPU time), the tool is the user-written shape of issue 32's second goal: `add_text`
 * answers the sum as a string, timed on MCP-lite, MCP 2026-07-28 and MCP-lite without `Content-Length`
 * (a chunked upload), each against the floor answering that result; "bounded · no Content-Length" is that
 * upload as `serve()` on Bun hands it over, its body bounded by the listener and read whole by the runtime.
 * With `--shapes` (CPU time), the rows are the request-shape matrix (`SHAPES` in `bench/requests.ts`),
 * each shape against the floor fed its bytes; `--only <text>` keeps the shapes whose name contains it.
 * With `--grouped`, `add` is a grouped child's tool, called as `math.add` (`server.group()`'s lookup on the call path).
 * With `--events`, this checkout's server also serves an event (`defineEvent()`: the events extension and its message
 * middleware on every request), what a server with MCP Events pays on `tools/call` beside one without before; with
 * `--intercept`, one anonymous extension's pass-through message middleware instead (what `--events` pays, isolated).
 * With `--jwt` (CPU time), both servers are protected by their checkout's `jwtAuth({ jwks })` and called with a bearer
 * token (an ES256 signature checked per call), beside `jwtAuth({ issuer, resource })` of this checkout, whose keys were
 * found through the issuer's RFC 8414 metadata on a loopback listener (issue 79).
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   bun bench/before-after.ts --before /tmp/before [--middleware] [--cpu | --promise | --string | --shapes]
 *   deno run -A bench/before-after.ts --before /tmp/before [--middleware] [--cpu | --promise | --string | --shapes]
 *
 * @module
 */
import process from "node:process";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import * as after from "../mod.ts";
import { defineExtension } from "../src/assembly/served-extensions.ts";
import { defineEvent } from "../src/events/mod.ts";
import { markBounded } from "../src/runtime/body-bound.ts";
import { cpuTimePerCall, runScenario, runtime } from "./harness.ts";
import { ADD_PARAMS, jsonPost, legacy, lite, modern, NAMED_HOST, rpc, SHAPES } from "./requests.ts";
import type { Fetch } from "./servers/common.ts";
import { floor, floorLiteDone, floorText } from "./servers/floor.ts";
import { promiseRound, promisingServer, REDEEMED, twoRequests } from "./servers/promising.ts";
import { jwtBench, STATIC_ISSUER } from "./servers/jwt-auth.ts";
import { jwtAuth } from "../src/auth/mod.ts";

const at = process.argv.indexOf("--before");
if (at < 0 || process.argv[at + 1] === undefined) {
  console.error("usage: bench/before-after.ts --before <checkout of the earlier commit> [--middleware]");
  process.exit(2);
}
const withMiddleware = process.argv.includes("--middleware");
const promiseRows = process.argv.includes("--promise");
const stringRows = process.argv.includes("--string");
const shapeRows = process.argv.includes("--shapes");
const grouped = process.argv.includes("--grouped");
const withEvents = process.argv.includes("--events");
const withIntercept = process.argv.includes("--intercept");
const withJwt = process.argv.includes("--jwt");
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
const inCpuTime = promiseRows || stringRows || shapeRows || withJwt || process.argv.includes("--cpu");
const before = await import(pathToFileURL(`${process.argv[at + 1]}/mod.ts`).href) as typeof after;
const jwt = withJwt ? await jwtBench() : undefined;
/** Each checkout's `jwtAuth`, for `--jwt`. */
const jwtAuthOf = async (sdk: typeof after): Promise<typeof jwtAuth> =>
  sdk === after
    ? jwtAuth
    : (await import(pathToFileURL(`${process.argv[at + 1]}/src/auth/mod.ts`).href)).jwtAuth as typeof jwtAuth;

/**
 * The same server from either checkout: `add` (`add_text` with `--string`), the default bindings (MCP-lite and MCP);
 * with `auth`, protected by it.
 */
function build(sdk: typeof after, auth?: ReturnType<typeof jwtAuth>): Fetch {
  const add = stringRows
    ? sdk.defineTool("add_text")
      .describe("Adds two numbers, answering the sum as text")
      .input(v.object({ a: v.number(), b: v.number() }))
      .handle(({ a, b }) => String(a + b))
    : sdk.defineTool("add")
      .describe("Adds two numbers")
      .input(v.object({ a: v.number(), b: v.number() }))
      .handle(({ a, b }) => ({ sum: a + b }));
  const named = (name: string) => sdk.createServer({ name, version: "1.0.0", ...(auth ? { auth } : {}) });
  const server = grouped ? named("bench").group("math", named("math").tool(add)) : named("bench").tool(add);
  // One pass-through middleware, the shape both versions accept.
  if (withMiddleware) server.use((_call, next) => next() as never);
  if (withEvents && sdk === after) server.event(defineEvent("bench.tick"));
  if (withIntercept && sdk === after) server.extension(defineExtension().intercept((_message, _info, next) => next()));
  return server.fetch;
}

/** The request-shape matrix's server from either checkout: the three result shapes, one deployed host name too. */
function buildShapes(sdk: typeof after): Fetch {
  const input = v.object({ a: v.number(), b: v.number() });
  const server = sdk.createServer({
    name: "bench",
    version: "1.0.0",
    allowedHosts: ["localhost", "127.0.0.1", "::1", NAMED_HOST],
  })
    .tool(sdk.defineTool("add").describe("Adds two numbers").input(input).handle(({ a, b }) => ({ sum: a + b })))
    .tool(sdk.defineTool("add_text").describe("Adds, as text").input(input).handle(({ a, b }) => String(a + b)))
    .tool(
      sdk.defineTool("add_checked").describe("Adds, checked").input(input).output(v.object({ sum: v.number() }))
        .handle(({ a, b }) => ({ sum: a + b })),
    );
  if (withMiddleware) server.use((_call, next) => next() as never);
  return server.fetch;
}

const SUM = '"structuredContent":{"sum":3}';
const CALLED = grouped ? { ...ADD_PARAMS, name: "math.add" } : ADD_PARAMS;
const LITE = lite("/calltools", "tools/call", CALLED);
const MODERN = modern("tools/call", CALLED);
const LEGACY = legacy("tools/call", CALLED);
const old = build(before);
const ours = build(after);
const TEXT_PARAMS = { ...ADD_PARAMS, name: "add_text" };
const TEXT = '"text":"3"';
const LITE_TEXT = lite("/calltools", "tools/call", TEXT_PARAMS);
const MODERN_TEXT = modern("tools/call", TEXT_PARAMS);
const LITE_TEXT_CHUNKED = jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", TEXT_PARAMS), {}, false);
/** The same request as `serve()` on Bun hands it over: its body bounded by the listener (`maxRequestBodySize`). */
const LITE_TEXT_BOUNDED: typeof LITE = () => {
  const made = LITE_TEXT_CHUNKED();
  markBounded(made);
  return made;
};
const oldPromising = promisingServer(before);
const oursPromising = promisingServer(after);
const suffix = withMiddleware ? ", one middleware" : "";

const ROWS: [name: string, fetch: Fetch, request: typeof LITE][] = [
  ["floor", floor, LITE],
  ["floor 2026", floor, MODERN],
  ["floor 2025", floor, LEGACY],
  ["before · MCP-lite", old, LITE],
  ["after · MCP-lite", ours, LITE],
  ["before · MCP 2026-07-28", old, MODERN],
  ["after · MCP 2026-07-28", ours, MODERN],
  ["before · MCP 2025", old, LEGACY],
  ["after · MCP 2025", ours, LEGACY],
];

/** What the CPU-time mode measures: a name, the work, a text its answer contains, the row it is compared with. */
type CpuRow = [name: string, run: () => Promise<string>, expect: string, base: string];
const request = (fetch: Fetch, make: typeof LITE) => async () => await (await fetch(make())).text();
const STRING_ROWS: CpuRow[] = [
  ["floor", request(floorText, LITE_TEXT), TEXT, "floor"],
  ["floor 2026", request(floorText, MODERN_TEXT), TEXT, "floor 2026"],
  ["before · MCP-lite", request(old, LITE_TEXT), TEXT, "floor"],
  ["after · MCP-lite", request(ours, LITE_TEXT), TEXT, "floor"],
  ["before · MCP 2026-07-28", request(old, MODERN_TEXT), TEXT, "floor 2026"],
  ["after · MCP 2026-07-28", request(ours, MODERN_TEXT), TEXT, "floor 2026"],
  ["before · no Content-Length", request(old, LITE_TEXT_CHUNKED), TEXT, "before · MCP-lite"],
  ["after · no Content-Length", request(ours, LITE_TEXT_CHUNKED), TEXT, "after · MCP-lite"],
  ["bounded · no Content-Length", request(ours, LITE_TEXT_BOUNDED), TEXT, "after · MCP-lite"],
];
const SHAPE_ROWS: CpuRow[] = shapeRows
  ? (() => {
    const [oldShapes, oursShapes] = [buildShapes(before), buildShapes(after)];
    return SHAPES.filter(({ name }) => name.includes(only)).flatMap(
      ({ name, result, request: make, stream }): CpuRow[] => {
        const expect = result === "string" ? TEXT : SUM;
        const floorOf = stream ? floorLiteDone : result === "string" ? floorText : floor;
        const base = `floor · ${name}`;
        return [
          [base, request(floorOf, make), expect, base],
          [`before · ${name}`, request(oldShapes, make), expect, base],
          [`after · ${name}`, request(oursShapes, make), expect, base],
        ];
      },
    );
  })()
  : [];
const JWT_ROWS: CpuRow[] = jwt
  ? await (async () => {
    const bearer = (token: string): typeof LITE => () => LITE({ headers: { authorization: `Bearer ${token}` } });
    const given = async (sdk: typeof after) =>
      build(sdk, (await jwtAuthOf(sdk))({ issuer: STATIC_ISSUER, resource: "http://localhost", jwks: jwt.jwks }));
    const discovered = build(after, jwtAuth({ issuer: jwt.issuer, resource: "http://localhost" }));
    return [
      ["floor", request(floor, LITE), SUM, "floor"],
      ["before · jwtAuth({ jwks })", request(await given(before), bearer(jwt.token)), SUM, "floor"],
      ["after · jwtAuth({ jwks })", request(await given(after), bearer(jwt.token)), SUM, "floor"],
      ["discovered · jwtAuth({ issuer })", request(discovered, bearer(jwt.discoveredToken)), SUM, "floor"],
    ];
  })()
  : [];
const CPU_ROWS: CpuRow[] = withJwt ? JWT_ROWS : shapeRows ? SHAPE_ROWS : stringRows ? STRING_ROWS : promiseRows
  ? [
    ["floor · two requests", () => twoRequests(floor, LITE), SUM, "floor · two requests"],
    ["before · two tools/call", () => twoRequests(old, LITE), SUM, "floor · two requests"],
    ["after · two tools/call", () => twoRequests(ours, LITE), SUM, "floor · two requests"],
    ["before · promise → redeem", () => promiseRound(oldPromising), REDEEMED, "floor · two requests"],
    ["after · promise → redeem", () => promiseRound(oursPromising), REDEEMED, "floor · two requests"],
  ]
  : ROWS.map(([name, fetch, make]) => [
    name,
    request(fetch, make),
    SUM,
    make === MODERN ? "floor 2026" : make === LEGACY ? "floor 2025" : "floor",
  ]);

if (inCpuTime) await cpuTimeRows(CPU_ROWS);
else {
  await runScenario(`tools/call before → after${suffix}`, [
    ...ROWS.map(([name, fetch, request]) => {
      const floorName = request === MODERN ? "floor 2026" : request === LEGACY ? "floor 2025" : undefined;
      return { name, fetch, request, expect: SUM, ...(floorName === undefined ? {} : { floor: floorName }) };
    }),
  ], { cpuMs: 1500 });
}
await jwt?.close();

/** CPU µs per call of each row (`cpuTimePerCall`), as a ratio to its base row and each "after" row to its "before" row. */
async function cpuTimeRows(rows: CpuRow[]): Promise<void> {
  const perCall = await cpuTimePerCall(
    rows.map(([name, run, expect]) => [name, run, expect]),
    "",
    promiseRows || shapeRows ? 500 : 2_000,
  );
  const { name: rt, version } = runtime();
  const what = promiseRows
    ? "promise → redeem"
    : stringRows
    ? "tools/call, string result"
    : shapeRows
    ? "tools/call, request shapes"
    : withJwt
    ? "tools/call with a JWT bearer token"
    : "tools/call";
  console.log(`\n${what} before → after${suffix}, CPU µs per call (median of 40 blocks) — ${rt} ${version}`);
  const of = (name: string) => perCall.get(name)!;
  for (const [name, , , base] of rows) {
    const ratio = name === base ? "" : ` ${(of(name) / of(base)).toFixed(2)}× ${shapeRows ? "floor" : base}`;
    const earlier = name.startsWith("discovered") ? "before · jwtAuth({ jwks })" : name.replace("after", "before");
    const pair = name.startsWith("after") || name.startsWith("discovered")
      ? ` · ${(of(name) / of(earlier)).toFixed(3)}× before`
      : "";
    console.log(
      `  ${name.padEnd(shapeRows ? 90 : withJwt ? 34 : 26)} ${of(name).toFixed(2).padStart(7)} µs${ratio}${pair}`,
    );
  }
}
