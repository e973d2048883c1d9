/**
 * codeMode() over a server, its own tools and a group's: the lists, a program that calls three tools and keeps
 * what it needs, the declarations discovery answers, discovery and calls with the caller's rights, and each
 * refusal as a clear error while the server keeps serving. One server, one sandbox load.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { type AnyTool, createServer, defineTool, type Server, toolSearch } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { ToolError } from "../../src/errors/mod.ts";
import { codeMode, quickjsExecutor } from "../../src/code-mode/mod.ts";
import { post } from "../helpers/request.ts";

const issue = v.object({ id: v.number(), title: v.string(), open: v.boolean(), author: v.string() });
const ISSUES = [
  { id: 1, title: "Crash on start", open: true, author: "ada" },
  { id: 2, title: "Typo", open: false, author: "bob" },
  { id: 3, title: "Slow search", open: true, author: "bob" },
];
const view = defineApp("ui://tracker/board").html("<p>board</p>");
/** One sandbox for every server of the file: its WebAssembly module loads once. */
const executor = quickjsExecutor();

function tracker(): Server<Record<string, AnyTool>> {
  const crm = createServer({ name: "crm", version: "1.0.0" })
    .tool(
      defineTool("notes").describe("The notes about a user").input(v.object({ login: v.string() }))
        .handle(({ login }) => ({ notes: [`${login} prefers email`] })),
    );
  return createServer({
    name: "tracker",
    version: "1.0.0",
    codeMode: codeMode({ executor, limits: { calls: 12, timeMs: 5_000 } }),
  })
    .tool(
      defineTool("issues.list").describe("Lists the issues of a repository")
        .input(v.object({ repo: v.pipe(v.string(), v.description("The repository, owner/name")) }))
        .output(v.object({ issues: v.array(issue) }))
        .handle(() => ({ issues: ISSUES })),
    )
    .tool(
      defineTool("users.get").describe("Reads a user").input(v.object({ login: v.string() }))
        .handle(({ login }) => JSON.stringify({ login, name: login === "ada" ? "Ada Lovelace" : "Bob" })),
    )
    .tool(
      defineTool("stock.reserve").describe("Reserves stock").handle(() => {
        throw new ToolError("out of stock: sku 42");
      }),
    )
    .tool(defineTool("whoami").describe("Tells who you are").handle((_args, ctx) => ctx.auth?.subject ?? "nobody"))
    .tool(
      defineTool("admin.purge").describe("Purges closed issues").scopes("admin")
        .annotations({ destructiveHint: true }).handle(() => "purged"),
    )
    .tool(
      defineTool("board.refresh").describe("Refreshes the board view").ui(view, { visibility: ["app"] })
        .handle(() => "refreshed"),
    )
    .group("crm", crm) as unknown as Server<Record<string, AnyTool>>;
}

const app = tracker();

async function run(code: string, auth?: { subject: string; scopes: string[] }) {
  const outcome = await app.call("execute_code", { code }, { auth });
  assert.ok(outcome.kind === "answer" || outcome.kind === "failure", outcome.kind);
  return outcome.result;
}

async function discover(args: object, auth?: { subject: string; scopes: string[] }) {
  const outcome = await app.call("discover_tools", args, { auth });
  assert.equal(outcome.kind, "answer");
  const text = (outcome.result.content[0] as { text: string }).text;
  return { text, ...(outcome.result.structuredContent as { tools: { name: string }[]; notFound?: string[] }) };
}

async function listed(server: Server<Record<string, AnyTool>>): Promise<string[]> {
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const response = await server.fetch(post("/mcp", list, headers));
  return (await response.json()).result.tools.map((tool: { name: string }) => tool.name);
}

