/**
 * `serveStdio()` on in-memory streams: MCP (2025 with its session, 2026-07-28 stateless) and MCP-lite
 * on one connection, concurrency, cancellation, notifications outside requests, bad input, shutdown.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool } from "../../mod.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { connectionTools } from "../helpers/connection-tools.ts";
import { modernMeta } from "../helpers/request.ts";
import { waitFor } from "../helpers/wait.ts";

function fixture() {
  const aborted: string[] = [];
  const tools = connectionTools(aborted);
  const server = createServer({ name: "stdio", version: "1.0.0" })
    .tool(defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => String(a + b)))
    .tool(tools.slow)
    .tool(tools.count)
    .tool(tools.ask)
    .resource(defineResource("file:///a.txt").name("a").mimeType("text/plain").read(() => "A"))
    .prompt(definePrompt("greet").get(() => "Say hello"));
  return { server, aborted };
}

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } },
});

describe("serveStdio", () => {
  it("answers MCP-lite requests with the HTTP binding's results, and a parse error without stopping", async () => {
    const { server } = fixture();
    const piped = pipeServer(server);
    piped.write("not json\n");
    piped.write(new Uint8Array([0x7b, 0xff, 0x7d, 0x0a])); // "{\xff}": not UTF-8
    piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } });
    piped.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    piped.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope" } });
    piped.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "add", arguments: { a: "x" } } });
    const call = await piped.answer(1);
    assert.deepEqual((call.result as { content: unknown }).content, [{ type: "text", text: "5" }]);
    assert.equal((call.result as { _meta: { response_type: string } })._meta.response_type, "answer");
    const list = await piped.answer(2);
    assert.deepEqual((list.result as { tools: { name: string }[] }).tools.map((t) => t.name), [
      "add",
      "slow",
      "count",
      "ask",
    ]);
    assert.equal(((await piped.answer(3)).error as { code: number }).code, -32601); // MCP-lite: tool not found
    assert.equal(((await piped.answer(4)).error as { code: number }).code, -32602);
    const parseErrors = piped.messages.filter((m) => m.id === null);
    assert.deepEqual(parseErrors.map((m) => (m.error as { code: number }).code), [-32700, -32700]);
    await piped.end();
  });

  it("streams MCP-lite partials and progress as notifications tied to the request, when asked", async () => {
    const piped = pipeServer(fixture().server);
    piped.send({ jsonrpc: "2.0", id: "s", method: "tools/call", params: { name: "count", _meta: { stream: true } } });
    const done = await piped.answer("s");
    assert.equal((done.result as { content: { text: string }[] }).content[0].text, "part 1 part 2 part 3 ");
    const notes = piped.messages.filter((m) => m.method !== undefined);
    assert.deepEqual(
      notes.filter((m) => m.method === "notifications/partial").map((m) => m.params),
      [1, 2, 3].map((i) => ({ requestId: "s", partial: `part ${i} ` })),
    );
    assert.deepEqual(
      notes.filter((m) => m.method === "notifications/progress").map((m) => m.params),
      [1, 2, 3].map((i) => ({ requestId: "s", progress: i, total: 3 })),
    );
    // Without _meta.stream, only the response.
    piped.send({ jsonrpc: "2.0", id: "q", method: "tools/call", params: { name: "count" } });
    await piped.answer("q");
    assert.equal(piped.messages.filter((m) => (m.params as { requestId?: unknown })?.requestId === "q").length, 0);
    await piped.end();
  });

  it("runs requests concurrently: a quick call answers while a slow one runs", async () => {
    const piped = pipeServer(fixture().server);
    piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 300 } } });
    piped.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 1 } } });
    await piped.answer(2);
    assert.equal(piped.messages.some((m) => m.id === 1), false);
    await piped.answer(1);
    assert.deepEqual(piped.messages.map((m) => m.id), [2, 1]);
    await piped.end();
  });

  it("cancels a call on notifications/cancelled, and sends no answer for it", async () => {
    const { server, aborted } = fixture();
    const piped = pipeServer(server);
    piped.send(initialize(0));
    await piped.answer(0);
    piped.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 5000 } } });
    // In flight once a ping sent after it is answered (the server starts requests in the order it reads them).
    piped.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await piped.answer(2);
    piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user stop" } });
    await waitFor(() => aborted.length > 0, 10_000);
    assert.deepEqual(aborted, ["cancelled by the client: user stop"]); // the words of every carrier
    await piped.end(); // every answer written: none for the cancelled call, even at the close
    assert.equal(piped.messages.some((m) => m.id === 1), false);
  });

  it("speaks the 2025 revisions: handshake, progress, a server→client request answered on stdin", async () => {
    const piped = pipeServer(fixture().server);
    piped.send(initialize(1));
    const init = (await piped.answer(1)).result as Record<string, Record<string, unknown>>;
    assert.equal(init.protocolVersion, "2025-06-18");
    // A connection outlives requests: list changes and resource updates can be sent, so they are advertised.
    assert.deepEqual(init.capabilities.tools, { listChanged: true });
    assert.deepEqual(init.capabilities.resources, { subscribe: true, listChanged: true });
    piped.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    piped.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "count", _meta: { progressToken: "p" } },
    });
    await piped.answer(2);
    const progress = piped.messages.filter((m) => m.method === "notifications/progress").map((m) => m.params);
    assert.ok(progress.length >= 3 && progress.every((p) => (p as { progressToken: string }).progressToken === "p"));
    piped.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask" } });
    const question = await piped.next((m) => m.method === "elicitation/create");
    piped.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { name: "Ada" } } });
    const asked = (await piped.answer(3)).result as { content: { text: string }[] };
    assert.equal(asked.content[0].text, "hello Ada");
    await piped.end();
  });

  it("tells a 2025 client of list changes and of updates to resources it subscribed to", async () => {
    const { server } = fixture();
    const piped = pipeServer(server);
    piped.send(initialize(1));
    await piped.answer(1);
    piped.send({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "file:///a.txt" } });
    await piped.answer(2);
    server.resourceUpdated("file:///a.txt");
    server.tool(defineTool("late").handle(() => "here"));
    await piped.next((m) => m.method === "notifications/tools/list_changed");
    const updated = await piped.next((m) => m.method === "notifications/resources/updated");
    assert.deepEqual(updated.params, { uri: "file:///a.txt" });
    piped.send({ jsonrpc: "2.0", id: 3, method: "resources/unsubscribe", params: { uri: "file:///a.txt" } });
    await piped.answer(3);
    server.resourceUpdated("file:///a.txt");
    piped.send({ jsonrpc: "2.0", id: 4, method: "ping" });
    await piped.answer(4);
    assert.equal(piped.messages.filter((m) => m.method === "notifications/resources/updated").length, 1);
    await piped.end();
    server.tool(defineTool("after_close").handle(() => "")); // the closed connection is no longer told
    assert.equal(piped.messages.filter((m) => m.method === "notifications/tools/list_changed").length, 1);
  });

  it("speaks 2026-07-28 statelessly: discover, calls with the envelope, a listen subscription", async () => {
    const { server } = fixture();
    const piped = pipeServer(server);
    piped.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: modernMeta() } });
    const found = (await piped.answer(1)).result as { supportedVersions: string[]; resultType: string };
    assert.ok(found.supportedVersions.includes("2026-07-28"));
    piped.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "add", arguments: { a: 4, b: 5 }, _meta: modernMeta() },
    });
    const call = (await piped.answer(2)).result as { resultType: string; content: { text: string }[] };
    assert.equal(call.resultType, "complete");
    assert.equal(call.content[0].text, "9");
    piped.send({
      jsonrpc: "2.0",
      id: "sub",
      method: "subscriptions/listen",
      params: { _meta: modernMeta(), notifications: { toolsListChanged: true } },
    });
    await piped.next((m) => m.method === "notifications/subscriptions/acknowledged");
    server.tool(defineTool("late").handle(() => "here"));
    const changed = await piped.next((m) => m.method === "notifications/tools/list_changed");
    assert.deepEqual(changed.params, { _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } });
    piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub" } });
    piped.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: modernMeta() } });
    await piped.answer(3);
    server.removeTool("late");
    piped.send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: modernMeta() } });
    await piped.answer(4);
    assert.equal(piped.messages.filter((m) => m.method === "notifications/tools/list_changed").length, 1);
    await piped.end();
  });

  it("answers a line over the limit with an error, and reads on", async () => {
    const piped = pipeServer(fixture().server, { maxLineBytes: 1024 });
    piped.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","pad":"${"x".repeat(4000)}"}}\n`);
    piped.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } });
    await piped.answer(2);
    const tooLarge = piped.messages.find((m) => m.id === null)!;
    assert.equal((tooLarge.error as { code: number }).code, -32600);
    assert.match((tooLarge.error as { message: string }).message, /larger than 1024 bytes/);
    piped.send([{ jsonrpc: "2.0", id: 3, method: "ping" }]);
    await piped.next((m) => (m.error as { message?: string })?.message?.includes("batches") === true);
    await piped.end();
  });

  it("on close, aborts running calls and still writes their answers", async () => {
    const { server, aborted } = fixture();
    const piped = pipeServer(server);
    piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 10_000 } } });
    // In flight once a ping sent after it is answered (the server starts requests in the order it reads them).
    piped.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await piped.answer(2);
    await piped.end();
    // The 10 s call was aborted (its signal's reason), not waited for; its answer came before the end.
    assert.deepEqual(aborted, ["stdin closed"]);
    const answer = piped.messages.find((m) => m.id === 1)!;
    assert.equal((answer.result as { isError: boolean }).isError, true);
  });
});
