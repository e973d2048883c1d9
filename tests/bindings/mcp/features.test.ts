/**
 * Resources, prompts and completion reach the MCP binding through the features their definitions
 * bring: a server without them answers their methods as unknown, and one that registers them, even
 * after it has served requests, serves them on both eras.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, definePrompt, defineResource } from "../../../mod.ts";
import { legacy, modern } from "./mcp-helpers.ts";

describe("MCP methods brought by definitions", () => {
  it("answers resources/*, prompts/* and completion/complete as unknown on a server that defines none", async () => {
    const server = createServer({ name: "bare", version: "1.0.0" });
    for (const method of ["resources/list", "resources/read", "prompts/list", "prompts/get", "completion/complete"]) {
      const answer = await modern(server, method, {});
      assert.equal(answer.status, 404, method);
      assert.equal(answer.body.error.code, -32601, method);
      assert.equal((await legacy(server, method, {})).body.error.code, -32601, method);
    }
  });

  it("serves them once a resource or a prompt is registered, even after the first requests", async () => {
    const server = createServer({ name: "late", version: "1.0.0" });
    assert.equal((await modern(server, "resources/list")).body.error.code, -32601);
    server.resource(defineResource("docs://readme").read(() => "# Read me"));
    const read = (await modern(server, "resources/read", { uri: "docs://readme" })).body.result;
    assert.deepEqual(read.contents, [{ uri: "docs://readme", text: "# Read me" }]);
    assert.equal((await legacy(server, "prompts/list")).body.error.code, -32601);
    server.prompt(definePrompt("plain").get(() => "Just this."));
    const prompts = (await legacy(server, "prompts/list")).body.result.prompts;
    assert.deepEqual(prompts.map((p: { name: string }) => p.name), ["plain"]);
  });
});
