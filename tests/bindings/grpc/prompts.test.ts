/**
 * Prompts over gRPC (`GetPrompts`, `GetPrompt`, the README's extension of MCP-lite spec v0.042 §8.1):
 * @grpc/grpc-js (under Node) against `serveGrpc()`, and our client's gRPC transport over Connect.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";
import { withDefaults } from "../../helpers/fixtures.ts";
import { grpcJs } from "./grpc-fixtures.ts";
import { greetPrompt } from "../../helpers/greet-prompt.ts";

function promptServer() {
  return createServer({ name: "prompts", version: "1.0.0", bindings: withDefaults(grpcBinding()) })
    .prompt(
      greetPrompt(),
    );
}

describe("gRPC prompts", () => {
  let grpc: GrpcListener;
  let http: Listener;
  before(async () => {
    const server = promptServer();
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 500 });
    http = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await grpc.close();
    await http.close();
  });

  it("serves grpc-js: GetPrompts lists the arguments, GetPrompt renders, bad arguments are INVALID_ARGUMENT", async () => {
    const r = await grpcJs(`127.0.0.1:${grpc.port}`, "prompts");
    assert.deepEqual(r.prompts, [{
      name: "greet",
      description: "Greets someone",
      arguments: [{ name: "name", title: "", description: "Who to greet", required: true }],
    }]);
    assert.deepEqual(r.got.result, {
      description: "Greets someone",
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }],
    });
    assert.equal(r.got.meta, null);
    assert.equal(r.missing.code, "INVALID_ARGUMENT");
    assert.equal(r.unknown.code, "INVALID_ARGUMENT");
    assert.match(r.unknown.message, /unknown prompt "nope"/);
  });

  it("our client's listPrompts() and getPrompt() over Connect", async () => {
    const client = createClient(grpcTransport(http.url));
    assert.deepEqual(await client.listPrompts(), [{
      name: "greet",
      description: "Greets someone",
      arguments: [{ name: "name", description: "Who to greet", required: true }],
    }]);
    const greet = await client.getPrompt("greet", { name: "Bo" });
    assert.deepEqual(greet.messages, [{ role: "user", content: { type: "text", text: "Say hello to Bo." } }]);
  });
});
