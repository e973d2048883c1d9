/**
 * `mcplite call … --resource key=path`: a tool that asks for a resource (`request-for-more-resource`,
 * the README's extension of MCP-lite spec v0.042 §3.3) gets the file the user names; without one the
 * call fails saying which option to pass.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { runCli } from "./cli-helpers.ts";

const server = createServer({ name: "linter", version: "1.0.0" }).tool(
  defineTool("lint")
    .describe("Checks a text against a style guide")
    .input(v.object({ text: v.string() }))
    .handle(async ({ text }, ctx) => {
      const guide = await ctx.requestResource("guide", {
        description: "The style guide",
        mimeTypes: ["text/markdown"],
      });
      if (!("text" in guide)) return { error: "not text" };
      return {
        rule: guide.text.trim(),
        mimeType: guide.mimeType,
        ok: text.endsWith("."),
        file: guide.uri.endsWith("/guide.md"),
      };
    }),
);

describe("mcplite call --resource", () => {
  let listener: Listener;
  const file = join(scratchDir("mcplite-resource-"), "guide.md");
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    writeFileSync(file, "End with a full stop.\n");
  });
  after(async () => await listener.close());

  for (const path of ["/mcp-lite/v1", "/mcp"]) {
    it(`hands the named file to a tool that asks for it (${path})`, async () => {
      const run = await runCli([
        "call",
        listener.url + path,
        "lint",
        "--arg",
        "text=Hi.",
        "--resource",
        `guide=${file}`,
        "--json",
      ]);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.deepEqual(out.structuredContent ?? out, {
        rule: "End with a full stop.",
        mimeType: "text/markdown",
        ok: true,
        file: true,
      });
    });
  }

  it("fails, naming --resource, when the user named no file", async () => {
    const run = await runCli(["call", `${listener.url}/mcp-lite/v1`, "lint", "--arg", "text=Hi."]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /asks for a resource \("The style guide"\): pass it with --resource guide=<file>/);
  });
});
