/**
 * Run by Node 22 (tests/events/task-events.test.ts): a task event on Node. A tool whose `.longRunning({ endEvent })`
 * names `report.ended`, called as an MCP 2026-07-28 task; its work ends; `events/poll` from where the log stood before
 * the call finds the one occurrence, carrying the task id the caller got. What it found is printed as JSON.
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { modernMeta, modernRequest, post } from "../helpers/request.ts";

const taskEnded = defineEvent("report.ended").payload(v.object({
  taskId: v.string(),
  tool: v.string(),
  status: v.picklist(["completed", "failed", "cancelled"]),
  error: v.optional(v.string()),
}));
const report = defineTool("report").describe("Makes a report").input(v.object({ rows: v.number() }))
  .longRunning({ endEvent: taskEnded })
  .defer(async ({ rows }: { rows: number }) => {
    await called.promise; // its end after the caller got its task id, as work that takes a while
    return { rows };
  });
const called = Promise.withResolvers<void>();
const server = createServer({ name: "reports", version: "1.0.0", secret: "task events on Node: 32+ bytes of secret" })
  .event(taskEnded).tool(report);

const poll = async (cursor: string | null) =>
  (await (await server.fetch(post("/mcp-lite/v1/rpc", {
    jsonrpc: "2.0",
    id: 1,
    method: "events/poll",
    params: { name: "report.ended", cursor },
  }))).json()).result;

const start = (await poll(null)).cursor;
const meta = modernMeta({
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
});
const answer =
  await (await server.fetch(modernRequest("tools/call", { name: "report", arguments: { rows: 3 }, _meta: meta })))
    .json();
const taskId: string = answer.result.taskId;
called.resolve();
let events: unknown[] = [];
const found = async () =>
  (events = (await poll(start)).events.map((event: { data: unknown }) => event.data)).length > 0;
await waitFor(found, 15_000).catch(() => {}); // none within the bound: printed empty, which the test names
process.stdout.write(JSON.stringify({ runtime: process.version, taskId, events }));
process.exit(0);
