/**
 * The MCPLite service through Connect's in-memory router transport: no sockets, every protocol detail
 * (serialisation, status codes, details, deadlines, cancellation) as a real client sees it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { Code, createClient, createRouterTransport } from "@connectrpc/connect";
import { createServer, defineTool } from "../../../mod.ts";
import { createGrpcRoutes, MCPLite, ResponseType } from "../../../src/bindings/grpc/mod.ts";
import { ErrorInfoSchema } from "../../../src/gen/google/rpc/error_details_pb.ts";
import { sleep, slowProbe } from "../../helpers/fixtures.ts";
import { analyze, coreOf, grpcServer, rejection, tickProbe, waitFor } from "./grpc-fixtures.ts";

const client = createClient(MCPLite, createRouterTransport(createGrpcRoutes(coreOf(grpcServer()))));

describe("MCPLite service", () => {
  it("lists the tools with @type, description and JSON Schema", async () => {
    const { tools } = await client.getTools({});
    const add = tools.find((t) => t.name === "add");
    assert.equal(add?.type, "math");
    assert.equal(add?.description, "Adds two numbers");
    assert.deepEqual(add?.inputSchema?.required, ["a", "b"]);
    assert.equal(add?.outputSchema?.type, "object");
    assert.deepEqual(tools.map((t) => t.name), [
      "add",
      "echo",
      "fails",
      "crashes",
      "countdown",
      "slow",
      "ticks",
      "loose",
      "analyze_dataset",
      "redeem",
    ]);
  });

  it("answers CallTool with the result and an ANSWER meta", async () => {
    const before = Date.now();
    const { result, meta } = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    assert.deepEqual(result, { content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    assert.equal(meta?.responseType, ResponseType.ANSWER);
    assert.ok(meta!.timestamp >= BigInt(before) && meta!.timestamp <= BigInt(Date.now()));
    assert.ok(meta!.processingTimeMs >= 0);
    assert.equal(meta?.serverVersion, "1.2.3");
  });

  it("applies defaults and carries plain-JSON results as the HTTP wires do", async () => {
    const echo = await client.callTool({ name: "echo", arguments: { text: "ab", times: 2 } });
    assert.deepEqual(echo.result?.content, [{ type: "text", text: "abab" }]);
    const { result } = await client.callTool({ name: "loose" });
    assert.deepEqual(result?.structuredContent, { a: 1, at: "1970-01-01T00:00:00.000Z", list: [1, null] });
  });

  it("answers a business failure as FAILURE with isError", async () => {
    const { result, meta } = await client.callTool({ name: "fails", arguments: {} });
    assert.equal(meta?.responseType, ResponseType.FAILURE);
    assert.deepEqual(result, { content: [{ type: "text", text: "the quota is exhausted" }], isError: true });
  });

  it("answers an unknown tool with NOT_FOUND, the requested tool and a suggestion in ErrorInfo", async () => {
    const error = await rejection(client.callTool({ name: "ad", arguments: {} }));
    assert.equal(error.code, Code.NotFound);
    assert.equal(error.rawMessage, "Tool not found: ad");
    const [info] = error.findDetails(ErrorInfoSchema);
    assert.equal(info.reason, "UNKNOWN_TOOL");
    assert.equal(info.domain, "mcplite");
    assert.equal(info.metadata.requested_tool, "ad");
    assert.equal(info.metadata.suggestion, "Did you mean 'add'?");
    assert.match(info.metadata.available_tools, /^add,echo,/);
  });

  it("answers invalid arguments with INVALID_ARGUMENT naming the fields", async () => {
    const error = await rejection(client.callTool({ name: "add", arguments: { a: "x", b: 1 } }));
    assert.equal(error.code, Code.InvalidArgument);
    assert.match(error.rawMessage, /a: /);
    assert.equal(error.details.length, 2);
  });

  it("answers a missing tool name with INVALID_ARGUMENT", async () => {
    const error = await rejection(client.callTool({}));
    assert.equal(error.code, Code.InvalidArgument);
  });

  it("maps middleware's Unauthenticated and PermissionDenied", async () => {
    const none = await rejection(client.callTool({ name: "add", arguments: { a: 1, b: 1 } }, {
      headers: { "x-test-auth": "none" },
    }));
    assert.equal(none.code, Code.Unauthenticated);
    assert.equal(none.rawMessage, "a token is required");
    const deny = await rejection(client.callTool({ name: "add" }, { headers: { "x-test-auth": "deny" } }));
    assert.equal(deny.code, Code.PermissionDenied);
  });

  it("carries a thrown Error's message as a failure, never its stack", async () => {
    const { result, meta } = await client.callTool({ name: "crashes" });
    assert.equal(meta?.responseType, ResponseType.FAILURE);
    assert.equal(JSON.stringify(result).includes("at "), false);
  });

  it("streams partials without meta, then the complete result with meta", async () => {
    const messages = [];
    for await (const m of client.callToolStream({ name: "countdown", arguments: { count: 2 } })) messages.push(m);
    assert.deepEqual(messages.slice(0, 3).map((m) => [m.result, m.meta]), [
      [{ partial: "2 " }, undefined],
      [{ partial: "1 " }, undefined],
      [{ partial: "liftoff" }, undefined],
    ]);
    assert.deepEqual(messages[3].result, { content: [{ type: "text", text: "2 1 liftoff" }] });
    assert.equal(messages[3].meta?.responseType, ResponseType.ANSWER);
    assert.equal(messages.length, 4);
  });

  it("answers a non-streaming tool on CallToolStream with one complete message", async () => {
    const messages = [];
    for await (const m of client.callToolStream({ name: "add", arguments: { a: 1, b: 1 } })) messages.push(m);
    assert.equal(messages.length, 1);
    assert.deepEqual(messages[0].result?.structuredContent, { sum: 2 });
  });

  it("drains a streaming tool on CallTool to its final result", async () => {
    const { result } = await client.callTool({ name: "countdown", arguments: { count: 1 } });
    assert.deepEqual(result?.content, [{ type: "text", text: "1 liftoff" }]);
  });

  it("fails a stream with NOT_FOUND for an unknown tool", async () => {
    const error = await rejection((async () => {
      for await (const _ of client.callToolStream({ name: "nope" })) { /* none */ }
    })());
    assert.equal(error.code, Code.NotFound);
  });

  it("keeps the handler at most one partial ahead of a slow reader", async () => {
    const start = tickProbe.pulled;
    let read = 0;
    for await (const m of client.callToolStream({ name: "ticks", arguments: { count: 5 } })) {
      if (m.meta !== undefined) break;
      read++;
      await sleep(20);
      assert.ok(tickProbe.pulled - start <= read + 2, `pulled ${tickProbe.pulled - start} after reading ${read}`);
    }
    assert.equal(read, 5);
  });

  it("aborts ctx.signal when the client cancels a stream mid-way", async () => {
    const before = { ...tickProbe };
    const abort = new AbortController();
    const error = await rejection((async () => {
      let n = 0;
      for await (
        const _ of client.callToolStream({ name: "ticks", arguments: { count: 1000, delayMs: 10 } }, {
          signal: abort.signal,
        })
      ) {
        if (++n === 3) abort.abort();
      }
    })());
    assert.equal(error.code, Code.Canceled);
    await waitFor(() => tickProbe.aborted > before.aborted);
    assert.equal(tickProbe.finished, before.finished);
  });

  it("answers DEADLINE_EXCEEDED on time, and the deadline reaches ctx.signal", async () => {
    const aborted = slowProbe.aborted;
    // The tool would answer after 10 minutes: DEADLINE_EXCEEDED, and the tool seeing its signal abort, say the
    // 100 ms deadline ended it, whatever the load (no clock read here).
    const error = await rejection(client.callTool({ name: "slow", arguments: { ms: 600_000 } }, { timeoutMs: 100 }));
    assert.equal(error.code, Code.DeadlineExceeded);
    await waitFor(() => slowProbe.aborted > aborted);
  });

  it("ends a stream that outlives its deadline with DEADLINE_EXCEEDED", async () => {
    const aborted = tickProbe.aborted;
    const error = await rejection((async () => {
      for await (
        const _ of client.callToolStream({ name: "ticks", arguments: { count: 1000, delayMs: 10 } }, { timeoutMs: 100 })
      ) {
        // read until the deadline
      }
    })());
    assert.equal(error.code, Code.DeadlineExceeded);
    await waitFor(() => tickProbe.aborted > aborted);
  });
});

