import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { type AnyTool, createServer, defineTool, type Server, toolSearch } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { defineApp } from "../../src/apps/mod.ts";

const sendMail = defineTool("me.sendMail")
  .describe("Send mail\n\nSends the message in the request body.")
  .input(v.object({ to: v.pipe(v.string(), v.description("The recipient's email address")) }))
  .handle(({ to }) => `sent to ${to}`);
const listEvents = defineTool("me.ListEvents").describe("List events\n\nThe events of the user's calendar.")
  .handle(() => "[]");
const createChannel = defineTool("teams.CreateChannels").describe("Create channel\n\nCreates a channel in a team.")
  .input(v.object({ "team-id": v.string(), displayName: v.string() }))
  .handle(({ displayName }) => displayName);
const audit = defineTool("auditLogs.ListSignIns").describe("List sign-ins").scopes("audit")
  .handle(() => "[]");
const whoami = defineTool("whoami").describe("Tells who you are").handle((_args, ctx) => ctx.auth?.subject ?? "nobody");

/** The server, typed for calls by any name: `search_tools` and `call_tool` are not in its tool types. */
function server(options: Parameters<typeof toolSearch>[0] = { pinned: ["whoami"] }): Server<Record<string, AnyTool>> {
  return createServer({ name: "graph", version: "1.0.0", toolSearch: toolSearch(options) })
    .tool(whoami).tool(sendMail).tool(listEvents).tool(createChannel).tool(audit) as Server<Record<string, AnyTool>>;
}

async function rpc(app: ReturnType<typeof server>, path: string, body: unknown, headers: HeadersInit = {}) {
  const response = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
  return await response.json();
}

