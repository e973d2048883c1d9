/**
 * Results computed by a worker process reach every kind of client of the web instance: the official
 * MCP v2 client on 2026-07-28 with the tasks extension (`tools/call` answered with a task, `tasks/get`
 * until it completes), our client over MCP-lite (its promise redeemed), and a gRPC-Web `CallToolStream`
 * (the deferred job followed to its result on the stream, MCP-lite spec v0.042 §5.3); the job's progress reaches
 * that stream and the official v1 and v2 clients' held calls (`onprogress`) on either of two web instances. The web
 * instances run no job: a `mcplite worker` process on the same redis-server does.
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
import { postWithTasks, taskEnded } from "../helpers/request.ts";
import { killQueueProcesses, startWorker } from "../helpers/queue-processes.ts";
import { queuedServer } from "../helpers/queued-server.ts";
import { assertSteps, type Step } from "../helpers/worker-progress.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

if (REDIS_MISSING) console.error(`bullmq clients: skipped: ${REDIS_MISSING}`);

const QUEUE = `clients-${crypto.randomUUID()}`;
/** The web instances' bindings: gRPC's beside the defaults, for the Connect client. */
const WEB_BINDINGS = [mcpLiteBinding(), mcpBinding(), grpcBinding()];

let redis: RedisServer | undefined;
let web: ReturnType<typeof queuedServer> | undefined;
let listener: Listener | undefined;
/** A second web instance on the same queue and store, as a load balancer would spread calls across. */
let web2: ReturnType<typeof queuedServer> | undefined;
let listener2: Listener | undefined;
let workerPid = 0;

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  web = queuedServer({ url: redis.url, queue: QUEUE, lockMs: 5_000, bindings: WEB_BINDINGS });
  listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
  web2 = queuedServer({ url: redis.url, queue: QUEUE, lockMs: 5_000, bindings: WEB_BINDINGS });
  listener2 = await serve(web2.server, { port: 0, hostname: "127.0.0.1", quiet: true });
  workerPid = (await startWorker({ url: redis.url, variable: "REDIS_URL", queue: QUEUE, lockMs: 5_000 })).pid;
});

after(async () => {
  await killQueueProcesses();
  await listener?.close();
  await web?.close();
  await listener2?.close();
  await web2?.close();
  await redis?.stop();
});

describe("clients collect results a worker process computed", { skip: REDIS_MISSING }, () => {
  it("the official v2 client on 2026-07-28: its call held until the worker's result", async () => {
    // Without the tasks extension: the official v2 client (2.4.0) has no task runtime (it refuses a
    // `resultType: "task"` answer), so the server holds its call while the worker runs the job.
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new TransportV2(new URL(`${listener!.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "fragile", arguments: { n: 1, ms: 300 } });
      assert.deepEqual(result.structuredContent, { n: 1, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("MCP 2026-07-28 tasks: tools/call answers a task, tasks/get returns the worker's result", async () => {
    const endpoint = `${listener!.url}/mcp`;
    const created = await postWithTasks(endpoint, "tools/call", { name: "fragile", arguments: { n: 4, ms: 300 } });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const task = await taskEnded(endpoint, created.result.taskId);
    assert.equal(task.status, "completed", JSON.stringify(task));
    assert.deepEqual(task.result?.structuredContent, { n: 4, pid: workerPid });
  });

  it("our client over MCP-lite: the promise redeemed until the worker's result", async () => {
    const client = createClient(`${listener!.url}/mcp-lite/v1`);
    try {
      const answer = await client.callTool("fragile", { n: 2, ms: 300 });
      assert.deepEqual(answer.structuredContent, { n: 2, pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("a question the job asks on the worker reaches our client, and its answer reaches the worker", async () => {
    const client = createClient(`${listener!.url}/mcp-lite/v1`, {
      onElicit: (request) => {
        assert.equal(request.message, "Which colour?");
        return { action: "accept", content: { colour: "teal" } };
      },
    });
    try {
      const answer = await client.callTool("asks", {});
      assert.deepEqual(answer.structuredContent, { answer: "teal", pid: workerPid });
    } finally {
      await client.close();
    }
  });

  it("a gRPC-Web CallToolStream: the stream follows the queued job to the worker's result", async () => {
    const url = listener!.url;
    const overHttp = { fetch: (request: Request) => fetch(new Request(url + new URL(request.url).pathname, request)) };
    const connect = createConnectClient(MCPLite, inProcessTransport(overHttp, "grpc-web", true));
    const messages = [];
    for await (const message of connect.callToolStream({ name: "fragile", arguments: { n: 3, ms: 300 } })) {
      messages.push(message);
    }
    const last = messages.at(-1)!;
    assert.deepEqual(last.result?.content, [{ type: "text", text: JSON.stringify({ n: 3, pid: workerPid }) }]);
  });

  it("a gRPC-Web CallToolStream gets the progress the job reports on the worker, then its result", async () => {
    const url = listener!.url;
    const overHttp = { fetch: (request: Request) => fetch(new Request(url + new URL(request.url).pathname, request)) };
    const connect = createConnectClient(MCPLite, inProcessTransport(overHttp, "grpc-web", true));
    const messages = [];
    for await (const message of connect.callToolStream({ name: "steps", arguments: { n: 6 } })) messages.push(message);
    assertSteps(messages.slice(0, -1).map((m) => m.result?.progress as unknown as Step), 6, "gRPC");
    assert.deepEqual(messages.at(-1)!.result?.content, [
      { type: "text", text: JSON.stringify({ steps: 6, pid: workerPid }) },
    ]);
  });

  it("the official clients' held calls get the progress the job reports on the worker, on either web instance", async () => {
    // v1 on 2025-11-25 on one web instance, v2 pinned to 2026-07-28 (no tasks: held) on the other; neither runs
    // the job, the worker process does, and its progress reaches them through the queue (WorkQueue.watch).
    const v1 = new ClientV1({ name: "v1", version: "1.32.2" });
    await v1.connect(new TransportV1(new URL(`${listener!.url}/mcp`)));
    const v2 = new ClientV2({ name: "v2", version: "2.4.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await v2.connect(new TransportV2(new URL(`${listener2!.url}/mcp`)));
    try {
      const calls = [
        (onprogress: (p: Step) => void) =>
          v1.callTool({ name: "steps", arguments: { n: 6 } }, undefined, { onprogress, timeout: 30_000 }),
        (onprogress: (p: Step) => void) =>
          v2.callTool({ name: "steps", arguments: { n: 6 } }, { onprogress, timeout: 30_000 }),
      ];
      for (const [client, call] of calls.entries()) {
        const progress: Step[] = [];
        const result = await call((p) => progress.push({ progress: p.progress, total: p.total, message: p.message }));
        assertSteps(progress, 6, `client ${client}`);
        assert.deepEqual(result.structuredContent, { steps: 6, pid: workerPid });
      }
    } finally {
      await v1.close();
      await v2.close();
    }
  });
});
