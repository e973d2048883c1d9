/**
 * Our own extensions on the public `defineExtension()`: an official MCP extension's identifier (the
 * only ones under MCP's reserved prefix, SEP-2133) and the method names its specification gives; the
 * extensions definitions bring (a skill the Skills extension, SEP-2640; a tool's view MCP Apps, SEP-1865),
 * served once per value and refused beside another value of the same identifier; and what a method's
 * handler reads: the request's revision, the settings advertised, the skills served, a paginated list
 * and a cacheable result, as MCP's own lists answer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension, defineTool, mcpBinding } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { defineSkill } from "../../src/skills/mod.ts";
import { legacyRequest, modernRequest } from "../helpers/request.ts";

const SKILL_MD = "---\nname: greet\ndescription: Greets people politely\n---\nSay hello.\n";
const UI = "io.modelcontextprotocol/ui";
const SKILLS = "io.modelcontextprotocol/skills";

type Fetcher = { fetch(request: Request): Promise<Response> };

async function modern(server: Fetcher, method: string, params: Record<string, unknown> = {}) {
  const response = await server.fetch(modernRequest(method, params));
  return { response, body: await response.json() };
}

async function legacy(server: Fetcher, method: string, params: Record<string, unknown> = {}) {
  return await (await server.fetch(legacyRequest(method, params))).json();
}

const view = defineApp("ui://shop/cart").html("<!doctype html><html><body>cart</body></html>");

describe("official extensions' identifiers and method names", () => {
  it("lets anyone define an official extension, and keeps the other reserved identifiers refused", () => {
    for (const id of [SKILLS, UI, "io.modelcontextprotocol/tasks"]) assert.equal(defineExtension(id).id, id);
    for (const id of ["io.modelcontextprotocol/ledger", "dev.mcp/skills", "io.modelcontextprotocol/skills-v2"]) {
      assert.throws(() => defineExtension(id), /reserved for MCP itself/, id);
    }
  });

  it("takes the names an official extension's specification gives, and never MCP's core methods", () => {
    const schema = v.object({});
    const skills = defineExtension(SKILLS).method("skills/list", schema, () => ({ skills: [] }));
    assert.deepEqual([...skills.methods.keys()], ["skills/list"]);
    assert.throws(() => defineExtension(SKILLS).method("tools/call", schema, () => ({})), /method of MCP itself/);
    assert.throws(() => defineExtension(SKILLS).method("skills/delete", schema, () => ({})), /a verb/);
    const other = defineExtension("org.example/skills");
    assert.throws(() => other.method("skills/list" as `org.example/skills/${string}`, schema, () => ({})), /a verb/);
    assert.throws(() => other.method("tools/list" as `org.example/skills/${string}`, schema, () => ({})), /MCP itself/);
  });
});

describe("extensions brought by definitions", () => {
  it("serves MCP Apps once, whatever number of tools bring the same view, on both revisions", async () => {
    const server = createServer({ name: "shop", version: "1.0.0" });
    assert.equal((await modern(server, "server/discover")).body.result.capabilities.extensions?.[UI], undefined);
    server.tool(defineTool("cart").ui(view).handle(() => "cart"));
    server.tool(defineTool("checkout").ui(view).handle(() => "done"));
    const advertised = { mimeTypes: ["text/html;profile=mcp-app"] };
    assert.deepEqual((await modern(server, "server/discover")).body.result.capabilities.extensions[UI], advertised);
    const init = await legacy(server, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    assert.deepEqual(init.result.capabilities.extensions[UI], advertised);
  });

  it("refuses a definition whose extension's identifier another value serves already, registering nothing", async () => {
    const server = createServer({ name: "shop", version: "1.0.0" }).extension(defineExtension(UI));
    assert.throws(() => server.tool(defineTool("cart").ui(view).handle(() => "cart")), /served already/);
    assert.deepEqual(server.tools.map((tool) => tool.name), []);
    const mine = defineExtension(SKILLS).method("skills/list", v.object({}), () => ({ skills: [] }));
    const skilled = createServer({ name: "s", version: "1" }).extension(mine);
    await assert.rejects(async () => skilled.skill(await defineSkill({ "SKILL.md": SKILL_MD })), /served already/);
  });

  it("serves the Skills extension with the first skill, and a server's directoryRead in its settings", async () => {
    const server = createServer({ name: "s", version: "1", bindings: [mcpBinding({ directoryRead: true })] });
    assert.equal((await modern(server, "skills/list")).body.error.code, -32601);
    server.skill(await defineSkill({ "SKILL.md": SKILL_MD }));
    const { body } = await modern(server, "server/discover");
    assert.deepEqual(body.result.capabilities.extensions[SKILLS], { directoryRead: true });
    assert.equal((await modern(server, "skills/list")).body.result.skills.length, 1);
  });
});

describe("what an extension method's handler reads", () => {
  const CATALOG = "org.example/catalog";
  const items = ["a", "b", "c", "d", "e"].map((id) => ({ id }));
  let built = 0;
  const catalog = defineExtension(CATALOG)
    .settings({ pages: true })
    .method(`${CATALOG}/list`, v.object({ cursor: v.optional(v.string()) }), (_params, ctx) =>
      ctx.page("items", () => {
        built++;
        return items;
      }))
    .method(`${CATALOG}/get`, v.object({ id: v.string() }), ({ id }, ctx) => ctx.cacheable({ item: { id } }))
    .method(`${CATALOG}/about`, v.object({}), (_params, ctx) => ({
      protocolVersion: ctx.protocolVersion,
      settings: ctx.settings,
      skills: [...ctx.served.skills].map((skill) => skill.uri),
      greet: ctx.served.skill("skill://greet/SKILL.md")?.name ?? null,
    }));

  async function shop() {
    return createServer({ name: "shop", version: "1", bindings: [mcpBinding({ pageSize: 2 })] })
      .extension(catalog)
      .skill(await defineSkill({ "SKILL.md": SKILL_MD }));
  }

  it("pages a list at the server's page size, built once, with the list caching hints on 2026-07-28", async () => {
    const server = await shop();
    built = 0;
    const first = await modern(server, `${CATALOG}/list`);
    assert.deepEqual(first.body.result.items, [{ id: "a" }, { id: "b" }]);
    assert.equal(first.body.result.ttlMs, 0);
    assert.equal(first.body.result.cacheScope, "public");
    assert.match(first.response.headers.get("etag") ?? "", /^W\//);
    const second = await modern(server, `${CATALOG}/list`, { cursor: first.body.result.nextCursor });
    assert.deepEqual(second.body.result.items, [{ id: "c" }, { id: "d" }]);
    const old = await legacy(server, `${CATALOG}/list`);
    assert.deepEqual(old.result.items, [{ id: "a" }, { id: "b" }]);
    assert.equal(old.result.ttlMs, undefined);
    assert.equal(typeof old.result.nextCursor, "string");
    assert.equal(built, 2); // once per revision's list
    assert.equal((await modern(server, `${CATALOG}/list`, { cursor: "nope" })).body.error.code, -32602);
  });

  it("answers a cacheable result with the hints on 2026-07-28 only, and reads the revision, settings and skills", async () => {
    const server = await shop();
    const got = await modern(server, `${CATALOG}/get`, { id: "x" });
    assert.deepEqual(got.body.result.item, { id: "x" });
    assert.equal(got.body.result.cacheScope, "public");
    assert.equal(got.response.headers.get("cache-control"), "public, no-cache");
    assert.equal((await legacy(server, `${CATALOG}/get`, { id: "x" })).result.cacheScope, undefined);
    const about = (await modern(server, `${CATALOG}/about`)).body.result;
    assert.equal(about.protocolVersion, "2026-07-28");
    assert.deepEqual(about.settings, { pages: true });
    assert.deepEqual(about.skills, ["skill://greet/SKILL.md"]);
    assert.equal(about.greet, "greet");
    assert.equal((await legacy(server, `${CATALOG}/about`)).result.protocolVersion, "2025-11-25");
  });
});
