/**
 * The server's own JSON answers on Node (issue 66): `Response.json` and `new Response(text)` (how the
 * makers in `src/runtime/answer-makers.ts` make them everywhere) against the makers `serve()` and
 * `nodeHandler()` put in on Node (`answerLazily`, `src/runtime/node/outgoing-response.ts`: undici's
 * `Response` whose body stream is made when first read), alone and with `writeResponse` writing the
 * answer on a stand-in Node response (what `serve()` does with it). A `tools/call` answer with a session
 * header. CPU time per answer (`process.cpuUsage`, this process only: other processes on the machine
 * do not count), the rows alternated round by round in one process.
 *
 *   node bench/node-answers.ts [--rounds 5] [--count 100000]          (Node 22: `bash .ci/node22.sh --path`)
 *   bun build bench/node-answers.ts --target node --outfile /tmp/node-answers.mjs && node /tmp/node-answers.mjs
 *                                                                     (Node 20, which does not strip types)
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { answerLazily, writeResponse } from "../src/runtime/node/outgoing-response.ts";
import type { NodeResponse } from "../src/runtime/node/node-types.ts";
import { answers } from "../src/runtime/answer-makers.ts";

const { values: opts } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, count: { type: "string", default: "100000" } },
});
const ROUNDS = Number(opts.rounds);
const COUNT = Number(opts.count);

const VALUE = {
  jsonrpc: "2.0",
  id: 3,
  result: { content: [{ type: "text", text: '{"products":[{"id":1,"name":"Widget é","price":9.99}]}' }] },
};
const INIT = { headers: { "content-type": "application/json", "mcp-session-id": "0123456789abcdef0123456789abcdef" } };

const plain = { json: answers.json, text: answers.text };
answerLazily(answers);
if (answers.json === plain.json) throw new Error(`${process.version}: this Node's Response keeps no body record`);
const lazy = { json: answers.json, text: answers.text };

/** A Node response that takes the answer and drops it. */
const sink: NodeResponse = {
  headersSent: false,
  writableFinished: false,
  writeHead: () => sink,
  write: () => true,
  end: () => sink,
  flushHeaders: () => {},
  destroy: () => sink,
  once: () => sink,
  off: () => sink,
};

const ROWS: Record<string, () => unknown> = {
  "Response.json": () => plain.json(VALUE, INIT),
  "lazy json": () => lazy.json(VALUE, INIT),
  "new Response(text)": () => plain.text(JSON.stringify(VALUE), INIT),
  "lazy text": () => lazy.text(JSON.stringify(VALUE), INIT),
  "Response.json + writeResponse": () => writeResponse(plain.json(VALUE, INIT), sink),
  "lazy json + writeResponse": () => writeResponse(lazy.json(VALUE, INIT), sink),
};

/** CPU µs per call of `row` over `COUNT` calls (awaiting each promise, as `serve()` does). */
async function measure(row: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) {
    const made = row();
    if (made instanceof Promise) await made;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / COUNT;
}

for (const row of Object.values(ROWS)) for (let i = 0; i < 20_000; i++) await row(); // warm-up
const seen: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, row] of Object.entries(ROWS)) (seen[name] ??= []).push(await measure(row));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`${process.version} (undici ${process.versions.undici}), ${ROUNDS} rounds × ${COUNT}, CPU µs per answer`);
for (const [name, xs] of Object.entries(seen)) {
  console.log(`${name.padEnd(32)} median ${median(xs).toFixed(2)}  (${xs.map((x) => x.toFixed(2)).join(", ")})`);
}
const ratio = (a: string, b: string) => (median(seen[a]!) / median(seen[b]!)).toFixed(2);
console.log(
  `lazy ÷ plain: json ${ratio("lazy json", "Response.json")}×, text ${ratio("lazy text", "new Response(text)")}×,`,
);
console.log(`  made and written ${ratio("lazy json + writeResponse", "Response.json + writeResponse")}×`);
