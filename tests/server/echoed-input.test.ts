/**
 * An error repeats at most 200 characters of what the client sent (then `…`): a megabyte URI, tool
 * name or method is not sent back whole, in the message nor in `data`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineResource, defineTool } from "../../mod.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";

const server = createServer({ name: "echo", version: "1.0.0" })
  .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"))
  .resource(defineResource("docs://readme").read(() => "# Docs"));

const HUGE = "x".repeat(1_000_000);

/** The error of a response, and how many bytes the whole answer took. */
async function errorOf(response: Response): Promise<{ bytes: number; message: string; data: unknown }> {
  const text = await response.text();
  const body = JSON.parse(text);
  const error = body.error ?? body;
  return { bytes: text.length, message: String(error.message), data: error.data };
}

/** The answer is small, and its message repeats the first 200 characters of `input`, then `…`. */
function assertCut(seen: { bytes: number; message: string }, prefix: string, input: string): void {
  assert.ok(seen.bytes < 2_000, `the answer took ${seen.bytes} bytes`);
  assert.ok(seen.message.startsWith(prefix + input.slice(0, 200) + "…"), seen.message.slice(0, 80));
}

describe("an error repeats a bounded part of the client's input", () => {
  it("resources/read of a 1 MB URI: message and data.uri are cut to 200 characters", async () => {
    const uri = `docs://${HUGE}`;
    const seen = await errorOf(await server.fetch(modernRequest("resources/read", { uri })));
    assertCut(seen, "Resource not found: ", uri);
    assert.equal((seen.data as { uri: string }).uri.length, 201);
  });

  it("tools/call of a 1 MB tool name over MCP-lite: cut", async () => {
    const seen = await errorOf(await server.fetch(post("/mcp-lite/v1/calltools", toolsCall(HUGE, {}))));
    assertCut(seen, "Tool not found: ", HUGE);
    assert.equal((seen.data as { requested_tool: string }).requested_tool.length, 201);
  });

  it("an unknown 1 MB method over MCP: cut", async () => {
    const seen = await errorOf(await server.fetch(legacyRequest(HUGE, {})));
    assertCut(seen, "Method not found: ", HUGE);
  });

  it("a short input is repeated whole", async () => {
    const seen = await errorOf(await server.fetch(modernRequest("resources/read", { uri: "docs://nope" })));
    assert.equal(seen.message, "Resource not found: docs://nope");
  });
});
