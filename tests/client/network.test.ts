/**
 * The client over a real socket: our server listening on 127.0.0.1 with `serve()`; the wire found
 * from a bare origin, named explicitly, streams and cancellation across the network.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { fixtureServer, slowProbe } from "../helpers/fixtures.ts";
import { waitFor } from "../helpers/long-running.ts";

const server = fixtureServer();
let listener: Listener;

describe("client over 127.0.0.1", () => {
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  it("discovers MCP-lite from a bare origin and calls a typed tool", async () => {
    const client = createClient<typeof server>(listener.url);
    const { sum } = await client.call("add", { a: 20, b: 22 });
    assert.equal(sum, 42);
    assert.equal(client.wire, "mcp-lite");
  });

  it("uses MCP when the URL names the MCP endpoint", async () => {
    const client = createClient<typeof server>(`${listener.url}/mcp`);
    assert.equal(await client.call("echo", { text: "net" }), "net");
    assert.equal(client.wire, "mcp");
    await client.close();
  });

  it("speaks the 2025 revisions when asked to", async () => {
    const client = createClient<typeof server>(`${listener.url}/mcp`, {
      transport: "mcp",
      protocolVersion: "2025-06-18",
    });
    assert.deepEqual(await client.call("add", { a: 1, b: 2 }), { sum: 3 });
    await client.close();
  });

  for (const path of ["/mcp-lite/v1", "/mcp"]) {
    it(`streams partials over the network (${path})`, async () => {
      const client = createClient<typeof server>(listener.url + path);
      const partials: unknown[] = [];
      const stream = client.stream("countdown", { count: 3, delayMs: 5 });
      for await (const partial of stream) partials.push(partial);
      assert.equal(partials.length, 4);
      assert.equal(await stream.result, "3 2 1 liftoff");
    });

    it(`cancels the server's work when the caller aborts (${path})`, async () => {
      const client = createClient<typeof server>(listener.url + path);
      const before = slowProbe.aborted;
      const controller = new AbortController();
      const call = client.call("slow", { ms: 10_000 }, {
        signal: controller.signal,
        onProgress: () => controller.abort(new Error("enough")),
      });
      await assert.rejects(call, /enough/);
      await waitFor(() => slowProbe.aborted !== before, 10_000).catch(() => {}); // asserted next
      assert.equal(slowProbe.aborted, before + 1);
    });
  }

  it("reports an unknown tool over the network", async () => {
    const client = createClient(listener.url);
    await assert.rejects(
      client.call("missing", {}),
      (error: unknown) => error instanceof ProtocolError && error.code === ErrorCode.UnknownTool,
    );
  });
});
