/**
 * Every wire collects a worker's declared work across a durable sleep (the job back to BullMQ, delayed, then resumed
 * after its journaled step): a `mcplite worker` (the tests' runtime) on a real redis-server, the test process the web
 * instance. MCP 2026-07-28 tasks, the official v1 (2025-11-25) and v2 (2026-07-28) clients' held calls with the
 * work's progress (MCP 2025-11-25, Progress), our client's MCP-lite promise redeemed, and a gRPC-Web
 * `CallToolStream` (MCP-lite spec v0.042 §5.3). The same wires without a sleep: tests/bullmq/clients.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient as createConnectClient } from "@connectrpc/connect";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { Listener } from "../../src/types.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { jobsServer } from "../helpers/jobs-server.ts";
import { postWithTasks, taskEnded } from "../helpers/request.ts";
import { killQueueProcesses, startWorkerOf } from "../helpers/queue-processes.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { assertSteps, type Step } from "../helpers/worker-progress.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

if (REDIS_MISSING) console.error(`declared work on every wire: skipped: ${REDIS_MISSING}`);

const QUEUE = `wires-${crypto.randomUUID()}`;
const LOCK_MS = 5_000;
/** Each job's durable sleep. */
const SLEEP_MS = 1_000;
/** `stepped`'s arguments: six steps of progress, three before the sleep (a journaled step) and three after. */
const STEPPED = { n: 6, ms: SLEEP_MS };

let redis: RedisServer | undefined;
let web: ReturnType<typeof jobsServer> | undefined;
let listener: Listener | undefined;
let workerPid = 0;

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  web = jobsServer({
    url: redis.url,
    queue: QUEUE,
    lockMs: LOCK_MS,
    bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding()],
  });
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

describe("every wire collects a worker's declared work across a durable sleep", { skip: REDIS_MISSING }, () => {
  it("MCP 2026-07-28 tasks: tools/call answers a task, tasks/get returns the worker's result", async () => {
    const endpoint = `${listener!.url}/mcp`;
    const created = await postWithTasks(endpoint, "tools/call", { name: "nap", arguments: { n: 4, ms: SLEEP_MS } });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const task = await taskEnded(endpoint, created.result.taskId);
    assert.equal(task.status, "completed", JSON.stringify(task));
    assert.deepEqual(task.result?.structuredContent, { n: 4, pid: workerPid });
  });

  it("the official v1 client on 2025-11-25: its held call gets the progress across the sleep", async () => {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    await client.connect(new TransportV1(new URL(`${listener!.url}/mcp`)));
    try {
      const progress: Step[] = [];
      const result = await client.callTool({ name: "stepped", arguments: STEPPED }, undefined, {
        onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
        timeout: 30_000,
      });
      assertSteps(progress, 6, "v1");
      assert.deepEqual(result.structuredContent, { steps: 6, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("the official v2 client on 2026-07-28 (no tasks): its held calls get the progress, then the result", async () => {
    // The official v2 client (2.4.0) has no task runtime: the server holds its call while the worker runs the job.
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new TransportV2(new URL(`${listener!.url}/mcp`)));
    try {
      const progress: Step[] = [];
      const result = await client.callTool({ name: "stepped", arguments: STEPPED }, {
        onprogress: (p) => progress.push({ progress: p.progress, total: p.total, message: p.message }),
        timeout: 30_000,
      });
      assertSteps(progress, 6, "v2");
      assert.deepEqual(result.structuredContent, { steps: 6, pid: workerPid });
      const napped = await client.callTool({ name: "nap", arguments: { n: 5, ms: SLEEP_MS } }, { timeout: 30_000 });
      assert.deepEqual(napped.structuredContent, { n: 5, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("our client over MCP-lite: the promise redeemed until the worker's result", async () => {
    const client = createClient(`${listener!.url}/mcp-lite/v1`);
    try {
      const answer = await client.callTool("nap", { n: 2, ms: SLEEP_MS });
      assert.deepEqual(answer.structuredContent, { n: 2, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("a gRPC-Web CallToolStream: the progress across the sleep, then the result, on the stream", async () => {
    const url = listener!.url;
    const overHttp = { fetch: (request: Request) => fetch(new Request(url + new URL(request.url).pathname, request)) };
    const connect = createConnectClient(MCPLite, inProcessTransport(overHttp, "grpc-web", true));
    const messages = [];
    for await (const message of connect.callToolStream({ name: "stepped", arguments: STEPPED })) {
      messages.push(message);
    }
    assertSteps(messages.slice(0, -1).map((m) => m.result?.progress as unknown as Step), 6, "gRPC");
    assert.deepEqual(messages.at(-1)!.result?.content, [
      { type: "text", text: JSON.stringify({ steps: 6, pid: workerPid }) },
    ]);
  });
});
