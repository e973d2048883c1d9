/**
 * A deferred job's result larger than the result store takes on one entry: the job fails with an error that says
 * so and names the way out (the store's `maxBytes`, or a link to the data), `data.reason: "result_too_large"`, on
 * the wire as on `server.call()`; raised, the bound lets the same result through.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryResultStore, createServer } from "../../mod.ts";
import { assertTooLarge, exportThrough, exportTool } from "../helpers/large-results.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { toolsCall } from "../helpers/request.ts";

describe("a deferred result over the result store's bound", () => {
  it("fails the job saying so and how to get past it; the same result passes a raised bound", async () => {
    assertTooLarge(await exportThrough(createMemoryResultStore({ maxBytes: 20_000 }), 50_000), 20_000);
    const raised = await exportThrough(createMemoryResultStore({ maxBytes: 200_000 }), 50_000);
    assert.deepEqual(raised, { type: "text", text: "x".repeat(50_000) });
  });

  it("reaches an MCP-lite client as a JSON-RPC error with the message and reason", async () => {
    const server = createServer({
      name: "exports",
      version: "1.0.0",
      secret: SECRET,
      resultStore: createMemoryResultStore({ maxBytes: 20_000 }),
    }).tool(exportTool);
    const post = async (name: string, args: unknown) =>
      await (await server.fetch(
        new Request("http://127.0.0.1/mcp-lite/v1/calltools", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(toolsCall(name, args)),
        }),
      )).json();
    const token = (await post("export", { chars: 50_000 })).result._meta.promise_token;
    let body: { error?: { code: number; message: string; data?: unknown }; result?: unknown } = {};
    await waitFor(async () => (body = await post("redeem", { promise: token })).error !== undefined, 30_000);
    assert.equal(body.error!.code, -32603);
    assert.match(
      body.error!.message,
      /^The result could not be stored: a (?:record|result) of \d+ bytes exceeds the store's limit of 20000$/,
    );
    assert.equal((body.error!.data as { reason?: string }).reason, "result_too_large");
  });
});
