/**
 * The auto transport from a bare origin: tools go over MCP-lite, the wire found first, and a method
 * MCP-lite does not carry (resources, prompts, skills, `server/discover`) goes to the server's MCP
 * endpoint, found the same way, from the client and from the CLI.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool, serve } from "../../../mod.ts";
import { skillFromDirectory } from "../../../src/skills.ts";
import type { Listener } from "../../../src/types.ts";
import { createClient } from "../../../src/client/mod.ts";
import { runCli } from "../../cli/cli-helpers.ts";

const SKILL = fileURLToPath(new URL("../../../examples/skills/release-notes", import.meta.url));

describe("auto transport: MCP-only methods from a bare origin", () => {
  let listener: Listener;
  before(async () => {
    const server = createServer({ name: "library", version: "3.1.4" })
      .tool(
        defineTool("shelve")
          .describe("Shelves a book")
          .input(v.object({
            copies: v.pipe(v.number(), v.minValue(1), v.maxValue(5)),
            shelf: v.picklist(["fiction", "science"]),
            isbn: v.pipe(v.string(), v.regex(/^\d{13}$/)),
          }))
          .handle(({ copies }) => `shelved ${copies}`),
      )
      .resource(defineResource("books://catalogue").name("catalogue").read(() => "Dune\nSolaris"))
      .prompt(
        definePrompt("review").describe("Asks for a review").args(v.object({ title: v.string() })).get((
          { title },
        ) => `Review ${title}`),
      )
      .skill(await skillFromDirectory(SKILL));
    listener = await serve(server, { port: 0, hostname: "127.0.0.1" });
  });
  after(async () => {
    await listener.close();
  });

  it("lists resources, prompts and skills over MCP while tools stay on MCP-lite", async () => {
    const client = createClient(listener.url);
    try {
      assert.equal(await client.call("shelve", { copies: 2, shelf: "fiction", isbn: "9780441172719" }), "shelved 2");
      assert.equal(client.wire, "mcp-lite");
      const [resources, prompts, skills] = await Promise.all([
        client.listResources(),
        client.listPrompts(),
        client.skills.list(),
      ]);
      assert.ok(resources.some((r) => r.uri === "books://catalogue"), JSON.stringify(resources));
      assert.deepEqual(prompts.map((p) => p.name), ["review"]);
      assert.deepEqual(skills.map((s) => s.frontmatter.name), ["release-notes"]);
      assert.deepEqual((await client.discover())?.serverInfo, { name: "library", version: "3.1.4" });
      const read = await client.readResource("books://catalogue");
      assert.equal((read.contents as { text: string }[])[0].text, "Dune\nSolaris");
      assert.equal(client.wire, "mcp-lite");
    } finally {
      await client.close();
    }
  });

  it("mcplite skills and inspect reach the MCP endpoint from the origin", async () => {
    const skills = await runCli(["skills", listener.url]);
    assert.equal(skills.code, 0, skills.stderr);
    assert.match(skills.stdout, /^release-notes\tWrites release notes/m);
    const inspected = await runCli(["inspect", listener.url]);
    assert.equal(inspected.code, 0, inspected.stderr);
    assert.match(inspected.stdout, /^Server {2}library 3\.1\.4$/m);
    assert.match(inspected.stdout, /^Wire {4}mcp-lite \(tools\); mcp \(2026-07-28.*\)$/m);
    assert.match(inspected.stdout, /^ {6}copies +number, minimum 1, maximum 5, required$/m);
    assert.match(inspected.stdout, /^ {6}shelf +string, one of "fiction", "science", required$/m);
    assert.match(inspected.stdout, /^ {6}isbn +string, pattern \^\\d\{13\}\$, required$/m);
    assert.match(inspected.stdout, /^Resources \(\d+\)\n(.*\n)*? {2}books:\/\/catalogue {2}catalogue$/m);
    assert.match(inspected.stdout, /^Prompts \(1\)\n {2}review\(title\) {2}Asks for a review$/m);
  });
});
