/**
 * `server.group()`: another server's tools, prompts, resources and skills, namespaced (`git.clone`),
 * served on every wire of the parent (MCP 2026-07-28 and 2025, MCP-lite, gRPC through Connect's JSON,
 * Webtools, in process), with the child's middleware around its own definitions only, names checked at
 * grouping time, and later registrations on the child reaching the parent with list_changed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool, toolSearch, transformTool } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { legacyRequest, modernRequest, post } from "../helpers/request.ts";
import { withDefaults } from "../helpers/fixtures.ts";
import { SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { pipeServer } from "../helpers/stdio.ts";

const clone = defineTool("clone").describe("Clones a repository").input(v.object({ url: v.string() })).handle((
  { url },
) => `cloned ${url}`);
const commit = defineTool("commit").describe("Commits").input(v.object({ message: v.string() })).handle(({ message }) =>
  `[main] ${message}`
);
const ping = defineTool("ping").describe("Answers pong").handle(() => "pong");

function gitServer(seen: string[] = []) {
  return createServer({ name: "git", version: "1.0.0" })
    .tool(clone)
    .tool(commit)
    .prompt(definePrompt("review").get(() => "Review the diff"))
    .resource(defineResource("git://HEAD").read(() => "ref: refs/heads/main"))
    .use(async (call, next) => {
      seen.push(`git ${call.method} ${call.name}`);
      return await next();
    })
    .useTool((call, next) => {
      const args = call.arguments as { url?: string };
      if (args.url !== undefined) call.arguments = { ...args, url: args.url.trim() }; // the child's own rewriting
      return next();
    });
}

function app(seen: string[] = []) {
  return createServer({ name: "app", version: "1.0.0", bindings: withDefaults(webtoolsBinding(), grpcBinding()) })
    .tool(ping)
    .group("git", gitServer(seen));
}

async function json(response: Response) {
  const text = await response.text();
  return JSON.parse(
    text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6),
  );
}

describe("server.group(prefix, child)", () => {
  it("lists the child's tools as prefix.name on every wire", async () => {
    const server = app();
    const names = ["ping", "git.clone", "git.commit"];
    assert.deepEqual(server.tools.map((t) => t.name), names);
    const modern = await json(await server.fetch(modernRequest("tools/list")));
    assert.deepEqual(modern.result.tools.map((t: { name: string }) => t.name), names);
    const legacy = await json(await server.fetch(legacyRequest("tools/list")));
    assert.deepEqual(legacy.result.tools.map((t: { name: string }) => t.name), names);
    const lite = await json(
      await server.fetch(post("/mcp-lite/v1/listtools", { jsonrpc: "2.0", id: 1, method: "tools/list" })),
    );
    assert.deepEqual(lite.tools.map((t: { name: string }) => t.name), names);
    const grpc = await json(await server.fetch(post("/mcplite.MCPLite/GetTools", {})));
    assert.deepEqual(grpc.tools.map((t: { name: string }) => t.name), names);
    const webtools = await json(await server.fetch(new Request("http://localhost/webtools")));
    assert.deepEqual(webtools.actions.map((a: { name: string }) => a.name), names);
  });

  it("calls git.clone on every wire, through the child's middleware", async () => {
    const seen: string[] = [];
    const server = app(seen);
    const args = { url: "  https://example.com/r.git " };
    const expected = "cloned https://example.com/r.git";
    const modern = await json(await server.fetch(modernRequest("tools/call", { name: "git.clone", arguments: args })));
    assert.equal(modern.result.content[0].text, expected);
    const legacy = await json(await server.fetch(legacyRequest("tools/call", { name: "git.clone", arguments: args })));
    assert.equal(legacy.result.content[0].text, expected);
    const lite = await json(
      await server.fetch(post("/mcp-lite/v1/calltools", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "git.clone", arguments: args },
      })),
    );
    assert.equal(lite.result.content[0].text, expected);
    const grpc = await json(
      await server.fetch(post("/mcplite.MCPLite/CallTool", { name: "git.clone", arguments: args })),
    );
    assert.equal(grpc.result.content[0].text, expected);
    const webtools = await json(await server.fetch(post("/webtools/", { action: "git.clone", request: args })));
    assert.deepEqual(webtools, { status: "ok", data: expected });
    const outcome = await server.call("git.clone", args);
    assert.equal(
      outcome.kind === "answer" && outcome.result.content[0].type === "text" && outcome.result.content[0].text,
      expected,
    );
    assert.deepEqual(seen, Array(6).fill("git tools/call git.clone"));
    const client = createClient(server);
    assert.equal(await client.call("git.clone", args), expected);
  });

  it("lists and calls git.clone over stdio (MCP-lite and MCP 2025 on one connection)", async () => {
    const seen: string[] = [];
    const piped = pipeServer(app(seen));
    try {
      piped.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
      const listed = (await piped.answer(1)).result as { tools: { name: string }[] };
      assert.deepEqual(listed.tools.map((t) => t.name), ["ping", "git.clone", "git.commit"]);
      piped.send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "git.clone", arguments: { url: "r" } },
      });
      const lite = (await piped.answer(2)).result as { content: { text: string }[] };
      assert.equal(lite.content[0].text, "cloned r");
      piped.send({
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      await piped.answer(3);
      piped.send({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "git.clone", arguments: { url: "s" } },
      });
      const mcp = (await piped.answer(4)).result as { content: { text: string }[] };
      assert.equal(mcp.content[0].text, "cloned s");
      assert.deepEqual(seen, ["git tools/call git.clone", "git tools/call git.clone"]);
    } finally {
      await piped.end();
    }
  });

  it("runs the child's middleware around its own definitions only", async () => {
    const seen: string[] = [];
    const server = app(seen);
    await server.call("ping", {});
    await server.fetch(modernRequest("tools/list"));
    assert.deepEqual(seen, []);
    await server.fetch(modernRequest("resources/read", { uri: "git://HEAD" }));
    await server.fetch(modernRequest("prompts/get", { name: "git.review" }));
    assert.deepEqual(seen, ["git resources/read git://HEAD", "git prompts/get git.review"]);
  });

  it("namespaces prompts, keeps resource URIs, and groups skills' files with their URIs", async () => {
    const server = app();
    const prompts = await json(await server.fetch(modernRequest("prompts/list")));
    assert.deepEqual(prompts.result.prompts.map((p: { name: string }) => p.name), ["git.review"]);
    const read = await json(await server.fetch(modernRequest("resources/read", { uri: "git://HEAD" })));
    assert.equal(read.result.contents[0].text, "ref: refs/heads/main");
  });

  it("takes another separator, and checks every produced name at grouping time", () => {
    const underscored = createServer({ name: "a", version: "1" }).group("git", gitServer(), { separator: "_" });
    assert.deepEqual(underscored.tools.map((t) => t.name), ["git_clone", "git_commit"]);
    assert.throws(
      () => createServer({ name: "a", version: "1" }).group("git", gitServer(), { separator: "/" }),
      /server\.group\("git"\): tool "clone" would be served as invalid tool name "git\/clone"/,
    );
  });

  it("fails on a collision naming it, and registers nothing then", () => {
    const parent = createServer({ name: "a", version: "1" })
      .tool(defineTool("git.commit").handle(() => "mine"));
    assert.throws(
      () => parent.group("git", gitServer()),
      /server\.group\("git"\): tool "commit" would be served as "git\.commit", which this server has already/,
    );
    assert.deepEqual(parent.tools.map((t) => t.name), ["git.commit"]);
    assert.throws(() => parent.group(parent), /cannot group itself/);
  });

  it("shows later registrations and removals on the child, with list_changed", async () => {
    const git = gitServer();
    const server = createServer({ name: "app", version: "1.0.0" }).group("git", git);
    const response = await server.fetch(
      modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }, "s"),
    );
    const stream = new SseReader(response);
    try {
      await stream.next(); // acknowledged
      git.tool(defineTool("push").describe("Pushes").handle(() => "pushed"));
      assert.equal((await stream.next()).method, "notifications/tools/list_changed");
      assert.deepEqual(server.tools.map((t) => t.name), ["git.clone", "git.commit", "git.push"]);
      const pushed = await server.call("git.push" as never, {} as never);
      assert.equal(pushed.kind, "answer");
      git.removeTool("clone");
      assert.equal((await stream.next()).method, "notifications/tools/list_changed");
      assert.deepEqual(server.tools.map((t) => t.name), ["git.commit", "git.push"]);
    } finally {
      await stream.close();
    }
  });
});

describe("server.group(prefix, child, { transform })", () => {
  it("transforms every tool of the child, those registered later too, and leaves out what it drops", async () => {
    const git = gitServer();
    const server = createServer({ name: "app", version: "1.0.0" }).group("git", git, {
      transform: (tool) =>
        tool.name === "commit" ? undefined : transformTool(tool, { annotations: { readOnlyHint: true } }),
    });
    assert.deepEqual(server.tools.map((t) => [t.name, t.annotations?.readOnlyHint]), [["git.clone", true]]);
    git.tool(defineTool("log").describe("Shows the log").handle(() => "log"));
    assert.deepEqual(server.tools.map((t) => [t.name, t.annotations?.readOnlyHint]), [
      ["git.clone", true],
      ["git.log", true],
    ]);
    const call = server.call.bind(server) as (name: string, args: object) => Promise<{ kind: string }>;
    assert.equal((await call("git.log", {})).kind, "answer");
    await assert.rejects(call("git.commit", { message: "m" }), /git\.commit/);
  });
});

describe("server.group(child)", () => {
  it("keeps the child's names", async () => {
    const server = createServer({ name: "app", version: "1.0.0" }).tool(ping).group(gitServer());
    assert.deepEqual(server.tools.map((t) => t.name), ["ping", "clone", "commit"]);
    const outcome = await server.call("commit", { message: "init" });
    assert.equal(outcome.kind, "answer");
  });
});

describe("server.group(child, { resourcePrefix })", () => {
  const notes = () =>
    createServer({ name: "notes", version: "1.0.0" })
      .resource(defineResource("notes://today").read(() => "milk"))
      .resource(defineResource("notes://{id}").read(({ id }) => `note ${id}`));

  it("serves the child's URIs and templates under the prefix, read with the child's own URI", async () => {
    for (const prefix of ["a+", "gw://a/"]) {
      const server = createServer({ name: "gw", version: "1.0.0" }).group(notes(), { resourcePrefix: prefix });
      const client = createClient(server, { transport: "mcp" });
      try {
        const uris = (await client.listResources()).map((resource) => String(resource.uri));
        assert.deepEqual(uris, [`${prefix}notes://today`]);
        const read = await client.readResource(`${prefix}notes://7`);
        assert.equal((read.contents as { text: string }[])[0].text, "note 7");
      } finally {
        await client.close();
      }
    }
  });

  it("refuses a prefix that would not keep every URI absolute or holds a template expression", () => {
    for (const prefix of ["", "1a+", "tenant/", "a b", "gw://{tenant}/", "gw://a b/"]) {
      assert.throws(
        () => createServer({ name: "gw", version: "1.0.0" }).group(notes(), { resourcePrefix: prefix }),
        /resourcePrefix must start a URI's scheme/,
        JSON.stringify(prefix),
      );
    }
  });
});

describe("server.group(prefix, child) of a child with tool search", () => {
  // The child lists `whoami`, its search and call tools; 200 more are found by search (an OpenAPI import, say).
  function crm() {
    const server = createServer({ name: "crm", version: "1.0.0", toolSearch: toolSearch({ pinned: ["whoami"] }) })
      .tool(defineTool("whoami").describe("Tells who you are").handle(() => "ada"))
      .tool(
        defineTool("sendMail").describe("Sends an email").input(v.object({ to: v.string() })).handle(({ to }) =>
          `sent to ${to}`
        ),
      );
    for (let i = 0; i < 200; i++) {
      server.tool(defineTool(`report${i}`).describe(`Builds quarterly report number ${i}`).handle(() => i));
    }
    return server;
  }
  const parent = () => createServer({ name: "app", version: "1.0.0" }).tool(ping).group("crm", crm());

  it("lists what the child lists, under the prefix, on MCP and MCP-lite", async () => {
    const server = parent();
    const listed = await json(await server.fetch(modernRequest("tools/list")));
    assert.deepEqual(
      listed.result.tools.map((t: { name: string }) => t.name).sort(),
      ["crm.call_tool", "crm.search_tools", "crm.whoami", "ping"],
    );
    const lite = await json(
      await server.fetch(post("/mcp-lite/v1/listtools", { jsonrpc: "2.0", id: 1, method: "tools/list" })),
    );
    assert.deepEqual(
      lite.tools.map((t: { name: string }) => t.name).sort(),
      listed.result.tools.map((t: { name: string }) => t.name).sort(),
    );
  });

  it("stacks again when the parent is grouped in turn, searching and calling under both prefixes", async () => {
    const top = createServer({ name: "top", version: "1.0.0" }).group("app", parent());
    const listed = await json(await top.fetch(modernRequest("tools/list")));
    assert.deepEqual(
      listed.result.tools.map((t: { name: string }) => t.name).sort(),
      ["app.crm.call_tool", "app.crm.search_tools", "app.crm.whoami", "app.ping"],
    );
    const call = top.call.bind(top) as (name: string, args: object) => ReturnType<typeof top.call>;
    const found = await call("app.crm.search_tools", { query: "send an email" });
    const [best] = (found.kind === "answer" ? found.result.structuredContent as { tools: { name: string }[] } : {
      tools: [],
    }).tools;
    assert.equal(best.name, "app.crm.sendMail");
    const sent = await call(best.name, { to: "bob@example.com" });
    assert.deepEqual(sent.kind === "answer" && sent.result.content, [{
      type: "text",
      text: "sent to bob@example.com",
    }]);
  });

  it("answers what search finds by the parent's names, each callable as found, directly and through call_tool", async () => {
    const server = parent();
    // Untyped: the search and call tools are not among the server's typed tools.
    const client = createClient({ fetch: (request: Request) => server.fetch(request) }, { transport: "mcp" });
    try {
      const found = await client.callTool("crm.search_tools", { query: "send an email" });
      const names = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
      assert.equal(names[0], "crm.sendMail");
      assert.ok(names.every((name) => name.startsWith("crm.")), names.join());
      const direct = await client.callTool(names[0], { to: "bob@example.com" });
      assert.deepEqual(direct.content, [{ type: "text", text: "sent to bob@example.com" }]);
      const through = await client.callTool("crm.call_tool", { name: names[0], arguments: { to: "eve@example.com" } });
      assert.deepEqual(through.content, [{ type: "text", text: "sent to eve@example.com" }]);
      const call = parent().call.bind(parent()) as (name: string, args: object) => Promise<unknown>;
      await assert.rejects(
        call("crm.call_tool", { name: "crm.send_mail", arguments: {} }),
        (error) =>
          error instanceof ProtocolError && error.code === ErrorCode.UnknownTool &&
          (error.data as { suggestions: string[] }).suggestions[0] === "crm.sendMail",
      );
    } finally {
      await client.close();
    }
  });
});