describe("codeMode()", () => {
  it("lists the two code-mode tools (and redeem) in place of the tools, every tool staying callable", async () => {
    assert.deepEqual((await listed(app)).sort(), ["discover_tools", "execute_code", "redeem"]);
    const direct = await app.call("whoami", {}, { auth: { subject: "ada", scopes: [] } });
    assert.equal(direct.kind, "answer");
  });

  it("lists every tool beside them with listing: beside; refuses toolSearch with it, and options out of range", async () => {
    const beside = createServer({ name: "b", version: "1.0.0", codeMode: codeMode({ listing: "beside" }) })
      .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
    assert.deepEqual((await listed(beside as never)).sort(), ["discover_tools", "execute_code", "ping", "redeem"]);
    assert.throws(
      () => createServer({ name: "c", version: "1.0.0", codeMode: codeMode(), toolSearch: toolSearch() }),
      (error) => error instanceof TypeError && /codeMode and toolSearch/.test(error.message),
    );
    assert.throws(() => codeMode({ limits: { calls: 0 } }), /limits\.calls is a positive integer/);
    assert.throws(() => codeMode({ discoverTool: "run", executeTool: "run" }), /two names/);
    assert.throws(() => codeMode({ promiseAfterMs: Infinity }), /promiseAfterMs/);
  });

  it("serves a grouped server's code mode under the group's prefix: its lists, names and calls", async () => {
    const child = createServer({ name: "kid", version: "1.0.0", codeMode: codeMode({ executor }) })
      .tool(
        defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
          .handle(({ a, b }) => a + b),
      );
    const parent = createServer({ name: "home", version: "1.0.0" })
      .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"))
      .group("kid", child) as unknown as Server<Record<string, AnyTool>>;
    assert.deepEqual((await listed(parent)).sort(), ["kid.discover_tools", "kid.execute_code", "ping", "redeem"]);
    const found = await parent.call("kid.discover_tools", { query: "add two numbers" });
    assert.match(found.kind === "answer" ? (found.result.content[0] as { text: string }).text : "", /"kid\.add"\(/);
    const ran = await parent.call("kid.execute_code", { code: 'return await tools["kid.add"]({ a: 2, b: 3 });' });
    assert.deepEqual(ran.kind === "answer" && ran.result.structuredContent, { result: 5, logs: [] });
  });

  it("runs a TypeScript program that calls three tools (one of a group) and answers only what it kept", async () => {
    const result = await run(`
      interface Issue { id: number; title: string; open: boolean; author: string }
      const { issues } = await tools["issues.list"]({ repo: "acme/app" });
      const open: Issue[] = issues.filter((i: Issue) => i.open);
      const authors = [...new Set(open.map((i) => i.author))];
      const people = await Promise.all(authors.map((login) => tools["users.get"]({ login })));
      const notes = await tools["crm.notes"]({ login: "ada" });
      console.log("open", open.length);
      return { open: open.map((i) => i.id), names: people.map((p) => p.name), note: notes.notes[0] };
    `);
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, {
      result: { open: [1, 3], names: ["Ada Lovelace", "Bob"], note: "ada prefers email" },
      logs: ["open 2"],
    });
    assert.match((result.content[0] as { text: string }).text, /^\{"open":\[1,3\].*\n\nConsole:\nopen 2$/s);
  });

  it("accepts an async arrow function, Cloudflare's form", async () => {
    const result = await run("async () => {\n  const who = await tools.whoami();\n  return `hi ${who}`;\n}", {
      subject: "ada",
      scopes: [],
    });
    assert.deepEqual(result.structuredContent, { result: "hi ada", logs: [] });
  });

  it("answers the TypeScript declarations of the tools asked for, and of those a search finds", async () => {
    const named = await discover({ names: ["issues.list", "crm.notes", "nope"] });
    assert.deepEqual(named.tools.map((t) => t.name), ["issues.list", "crm.notes"]);
    assert.deepEqual(named.notFound, ["nope"]);
    assert.match(
      named.text,
      /^interface IssuesListInput \{\n {2}\/\*\* The repository, owner\/name \*\/\n {2}repo: string;/m,
    );
    assert.match(named.text, /^interface IssuesListOutput \{\n {2}issues: \{/m);
    assert.match(named.text, /^declare const tools: \{$/m);
    assert.match(named.text, /^ {2}"issues\.list"\(input: IssuesListInput\): Promise<IssuesListOutput>;$/m);
    assert.match(named.text, /^ {2}"crm\.notes"\(input: CrmNotesInput\): Promise<unknown>;$/m);
    const found = await discover({ query: "list the issues of a repository", limit: 2 });
    assert.equal(found.tools[0].name, "issues.list");
  });

  it("finds and declares only what the caller may call: scopes, not a view's alone, not itself", async () => {
    const asNobody = await discover({ query: "purge closed issues refresh board execute", limit: 10 });
    const names = asNobody.tools.map((t) => t.name);
    for (const hidden of ["admin.purge", "board.refresh", "execute_code", "discover_tools"]) {
      assert.ok(!names.includes(hidden), names.join());
    }
    assert.deepEqual((await discover({ names: ["admin.purge", "board.refresh"] })).notFound, [
      "admin.purge",
      "board.refresh",
    ]);
    const asAdmin = await discover({ query: "purge closed issues" }, { subject: "ada", scopes: ["admin"] });
    assert.equal(asAdmin.tools[0].name, "admin.purge");
  });

  it("refuses each call the caller may not make with an Error the program catches, and goes on serving", async () => {
    const result = await run(
      `
      const tries = {
        scopes: () => tools["admin.purge"](),
        appOnly: () => tools["board.refresh"](),
        unknown: () => tools["issues.lsit"]({ repo: "acme/app" }),
        nesting: () => tools.execute_code({ code: "return 1" }),
        invalid: () => tools["users.get"]({ login: 42 }),
        failing: () => tools["stock.reserve"](),
      };
      const said = {};
      for (const [name, attempt] of Object.entries(tries)) {
        try { await attempt(); said[name] = "called"; } catch (error) { said[name] = error.message; }
      }
      return said;
    `,
      { subject: "bob", scopes: [] },
    );
    const said = (result.structuredContent as { result: Record<string, string> }).result;
    assert.match(said.scopes, /^Insufficient scope: tool "admin\.purge" needs admin$/);
    assert.match(said.appOnly, /^Tool not found: "?board\.refresh"?/);
    assert.match(said.unknown, /^Tool not found: "?issues\.lsit"?; did you mean "issues\.list"/);
    assert.match(said.nesting, /a program may not run a program \(nesting\)/);
    assert.match(said.invalid, /login/);
    assert.equal(said.failing, "out of stock: sku 42");
    const admin = await run('return await tools["admin.purge"]();', { subject: "ada", scopes: ["admin"] });
    assert.deepEqual(admin.structuredContent, { result: "purged", logs: [] });
  });

  it("stops a flood of calls at limits.calls and an endless loop at limits.timeMs, refuses a program that does not parse, says what it threw", async () => {
    const flood = await run("let n = 0;\nfor (;;) { await tools.whoami(); n++; }");
    assert.equal(flood.isError, true);
    assert.match(
      (flood.content[0] as { text: string }).text,
      /^The program threw .*Too many tool calls: a program makes at most 12 \(limits\.calls\)/,
    );
    const broken = await run("const x = ;\nreturn x;");
    assert.equal(broken.isError, true);
    assert.match((broken.content[0] as { text: string }).text, /^The program does not parse: .*line 1/);
    const thrown = await run('console.log("before");\nthrow new RangeError("nope");');
    assert.match(
      (thrown.content[0] as { text: string }).text,
      /^The program threw RangeError: nope \(at program\.js:2:\d+\)\n\nConsole:\nbefore$/,
    );
    assert.deepEqual((await run("return 1 + 1;")).structuredContent, { result: 2, logs: [] });
    // A limit stops the program, says which, and the server goes on serving.
    const quick = createServer({
      name: "q",
      version: "1.0.0",
      codeMode: codeMode({ executor, limits: { timeMs: 200 } }),
    });
    const looped = await quick.call("execute_code" as never, { code: "for (;;) {}" } as never);
    assert.equal(looped.kind, "failure");
    assert.match(
      (looped.kind === "failure" ? looped.result.content[0] as { text: string } : { text: "" }).text,
      /^The program was stopped \(time\): /,
    );
    const after = await quick.call("execute_code" as never, { code: "return 3;" } as never);
    assert.deepEqual(after.kind === "answer" && after.result.structuredContent, { result: 3, logs: [] });
  });
});
