/**
 * The auto transport from a bare origin: tools go over MCP-lite, the wire found first, and a method
 * MCP-lite does not carry (resources, prompts, skills, `server/discover`) goes to the server's MCP
 * endpoint, found the same way, from the client and from the CLI.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool, mcpBinding, serve } from "../../../mod.ts";
import { skillFromDirectory } from "../../../src/skills/mod.ts";
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

describe("auto transport: the list read to find the wire", () => {
  const server = createServer({ name: "counted", version: "1.0.0" })
    .tool(defineTool("echo").describe("Echoes").input(v.object({ text: v.string() })).handle(({ text }) => text));
  /** A fetch into the server that records each request as `path method`, and its `If-None-Match`. */
  function recording(): { fetch: (request: Request) => Promise<Response>; seen: string[] } {
    const seen: string[] = [];
    const fetch = async (request: Request) => {
      const body = request.method === "POST" ? await request.clone().text() : "";
      const method = body.startsWith("{") ? (JSON.parse(body) as { method?: string }).method ?? "" : "";
      const inm = request.headers.get("if-none-match");
      seen.push(`${new URL(request.url).pathname} ${method}${inm ? ` if-none-match` : ""}`.trim());
      return await server.fetch(request);
    };
    return { fetch, seen };
  }
  const lists = (seen: string[]) => seen.filter((s) => s.includes("tools/list") || s.endsWith("/listtools"));

  for (const url of ["http://localhost/mcp", "http://localhost"]) {
    it(`${url}: discover() then listTools() reads the tools once per wire, and listTools() sends none`, async () => {
      const { fetch, seen } = recording();
      const client = createClient(url, { fetch });
      try {
        assert.deepEqual((await client.discover())?.serverInfo, { name: "counted", version: "1.0.0" });
        // The era probe's `server/discover` answers discover() too.
        assert.equal(seen.filter((s) => s.endsWith("server/discover")).length, 1, seen.join(", "));
        const before = lists(seen).length;
        const tools = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), ["echo"]);
        assert.equal(lists(seen).length, before, `listTools() sent a list again: ${seen.join(", ")}`);
        // After that, the cache's rules hold: a list with no lifetime (ttlMs 0) is asked for again.
        await client.listTools();
        assert.equal(lists(seen).length, before + 1, seen.join(", "));
        await client.listTools({ fresh: true });
        assert.equal(lists(seen).length, before + 2, seen.join(", "));
      } finally {
        await client.close();
      }
    });
  }

  it("a call then listTools() reads the tools once", async () => {
    const { fetch, seen } = recording();
    const client = createClient("http://localhost", { fetch });
    assert.equal(await client.call("echo", { text: "hi" }), "hi");
    await client.listTools();
    assert.deepEqual(lists(seen), ["/mcp-lite/v1/listtools"], seen.join(", "));
  });

  it("a private list read under other credentials is not handed over", async () => {
    const guarded = createServer({
      name: "private",
      version: "1.0.0",
      bindings: [mcpBinding({ listCache: { ttlMs: 60_000, scope: "private" } })],
    }).tool(defineTool("echo").describe("Echoes").handle(() => "hi"));
    let token = "a";
    const seen: string[] = [];
    const client = createClient("http://localhost/mcp", {
      fetch: async (request: Request) => {
        const body = await request.clone().text();
        seen.push(`${request.headers.get("authorization")} ${(JSON.parse(body) as { method: string }).method}`);
        return await guarded.fetch(request);
      },
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
    await client.discover();
    await client.listTools();
    assert.deepEqual(seen.filter((s) => s.endsWith("tools/list")), ["Bearer a tools/list"]);
    token = "b";
    await client.listTools();
    assert.deepEqual(seen.filter((s) => s.endsWith("tools/list")), ["Bearer a tools/list", "Bearer b tools/list"]);
  });
});
