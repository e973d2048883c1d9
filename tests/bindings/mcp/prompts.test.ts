import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { legacy, mcpServer, modern, PNG } from "./mcp-helpers.ts";

describe("prompts over MCP", () => {
  const server = mcpServer();

  it("lists prompts with their arguments", async () => {
    const { body } = await modern(server, "prompts/list");
    assert.deepEqual(body.result.prompts, [
      {
        name: "greeting",
        description: "Greets someone",
        arguments: [{ name: "name", description: "Who to greet", required: true }, { name: "tone", required: false }],
      },
      { name: "plain", description: "No arguments" },
    ]);
  });

  it("renders a prompt with text and image messages", async () => {
    const { body } = await modern(server, "prompts/get", {
      name: "greeting",
      arguments: { name: "Ada", tone: "warm" },
    });
    assert.equal(body.result.resultType, "complete");
    assert.equal(body.result.description, "A greeting");
    assert.deepEqual(body.result.messages, [
      { role: "user", content: { type: "text", text: "Say hello to Ada in a warm tone" } },
      { role: "assistant", content: { type: "image", data: PNG, mimeType: "image/png" } },
    ]);
    const simple = await legacy(server, "prompts/get", { name: "plain" });
    assert.deepEqual(simple.body.result, {
      description: "No arguments",
      messages: [{ role: "user", content: { type: "text", text: "Just this." } }],
    });
  });

  it("answers an unknown prompt, a missing required argument or a bad value with -32602", async () => {
    const cases: Record<string, unknown>[] = [
      { name: "nope" },
      { name: "greeting" },
      { name: "greeting", arguments: { tone: "warm" } },
      { name: "greeting", arguments: { name: "Ada", tone: "rude" } },
      { name: "greeting", arguments: "Ada" },
      {},
    ];
    for (const params of cases) {
      const { status, body } = await modern(server, "prompts/get", params);
      assert.equal(status, 200, JSON.stringify(params));
      assert.equal(body.error.code, -32602, JSON.stringify(params));
    }
    const missing = await modern(server, "prompts/get", { name: "greeting", arguments: {} });
    assert.match(missing.body.error.message, /name/);
    assert.equal(missing.body.error.data.issues[0].path, "name");
  });
});
