/**
 * A 2025-era client gets results in the shape its negotiated revision defines: nothing added by a later
 * revision (audio in 2025-03-26; structuredContent, outputSchema, titles and resource links in
 * 2025-06-18) reaches a client that does not know it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { audio, createServer, definePrompt, defineTool, resourceLink, text } from "../../../mod.ts";
import { legacyRequest } from "../../helpers/request.ts";
import { readJsonRpc } from "../../helpers/sse.ts";

const media = defineTool("media")
  .title("Media")
  .annotations({ readOnlyHint: true })
  .output(v.object({ n: v.number() }))
  .handle(() => ({ n: 1 }));
const blocks = defineTool("blocks").handle(() => [
  text("hello"),
  audio(new Uint8Array([1, 2]), "audio/wav"),
  resourceLink("docs://readme", "readme", { title: "The README" }),
]);
const prompt = definePrompt("linked").get(() => [{ role: "user", content: resourceLink("docs://a", "a") }]);
const server = createServer({ name: "rev", version: "1" }).tool(media).tool(blocks).prompt(prompt);

async function call(version: string, method: string, params: Record<string, unknown>) {
  return (await readJsonRpc(await server.fetch(legacyRequest(method, params, 1, version)))).result;
}

describe("results shaped for the negotiated revision", () => {
  it("2025-06-18 and later: everything as it is", async () => {
    const list = await call("2025-06-18", "tools/list", {});
    const described = list.tools.find((t: { name: string }) => t.name === "media");
    assert.equal(described.title, "Media");
    assert.ok(described.outputSchema);
    assert.deepEqual((await call("2025-11-25", "tools/call", { name: "media", arguments: {} })).structuredContent, {
      n: 1,
    });
    const content = (await call("2025-11-25", "tools/call", { name: "blocks", arguments: {} })).content;
    assert.deepEqual(content.map((b: { type: string }) => b.type), ["text", "audio", "resource_link"]);
  });

  it("2025-03-26: no structuredContent, outputSchema, titles or resource links; audio and annotations stay", async () => {
    const media = (await call("2025-03-26", "tools/list", {})).tools.find((t: { name: string }) => t.name === "media");
    assert.equal(media.title, undefined);
    assert.equal(media.outputSchema, undefined);
    assert.deepEqual(media.annotations, { readOnlyHint: true });
    const result = await call("2025-03-26", "tools/call", { name: "media", arguments: {} });
    assert.equal(result.structuredContent, undefined);
    assert.deepEqual(result.content, [{ type: "text", text: '{"n":1}' }]);
    const content = (await call("2025-03-26", "tools/call", { name: "blocks", arguments: {} })).content;
    assert.deepEqual(content.map((b: { type: string }) => b.type), ["text", "audio", "text"]);
    assert.equal(content[2].text, "Resource: The README <docs://readme>");
    const messages = (await call("2025-03-26", "prompts/get", { name: "linked" })).messages;
    assert.deepEqual(messages[0].content, { type: "text", text: "Resource: a <docs://a>" });
  });

  it("2024-11-05: no annotations either, and audio becomes a text block saying so", async () => {
    const media = (await call("2024-11-05", "tools/list", {})).tools.find((t: { name: string }) => t.name === "media");
    assert.equal(media.annotations, undefined);
    const content = (await call("2024-11-05", "tools/call", { name: "blocks", arguments: {} })).content;
    assert.deepEqual(content.map((b: { type: string }) => b.type), ["text", "text", "text"]);
    assert.match(content[1].text, /audio\/wav/);
  });

  it("takes the revision from the session initialize opened when no header names one", async () => {
    const init = await server.fetch(legacyRequest(
      "initialize",
      {
        protocolVersion: "2024-11-05",
        capabilities: {},
        clientInfo: { name: "old", version: "1" },
      },
      1,
      "2024-11-05",
    ));
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const request = new Request("http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "media", arguments: {} } }),
    });
    const { result } = await (await server.fetch(request)).json();
    assert.equal(result.structuredContent, undefined);
  });
});
