/**
 * `proxy()` of a remote long-running call: the remote's MCP-lite promise, or its MCP 2026-07-28 task,
 * becomes our promise (its handle signed into our token); collected through our token on MCP-lite and
 * through `tasks/get` on MCP 2026, each step taken at the remote. The remote is a server of ours, served on
 * 127.0.0.1: MCP-lite promises are its wire's, and it serves the tasks extension.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { createJobTools } from "../helpers/long-running.ts";
import { gatewayServer, served } from "./gateway.ts";
import { readUntil } from "../helpers/wait.ts";

describe("proxy() of a remote long-running call", () => {
  const jobs = createJobTools();
  let remote: { url: string; close(): Promise<void> };
  const stop = new AbortController();
  before(async () => {
    remote = await served(createServer({ name: "jobs", version: "1.0.0" }).tool(jobs.analyze) as never);
  });
  after(async () => {
    stop.abort();
    await remote.close();
  });

  it("answers an MCP-lite promise with a token of ours, redeemed step by step at the remote", async () => {
    const source = await proxy(remote.url, { transport: "mcp-lite", signal: stop.signal });
    const gateway = gatewayServer().group("jobs", source);
    const client = createClient(gateway, { transport: "mcp-lite" });
    const started = jobs.counters.started, redeemed = jobs.counters.redeemed;
    const handle = await client.call("jobs.analyze_dataset", { dataset_id: "d1", polls: 2 }, { wait: false });
    assert.equal(handle.kind, "promise");
    assert.equal(jobs.counters.started, started + 1);
    assert.equal(jobs.counters.redeemed, redeemed);
    assert.deepEqual(await client.resume(handle), { dataset_id: "d1", rows: 42 });
    assert.equal(jobs.counters.redeemed, redeemed + 2);
  });

  it("answers an MCP 2026 task with a task of ours, followed by tasks/get", async () => {
    const source = await proxy(`${remote.url}/mcp`, { transport: "mcp", signal: stop.signal });
    const gateway = gatewayServer().group("jobs", source);
    const client = createClient(gateway, { transport: "mcp" });
    const handle = await client.call("jobs.analyze_dataset", { dataset_id: "d2", polls: 3 }, { wait: false });
    assert.ok(handle.kind === "promise" && handle.status === "working", "an MCP task");
    // Polled with tasks/get as a client does (MCP 2026-07-28, Tasks): the task says when it is done.
    const task = await readUntil(
      () => client.request("tasks/get", { taskId: handle.kind === "promise" ? handle.token : "" }),
      (task: Record<string, unknown>) => task.status !== "working",
      "the task to complete",
      { timeoutMs: 20_000 },
    );
    assert.equal(task.status, "completed");
    assert.deepEqual((task.result as { structuredContent: unknown }).structuredContent, { dataset_id: "d2", rows: 42 });
  });
});
