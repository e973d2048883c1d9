import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { definePrompt, defineResource, defineTool } from "../../../mod.ts";
import { modernRequest } from "../../helpers/request.ts";
import { type Fetcher, mcpServer, modern, SseReader } from "./mcp-helpers.ts";

const SUB = "io.modelcontextprotocol/subscriptionId";

async function listen(
  server: Fetcher,
  notifications: Record<string, unknown>,
  id: string | number = "sub-1",
): Promise<SseReader> {
  const response = await server.fetch(modernRequest("subscriptions/listen", { notifications }, id));
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  return new SseReader(response);
}

describe("subscriptions/listen", () => {
  it("acknowledges first, with the honoured subset and the subscription id", async () => {
    const stream = await listen(mcpServer(), {
      toolsListChanged: true,
      promptsListChanged: false,
      resourceSubscriptions: ["docs://readme", "docs://nope", "users://bob/profile"],
    });
    try {
      const ack = await stream.next();
      assert.equal(ack.method, "notifications/subscriptions/acknowledged");
      assert.deepEqual(ack.params.notifications, {
        toolsListChanged: true,
        resourceSubscriptions: ["docs://readme", "users://bob/profile"],
      });
      assert.equal(ack.params._meta[SUB], "sub-1");
      assert.equal(ack.id, undefined, "a notification, not a response");
    } finally {
      await stream.close();
    }
  });

  it("sends list_changed for tools, prompts and resources added or removed at run time, tagged", async () => {
    const server = mcpServer();
    const stream = await listen(server, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    }, 9);
    try {
      await stream.next();
      server.tool(defineTool("late").describe("Late").handle(() => "x"));
      assert.equal((await stream.next()).method, "notifications/tools/list_changed");
      server.removeTool("late");
      assert.equal((await stream.next()).method, "notifications/tools/list_changed");
      server.prompt(definePrompt("late_prompt").describe("Late").get(() => "x"));
      const prompts = await stream.next();
      assert.equal(prompts.method, "notifications/prompts/list_changed");
      assert.equal(prompts.params._meta[SUB], 9);
      server.resource(defineResource("late://r").read(() => "x"));
      assert.equal((await stream.next()).method, "notifications/resources/list_changed");
    } finally {
      await stream.close();
    }
  });

  it("sends only what the filter asked for", async () => {
    const server = mcpServer();
    const stream = await listen(server, { promptsListChanged: true });
    try {
      await stream.next();
      server.tool(defineTool("ignored").describe("Not for this stream").handle(() => "x"));
      server.removePrompt("plain");
      const next = await stream.next();
      assert.equal(next.method, "notifications/prompts/list_changed", "the tool change was not sent");
    } finally {
      await stream.close();
    }
  });

  it("sends resources/updated for subscribed URIs only", async () => {
    const server = mcpServer();
    const stream = await listen(server, { resourceSubscriptions: ["docs://readme"] });
    try {
      await stream.next();
      server.resourceUpdated("docs://logo.png");
      server.resourceUpdated("docs://readme");
      const updated = await stream.next();
      assert.equal(updated.method, "notifications/resources/updated");
      assert.equal(updated.params.uri, "docs://readme");
      assert.equal(updated.params._meta[SUB], "sub-1");
    } finally {
      await stream.close();
    }
  });

  it("stops listening when the client closes the stream", async () => {
    const server = mcpServer();
    const stream = await listen(server, { toolsListChanged: true });
    await stream.next();
    await stream.close();
    server.tool(defineTool("after_close").describe("After").handle(() => "x")); // no listener left to write to a closed stream
    const { body } = await modern(server, "tools/list");
    assert.ok(body.result.tools.some((t: { name: string }) => t.name === "after_close"));
  });

  it("needs an SSE-accepting client and a notifications object", async () => {
    const server = mcpServer();
    const json = await modern(server, "subscriptions/listen", { notifications: {} }, { accept: "application/json" });
    assert.equal(json.body.error.code, -32600);
    const malformed = await modern(server, "subscriptions/listen", { notifications: ["tools"] });
    assert.equal(malformed.body.error.code, -32602);
  });
});
