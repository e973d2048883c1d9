/**
 * `otel()` with the official SDK registered, beyond one request: a redeem's and a task poll's SERVER
 * span link to the call that issued the promise (its trace context travels in the signed token), and
 * the handlers' `ctx.log()` records reach the server's `logger` with the span's trace id.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind } from "@opentelemetry/api";
import * as v from "valibot";
import { createServer, defineTool, type ServerLogger } from "../../mod.ts";
import { otel } from "../../src/otel/mod.ts";
import { modernRequest, post } from "../helpers/request.ts";
import { type Recorded, registerSdk } from "./telemetry.ts";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const TRACEPARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`;
const TASKS = "io.modelcontextprotocol/tasks";

const done = new Set<string>();
const watch = defineTool("watch")
  .describe("Watches an outside job")
  .input(v.object({ job: v.string() }))
  .longRunning({ retryAfterMs: 10 })
  .handle(({ job }, ctx) => ctx.promise({ state: { job } }))
  .redeem(({ job }, ctx) => done.has(job) ? `${job} done` : ctx.promise({ state: { job } }));
const chatty = defineTool("chatty").describe("Logs a line").handle((_args, ctx) => {
  ctx.log("info", "working on it");
  return "ok";
});

function serverSpan(recorded: Recorded, name: string) {
  const span = recorded.spans().find((s) => s.kind === SpanKind.SERVER && s.name === name);
  assert.ok(span !== undefined, `no SERVER span ${name} in ${recorded.spans().map((s) => s.name).join(", ")}`);
  return span;
}

async function liteCall(server: { fetch(r: Request): Promise<Response> }, name: string, args: unknown) {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
  const response = await server.fetch(post("/mcp-lite/v1/calltools", request, { traceparent: TRACEPARENT }));
  return (await response.json()).result;
}

describe("otel(): promises, tasks and logs", () => {
  let recorded: Recorded;
  const lines: { method: string; args: unknown[] }[] = [];
  const at = (method: string) => (...args: unknown[]) => void lines.push({ method, args });
  const logger: ServerLogger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const server = createServer({ name: "linked", version: "1.0.0", secret: "s".repeat(32), logger })
    .tool(watch).tool(chatty).use(otel());
  before(() => {
    recorded = registerSdk();
  });
  after(() => recorded.close());

  it("MCP-lite: the redeem's span links to the span of the call that issued the promise", async () => {
    recorded.reset();
    const promised = await liteCall(server, "watch", { job: "j1" });
    const token = promised._meta.promise_token;
    assert.match(token, /^mcl1\./);
    const issuing = serverSpan(recorded, "tools/call watch");
    recorded.reset();
    done.add("j1");
    const redeemed = await liteCall(server, "redeem", { promise: token });
    assert.equal(redeemed.content[0].text, "j1 done");
    const redeem = serverSpan(recorded, "tools/call redeem");
    assert.deepEqual(
      redeem.links.map((link) => [link.context.traceId, link.context.spanId]),
      [[TRACE_ID, issuing.spanContext().spanId]],
    );
  });

  it("MCP 2026-07-28 tasks: tasks/get's span links to the span of the call that created the task", async () => {
    recorded.reset();
    const caps = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } };
    const created = await server.fetch(
      modernRequest("tools/call", {
        name: "watch",
        arguments: { job: "j2" },
        _meta: { ...caps, traceparent: TRACEPARENT },
      }),
    );
    const { result } = await created.json();
    assert.equal(result.resultType, "task", JSON.stringify(result));
    const issuing = serverSpan(recorded, "tools/call watch");
    recorded.reset();
    const polled = await server.fetch(modernRequest("tasks/get", { taskId: result.taskId, _meta: caps }));
    assert.equal(polled.status, 200);
    await polled.body?.cancel();
    const poll = serverSpan(recorded, "tasks/get");
    assert.deepEqual(poll.links.map((link) => link.context.spanId), [issuing.spanContext().spanId]);
  });

  it("ctx.log() reaches the logger with the SERVER span's trace_id and span_id", async () => {
    recorded.reset();
    lines.length = 0;
    const answer = await liteCall(server, "chatty", {});
    assert.equal(answer.content[0].text, "ok");
    const span = serverSpan(recorded, "tools/call chatty");
    assert.deepEqual(lines, [{
      method: "info",
      args: [
        { tool: "chatty", trace_id: TRACE_ID, span_id: span.spanContext().spanId, trace_flags: "01" },
        "working on it",
      ],
    }]);
  });
});
