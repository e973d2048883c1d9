import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { definePrompt, defineResource, defineTool, mcpBinding } from "../../../mod.ts";
import { decodeCursor, encodeCursor } from "../../../src/bindings/mcp/pagination.ts";
import { type Fetcher, legacy, mcpServer, modern } from "./mcp-helpers.ts";

function bigServer() {
  const server = mcpServer({ bindings: [mcpBinding({ pageSize: 2 })] });
  for (let i = 0; i < 3; i++) {
    server.tool(defineTool(`extra_${i}`).describe(`Extra ${i}`).handle(() => "x"));
    server.prompt(definePrompt(`extra_prompt_${i}`).describe(`Extra ${i}`).get(() => "x"));
    server.resource(defineResource(`extra://r${i}`).read(() => "x"));
    server.resource(defineResource(`extra://t${i}/{x}`).read(() => "x"));
  }
  return server;
}

async function walk(server: Fetcher, method: string, field: string, era: "modern" | "legacy"): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const { body } = era === "modern" ? await modern(server, method, params) : await legacy(server, method, params);
    const items = body.result[field] as { name: string }[];
    assert.ok(items.length <= 2, "a page holds at most pageSize items");
    names.push(...items.map((item) => item.name));
    cursor = body.result.nextCursor;
    if (cursor === undefined) return names;
  }
  throw new Error("too many pages");
}

describe("pagination", () => {
  it("walks every list page by page with opaque cursors, in registration order", async () => {
    const server = bigServer();
    for (const era of ["modern", "legacy"] as const) {
      const tools = await walk(server, "tools/list", "tools", era);
      assert.deepEqual(tools.slice(-3), ["extra_0", "extra_1", "extra_2"]);
      assert.equal(new Set(tools).size, tools.length);
      assert.deepEqual(await walk(server, "prompts/list", "prompts", era), [
        "greeting",
        "plain",
        "extra_prompt_0",
        "extra_prompt_1",
        "extra_prompt_2",
      ]);
      assert.equal((await walk(server, "resources/list", "resources", era)).length, 5);
      assert.equal((await walk(server, "resources/templates/list", "resourceTemplates", era)).length, 4);
    }
  });

  it("keeps caching hints on every page", async () => {
    const server = bigServer();
    const first = await modern(server, "tools/list");
    const second = await modern(server, "tools/list", { cursor: first.body.result.nextCursor });
    assert.equal(second.body.result.cacheScope, first.body.result.cacheScope);
    assert.notEqual(second.headers.get("etag"), first.headers.get("etag"));
  });

  it("answers a cursor it did not issue with -32602", async () => {
    const server = bigServer();
    for (const cursor of ["garbage", "", 42, { o: 1 }, btoa("mcplite:-1"), "a".repeat(100)]) {
      const modernAnswer = await modern(server, "tools/list", { cursor });
      assert.equal(modernAnswer.body.error?.code, -32602, JSON.stringify(cursor));
      assert.equal(modernAnswer.status, 200);
      const legacyAnswer = await legacy(server, "prompts/list", { cursor });
      assert.equal(legacyAnswer.body.error?.code, -32602, JSON.stringify(cursor));
    }
  });

  it("answers a cursor past the end (the list shrank) with an empty last page", async () => {
    const server = mcpServer();
    const { body } = await modern(server, "tools/list", { cursor: encodeCursor(1000) });
    assert.deepEqual(body.result.tools, []);
    assert.equal(body.result.nextCursor, undefined);
  });

  it("round-trips cursors", () => {
    for (const offset of [0, 1, 99, 123456]) assert.equal(decodeCursor(encodeCursor(offset)), offset);
    assert.equal(decodeCursor(undefined), 0);
  });
});