describe("MCPLite service: promises and input rounds", () => {
  const confirm = defineTool("confirm_order")
    .input(v.object({ sku: v.string() }))
    .handle(async ({ sku }, ctx) => {
      const answer = await ctx.elicit("confirm", {
        message: `Buy ${sku}?`,
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      return answer.action === "accept" && answer.content?.ok === true ? `bought ${sku}` : "cancelled";
    });
  // A forged token and a tampered request state on purpose: no error line for each.
  const server = createServer({
    name: "jobs",
    version: "1.0.0",
    secret: "grpc-test-secret-0123456789abcdef",
    logger: false,
  })
    .tool(analyze)
    .tool(confirm);
  const jobs = createClient(MCPLite, createRouterTransport(createGrpcRoutes(coreOf(server))));

  it("lists the redeem system tool", async () => {
    const { tools } = await jobs.getTools({});
    const redeem = tools.find((t) => t.name === "redeem");
    assert.equal(redeem?.type, "system");
    assert.deepEqual(redeem?.inputSchema?.required, ["promise"]);
  });

  it('answers PROMISE with a token, redeemed through CallTool "redeem" until the answer', async () => {
    const first = await jobs.callTool({ name: "analyze_dataset", arguments: { n: 21 } });
    assert.equal(first.meta?.responseType, ResponseType.PROMISE);
    assert.deepEqual(first.result, {});
    assert.equal(first.meta?.retryAfterMs, 5);
    assert.ok(first.meta!.expiresAt > BigInt(Date.now()));
    const token = first.meta!.promiseToken;
    assert.ok(token.length > 20);
    const second = await jobs.callTool({ name: "redeem", arguments: { promise: token } });
    assert.equal(second.meta?.responseType, ResponseType.PROMISE);
    assert.notEqual(second.meta?.promiseToken, token);
    const done = await jobs.callTool({ name: "redeem", arguments: { promise: second.meta!.promiseToken } });
    assert.equal(done.meta?.responseType, ResponseType.ANSWER);
    assert.deepEqual(done.result?.structuredContent, { doubled: 42 });
  });

  it("refuses a forged promise token with INVALID_ARGUMENT", async () => {
    const error = await rejection(jobs.callTool({ name: "redeem", arguments: { promise: "not-a-token" } }));
    assert.equal(error.code, Code.InvalidArgument);
    assert.match(error.rawMessage, /Invalid or expired promise token/);
  });

  it("answers ELICITATION with input requests and signed state, then the answer on the second round", async () => {
    const first = await jobs.callTool({ name: "confirm_order", arguments: { sku: "A1" } });
    assert.equal(first.meta?.responseType, ResponseType.ELICITATION);
    assert.deepEqual(first.result, {});
    const request = first.meta?.inputRequests?.confirm as { method: string; params: { message: string } };
    assert.equal(request.method, "elicitation/create");
    assert.equal(request.params.message, "Buy A1?");
    const state = first.meta!.requestState;
    assert.ok(state.length > 20);
    const second = await jobs.callTool({
      name: "confirm_order",
      arguments: { sku: "A1" },
      requestState: state,
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
    });
    assert.equal(second.meta?.responseType, ResponseType.ANSWER);
    assert.deepEqual(second.result?.content, [{ type: "text", text: "bought A1" }]);
  });

  it("refuses a tampered request state with INVALID_ARGUMENT", async () => {
    const error = await rejection(jobs.callTool({
      name: "confirm_order",
      arguments: { sku: "A1" },
      requestState: "tampered",
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
    }));
    assert.equal(error.code, Code.InvalidArgument);
  });
});
