/**
 * `@mcplite/sdk/deno` and `@mcplite/sdk/bun`: each entry's `serve()` listens with its runtime's own
 * server (the Deno one checked under deno test, the Bun one under bun test, each skipped elsewhere),
 * refuses the other runtime, and loads no other runtime's adapter, not even through `import()`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { serve as serveBun } from "../../src/runtime/bun/mod.ts";
import { serve as serveDeno } from "../../src/runtime/deno/mod.ts";
import { reachedFrom } from "../helpers/import-graph.ts";

const ON_DENO = (globalThis as { Deno?: unknown }).Deno !== undefined;
const ON_BUN = (globalThis as { Bun?: unknown }).Bun !== undefined;

const echo = defineTool("echo")
  .describe("Echoes its text")
  .input(v.object({ text: v.string() }))
  .handle(({ text }) => text);

/** Lists the tools over MCP-lite on `url` and stops the listener. */
async function listsTools(serve: typeof serveDeno): Promise<string[]> {
  const server = createServer({ name: "entry", version: "1.0.0" }).tool(echo);
  const listener = await serve(server, { port: 0, quiet: true });
  try {
    assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${listener.url}/mcp-lite/v1/listtools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(response.status, 200);
    const body = await response.json() as { tools: { name: string }[] };
    return body.tools.map((tool) => tool.name);
  } finally {
    await listener.close();
  }
}

describe("the runtime entry points", () => {
  it(
    "@mcplite/sdk/deno serves with Deno.serve",
    { skip: ON_DENO ? false : "Deno only: runs under deno test" },
    async () => {
      assert.deepEqual(await listsTools(serveDeno), ["echo"]);
    },
  );

  it("@mcplite/sdk/bun serves with Bun.serve", { skip: ON_BUN ? false : "Bun only: runs under bun test" }, async () => {
    assert.deepEqual(await listsTools(serveBun), ["echo"]);
  });

  it("refuses another runtime, naming the default entry", async () => {
    const other = ON_DENO ? serveBun : serveDeno;
    await assert.rejects(
      other({ fetch: () => new Response() }, { port: 0, quiet: true }),
      /import serve from @mcplite\/sdk/,
    );
  });

  it("loads no other runtime's adapter, through import() either", () => {
    for (const [runtime, others] of [["deno", ["node", "bun"]], ["bun", ["node", "deno"]]] as const) {
      const loaded = [...reachedFrom([`src/runtime/${runtime}/mod.ts`], { dynamic: true })];
      assert.ok(loaded.includes(`src/runtime/${runtime}/listen.ts`), `the walk reaches ${runtime}'s listener`);
      const foreign = loaded.filter((file) => others.some((other) => file.startsWith(`src/runtime/${other}/`)));
      assert.deepEqual(foreign, [], `@mcplite/sdk/${runtime} loads another runtime's files`);
    }
  });
});
