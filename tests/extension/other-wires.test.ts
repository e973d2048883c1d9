/**
 * An extension's methods on the wires besides MCP (this SDK's MCP-lite extension E5, docs/specification.md):
 * MCP-lite's JSON-RPC endpoint and its discovery (`/listtools` lists the extensions served), a WebSocket, and
 * gRPC's `CallMethod` and `GetTools` (Connect through the fetch handler, and gRPC over HTTP/2 with grpc-js's
 * wire format from `@connectrpc/connect-node`): the same result, params refused as `invalid_params`, an
 * unknown method refused, a notification run; what these wires cannot carry (a notification to the client,
 * a request to it) is dropped or refused, as E5 says.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension, mcpBinding, mcpLiteBinding, serve, type Server } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { type Client, createClient } from "../../src/client/mod.ts";
import { createMcpliteTransport } from "../../src/client/transports/mcplite.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { errorCodeOf } from "../helpers/error-code.ts";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";

const LEDGER = "org.example/ledger";

function ledgerServer(touched: string[]): Server {
  const ledger = defineExtension(LEDGER)
    .settings({ currencies: ["EUR"] })
    .method(`${LEDGER}/get`, v.object({ id: v.string() }), async ({ id }, ctx) => {
      await ctx.notify(`${LEDGER}/changed`, { id }); // nothing carries it here: dropped, the answer stays
      const asked = await ctx.request(`${LEDGER}/approve`, { id }).then(() => "asked", (e: McpliteError) => e.code);
      return { id, balance: 42, currencies: ctx.settings.currencies, asked };
    })
    .method(`${LEDGER}/declared`, v.object({}), (_, ctx) => ({ ledger: ctx.client.supports(LEDGER) }))
    .notification(`${LEDGER}/touched`, v.object({ id: v.string() }), ({ id }) => void touched.push(id));
  return createServer({
    name: "bank",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding(), grpcBinding()],
  }).extension(ledger);
}

describe("an extension's methods off MCP (E5)", () => {
  const touched: string[] = [];
  let listener: Listener;
  let h2: GrpcListener;
  before(async () => {
    listener = await serve(ledgerServer(touched), { port: 0, hostname: "127.0.0.1", quiet: true });
    h2 = await serveGrpc(ledgerServer(touched), { port: 0, closeGraceMs: 200 });
  });
  after(async () => {
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await Promise.all([listener.close(), h2.close()]);
  });

  // What `ctx.request()` meets on each wire: nothing carries it on MCP-lite's HTTP endpoints and gRPC's unary
  // call (`unsupported`); on a WebSocket the connection is MCP's for every message outside MCP-lite's table
  // (E5), so the request reaches the client, which refuses it (ours answers only elicitation, sampling and
  // roots), and the server's call reads that refusal.
  const wires: Record<string, [make: () => Client, asked: string]> = {
    "MCP-lite (HTTP)": [() => createClient(createMcpliteTransport(`${listener.url}/mcp-lite/v1`)), "unsupported"],
    "MCP-lite (WebSocket)": [
      () => createClient(createWebSocketTransport(`${listener.url.replace(/^http/, "ws")}/mcp-lite/v1/ws`)),
      "tool_error",
    ],
    "gRPC (Connect on fetch)": [() => createClient(grpcTransport(listener.url)), "unsupported"],
    "gRPC (HTTP/2)": [() => createClient(grpcTransport(grpcOverH2(h2.url))), "unsupported"],
  };

  // MCP-lite and gRPC have no initialize: a request declares its client's capabilities in its `_meta` under MCP
  // 2026-07-28's key (run-on-wire.ts), which `ctx.client` reads; over MCP-lite our client sends its own there.
  const declaring = { _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [LEDGER]: {} } } } };
  // (On a WebSocket the connection is MCP's, E5: there a request declares with MCP 2026-07-28's whole envelope.)
  for (const [wire, [make]] of Object.entries(wires).filter(([wire]) => !wire.includes("WebSocket"))) {
    it(`${wire}: a request's _meta declares the client's capabilities to the extension's handler`, async () => {
      const client = make();
      try {
        assert.deepEqual(await client.request(`${LEDGER}/declared`, {}), { ledger: false });
        assert.deepEqual(await client.request(`${LEDGER}/declared`, declaring), { ledger: true });
      } finally {
        await client.close();
      }
    });
  }
  it("MCP-lite (HTTP): the client's declared extensions reach the handler without a _meta of the caller's", async () => {
    const client = createClient(createMcpliteTransport(`${listener.url}/mcp-lite/v1`), {
      extensions: { [LEDGER]: {} },
    });
    try {
      assert.deepEqual(await client.request(`${LEDGER}/declared`, {}), { ledger: true });
    } finally {
      await client.close();
    }
  });

  for (const [wire, [make, asked]] of Object.entries(wires)) {
    it(`${wire}: answers the method, refuses bad params and an unknown method, runs a notification`, async () => {
      const client = make();
      try {
        assert.deepEqual(await client.request(`${LEDGER}/get`, { id: "a1" }), {
          id: "a1",
          balance: 42,
          currencies: ["EUR"],
          asked,
        });
        assert.equal(await errorCodeOf(client.request(`${LEDGER}/get`, { id: 7 })), "invalid_params");
        assert.equal(await errorCodeOf(client.request(`${LEDGER}/missing`, {})), "method_not_found");
        const before = touched.length;
        await client.notify(`${LEDGER}/touched`, { id: wire });
        assert.deepEqual(touched.slice(before), [wire]);
        // The server keeps serving after each refusal.
        assert.equal((await client.request<{ id: string }>(`${LEDGER}/get`, { id: "b2" })).id, "b2");
      } finally {
        await client.close();
      }
    });
  }

  it("lists the extensions served in MCP-lite's discovery and gRPC's GetTools, beside the tools", async () => {
    const lite = await fetch(`${listener.url}/mcp-lite/v1/listtools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(lite.status, 200);
    assert.deepEqual((await lite.json()).extensions, { [LEDGER]: { currencies: ["EUR"] } });
    const grpc = await fetch(`${listener.url}/mcplite.MCPLite/GetTools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(grpc.status, 200);
    assert.deepEqual((await grpc.json()).extensions, { [LEDGER]: { currencies: ["EUR"] } });
    // A server that serves no extension adds no key: a client written to the spec alone sees nothing new.
    const plain = createServer({ name: "plain", version: "1.0.0", bindings: [mcpLiteBinding()] });
    const body = await (await plain.fetch(
      new Request("http://127.0.0.1/mcp-lite/v1/listtools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    )).json();
    assert.deepEqual(Object.keys(body), ["tools"]);
  });
});
