/**
 * examples/code-mode/README.md, run as it is written: its server command line for the runtime running the test
 * (Deno's under `deno test`, Bun's under `bun test`), started on a free port (it proxies server-everything over
 * stdio), then its client command line against it: the lists show code mode's two tools, and one program through
 * `execute_code` calls three of server-everything's tools and answers the filtered result and its console line.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import process from "node:process";
import { describe, it } from "node:test";
import { shellBlocks } from "../helpers/markdown.ts";
import { ROOT, run, startServer } from "../helpers/process.ts";

const README = "examples/code-mode/README.md";
const lines = shellBlocks(readFileSync(`${ROOT}${README}`, "utf8"), README)
  .flatMap((block) => block.code.split("\n").map((line) => line.trim()));
const RUNTIME = "Deno" in globalThis ? "deno" : "bun";

/** The README's command line that runs `file` on this runtime, as arguments to this runtime. */
function argsOf(file: string): string[] {
  const line = lines.find((text) => text.endsWith(file) && text.startsWith(`node_modules/.bin/${RUNTIME} `));
  assert.ok(line !== undefined, `${README} runs ${file} on ${RUNTIME}`);
  return line.split(/\s+/).slice(1);
}

describe(README, () => {
  it(`runs a program through execute_code over server-everything on ${RUNTIME}`, { timeout: 120_000 }, async () => {
    const server = await startServer(process.execPath, argsOf("examples/code-mode/server.ts"));
    try {
      const client = await run(process.execPath, [...argsOf("examples/code-mode/client.ts"), server.origin], 90_000);
      assert.equal(client.code, 0, `${client.stdout}${client.stderr}\n${server.output}`);
      assert.match(client.stdout, /^tools: discover_tools, execute_code$/m);
      assert.match(client.stdout, /"everything\.get-sum"/); // a declaration
      assert.match(client.stdout, /^logs: \["read the weather of 3 cities"\]$/m);
      assert.match(
        client.stdout,
        /^result: \{"warmest":"Los Angeles","spread":40,"echo":"Echo: warmest: Los Angeles"\}$/m,
      );
    } finally {
      await server.stop();
    }
  });
});
