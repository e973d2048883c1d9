/**
 * A caller's resource subscription through `proxy()` is made at the remote, server-everything over stdio and
 * over Streamable HTTP: a 2025 session's `resources/subscribe` (stdio) and a 2026-07-28 `subscriptions/listen`
 * stream on the gateway both hear the remote's `notifications/resources/updated` (it sends one every 5 s for each
 * URI its session subscribed to, once `toggle-subscriber-updates` is on); the gateway subscribes at the remote once
 * for both (one session there for every caller: `sessions: "shared"`), and unsubscribes there when the last of
 * them leaves. What the gateway sent the remote is read off its
 * wire (the proxy's `fetch`; a recorder in front of the stdio server). An MCP 2026-07-28 remote (ours) is listened
 * to with `subscriptions/listen` for the URI, one its template answers.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { after, describe, it } from "node:test";
import type { StdioTransportOptions } from "../../src/client/transports/stdio.ts";
import { createClient } from "../../src/client/mod.ts";
import { createServer, defineResource } from "../../mod.ts";
import { serve } from "../../src/server/serve.ts";
import { proxy, type ProxyOptions } from "../../src/proxy/mod.ts";
import { ROOT } from "../helpers/process.ts";
import { modernRequest } from "../helpers/request.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { initializedSession } from "../helpers/stdio.ts";
import { SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { everythingHttp, everythingStdio } from "./everything-peer.ts";
import { gatewayServer, waitFor } from "./gateway.ts";
import type { RemoteProcess } from "./remote-process.ts";

/** A message the gateway sent the remote: its method and `params.uri`. */
type Sent = { method: string; uri: unknown };

/** How long the remote may take to send an update it owes (its period is 5 s): a bound, not a measure. */
const UPDATE_MS = 20_000;

describe("proxy() of server-everything: resource subscriptions made at the remote", () => {
  const stop = new AbortController();
  let remote: RemoteProcess | undefined;
  after(async () => {
    stop.abort();
    await remote?.kill();
  });

  /** The remote over stdio, behind a recorder of what the gateway sends it. */
  function overStdio(): { target: StdioTransportOptions; sent: () => Sent[] } {
    const record = join(scratchDir("proxy-subscriptions-"), "sent.jsonl");
    const recorder = `${ROOT}tests/proxy/recording-stdio.mjs`;
    const target = { ...everythingStdio, args: [recorder, everythingStdio.command, ...everythingStdio.args] };
    const sent = () => {
      let lines: string;
      try {
        lines = readFileSync(record, "utf8");
      } catch {
        return [];
      }
      return lines.split("\n").filter((line) => line !== "").map((line) => sentOf(JSON.parse(line)));
    };
    return { target: { ...target, env: { ...process.env, RECORD_TO: record } as Record<string, string> }, sent };
  }

  async function subscribesThrough(
    target: string | StdioTransportOptions,
    sent: () => Sent[],
    options: ProxyOptions = {},
  ) {
    const everything = await proxy(target, { ...options, refreshMs: 0, signal: stop.signal });
    const gateway = gatewayServer().group("everything", everything);
    const client = createClient(gateway, { transport: "mcp-lite" });
    const listed = await client.listResources();
    const uri = String(listed.find((r) => String(r.uri).startsWith("demo://resource/static/"))?.uri);
    const updated = (m: Record<string, any>) => m.method === "notifications/resources/updated" && m.params.uri === uri;

    // A 2025 session on a connection (stdio), and a 2026-07-28 listen stream, both on the gateway.
    const session = await initializedSession(gateway);
    session.send({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri } });
    assert.deepEqual((await session.answer(2)).result, {});
    const listen = new SseReader(
      await gateway.fetch(modernRequest("subscriptions/listen", { notifications: { resourceSubscriptions: [uri] } })),
    );
    const ack = await listen.next();
    assert.deepEqual(ack.params.notifications, { resourceSubscriptions: [uri] });

    await client.call("everything.toggle-subscriber-updates", {}); // the remote's updates start
    try {
      await session.next(updated, UPDATE_MS);
      let heard;
      do heard = await listen.next(UPDATE_MS); while (heard !== undefined && !updated(heard));
      assert.ok(heard, "the 2026 listener heard the update");
      const subscribes = () => sent().filter((s) => s.method === "resources/subscribe" && s.uri === uri);
      assert.equal(subscribes().length, 1, "one subscription at the remote for both callers");

      // The 2025 caller leaves: the 2026 one still listens, so the remote is not unsubscribed.
      session.send({ jsonrpc: "2.0", id: 3, method: "resources/unsubscribe", params: { uri } });
      await session.answer(3);
      const unsubscribes = () => sent().filter((s) => s.method === "resources/unsubscribe" && s.uri === uri);
      do heard = await listen.next(UPDATE_MS); while (heard !== undefined && !updated(heard));
      assert.ok(heard, "the 2026 listener still hears the updates");
      assert.equal(unsubscribes().length, 0);
      // The last leaves: the gateway unsubscribes at the remote.
      await listen.close();
      await waitFor("the gateway to unsubscribe at the remote", () => unsubscribes().length === 1);
      assert.equal(subscribes().length, 1);
    } finally {
      await client.call("everything.toggle-subscriber-updates", {}); // and stop
      await session.end();
    }
  }

  it("over stdio", async () => {
    const { target, sent } = overStdio();
    await subscribesThrough(target, sent);
  });

  it("over Streamable HTTP", async () => {
    remote = everythingHttp();
    await remote.start();
    const sent: Sent[] = [];
    // The gateway's own fetch to the remote: each message it posts is read off it.
    const fetch = async (request: Request) => {
      if (request.method === "POST") sent.push(sentOf(await request.clone().json()));
      return await globalThis.fetch(request);
    };
    // One session at the remote for every caller, as asked: each caller's own is proxy-callers-apart.test.ts's.
    await subscribesThrough(remote.url, () => sent, { transport: "mcp", fetch, sessions: "shared" });
  });
});

describe("proxy() of an MCP 2026-07-28 remote of ours: resource subscriptions made at the remote", () => {
  it("listens there for a URI of a template while a 2025 caller of the gateway subscribes to it", async () => {
    const notes = createServer({ name: "notes", version: "1.0.0" })
      .resource(defineResource("notes://{id}").name("note").read(({ id }) => `note ${id}`));
    const listener = await serve(notes, { port: 0, hostname: "127.0.0.1", quiet: true });
    const stop = new AbortController();
    try {
      const gateway = gatewayServer().group("notes", await proxy(listener.url, { refreshMs: 0, signal: stop.signal }));
      const session = await initializedSession(gateway);
      session.send({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "notes://7" } });
      await session.answer(2);
      const updated = (m: Record<string, any>) => m.method === "notifications/resources/updated";
      // The remote tells its listeners of each update; the gateway's listen stream there opens meanwhile.
      await waitFor("the update to reach the 2025 caller", () => {
        notes.resourceUpdated("notes://7");
        return session.messages.some(updated);
      });
      assert.deepEqual(session.messages.find(updated)?.params, { uri: "notes://7" });
      await session.end();
    } finally {
      stop.abort();
      await listener.close();
    }
  });
});

function sentOf(message: Record<string, any>): Sent {
  return { method: String(message.method), uri: message.params?.uri };
}
