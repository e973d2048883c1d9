/**
 * URL-mode elicitation over stdio (MCP 2025-11-25, Elicitation: URL mode, on MCP's socket carrier): the
 * `elicitation/create` request with `mode: "url"` and its `elicitationId`, then, once answered,
 * `notifications/elicitation/complete` for the same id before the call's result; a session that declared
 * only forms gets -32021.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { pipeServer } from "../helpers/stdio.ts";

function server() {
  return createServer({ name: "stdio-url", version: "1.0.0" }).tool(
    defineTool("sign_in").describe("Signs in").handle(async (_args, ctx) => {
      const answer = await ctx.elicit("signin", {
        mode: "url",
        url: "https://auth.example.com/authorize",
        message: "Sign in",
        elicitationId: "flow-1",
      });
      if (answer.action === "accept") ctx.completeElicitation(answer.elicitationId);
      return answer.action;
    }),
  );
}

function initialize(elicitation: Record<string, unknown>) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { elicitation }, clientInfo: { name: "t", version: "1" } },
  };
}

describe("URL elicitation over stdio (2025-11-25)", () => {
  it("asks in URL mode, then sends the completion for the same id before the result", async () => {
    const piped = pipeServer(server());
    piped.send(initialize({ url: {} }));
    await piped.answer(1);
    piped.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sign_in", arguments: {} } });
    const question = await piped.next((m) => m.method === "elicitation/create");
    assert.deepEqual(question.params, {
      mode: "url",
      message: "Sign in",
      url: "https://auth.example.com/authorize",
      elicitationId: "flow-1",
    });
    piped.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept" } });
    const result = await piped.answer(2);
    assert.equal((result.result as { content: { text: string }[] }).content[0].text, "accept");
    const order = piped.messages.map((m) => m.method ?? `answer ${m.id}`);
    const completed = order.indexOf("notifications/elicitation/complete");
    assert.ok(completed >= 0 && completed < order.indexOf("answer 2"), order.join(", "));
    const notification = piped.messages.find((m) => m.method === "notifications/elicitation/complete")!;
    assert.deepEqual(notification.params, { elicitationId: "flow-1" });
    await piped.end();
  });

  it("refuses a session that declared only forms with -32021", async () => {
    const piped = pipeServer(server());
    piped.send(initialize({}));
    await piped.answer(1);
    piped.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sign_in", arguments: {} } });
    const refused = (await piped.answer(2)).error as { code: number; data: { requiredCapabilities: unknown } };
    assert.equal(refused.code, -32021);
    assert.deepEqual(refused.data.requiredCapabilities, { elicitation: { url: {} } });
    await piped.end();
  });
});
