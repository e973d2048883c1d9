import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineResource } from "../../../mod.ts";
import { ErrorCode, ProtocolError } from "../../../src/errors/mod.ts";
import { legacy, mcpServer, modern, PNG } from "./mcp-helpers.ts";

describe("resources over MCP", () => {
  const server = mcpServer();

  it("lists static resources and templates apart, with their metadata", async () => {
    const list = (await modern(server, "resources/list")).body.result.resources;
    assert.deepEqual(list, [
      { uri: "docs://readme", name: "readme", description: "The read-me", mimeType: "text/markdown" },
      { uri: "docs://logo.png", name: "logo", mimeType: "image/png" },
    ]);
    const templates = (await modern(server, "resources/templates/list")).body.result.resourceTemplates;
    assert.deepEqual(templates, [{
      uriTemplate: "users://{id}/profile",
      name: "user-profile",
      mimeType: "application/json",
    }]);
  });

  it("reads text, binary (base64 blob) and template resources", async () => {
    const text = (await modern(server, "resources/read", { uri: "docs://readme" })).body.result;
    assert.deepEqual(text.contents, [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Read me" }]);
    assert.equal(text.resultType, "complete");
    const binary = (await modern(server, "resources/read", { uri: "docs://logo.png" })).body.result;
    assert.deepEqual(binary.contents, [{ uri: "docs://logo.png", mimeType: "image/png", blob: PNG }]);
    const templated = (await legacy(server, "resources/read", { uri: "users://al%20ice/profile" })).body.result;
    assert.deepEqual(templated.contents, [{
      uri: "users://al%20ice/profile",
      mimeType: "application/json",
      text: '{"id":"al ice"}',
    }]);
  });

  it("answers an unknown URI with -32602 and data.uri on 2026, -32002 on 2025, never empty contents", async () => {
    for (const uri of ["docs://missing", "users://nobody/profile"]) {
      const modernAnswer = await modern(server, "resources/read", { uri });
      assert.equal(modernAnswer.status, 200);
      assert.equal(modernAnswer.body.error.code, -32602, uri);
      assert.deepEqual(modernAnswer.body.error.data, { code: "resource_not_found", uri });
      const legacyAnswer = await legacy(server, "resources/read", { uri });
      assert.equal(legacyAnswer.body.error.code, -32002, uri);
    }
  });

  it("answers a missing uri param with -32602", async () => {
    const { body } = await legacy(server, "resources/read", {});
    assert.equal(body.error.code, -32602);
  });

  it("passes errors a read handler throws through: protocol errors as such, others masked", async () => {
    const reported: unknown[] = [];
    const broken = mcpServer({ onError: (error) => reported.push(error) })
      .resource(
        defineResource("err://protocol").read(() => {
          throw new ProtocolError(ErrorCode.PermissionDenied, "not yours");
        }),
      )
      .resource(
        defineResource("err://bug").read(() => {
          throw new Error("secret stack detail");
        }),
      );
    const denied = await modern(broken, "resources/read", { uri: "err://protocol" });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.message, "not yours");
    const bug = await modern(broken, "resources/read", { uri: "err://bug" });
    assert.equal(bug.body.error.code, -32603);
    assert.doesNotMatch(JSON.stringify(bug.body), /secret/);
    assert.equal(reported.length, 1);
  });

  it("serves resources added at run time and forgets removed ones", async () => {
    const live = mcpServer();
    live.resource(defineResource("live://now").read(() => "now"));
    assert.equal((await modern(live, "resources/read", { uri: "live://now" })).body.result.contents[0].text, "now");
    assert.equal(live.removeResource("live://now"), true);
    assert.equal((await modern(live, "resources/read", { uri: "live://now" })).body.error.code, -32602);
  });
});
