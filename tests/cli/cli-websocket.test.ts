/**
 * The CLI against a `ws://` target: MCP-lite over a WebSocket (the server's `webSocketBinding()`),
 * listed and called from a child process.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Listener } from "../../src/server/serve.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { withDefaults } from "../helpers/fixtures.ts";
import { runCli, startServer } from "./cli-helpers.ts";

describe("mcplite with a ws:// target", () => {
  let listener: Listener;
  let url: string;
  before(async () => {
    listener = await startServer(withDefaults(webSocketBinding()));
    url = listener.url.replace("http:", "ws:");
  });
  after(async () => await listener.close());

  it("lists and calls tools over a WebSocket, at a bare origin or at the socket's path", async () => {
    const list = await runCli(["list", url]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^add\s+Adds two numbers$/m);
    const call = await runCli(["call", `${url}/mcp-lite/v1/ws`, "add", "--arg", "a=2", "--arg", "b=3", "--json"]);
    assert.equal(call.code, 0, call.stderr);
    assert.deepEqual(JSON.parse(call.stdout).structuredContent, { sum: 5 });
  });
});
