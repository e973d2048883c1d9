/**
 * Every wire collects what a worker's declared work (`.defer(fn)`, no handler) computed: a `mcplite worker` process
 * (the runtime running the tests) on a real redis-server takes the jobs, the test process is the web instance.
 * MCP 2026-07-28 tasks (`tools/call` answered with a task, `tasks/get` until it completes), the official v1
 * (2025-11-25) and v2 (2026-07-28) clients' held calls with the progress `work.progress()` reports (MCP 2025-11-25,
 * Progress), our client's MCP-lite promise redeemed, and a gRPC-Web `CallToolStream` (MCP-lite spec v0.042 §5.3).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient as createConnectClient } from "@connectrpc/connect";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { serve } from "../../mod.ts";
import { MCPLite } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { Listener } from "../../src/types.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { jobsServer } from "../helpers/jobs-server.ts";
import { modernMeta, modernRequest } from "../helpers/request.ts";
import { killQueueProcesses, startWorkerOf } from "../helpers/queue-processes.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

if (REDIS_MISSING) console.error(`declared work on every wire: skipped: ${REDIS_MISSING}`);

const QUEUE = `wires-${crypto.randomUUID()}`;
const LOCK_MS = 5_000;
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
type Step = { progress: number; total?: number; message?: string };

let redis: RedisServer | undefined;
let web: ReturnType<typeof jobsServer> | undefined;
let listener: Listener | undefined;
let workerPid = 0;

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  web = jobsServer({ url: redis.url, queue: QUEUE, lockMs: LOCK_MS });
  listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
  const backend = { url: redis.url, variable: "REDIS_URL" as const, queue: QUEUE, lockMs: LOCK_MS };
  workerPid = (await startWorkerOf({ module: "tests/helpers/jobs-server.ts" }, backend)).pid;
});

after(async () => {
  await killQueueProcesses();
  await listener?.close();
  await web?.close();
  await redis?.stop();
});

/** A 2026-07-28 request that declares the tasks extension, on the web instance's MCP endpoint. */
// deno-lint-ignore no-explicit-any
async function mcp(method: string, params: Record<string, unknown>): Promise<any> {
  const request = modernRequest(method, {
    ...params,
    _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS }),
  });
  const response = await fetch(`${listener!.url}/mcp`, {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
    signal: AbortSignal.timeout(10_000),
  });
  return await response.json();
}

/** Asserts the progress a client saw of `stepped` (n = 6): several steps in order, the last one among them. */
function assertSteps(progress: Step[], who: string): void {
  // BullMQ's events reach the web instance once its event connection is up: the first steps may come before.
  assert.ok(progress.length >= 3, `${who}: ${JSON.stringify(progress)}`);
  assert.deepEqual(progress.at(-1), { progress: 6, total: 6, message: "step 6" }, who);
  for (const [i, each] of progress.entries()) if (i > 0) assert.ok(each.progress > progress[i - 1].progress, who);
}

describe("every wire collects a worker's declared work", { skip: REDIS_MISSING }, () => {
  it("MCP 2026-07-28 tasks: tools/call answers a task, tasks/get returns the worker's result", async () => {
    const created = await mcp("tools/call", { name: "nap", arguments: { n: 4, ms: 0 } });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const taskId = created.result.taskId;
    let task = { status: "working" } as { status: string; result?: { structuredContent?: unknown } };
    const deadline = Date.now() + 30_000;
    while (task.status === "working" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = (await mcp("tasks/get", { taskId })).result;
    }
    assert.equal(task.status, "completed", JSON.stringify(task));
    assert.deepEqual(task.result?.structuredContent, { n: 4, pid: workerPid });
  });

  it("the official v1 client on 2025-11-25: its held call gets the work's progress, then the worker's result", async () => {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    await client.connect(new TransportV1(new URL(`${listener!.url}/mcp`)));
    try {
      const progress: Step[] = [];
      const result = await client.callTool({ name: "stepped", arguments: { n: 6 } }, undefined, {
        onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
        timeout: 30_000,
      });
      assertSteps(progress, "v1");
      assert.deepEqual(result.structuredContent, { steps: 6, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("the official v2 client on 2026-07-28 (no tasks): its held call gets the progress, then the result", async () => {
    // The official v2 client (2.4.0) has no task runtime: the server holds its call while the worker runs the job.
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new TransportV2(new URL(`${listener!.url}/mcp`)));
    try {
      const progress: Step[] = [];
      const result = await client.callTool({ name: "stepped", arguments: { n: 6 } }, {
        onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
        timeout: 30_000,
      });
      assertSteps(progress, "v2");
      assert.deepEqual(result.structuredContent, { steps: 6, pid: workerPid });
      assert.deepEqual(
        (await client.callTool({ name: "nap", arguments: { n: 5, ms: 0 } })).structuredContent,
        { n: 5, pid: workerPid },
      );
    } finally {
      await client.close();
    }
  });

  it("our client over MCP-lite: the promise redeemed until the worker's result", async () => {
    const client = createClient(`${listener!.url}/mcp-lite/v1`);
    try {
      const answer = await client.callTool("nap", { n: 2, ms: 0 });
      assert.deepEqual(answer.structuredContent, { n: 2, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("a gRPC-Web CallToolStream: the work's progress, then the worker's result, on the stream", async () => {
    const url = listener!.url;
    const overHttp = { fetch: (request: Request) => fetch(new Request(url + new URL(request.url).pathname, request)) };
    const connect = createConnectClient(MCPLite, inProcessTransport(overHttp, "grpc-web", true));
    const messages = [];
    for await (const message of connect.callToolStream({ name: "stepped", arguments: { n: 6 } })) {
      messages.push(message);
    }
    const progress = messages.slice(0, -1).map((m) => m.result?.progress as Step);
    assertSteps(progress, "gRPC");
    assert.deepEqual(messages.at(-1)!.result?.content, [
      { type: "text", text: JSON.stringify({ steps: 6, pid: workerPid }) },
    ]);
  });
});