async function found(app: ReturnType<typeof server>, query: string, auth?: { subject: string; scopes: string[] }) {
  const outcome = await app.call("search_tools", { query }, { auth });
  assert.equal(outcome.kind, "answer");
  return (outcome.result.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
}

describe("toolSearch()", () => {
  it("lists only the pinned tools, the search tool and the call tool, on MCP-lite and MCP", async () => {
    const app = server();
    const lite = await rpc(app, "/mcp-lite/v1/calltools", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.deepEqual(lite.result.tools.map((t: { name: string }) => t.name), ["search_tools", "call_tool", "whoami"]);
    const mcp = await rpc(app, "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, {
      "mcp-protocol-version": "2025-11-25",
    });
    assert.deepEqual(mcp.result.tools.map((t: { name: string }) => t.name), ["search_tools", "call_tool", "whoami"]);
    assert.equal(app.tools.length, 7, "every tool is still registered");
  });

  it("finds a tool by what the user says, with its input schema", async () => {
    const tools = await found(server(), "send an email");
    assert.equal(tools[0].name, "me.sendMail");
    assert.deepEqual(Object.keys((tools[0].inputSchema as { properties: object }).properties), ["to"]);
    assert.equal((await found(server(), "create a Teams channel"))[0].name, "teams.CreateChannels");
    assert.equal((await found(server(), "what is on my calendar"))[0].name, "me.ListEvents");
  });

  it("finds only the tools the caller holds the scopes of", async () => {
    const app = server();
    assert.ok(!(await found(app, "list sign-ins")).some((t) => t.name === "auditLogs.ListSignIns"));
    const auditor = { subject: "ada", scopes: ["audit"] };
    assert.equal((await found(app, "list sign-ins", auditor))[0].name, "auditLogs.ListSignIns");
  });

  it("calls a found tool through the pipeline: middleware, validation, scopes and errors as a direct call", async () => {
    const seen: string[] = [];
    const app = server().use(async (call, next) => {
      seen.push(`${call.method} ${call.name}`);
      return await next();
    });
    const sent = await app.call("call_tool", { name: "me.sendMail", arguments: { to: "bob@example.com" } });
    assert.deepEqual(sent.kind === "answer" && sent.result.content, [{
      type: "text",
      text: "sent to bob@example.com",
    }]);
    assert.deepEqual(seen, ["tools/call call_tool", "tools/call me.sendMail"]);
    await assert.rejects(
      app.call("call_tool", { name: "me.sendMail", arguments: {} }),
      (error) => error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments,
    );
    await assert.rejects(
      app.call("call_tool", { name: "auditLogs.ListSignIns" }, { auth: { subject: "bob", scopes: [] } }),
      (error) => error instanceof ProtocolError && error.code === "permission_denied",
    );
    const asAuditor = await app.call("call_tool", { name: "auditLogs.ListSignIns" }, {
      auth: { subject: "ada", scopes: ["audit"] },
    });
    assert.equal(asAuditor.kind, "answer");
    const who = await app.call("call_tool", { name: "whoami" }, { auth: { subject: "ada" } });
    assert.deepEqual(who.kind === "answer" && who.result.content, [{ type: "text", text: "ada" }]);
  });

  it("hands the work a tool called through call_tool defers to the platform's waitUntil (a Worker's)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => release = resolve);
    const crunch = defineTool("me.CrunchReport").describe("Crunch the report").longRunning({ retryAfterMs: 1 })
      .handle((_args, ctx) =>
        ctx.defer(async () => {
          await gate;
          return { done: true };
        })
      );
    const app = createServer({
      name: "graph",
      version: "1.0.0",
      secret: "a tool search test secret of at least 32 bytes",
      toolSearch: toolSearch(),
    }).tool(crunch);
    const kept: Promise<unknown>[] = [];
    const platform = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const called = await app.fetch(
      new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "call_tool", arguments: { name: "me.CrunchReport" } },
        }),
      }),
      {},
      platform,
    );
    const token = (await called.json()).result.structuredContent.promise;
    assert.equal(typeof token, "string");
    assert.equal(kept.length, 1, "the deferred work went to waitUntil");
    release();
    await kept[0];
    const redeemed = await app.call("redeem", { promise: token });
    assert.deepEqual(redeemed.kind === "answer" && redeemed.result.structuredContent, { done: true });
  });

  it("answers unknown_tool for a name it does not know, suggesting what the search finds", async () => {
    await assert.rejects(
      server().call("call_tool", { name: "me.sendMial" }),
      (error) =>
        error instanceof ProtocolError && error.code === ErrorCode.UnknownTool &&
        (error.data as { suggestions: string[] }).suggestions[0] === "me.sendMail",
    );
    // Named as code names it (camelCase), a query's words are found all the same.
    await assert.rejects(
      server().call("call_tool", { name: "sendEmail" }),
      (error) =>
        error instanceof ProtocolError && error.code === ErrorCode.UnknownTool &&
        (error.data as { suggestions: string[] }).suggestions[0] === "me.sendMail",
    );
    await assert.rejects(
      server().call("call_tool", { name: "call_tool", arguments: { name: "whoami" } }),
      (error) => error instanceof ProtocolError && error.code === ErrorCode.UnknownTool,
    );
  });

  it("neither finds nor calls through call_tool a tool only an app's view may call (SEP-1865, Visibility)", async () => {
    const view = defineApp("ui://mail/outbox").html("<p>outbox</p>");
    const purge = defineTool("me.PurgeOutbox").describe("Purge the outbox\n\nDeletes every mail of the outbox.")
      .ui(view, { visibility: ["app"] }).handle(() => "purged");
    const show = defineTool("me.ShowOutbox").describe("Show the outbox").ui(view).handle(() => "[]");
    const app = server().tool(purge).tool(show);
    const names = (await found(app, "purge the outbox mail")).map((t) => t.name);
    assert.ok(!names.includes("me.PurgeOutbox"), names.join());
    assert.equal((await found(app, "show the outbox"))[0].name, "me.ShowOutbox");
    await assert.rejects(
      app.call("call_tool", { name: "me.PurgeOutbox" }),
      (error) =>
        error instanceof ProtocolError && error.code === ErrorCode.UnknownTool &&
        !(error.data as { suggestions: string[] }).suggestions.includes("me.PurgeOutbox"),
    );
    // The view calls it by its own name, through its host.
    assert.equal((await app.call("me.PurgeOutbox", {})).kind, "answer");
  });

  it("keeps every tool callable by its own name", async () => {
    const outcome = await server().call("me.sendMail", { to: "eve@example.com" });
    assert.equal(outcome.kind, "answer");
  });

  it("finds tools registered after the first search, and forgets removed ones", async () => {
    const app = server();
    assert.equal((await found(app, "send an email"))[0].name, "me.sendMail");
    app.tool(defineTool("me.ListContacts").describe("List contacts").handle(() => "[]"));
    assert.equal((await found(app, "list my contacts"))[0].name, "me.ListContacts");
    app.removeTool("me.sendMail");
    assert.ok(!(await found(app, "send an email")).some((t) => t.name === "me.sendMail"));
  });

  it("mixes in an embedder's similarities: a query that shares no word with a tool finds it", async () => {
    // A toy embedder: one dimension per concept, as a real model would place these texts.
    const concepts = [/mail|letter|write/i, /event|calendar|agenda/i, /channel|team/i];
    const embed = (text: string) => Promise.resolve(concepts.map((c) => (c.test(text) ? 1 : 0)));
    const plain = await found(server(), "write a letter");
    assert.ok(!plain.some((t) => t.name === "me.sendMail"), "no shared word: BM25 alone misses it");
    const hybrid = await found(server({ embed }), "write a letter");
    assert.equal(hybrid[0].name, "me.sendMail");
  });

  it("cuts a large input schema down in the search's answer; call_tool still validates against the whole", async () => {
    const kinds = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`kind${i}`, v.literal(`kind-${i}`)]));
    const update = defineTool("me.UpdateProfile").describe("Update my profile")
      .input(v.object({ profile: v.object({ kind: v.picklist(Object.keys(kinds)), name: v.string() }) }))
      .handle(({ profile }) => profile.name);
    const app = createServer({ name: "p", version: "1.0.0", toolSearch: toolSearch({ maxSchemaBytes: 1000 }) })
      .tool(update) as Server<Record<string, AnyTool>>;
    const [tool] = await found(app, "update my profile");
    const schema = tool.inputSchema as Record<string, any>;
    assert.equal(schema["x-digest"], true);
    assert.ok(JSON.stringify(schema).length <= 1000);
    assert.equal(schema.properties.profile.properties.name.type, "string");
    await assert.rejects(
      app.call("call_tool", { name: "me.UpdateProfile", arguments: { profile: { kind: "nope", name: "Ada" } } }),
      (error) => error instanceof ProtocolError && error.code === ErrorCode.InvalidArguments,
    );
  });

  it("with reveal, lists what the searches found (the most recent) and tells MCP clients the list changed", async () => {
    const published: string[] = [];
    const notifier = {
      publish: (message: string) => Promise.resolve(void published.push(message)),
      subscribe: () => Promise.resolve(() => Promise.resolve()),
    };
    const app = createServer({
      name: "graph",
      version: "1.0.0",
      notifier,
      toolSearch: toolSearch({ reveal: { max: 1 }, limit: 1 }),
    }).tool(sendMail).tool(listEvents) as Server<Record<string, AnyTool>>;
    const listed = async () =>
      (await rpc(app, "/mcp-lite/v1/calltools", { jsonrpc: "2.0", id: 1, method: "tools/list" })).result.tools
        .map((t: { name: string }) => t.name);
    const changes = () => published.filter((m) => JSON.parse(m).change.kind === "tools").length;
    assert.deepEqual(await listed(), ["search_tools", "call_tool"]);
    const registered = changes();
    await found(app, "send an email");
    assert.deepEqual(await listed(), ["search_tools", "call_tool", "me.sendMail"]);
    const before = changes();
    assert.equal(before, registered + 1, "list_changed was raised");
    await found(app, "send an email");
    assert.equal(changes(), before, "found again: nothing changed");
    await found(app, "what is on my calendar");
    assert.deepEqual(await listed(), ["search_tools", "call_tool", "me.ListEvents"], "max 1: the latest");
    assert.equal(changes(), before + 1);
  });

  it("refuses a limit or a semantic weight out of range", () => {
    assert.throws(() => toolSearch({ limit: 0 }), TypeError);
    assert.throws(() => toolSearch({ semanticWeight: 2 }), TypeError);
  });
});
