/**
 * `mcplite call` on a server with tool search, whose listing shows only `search_tools`, `call_tool` and
 * the pinned tools: a hidden tool is called by its name as curl and the typed client call it, and only
 * the server's `unknown_tool` answer makes the CLI name the tools it lists.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, serve, toolSearch } from "../../mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import { runCli } from "./cli-helpers.ts";

const server = createServer({ name: "office", version: "1.0.0", toolSearch: toolSearch({ pinned: ["whoami"] }) })
  .tool(defineTool("whoami").describe("Tells who you are").handle(() => "ada"))
  .tool(
    defineTool("sendMail").describe("Send mail").input(v.object({ to: v.string(), copies: v.number() }))
      .handle(({ to, copies }) => `sent ${copies} to ${to}`),
  );

describe("mcplite call with tool search", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => await listener.close());

  it("calls a tool the listing hides, over MCP-lite and MCP", async () => {
    const listed = await runCli(["list", listener.url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.doesNotMatch(listed.stdout, /sendMail/);
    for (const target of [listener.url, `${listener.url}/mcp`]) {
      const run = await runCli(["call", target, "sendMail", "--arg", "to=bob", "--args", '{"copies": 2}']);
      assert.equal(run.code, 0, `${target}: ${run.stderr}`);
      assert.equal(run.stdout, "sent 2 to bob\n");
    }
  });

  it("names the listed tools only when the server answers unknown_tool", async () => {
    const run = await runCli(["call", listener.url, "nope"]);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'mcplite: unknown tool "nope" (the server has search_tools, call_tool, whoami)\n');
  });
});
