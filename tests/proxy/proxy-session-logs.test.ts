/**
 * Logs a remote sends outside any request reach the gateway's MCP 2025 sessions that asked for logs, through
 * `proxy()` of server-everything over stdio and over Streamable HTTP (where it sends them on its standalone GET
 * stream): once `toggle-simulated-logging` is on, it logs at a random level every 5 s. A session that chose a
 * level with `logging/setLevel` hears them from that level up; one that chose none hears none. MCP 2026-07-28
 * has no place for such a log (its logs are a request's), so no 2026 listener is told.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { LOG_LEVELS, type LogLevel } from "../../src/core/call/call-sink.ts";
import { proxy, type ProxyOptions } from "../../src/proxy/mod.ts";
import type { StdioTransportOptions } from "../../src/client/transports/stdio.ts";
import { defineTool } from "../../mod.ts";
import { modernRequest } from "../helpers/request.ts";
import { SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { initializedSession, type PipedServer } from "../helpers/stdio.ts";
import { everythingHttp, everythingStdio } from "./everything-peer.ts";
import { gatewayServer } from "./gateway.ts";
import type { RemoteProcess } from "./remote-process.ts";

/** How long the remote may take to send a log it owes (its period is 5 s): a bound, not a measure. */
const LOG_MS = 20_000;

const isLog = (m: Record<string, any>) => m.method === "notifications/message";
const paramsOf = (m: Record<string, unknown>) => m.params as Record<string, any>;

describe("proxy() of server-everything: its logs outside requests", () => {
  const stop = new AbortController();
  let remote: RemoteProcess | undefined;
  after(async () => {
    stop.abort();
    await remote?.kill();
  });

  /** A 2025 session on the gateway (a connection: stdio), at a log level if one is given. */
  async function session(gateway: Parameters<typeof initializedSession>[0], level?: LogLevel): Promise<PipedServer> {
    const piped = await initializedSession(gateway);
    if (level !== undefined) {
      piped.send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level } });
      await piped.answer(2);
    }
    return piped;
  }

  async function logsThrough(target: string | StdioTransportOptions, options: ProxyOptions = {}) {
    const everything = await proxy(target, { ...options, refreshMs: 0, signal: stop.signal });
    const gateway = gatewayServer().group("everything", everything);
    const everyLevel = await session(gateway, "debug");
    const errorsUp = await session(gateway, "error");
    const unasked = await session(gateway);
    const listen = new SseReader(
      await gateway.fetch(modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } })),
    );
    await listen.next(); // acknowledged
    const client = createClient(gateway, { transport: "mcp-lite" });
    await client.call("everything.toggle-simulated-logging", {});
    try {
      const heard = await everyLevel.next(isLog, LOG_MS);
      assert.match(String(paramsOf(heard).data), /message/i);
      // What was sent before these answers was written before them, on each connection.
      errorsUp.send({ jsonrpc: "2.0", id: 9, method: "ping" });
      unasked.send({ jsonrpc: "2.0", id: 9, method: "ping" });
      await Promise.all([errorsUp.answer(9), unasked.answer(9)]);
      assert.deepEqual(unasked.messages.filter(isLog), [], "a session that chose no level hears none");
      // The log heard was told before this change: a 2026 listener that were told it would have it first.
      gateway.tool(defineTool("late").handle(() => "here"));
      assert.equal((await listen.next()).method, "notifications/tools/list_changed", "no log on a 2026 stream");
      for (const log of errorsUp.messages.filter(isLog)) {
        const { level } = paramsOf(log);
        assert.ok(LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf("error"), level);
      }
      // Each at the level the remote sent it (its text names the level: "Warning-level message").
      for (const log of [...everyLevel.messages, ...errorsUp.messages].filter(isLog)) {
        const { level, data } = paramsOf(log);
        assert.ok(String(data).toLowerCase().startsWith(level), `${level}: ${data}`);
      }
    } finally {
      await client.call("everything.toggle-simulated-logging", {}); // and stop
      await Promise.all([everyLevel.end(), errorsUp.end(), unasked.end(), listen.close()]);
    }
  }

  it("over stdio", async () => {
    await logsThrough(everythingStdio);
  });

  it("over Streamable HTTP, from its standalone GET stream", async () => {
    remote = everythingHttp();
    await remote.start();
    // One session at the remote for every caller, as asked: each caller's own is proxy-callers-apart.test.ts's.
    await logsThrough(remote.url, { transport: "mcp", sessions: "shared" });
  });
});
