/**
 * The callers' remote sessions of `connectRemote()` at an MCP 2025 remote over HTTP (a remote answered in memory):
 * what a session known by its caller's token alone notifies is tagged without that token, so a change relayed to
 * other instances never carries it; a session a call in flight holds is never evicted (past `max`) from under it, and
 * a subscription whose session was let go (the proxy closed) is not unsubscribed by opening that session again.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DECLINING } from "../../src/proxy/ask-caller.ts";
import { connectRemote } from "../../src/proxy/remote.ts";
import { remoteSubscriptions } from "../../src/proxy/remote-subscriptions.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { gatewayServer } from "./gateway.ts";
import { waitFor } from "./gateway.ts";
import { sessionRemote } from "./session-remote.ts";

describe("connectRemote(): callers' sessions", () => {
  it("never tags what a session known by its token alone notifies with that token", async () => {
    const fake = sessionRemote();
    const remote = connectRemote("http://127.0.0.1:9/mcp", { ...DECLINING, transport: "mcp", fetch: fake.fetch });
    const heard: (string | undefined)[] = [];
    remote.listen!((_method, _params, caller) => void heard.push(caller));
    try {
      await remote.forCaller!(undefined, "secret-token").client.listTools();
      await waitFor("the session's stream", () => fake.push("s1", "notifications/message", { level: "info" }));
      await waitFor("the notice", () => heard.length > 0);
      assert.ok(heard.every((caller) => caller !== undefined && !caller.includes("secret")), JSON.stringify(heard));
    } finally {
      await remote.close();
      fake.close();
    }
  });

  it("never evicts a session a call in flight holds: past max, another caller's session is added", async () => {
    const fake = sessionRemote();
    const stop = new AbortController();
    const remote = await proxy("http://127.0.0.1:9/mcp", {
      transport: "mcp",
      fetch: fake.fetch,
      refreshMs: 0,
      sessions: { max: 1 },
      signal: stop.signal,
    });
    const gateway = gatewayServer().group("remote", remote);
    const callers = ["a", "b"].map((name) => {
      const piped = pipeServer(gateway);
      const clientInfo = { name, version: "1" };
      piped.send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo },
      });
      piped.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return piped;
    });
    const call = { name: "remote.echo", arguments: {} };
    try {
      await Promise.all(callers.map((c) => c.answer(1)));
      fake.holdCalls(true);
      callers[0].send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call });
      await waitFor("A's call to reach the remote", () => fake.waiting() === 1);
      const mine = fake.received.findLast((r) => r.rpc === "tools/call")!.session;
      fake.holdCalls(false);
      callers[1].send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call });
      assert.equal((await callers[1].answer(2)).error, undefined);
      assert.ok(!fake.deleted().includes(mine), "A's session, held by its call, is not closed");
      fake.release();
      assert.equal((await callers[0].answer(2)).error, undefined);
      const opened = fake.opened();
      assert.equal(fake.received.filter((r) => r.session === mine && r.rpc === "initialize").length, 0);
      assert.equal(opened, 3, "the proxy's own session and one per caller, none opened again");
    } finally {
      await Promise.all(callers.map((c) => c.end()));
      stop.abort();
      fake.close();
    }
  });

  it("does not open a caller's session again to unsubscribe once the proxy closed it", async () => {
    const fake = sessionRemote();
    const remote = connectRemote("http://127.0.0.1:9/mcp", { ...DECLINING, transport: "mcp", fetch: fake.fetch });
    const capabilities = { resources: { subscribe: true } };
    const watch = remoteSubscriptions(remote, { modern: false, capabilities, sessioned: true }, undefined)!;
    try {
      const unwatch = watch("demo://r", "session a");
      await waitFor("the subscription", () => fake.received.some((r) => r.rpc === "resources/subscribe"));
      await remote.close();
      const opened = fake.opened();
      unwatch();
      // About time itself: an absence, which no event announces. What an unsubscription would send starts at once
      // (the unwatch's promise chain, then the client's first fetch, in process): ten turns of the event loop, 10 ms
      // apart, are room for it, not a guess at a delay.
      for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(fake.opened(), opened, "no session opened again");
      assert.ok(!fake.received.some((r) => r.rpc === "resources/unsubscribe"));
    } finally {
      fake.close();
    }
  });

  it("keys a caller's session by the caller alone: its subscription and its calls share it, with its latest token", async () => {
    const fake = sessionRemote();
    const remote = connectRemote("http://127.0.0.1:9/mcp", {
      ...DECLINING,
      transport: "mcp",
      fetch: fake.fetch,
      headers: { authorization: "Bearer the-proxys-own" },
    });
    const caller = 'principal ["ada",null]';
    try {
      const call = remote.forCaller!(caller, "first");
      await call.client.listTools();
      call.release();
      const held = remote.holdFor!(caller);
      assert.equal(held.client, call.client, "the subscription's session is the calls'");
      await held.client.request("resources/subscribe", { uri: "demo://r" });
      const next = remote.forCaller!(caller, "renewed");
      await next.client.listTools();
      next.release();
      held.release();
      const sessions = new Set(fake.received.filter((r) => r.session !== null).map((r) => r.session));
      assert.equal(sessions.size, 1, JSON.stringify(fake.received));
      const subscribed = fake.received.find((r) => r.rpc === "resources/subscribe");
      assert.equal(subscribed?.authorization, "Bearer first", "the caller's token, never the proxy's");
      assert.equal(fake.received.findLast((r) => r.rpc === "tools/list")?.authorization, "Bearer renewed");
    } finally {
      await remote.close();
      fake.close();
    }
  });
});
