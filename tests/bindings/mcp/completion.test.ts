import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixtureServer } from "../../helpers/fixtures.ts";
import { legacy, mcpServer, modern } from "./mcp-helpers.ts";

describe("completion/complete", () => {
  const server = mcpServer();

  it("completes a resource-template variable", async () => {
    const { body } = await modern(server, "completion/complete", {
      ref: { type: "ref/resource", uri: "users://{id}/profile" },
      argument: { name: "id", value: "al" },
    });
    assert.deepEqual(body.result.completion, { values: ["alice", "albert"], total: 2, hasMore: false });
    assert.equal(body.result.resultType, "complete");
    assert.equal(body.result.ttlMs, undefined, "completions are not cacheable");
  });

  it("completes a prompt argument, at most 100 values, with hasMore", async () => {
    const { body } = await legacy(server, "completion/complete", {
      ref: { type: "ref/prompt", name: "greeting" },
      argument: { name: "name", value: "x" },
      context: { arguments: { tone: "warm" } },
    });
    assert.equal(body.result.completion.values.length, 100);
    assert.equal(body.result.completion.total, 150);
    assert.equal(body.result.completion.hasMore, true);
  });

  it("suggests nothing for an argument without a completer", async () => {
    const { body } = await modern(server, "completion/complete", {
      ref: { type: "ref/prompt", name: "greeting" },
      argument: { name: "tone", value: "" },
    });
    assert.deepEqual(body.result.completion, { values: [], total: 0, hasMore: false });
  });

  it("answers unknown refs and arguments, or malformed params, with -32602", async () => {
    const cases = [
      { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } },
      { ref: { type: "ref/prompt", name: "greeting" }, argument: { name: "nope", value: "" } },
      { ref: { type: "ref/resource", uri: "docs://readme" }, argument: { name: "id", value: "" } },
      { ref: { type: "ref/tool", name: "add" }, argument: { name: "a", value: "" } },
      { ref: { type: "ref/prompt", name: "greeting" }, argument: { name: "name" } },
      {
        ref: { type: "ref/prompt", name: "greeting" },
        argument: { name: "name", value: "" },
        context: { arguments: [] },
      },
    ];
    for (const params of cases) {
      const { body } = await modern(server, "completion/complete", params);
      assert.equal(body.error.code, -32602, JSON.stringify(params));
    }
  });

  it("is not served by a server without completers (404/-32601 on 2026)", async () => {
    const { status, body } = await modern(fixtureServer(), "completion/complete", {
      ref: { type: "ref/prompt", name: "x" },
      argument: { name: "x", value: "" },
    });
    assert.equal(status, 404);
    assert.equal(body.error.code, -32601);
  });
});
