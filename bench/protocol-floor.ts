/**
 * Three floors of a `tools/call` in process, on every request shape of the matrix (`SHAPES`, the SSE one
 * aside): the floor (`floor.ts`: parse, answer a fixed result: what the runtime costs), the protocol floor
 * (`floor-protocol.ts`: what MCP-lite spec v0.042 or MCP 2026-07-28 makes any server do, by hand, the
 * same bytes as ours) and ours. CPU time per call, median of interleaved blocks (`cpuTimePerCall`); each
 * protocol floor's answer is first checked against ours, its clock fields aside.
 *
 *   bun bench/protocol-floor.ts [--only <text>]
 *   deno run -A bench/protocol-floor.ts [--only <text>]
 *
 * @module
 */
import process from "node:process";
import { cpuTimePerCall, runtime } from "./harness.ts";
import { SHAPES } from "./requests.ts";
import { floor, floorText } from "./servers/floor.ts";
import { floorLiteProtocol, floorMcpProtocol } from "./servers/floor-protocol.ts";
import { oursShapes } from "./servers/ours.ts";

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
const shapes = SHAPES.filter((shape) => !shape.stream && shape.name.includes(only));

/** The answer without the fields that tell the time (MCP-lite's `timestamp` and `processing_time_ms`). */
const timeless = (text: string) => text.replace(/"timestamp":"[^"]*","processing_time_ms":\d+,/, "");

const rows: [name: string, run: () => Promise<string>, expect: string][] = [];
for (const { name, request, result, wire } of shapes) {
  const protocol = wire === "MCP-lite" ? floorLiteProtocol : floorMcpProtocol;
  const [theirs, mine] = [await (await protocol(request())).text(), await (await oursShapes.fetch(request())).text()];
  if (timeless(theirs) !== timeless(mine)) {
    throw new Error(`${name}: the protocol floor answered ${theirs}, ours ${mine}`);
  }
  const bare = result === "string" ? floorText : floor;
  rows.push(
    [`floor · ${name}`, async () => await (await bare(request())).text(), ""],
    [`protocol · ${name}`, async () => await (await protocol(request())).text(), ""],
    [`ours · ${name}`, async () => await (await oursShapes.fetch(request())).text(), ""],
  );
}
const perCall = await cpuTimePerCall(rows, "", 500);
const { name: rt, version } = runtime();
console.log(`\ntools/call in process, CPU µs per call (median of 40 blocks) — ${rt} ${version}`);
console.log(`${"shape".padEnd(86)} floor   protocol÷floor  ours÷floor  ours÷protocol`);
for (const { name } of shapes) {
  const [bare, protocol, ours] = ["floor", "protocol", "ours"].map((row) => perCall.get(`${row} · ${name}`)!);
  console.log(
    `${name.padEnd(86)} ${bare.toFixed(2).padStart(5)}  ${(protocol / bare).toFixed(2).padStart(13)}×  ${
      (ours / bare).toFixed(2).padStart(9)
    }×  ${(ours / protocol).toFixed(2).padStart(12)}×`,
  );
}
