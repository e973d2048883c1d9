/**
 * One `notifications/cancelled` receiver for every carrier (MCP 2025-11-25, Cancellation): a call
 * cancelled in a 2025 HTTP session and one cancelled on a stdio connection see the same abort reason.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../../mod.ts";
import { sleep } from "../../helpers/fixtures.ts";
import { legacyRequest, post } from "../../helpers/request.ts";
import { pipeServer } from "../../helpers/stdio.ts";
import { send } from "./mcp-helpers.ts";
import { waitFor } from "../../helpers/long-running.ts";

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };

/** A server whose `wait` tool records why it was aborted. */
function fixture() {
  const reasons: string[] = [];
  let started = 0;
  const server = createServer({ name: "cancel", version: "1.0.0" }).tool(
    defineTool("wait").handle(async (_args, ctx) => {
      started++;
      try {
        await sleep(10_000, ctx.signal);
        return "finished";
      } catch {
        reasons.push(String(ctx.signal.reason?.message));
        return "cancelled";
      }
    }),
  );
  return { server, reasons, started: () => started };
}

/** Cancels a call in a 2025 HTTP session; returns the abort reason the tool saw. */
async function overHttp(params: Record<string, unknown>): Promise<string> {
  const { server, reasons, started } = fixture();
  const { headers } = await send(server, legacyRequest("initialize", INIT));
  const session = { "mcp-session-id": headers.get("mcp-session-id")!, accept: "application/json" };
  const pending = send(server, legacyRequest("tools/call", { name: "wait" }, 42, "2025-11-25", session));
  await waitFor(() => started() === 1);
  const cancel = await server.fetch(
    post("/mcp", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 42, ...params } }, {
      "mcp-protocol-version": "2025-11-25",
      ...session,
    }),
  );
  assert.equal(cancel.status, 202);
  assert.equal((await pending).body.result.content[0].text, "cancelled"); // HTTP still ends the exchange
  return reasons[0];
}

/** Cancels a call on a stdio connection; returns the abort reason the tool saw. */
async function overStdio(params: Record<string, unknown>): Promise<string> {
  const { server, reasons, started } = fixture();
  const piped = pipeServer(server);
  piped.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  await piped.answer(0);
  piped.send({ jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "wait" } });
  await waitFor(() => started() === 1);
  piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 42, ...params } });
  await waitFor(() => reasons.length === 1);
  piped.send({ jsonrpc: "2.0", id: 1, method: "ping" });
  await piped.answer(1);
  assert.equal(piped.messages.some((m) => m.id === 42), false); // a connection sends no response
  await piped.end();
  return reasons[0];
}

describe("notifications/cancelled", () => {
  it("aborts with the same words over a 2025 HTTP session and over stdio", async () => {
    const http = await overHttp({ reason: "user stop" });
    assert.equal(http, "cancelled by the client: user stop");
    assert.equal(await overStdio({ reason: "user stop" }), http);
  });

  it("says so without a reason, the same way on both", async () => {
    const http = await overHttp({});
    assert.equal(http, "cancelled by the client");
    assert.equal(await overStdio({}), http);
  });
});
