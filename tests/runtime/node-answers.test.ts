/**
 * The server's own JSON answers on Node (`serve()` and `nodeHandler()` put in `answerLazily`'s makers,
 * `src/runtime/node/outgoing-response.ts`: undici's `Response` whose body stream is made when first
 * read), on Node 20 (`node` on the PATH) and Node 22 (`bash .ci/node22.sh`), each running
 * tests/runtime/node-answers-probe.ts bundled for Node: every member that reads a body (`body`,
 * `bodyUsed`, `text()` twice, `json()`, `arrayBuffer()`, `bytes()`, `blob()`, `formData()`, `clone()`,
 * `new Response(res.body)`, a `Request` around it), the headers, `instanceof Response`, `inspect`, and what
 * the makers refuse, against the `Response` that `Response.json` and `new Response(text)` make; how
 * `writeResponse` writes each (an untouched one in one `res.end` of its string); and MCP-lite and MCP
 * `tools/call` and lists over HTTP through `nodeHandler()`, `serve()` (Node 22, 20.16) and a fetch wrapper that
 * reads a clone and wraps the body, byte for byte as without the lazy answers (content-length and UTF-8).
 * Run under `bun test` (its subject is Node, not the runtime running it).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { node22 } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import type { Report } from "./node-answers-probe.ts";

/** Where the probe is bundled: made at load, removed after the file's tests. */
const DIR = ONCE_PER_RUN === false ? scratchDir("mcplite-node-answers-") : "";

/** The probe bundled for Node (`bun build --target node`), once per file. */
let bundled: Promise<string> | undefined;
function bundle(): Promise<string> {
  return bundled ??= (async () => {
    const out = join(DIR, "probe.mjs");
    const built = await run(`${ROOT}node_modules/.bin/bun`, [
      "build",
      "tests/runtime/node-answers-probe.ts",
      "--target",
      "node",
      "--outfile",
      out,
    ], 120_000);
    assert.equal(built.code, 0, built.stderr);
    return out;
  })();
}

/** The probe's report on the Node at `node`. */
async function probe(node: string): Promise<Report> {
  const ran = await run(node, [await bundle()], 120_000);
  assert.equal(ran.code, 0, ran.stderr);
  return JSON.parse(ran.stdout) as Report;
}

/** The head and the UTF-8 body of a raw HTTP answer the probe read as latin1. */
function split(raw: string): { head: string; body: string; bytes: number } {
  const at = raw.indexOf("\r\n\r\n");
  const bytes = Buffer.from(raw.slice(at + 4), "latin1");
  return { head: raw.slice(0, at), body: bytes.toString("utf8"), bytes: bytes.length };
}

/**
 * The assertions on one Node's report. Node 20 and 22 (undici 6) keep a body as the lazy answer stands
 * in for, and their makers are replaced; elsewhere (a later undici) the answers must be as before.
 */
function checks(report: Report): void {
  const major = Number(/^v(\d+)\./.exec(report.node)?.[1]);
  const lazy = major === 20 || major === 22;
  assert.equal(report.lazy, lazy, `${report.node}: the makers are replaced only where undici keeps a body record`);
  assert.deepEqual(report.replaced, { text: true, json: true }, "a replaced global Response makes them as before");
  assert.ok(Object.keys(report.table).length > 150);
  for (const [name, { expected, actual }] of Object.entries(report.table)) assert.deepEqual(actual, expected, name);
  for (const [name, { expected, actual, calls }] of Object.entries(report.writes)) {
    assert.deepEqual(actual, expected, name);
    // Untouched, or only its stream asked for or teed: one `res.end` of the answer's string.
    if (lazy && !/wrapped|read \(/.test(name)) assert.deepEqual(calls, ["writeHead", "end:string"], name);
  }
  // serve() needs process.getBuiltinModule (Node 22.3, 20.16): the probe serves with it where Node has it.
  const sites = [
    "nodeHandler",
    "wrapped fetch",
    ...(major >= 22 || "serve(): MCP tools/call" in report.wire ? ["serve()"] : []),
  ];
  for (const site of sites) {
    for (const wire of ["MCP-lite tools/call", "MCP-lite listtools", "MCP tools/call", "MCP tools/list"]) {
      const answer = report.wire[`${site}: ${wire}`];
      assert.ok(answer !== undefined, `${site}: ${wire}`);
      assert.equal(answer.actual, answer.expected, `${site}: ${wire}, byte for byte as before`);
      const { head, body, bytes } = split(answer.actual);
      assert.match(head, /^HTTP\/1\.1 200 /);
      assert.match(head, /\r\ncontent-type: application\/json\r\n/i);
      assert.equal(Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]), bytes, `${site}: ${wire}, content-length`);
      JSON.parse(body);
      if (wire.endsWith("tools/call")) assert.ok(body.includes("héllo, 世界 ✓ 𝄞"), body);
    }
  }
}

describe("the server's own answers on Node (answerLazily)", { skip: ONCE_PER_RUN }, () => {
  it("on the PATH's node (20 here): every member as a plain Response, written from their string, the wire as before", async () => {
    checks(await probe("node"));
  });

  it("on Node 22: the same, serve() included", async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip("needs Node 22: bash .ci/node22.sh installs it");
    const report = await probe(node);
    assert.match(report.node, /^v22\./);
    checks(report);
  });
});
