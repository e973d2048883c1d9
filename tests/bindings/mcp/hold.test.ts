/**
 * A call held for a client without the tasks extension, in process: a question the deferred work
 * asks reaches a 2025 client on the held call's stream; a 2026 request that cannot be asked gets the
 * promise at once instead of waiting out the hold; a client that goes away cancels the work; and
 * `holdMs` is checked.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../../mod.ts";
import { SECRET } from "../../helpers/long-running.ts";
import { legacyRequest, post } from "../../helpers/request.ts";
import { modern, send, SseReader } from "./mcp-helpers.ts";
import { declaring } from "./wires.ts";

/** Deferred work that asks for a confirmation, then answers; and work that runs until cancelled. */
/** `heartbeatMs`: how soon a held call turns into a stream (a keep-alive), so the tests that need one wait little. */
function holdServer(heartbeatMs = 50) {
  let aborted!: () => void;
  const cancelled = new Promise<void>((resolve) => aborted = resolve);
  const remove = defineTool("remove_file")
    .input(v.object({ filename: v.string() }))
    .output(v.object({ removed: v.boolean() }))
    .longRunning({ retryAfterMs: 20 })
    .handle(({ filename }, ctx) =>
      ctx.defer(async () => {
        const answer = await ctx.elicit("confirm", {
          message: `Delete ${filename}?`,
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
        });
        return { removed: answer.content?.confirm === true };
      })
    );
  const brew = defineTool("brew")
    .longRunning({ retryAfterMs: 20 })
    .handle((_args, ctx) =>
      ctx.defer((signal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            aborted();
            reject(signal.reason);
          }, { once: true })
        )
      )
    );
  const server = createServer({
    name: "hold",
    version: "1.0.0",
    secret: SECRET,
    heartbeatMs,
    bindings: [mcpLiteBinding(), mcpBinding()], // the default hold, 30 s: every test ends long before
  }).tool(remove).tool(brew);
  return { server, cancelled };
}

async function openSession(server: { fetch(r: Request): Promise<Response> }): Promise<string> {
  const params = {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: {} },
    clientInfo: { name: "t", version: "1" },
  };
  return (await send(server, legacyRequest("initialize", params))).headers.get("mcp-session-id")!;
}

describe("a call held for a client without tasks", () => {
  it("asks a 2025 client the work's question on the held call's stream, then answers the real result", async () => {
    const { server } = holdServer();
    const session = await openSession(server);
    const call = legacyRequest(
      "tools/call",
      { name: "remove_file", arguments: { filename: "a.txt" } },
      7,
      "2025-11-25",
      {
        "mcp-session-id": session,
      },
    );
    const stream = new SseReader(await server.fetch(call));
    const question = await stream.next(); // keep-alive comments are no events
    assert.equal(question.method, "elicitation/create");
    assert.equal(question.params.message, "Delete a.txt?");
    const answer = { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { confirm: true } } };
    assert.equal((await server.fetch(post("/mcp", answer, { "mcp-session-id": session }))).status, 202);
    const final = (await stream.rest()).find((event) => event.id === 7);
    assert.deepEqual(final.result.structuredContent, { removed: true });
  });

  it("answers a 2026 request the promise at once when the work asks what only a round could carry", async () => {
    // The work asks at once; a keep-alive after 50 ms could beat it on a loaded machine and make the answer a stream.
    const { server } = holdServer(10_000);
    const params = { name: "remove_file", arguments: { filename: "b.txt" }, ...declaring({ elicitation: {} }) };
    const { headers, body } = await modern(server, "tools/call", params);
    // Held, it would have turned into a stream at its first keep-alive (10 s), to answer at the 30 s hold.
    assert.match(headers.get("content-type") ?? "", /^application\/json/, "not held for the 30 s hold");
    assert.equal(body.result.isError, true); // remove_file has an output schema
    assert.equal(body.result.structuredContent, undefined);
    assert.match(body.result.content[0].text, /Call the "redeem" tool with \{"promise": "mcl1\./);
  });

  it("cancels the work when the client goes away while its call is held", async () => {
    const { server, cancelled } = holdServer();
    const call = legacyRequest("tools/call", { name: "brew", arguments: {} }, 1, "2025-11-25");
    const response = await server.fetch(call);
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/, "a keep-alive made it a stream");
    await new SseReader(response).close();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => timer = setTimeout(() => resolve("still running"), 5_000));
    assert.equal(await Promise.race([cancelled.then(() => "cancelled"), late]), "cancelled");
    clearTimeout(timer);
  });

  it("sends the held call's headers at once, not at the first heartbeat, so a proxy does not cut it", async () => {
    const { server, cancelled } = holdServer(60_000); // no keep-alive would fall due within the test
    const call = legacyRequest("tools/call", { name: "brew", arguments: {} }, 1, "2025-11-25");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), 5_000));
    const response = await Promise.race([server.fetch(call), late]);
    clearTimeout(timer);
    assert.ok(response !== undefined, "no response within 5 s of a held call");
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    await new SseReader(response).close(); // and the work is cancelled with it
    await cancelled;
  });

  it("refuses a negative or non-finite holdMs", () => {
    for (const holdMs of [-1, Number.NaN, Infinity]) {
      assert.throws(() => mcpBinding({ holdMs }), { name: "TypeError", message: /holdMs/ });
    }
  });
});
