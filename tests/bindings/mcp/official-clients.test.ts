/**
 * Our MCP server from clients nobody here wrote: the official TypeScript SDK's v1 client
 * (`@modelcontextprotocol/sdk` 1.32, 2025-11-25) and v2 client (`@modelcontextprotocol/client` 2.4) in
 * both its default legacy mode (2025-11-25) and pinned to 2026-07-28 with `versionNegotiation`, over a
 * real socket. Each suite checks that every request went out on the revision it is named for, so a
 * silent fallback fails it. Each error a handler or the server raises must reach the caller as an MCP
 * error carrying its JSON-RPC code, not as a transport failure: JSON-RPC errors travel on HTTP 200
 * unless the transport spec assigns a status.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import {
  Client as ClientV2,
  ProtocolError as ProtocolErrorV2,
  StreamableHTTPClientTransport as TransportV2,
} from "@modelcontextprotocol/client";
import { createServer, definePrompt, defineTool, serve } from "../../../mod.ts";
import { ErrorCode, ProtocolError } from "../../../src/errors/mod.ts";
import type { Listener } from "../../../src/types.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load these two by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL, options: { fetch: typeof fetch }) => Parameters<ClientV1["connect"]>[0];
};
const { McpError } = await import(`${V1}/types.js`) as { McpError: new (...args: never[]) => Error };

const server = createServer({ name: "errors", version: "1.0.0", logger: false }) // its handlers throw on purpose
  .tool(defineTool("ok").handle(() => "fine"))
  .tool(
    defineTool("fails").handle(() => {
      throw new Error("the disk is full");
    }),
  )
  .tool(
    defineTool("limited").handle(() => {
      throw new ProtocolError(ErrorCode.RateLimited, "slow down", { data: { retryAfterMs: 1000 } });
    }),
  )
  .tool(
    defineTool("only_tasks").input(v.object({})).longRunning({ taskSupport: "required" })
      .handle((_args, ctx) => ctx.defer(() => "done")),
  )
  .prompt(
    definePrompt("broken").get(() => {
      throw new Error("template missing");
    }),
  );

let listener: Listener;
before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

/** The JSON-RPC code a rejected call carried, failing the test for anything but an MCP error. */
async function codeOf(call: Promise<unknown>, MpcErrorClass: new (...args: never[]) => Error): Promise<number> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof MpcErrorClass, `expected an MCP error, got ${error}`);
    return (error as unknown as { code: number }).code;
  }
  assert.fail("expected the call to fail");
}

/** A fetch that notes the `MCP-Protocol-Version` header of every request the client sends. */
function recordingVersions(versions: Set<string | null>): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    versions.add(request.headers.get("mcp-protocol-version"));
    return fetch(request);
  };
}

/** What the suites ask of either client. */
interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * One client's suite: `connect` connects it with `recording` as its fetch and returns it. `revision` is
 * the revision the suite is named for; every request after the connection's first must carry it in
 * `MCP-Protocol-Version` (MCP 2025-11-25, Transports; MCP 2026-07-28, Transports), or the suite fails.
 */
function suite(
  name: string,
  revision: string,
  ProtocolErrorClass: new (...args: never[]) => Error,
  connect: (recording: typeof fetch) => Promise<AnyClient>,
): void {
  describe(`${name} (${revision})`, () => {
    const versions = new Set<string | null>();
    let client: AnyClient;
    before(async () => client = await connect(recordingVersions(versions)));
    after(async () => await client.close());

    it("calls a tool, and gets a failing handler as an isError result", async () => {
      versions.clear();
      const ok = await client.callTool({ name: "ok", arguments: {} }) as { content: unknown };
      assert.deepEqual(ok.content, [{ type: "text", text: "fine" }]);
      const failed = await client.callTool({ name: "fails", arguments: {} }) as { isError: boolean; content: unknown };
      assert.equal(failed.isError, true);
      assert.deepEqual(failed.content, [{ type: "text", text: "the disk is full" }]);
      assert.deepEqual([...versions], [revision], `every request on ${revision}`);
    });

    it("sees a prompt handler that throws as -32603", async () => {
      assert.equal(await codeOf(client.getPrompt({ name: "broken" }), ProtocolErrorClass), -32603);
    });

    it("sees a task-only tool as -32021 when the request did not declare the tasks extension", async () => {
      assert.equal(await codeOf(client.callTool({ name: "only_tasks", arguments: {} }), ProtocolErrorClass), -32021);
    });

    it("sees an unknown tool as -32602 and a rate limit as -32029", async () => {
      assert.equal(await codeOf(client.callTool({ name: "nope", arguments: {} }), ProtocolErrorClass), -32602);
      assert.equal(await codeOf(client.callTool({ name: "limited", arguments: {} }), ProtocolErrorClass), -32029);
    });
  });
}

suite("the official v1 client", "2025-11-25", McpError, async (recording) => {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(new TransportV1(new URL(`${listener.url}/mcp`), { fetch: recording }));
  return client;
});

suite("the official v2 client in its default legacy mode", "2025-11-25", ProtocolErrorV2, async (recording) => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" });
  await client.connect(new TransportV2(new URL(`${listener.url}/mcp`), { fetch: recording }));
  assert.equal(client.getProtocolEra(), "legacy");
  assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
  return client;
});

suite("the official v2 client pinned with versionNegotiation", "2026-07-28", ProtocolErrorV2, async (recording) => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new TransportV2(new URL(`${listener.url}/mcp`), { fetch: recording }));
  assert.equal(client.getProtocolEra(), "modern");
  assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
  return client;
});
