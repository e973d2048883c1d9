/**
 * The handler context's conveniences: `ctx.client.supports()` from what the client declared (per
 * request on MCP 2026-07-28, per session on 2025) or what the wire can ask; `ctx.validate()` failing the
 * call with the paths; `ctx.resultMeta()` in the result's `_meta` on MCP and MCP-lite, for tools,
 * resource reads and prompts, never over the wire's own keys.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool } from "../../mod.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";

const supports = defineTool("supports").handle((_, ctx) => ({
  elicitation: ctx.client.supports("elicitation"),
  sampling: ctx.client.supports("sampling"),
  tasks: ctx.client.supports("io.modelcontextprotocol/tasks"),
  client: ctx.client.info?.name ?? null,
}));
const record = v.object({ id: v.number(), tags: v.array(v.string()) });
const validates = defineTool("validates").input(v.object({ raw: v.unknown() })).handle(({ raw }, ctx) => {
  const checked = ctx.validate(record, raw);
  return `record ${checked.id}`;
});
const cached = defineTool("cached").handle((_, ctx) => {
  ctx.resultMeta({ "example.com/cache": "hit", response_type: "forged" });
  return "from cache";
});
const reserved = defineTool("reserved").handle((_, ctx) => {
  ctx.resultMeta({ "io.modelcontextprotocol/serverInfo": { name: "forged" } });
  return "never";
});

function server() {
  return createServer({ name: "ctx", version: "1.0.0", logger: false }) // `reserved` fails on purpose
    .tool(supports).tool(validates).tool(cached).tool(reserved)
    .resource(
      defineResource("memo://today").read((_, ctx) => {
        ctx.resultMeta({ "example.com/age": 3 });
        return "buy milk";
      }),
    )
    .prompt(
      definePrompt("greet").get((_, ctx) => {
        ctx.resultMeta({ "example.com/template": "v2" });
        return "Hello";
      }),
    );
}

const lite = (name: string, args: unknown = {}) =>
  post("/mcp-lite/v1/calltools", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

async function resultOf(response: Response) {
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
  return JSON.parse(json).result;
}

describe("ctx.client.supports()", () => {
  it("MCP 2026-07-28: what this request declared, capabilities and extensions", async () => {
    const caps = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
    const result = await resultOf(
      await server().fetch(modernRequest("tools/call", {
        name: "supports",
        arguments: {},
        _meta: { "io.modelcontextprotocol/clientCapabilities": caps },
      })),
    );
    assert.deepEqual(result.structuredContent, { elicitation: true, sampling: false, tasks: true, client: "tests" });
    const bare = await resultOf(await server().fetch(modernRequest("tools/call", { name: "supports", arguments: {} })));
    assert.deepEqual(bare.structuredContent, { elicitation: false, sampling: false, tasks: false, client: "tests" });
    assert.ok(modernMeta()); // the helper's default envelope declares no capability
  });

  it("MCP: the request for more resource, which a client declares among its experimental capabilities", async () => {
    const asks = defineTool("asks").handle((_, ctx) => ({
      resources: ctx.client.supports("io.mcplite/resourceRequests"),
    }));
    const app = createServer({ name: "ctx", version: "1.0.0" }).tool(asks);
    const caps = { experimental: { "io.mcplite/resourceRequests": {} } };
    const declared = await resultOf(
      await app.fetch(modernRequest("tools/call", {
        name: "asks",
        arguments: {},
        _meta: { "io.modelcontextprotocol/clientCapabilities": caps },
      })),
    );
    assert.equal(declared.structuredContent.resources, true);
    const bare = await resultOf(await app.fetch(modernRequest("tools/call", { name: "asks", arguments: {} })));
    assert.equal(bare.structuredContent.resources, false);
  });

  it("MCP 2025: what the session declared in initialize", async () => {
    const app = server();
    const init = await app.fetch(legacyRequest("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { sampling: {} },
      clientInfo: { name: "old", version: "1" },
    }));
    const session = init.headers.get("mcp-session-id")!;
    const result = await resultOf(
      await app.fetch(legacyRequest("tools/call", { name: "supports", arguments: {} }, 2, "2025-11-25", {
        "mcp-session-id": session,
      })),
    );
    assert.deepEqual(result.structuredContent, { elicitation: false, sampling: true, tasks: false, client: "old" });
  });

  it("MCP-lite and in process (no declarations): what the call can ask the client (an input round)", async () => {
    const result = await resultOf(await server().fetch(lite("supports")));
    assert.deepEqual(result.structuredContent, { elicitation: true, sampling: true, tasks: false, client: null });
    const local = await server().call("supports", {});
    assert.deepEqual(local.kind === "answer" && local.result.structuredContent, result.structuredContent);
  });
});

describe("ctx.validate()", () => {
  it("returns the value when it matches, and fails the call naming each path when not (MCP and MCP-lite)", async () => {
    const ok = await resultOf(await server().fetch(lite("validates", { raw: { id: 7, tags: ["a"] } })));
    assert.deepEqual(ok.content, [{ type: "text", text: "record 7" }]);
    for (
      const request of [
        lite("validates", { raw: { id: "7", tags: [1] } }),
        modernRequest("tools/call", { name: "validates", arguments: { raw: { id: "7", tags: [1] } } }),
      ]
    ) {
      const failed = await resultOf(await server().fetch(request));
      assert.equal(failed.isError, true);
      assert.match(failed.content[0].text, /^Invalid value: id: .*; tags\.0: /);
      assert.deepEqual(failed.structuredContent.issues.map((i: { path: string }) => i.path), ["id", "tags.0"]);
    }
  });
});

describe("ctx.resultMeta()", () => {
  it("MCP 2026-07-28: beside serverInfo, which it cannot override", async () => {
    const result = await resultOf(await server().fetch(modernRequest("tools/call", { name: "cached", arguments: {} })));
    assert.equal(result._meta["example.com/cache"], "hit");
    assert.deepEqual(result._meta["io.modelcontextprotocol/serverInfo"], { name: "ctx", version: "1.0.0" });
  });

  it("MCP 2025: in the result's _meta", async () => {
    const result = await resultOf(await server().fetch(legacyRequest("tools/call", { name: "cached", arguments: {} })));
    assert.deepEqual(result._meta, { "example.com/cache": "hit", response_type: "forged" });
  });

  it("MCP-lite: beside the wire's own keys, which win", async () => {
    const result = await resultOf(await server().fetch(lite("cached")));
    assert.equal(result._meta["example.com/cache"], "hit");
    assert.equal(result._meta.response_type, "answer");
    assert.equal(result._meta.server_version, "1.0.0");
  });

  it("refuses MCP's reserved namespaces (the call fails, naming the key)", async () => {
    const result = await resultOf(await server().fetch(lite("reserved")));
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /"io\.modelcontextprotocol\/serverInfo" is in a namespace MCP reserves/);
  });

  it("resource reads and prompts: in their results' _meta", async () => {
    const read = await resultOf(await server().fetch(modernRequest("resources/read", { uri: "memo://today" })));
    assert.equal(read._meta["example.com/age"], 3);
    assert.equal(read.contents[0].text, "buy milk");
    const prompt = await resultOf(await server().fetch(legacyRequest("prompts/get", { name: "greet" })));
    assert.deepEqual(prompt._meta, { "example.com/template": "v2" });
  });

  it("MCP-lite prompts: in the rendered prompt's _meta", async () => {
    const get = { jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "greet" } };
    const prompt = await resultOf(await server().fetch(post("/mcp-lite/v1/prompts/get", get)));
    assert.equal(prompt._meta["example.com/template"], "v2");
    assert.equal(prompt.messages[0].content.text, "Hello");
  });
});
