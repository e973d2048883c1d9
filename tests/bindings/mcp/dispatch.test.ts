/**
 * The MCP dispatch driven by a fourth carrier, in memory: what a WebSocket or any other connection
 * would be. It states what it can do and collects what goes out; nothing of HTTP or stdio is copied.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Binding, defineTool } from "../../../mod.ts";
import type { Carrier, Exchange, FinishedResult } from "../../../src/bindings/mcp/carrier.ts";
import { dispatch } from "../../../src/bindings/mcp/dispatch.ts";
import { createMcpContext } from "../../../src/bindings/mcp/handler.ts";
import { resolveMcpSettings } from "../../../src/bindings/mcp/mcp-options.ts";
import type { McpContext } from "../../../src/bindings/mcp/mcp-request.ts";
import { NO_HOST, type ServerCore } from "../../../src/server/binding-contract.ts";
import { fixtureServer, slowProbe } from "../../helpers/fixtures.ts";
import { waitFor } from "../../helpers/long-running.ts";
import { modernMeta } from "../../helpers/request.ts";

// deno-lint-ignore no-explicit-any
type Message = Record<string, unknown> & { id?: unknown; method?: string; params?: any; result?: any; error?: any };

/** A connection in memory: streams, outlives its requests, collects every message in order. */
class MemoryCarrier implements Carrier {
  readonly streaming = true;
  readonly persistent = true;
  readonly headers = undefined;
  readonly host = NO_HOST;
  readonly signal = new AbortController().signal;
  session: string | null = null;
  readonly out: Message[] = [];

  send(message: string): void {
    this.out.push(JSON.parse(message));
  }

  respond(exchange: Exchange, result: FinishedResult): void {
    this.out.push(JSON.parse(exchange.message(result)));
  }

  fail(_exchange: Exchange, message: string): void {
    this.out.push(JSON.parse(message));
  }

  opened(session: string): void {
    this.session = session;
  }
}

/** A fixture server's MCP state, reached through a binding (the public way to see a server's core). */
function setup() {
  let core: ServerCore | undefined;
  const grab: Binding = (c) => {
    core = c;
    return { routes: new Map() };
  };
  const server = fixtureServer({ bindings: [grab] });
  const ctx: McpContext = createMcpContext(core!, resolveMcpSettings({}));
  return { server, ctx, carrier: new MemoryCarrier() };
}

const rpc = (id: number | string | undefined, method: string, params: Record<string, unknown> = {}) =>
  id === undefined ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id, method, params };

describe("dispatch over a carrier in memory", () => {
  it("hands out a call's notifications first, then its response", async () => {
    const { ctx, carrier } = setup();
    await dispatch(
      ctx,
      rpc(1, "tools/call", { name: "slow", arguments: { ms: 1 }, _meta: { progressToken: "p" } }),
      carrier,
    );
    assert.deepEqual(carrier.out.map((m) => m.method ?? `response ${m.id}`), [
      "notifications/progress",
      "notifications/progress",
      "response 1",
    ]);
    assert.deepEqual(carrier.out[0].params, { progressToken: "p", progress: 0, total: 2, message: "started" });
    assert.equal(carrier.out[2].result.content[0].text, "finished");
  });

  it("finishes a 2026-07-28 result, and answers errors through that revision's table", async () => {
    const { ctx, carrier } = setup();
    await dispatch(ctx, rpc(1, "tools/call", { name: "add", arguments: { a: 2, b: 3 }, _meta: modernMeta() }), carrier);
    await dispatch(ctx, rpc(2, "initialize", { _meta: modernMeta() }), carrier);
    const [call, removed] = carrier.out;
    assert.equal(call.result.resultType, "complete");
    assert.deepEqual(call.result.structuredContent, { sum: 5 });
    assert.deepEqual(call.result._meta["io.modelcontextprotocol/serverInfo"], { name: "fixtures", version: "1.2.3" });
    assert.equal(removed.id, 2);
    assert.equal(removed.error.code, -32601);
  });

  it("opens a 2025 session on the carrier, and answers nothing to notifications", () => {
    const { ctx, carrier } = setup();
    const init = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "memory", version: "1" },
    };
    assert.equal(dispatch(ctx, rpc(1, "initialize", init), carrier), undefined); // ready at once
    assert.match(carrier.session ?? "", /^[0-9a-f-]{36}$/);
    // A connection outlives requests: list changes can reach the client, so they are advertised.
    assert.deepEqual(carrier.out[0].result.capabilities.tools, { listChanged: true });
    assert.equal(dispatch(ctx, rpc(undefined, "notifications/initialized"), carrier), undefined);
    assert.equal(carrier.out.length, 1);
  });

  it("cancels a request of the connection on notifications/cancelled, and sends no response for it", async () => {
    const { ctx, carrier } = setup();
    const aborted = slowProbe.aborted, started = slowProbe.started;
    const work = dispatch(ctx, rpc(7, "tools/call", { name: "slow", arguments: { ms: 10_000 } }), carrier);
    assert.ok(work instanceof Promise);
    await waitFor(() => slowProbe.started !== started, 10_000); // in its handler
    dispatch(ctx, rpc(undefined, "notifications/cancelled", { requestId: 7, reason: "stop" }), carrier);
    await work;
    assert.equal(slowProbe.aborted, aborted + 1);
    assert.equal(carrier.out.some((m) => m.id === 7), false);
  });

  it("keeps a subscription open on the connection until the client cancels it", async () => {
    const { server, ctx, carrier } = setup();
    const listen = rpc("sub", "subscriptions/listen", {
      _meta: modernMeta(),
      notifications: { toolsListChanged: true },
    });
    const work = dispatch(ctx, listen, carrier);
    assert.equal(carrier.out[0].method, "notifications/subscriptions/acknowledged");
    server.tool(defineTool("late").handle(() => "here"));
    assert.equal(carrier.out[1].method, "notifications/tools/list_changed");
    assert.deepEqual(carrier.out[1].params, { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } });
    dispatch(ctx, rpc(undefined, "notifications/cancelled", { requestId: "sub" }), carrier);
    await work;
    server.tool(defineTool("later").handle(() => "here"));
    assert.equal(carrier.out.length, 2);
  });

  it("ends a subscription on the connection with its result as the server drains (MCP 2026-07-28, Subscriptions)", async () => {
    const { server, ctx, carrier } = setup();
    const work = dispatch(ctx, rpc("sub", "subscriptions/listen", { _meta: modernMeta(), notifications: {} }), carrier);
    await server.drain();
    await work;
    const last = carrier.out.at(-1)!;
    assert.equal(last.id, "sub");
    assert.equal(last.result.resultType, "complete");
    assert.equal(last.result._meta["io.modelcontextprotocol/subscriptionId"], "sub");
    server.tool(defineTool("later").handle(() => "here"));
    assert.equal(carrier.out.at(-1), last, "nothing after its result");
  });
});
