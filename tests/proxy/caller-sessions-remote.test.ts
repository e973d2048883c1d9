/**
 * The callers' remote sessions of `connectRemote()` at an MCP 2025 remote over HTTP (a remote answered in memory):
 * what a session known by its caller's token alone notifies is tagged without that token, so a change relayed to
 * other instances never carries it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DECLINING } from "../../src/proxy/ask-caller.ts";
import { connectRemote } from "../../src/proxy/remote.ts";
import { waitFor } from "./gateway.ts";
import { sessionRemote } from "./session-remote.ts";

describe("connectRemote(): callers' sessions", () => {
  it("never tags what a session known by its token alone notifies with that token", async () => {
    const fake = sessionRemote();
    const remote = connectRemote("http://127.0.0.1:9/mcp", { ...DECLINING, transport: "mcp", fetch: fake.fetch });
    const heard: (string | undefined)[] = [];
    remote.listen!((_method, _params, caller) => void heard.push(caller));
    try {
      await remote.forCaller!(undefined, "secret-token").listTools();
      await waitFor("the session's stream", () => fake.push("s1", "notifications/message", { level: "info" }));
      await waitFor("the notice", () => heard.length > 0);
      assert.ok(heard.every((caller) => caller !== undefined && !caller.includes("secret")), JSON.stringify(heard));
    } finally {
      await remote.close();
      fake.close();
    }
  });
});
