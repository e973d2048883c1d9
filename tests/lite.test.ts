/**
 * `@mcplite/sdk/lite`: the main entry's API with MCP-lite as the one default wire, so that a bundler
 * leaves the MCP binding out of a server that does not list it (issue 32, goal 3).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as v from "valibot";
import * as lite from "../src/lite/mod.ts";
import * as main from "../mod.ts";
import { modernRequest, post, toolsCall } from "./helpers/request.ts";

const ROOT = new URL("..", import.meta.url).pathname;

const add = lite.defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

describe("@mcplite/sdk/lite", () => {
  it("serves MCP-lite by default, and no MCP endpoint", async () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0" }).tool(add);
    const call = await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 })));
    assert.equal(call.status, 200);
    assert.deepEqual((await call.json()).result.structuredContent, { sum: 3 });
    const mcp = await server.fetch(modernRequest("tools/list"));
    assert.equal(mcp.status, 404);
  });

  it("serves the wires the caller lists, MCP included", async () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0", bindings: [lite.mcpBinding()] }).tool(add);
    const listed = await server.fetch(modernRequest("tools/list"));
    assert.equal(listed.status, 200);
    assert.deepEqual((await listed.json()).result.tools.map((t: { name: string }) => t.name), ["add"]);
    const mcpLite = await server.fetch(post("/mcp-lite/v1/listtools", {}));
    assert.equal(mcpLite.status, 404);
  });

  it("exports what the main entry exports, the same objects but createServer", () => {
    assert.deepEqual(Object.keys(lite).sort(), Object.keys(main).sort());
    for (const name of Object.keys(main) as (keyof typeof main)[]) {
      if (name !== "createServer") assert.equal(lite[name], main[name], name);
    }
    assert.notEqual(lite.createServer, main.createServer);
  });

  it("bundles a one-tool server without the MCP binding; the main entry's bundles it", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-lite-"));
    try {
      const bundled = (entry: string, name: string): string[] => {
        const file = join(ROOT, "tests", `.lite-bundle-${name}-${process.pid}.ts`);
        writeFileSync(
          file,
          `import * as v from "valibot";\nimport { createServer, defineTool } from "${entry}";\n` +
            `export default createServer({ name: "b", version: "1.0.0" })` +
            `.tool(defineTool("add").describe("Adds").input(v.object({ a: v.number() })).handle(({ a }) => a));\n`,
        );
        try {
          const meta = join(dir, `${name}.json`);
          const built = spawnSync(
            join(ROOT, "node_modules", ".bin", "bun"),
            ["build", file, "--minify", `--outfile=${join(dir, `${name}.js`)}`, `--metafile=${meta}`],
            { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
          );
          assert.equal(built.status, 0, built.stderr);
          const outputs = JSON.parse(readFileSync(meta, "utf8")).outputs as Record<
            string,
            { inputs: Record<string, { bytesInOutput: number }> }
          >;
          return Object.values(outputs).flatMap((output) =>
            Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path)
          );
        } finally {
          rmSync(file, { force: true });
        }
      };
      const MCP_DISPATCH = "src/bindings/mcp/dispatch.ts";
      const fromLite = bundled("../src/lite/mod.ts", "lite");
      assert.ok(fromLite.some((path) => path.endsWith("src/bindings/mcplite/handler.ts")), "MCP-lite is bundled");
      assert.ok(!fromLite.some((path) => path.endsWith(MCP_DISPATCH)), "the MCP binding is left out");
      const fromMain = bundled("../mod.ts", "main");
      assert.ok(fromMain.some((path) => path.endsWith(MCP_DISPATCH)), "the main entry's default bundles MCP");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
