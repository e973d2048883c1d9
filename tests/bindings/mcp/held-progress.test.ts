/**
 * A call held for a client without tasks gets the progress and logs of the work it started (MCP 2025-11-25,
 * Progress: `notifications/progress` for the request's `progressToken`; Logging: `notifications/message`), as a
 * streamed MCP-lite call does (MCP-lite spec v0.042 §5.3): the declared work's `work.progress()` and `work.log()`
 * reach the official v1 client's `onprogress` (2025-11-25; also with a queue in memory and a worker in this
 * process) and v2 client's (2026-07-28) over Streamable HTTP, our client on both revisions, a raw 2026-07-28
 * request, an MCP session over stdio and over a WebSocket, and the Python MCP SDK's and FastMCP's clients on both
 * revisions (`tests/interop/python/held_progress.py`, skipped without `.venv-py` outside CI). A worker process
 * behind two web instances (BullMQ on Redis) is in tests/bullmq/clients.test.ts.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import {
  createMemoryResultStore,
  createServer,
  defineTool,
  mcpBinding,
  mcpLiteBinding,
  runWorker,
  serve,
} from "../../../mod.ts";
import { webSocketBinding } from "../../../src/websocket/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import type { Listener, WorkQueue } from "../../../src/types.ts";
import { fastmcpMissing, PYTHON } from "../../helpers/fastmcp.ts";
import { ROOT } from "../../helpers/process.ts";
import { memoryQueue } from "../../helpers/memory-queue.ts";
import { modernRequest } from "../../helpers/request.ts";
import { type SeenSteps, seenSteps } from "../../helpers/seen-steps.ts";
import { readSse } from "../../helpers/sse.ts";
import { openSession, pipeServer } from "../../helpers/stdio.ts";
import { TestSocket } from "../../websocket/socket.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

const STEPS = [1, 2, 3].map((step) => [step, 3, `step ${step}`]);
const LOGS = [1, 2, 3].map((step) => `crunched ${step}`);

/** The gate of the call under test: the work reports step n+1 only once the caller received step n. */
let gate: SeenSteps = seenSteps(0);
function gated(): (step: number) => void {
  gate = seenSteps(STEPS.length);
  return gate.saw;
}

/** The tool: deferred work that logs, then reports, each of three steps. */
const crunch = defineTool("crunch")
  .describe("Crunches numbers in the background, step by step")
  .output(v.object({ rows: v.number() }))
  .longRunning({ retryAfterMs: 20 })
  .defer(async (_args, work) => {
    const { passed } = gate;
    for (const [step, total, message] of STEPS as [number, number, string][]) {
      work.log("info", `crunched ${step}`); // before the step: once the caller saw the step, it had the log
      work.progress(step, total, message);
      await passed(step);
    }
    return { rows: 42 };
  });

/** The server: `queue` runs the work on a worker (`runWorker()`) instead of the process that took the call. */
function heldServer(queue?: WorkQueue) {
  return createServer({
    name: "held",
    version: "1.0.0",
    secret: "held-progress-secret-0123456789abcdef",
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()], // MCP over HTTP, and on a WebSocket after initialize
    ...(queue && { queue, resultStore: createMemoryResultStore() }), // one process: its worker shares the store
  }).tool(crunch);
}
const server = heldServer();

let listener: Listener;
before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

/** One progress notification as the official clients hand it over. */
interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Calls `crunch` with the official v1 client (2025-11-25) at `url`: the progress and logs it saw, and the result. */
async function v1Call(url: string) {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  const logs: unknown[] = [];
  client.fallbackNotificationHandler = (notification) => {
    if (notification.method === "notifications/message") logs.push(notification.params?.data);
    return Promise.resolve();
  };
  await client.connect(new HttpV1(new URL(url)));
  try {
    const progress: unknown[] = [];
    const saw = gated();
    const result = await client.callTool({ name: "crunch", arguments: {} }, undefined, {
      onprogress: (p: Progress) => (progress.push([p.progress, p.total, p.message]), saw(p.progress)),
    });
    return { progress, logs, result };
  } finally {
    await client.close();
  }
}

describe("a held MCP call gets the progress of the work it started", () => {
  it("the official v1 client's onprogress, 2025-11-25 over Streamable HTTP, and its logs", async () => {
    const { progress, logs, result } = await v1Call(`${listener.url}/mcp`);
    assert.deepEqual(progress, STEPS);
    assert.deepEqual(logs, LOGS);
    assert.deepEqual(result.structuredContent, { rows: 42 });
  });

  it("the official v1 client's onprogress and logs when a worker in this process runs the job (a queue in memory)", async () => {
    const queued = heldServer(memoryQueue().queue);
    const http = await serve(queued, { port: 0, hostname: "127.0.0.1", quiet: true });
    const worker = runWorker(queued);
    try {
      const { progress, logs, result } = await v1Call(`${http.url}/mcp`);
      assert.deepEqual(progress, STEPS);
      assert.deepEqual(logs, LOGS); // the queue carries the job's log lines too (WorkQueue.progress)
      assert.deepEqual(result.structuredContent, { rows: 42 });
    } finally {
      await worker.close();
      await http.close();
    }
  });

  it("the official v2 client's onprogress, 2026-07-28 over Streamable HTTP", async () => {
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new HttpV2(new URL(`${listener.url}/mcp`)));
    try {
      const progress: unknown[] = [];
      const saw = gated();
      const result = await client.callTool({ name: "crunch", arguments: {} }, {
        onprogress: (p: Progress) => (progress.push([p.progress, p.total, p.message]), saw(p.progress)),
      });
      assert.deepEqual(progress, STEPS);
      assert.deepEqual(result.structuredContent, { rows: 42 });
    } finally {
      await client.close();
    }
  });

  for (const protocolVersion of ["2026-07-28", "2025-11-25"]) {
    it(`our client on /mcp, ${protocolVersion}: onProgress and onLog`, async () => {
      // Without the tasks extension (our client declares it by default, and then gets a task, never a hold).
      const options = { protocolVersion, logLevel: "info", tasks: false } as const;
      const client = createClient<typeof server>(`${listener.url}/mcp`, options);
      try {
        const progress: unknown[] = [];
        const logs: unknown[] = [];
        const saw = gated();
        const result = await client.call("crunch", {}, {
          onProgress: (p) => (progress.push([p.progress, p.total, p.message]), saw(p.progress)),
          onLog: (entry) => logs.push(entry.data),
        });
        assert.deepEqual(progress, STEPS);
        assert.deepEqual(logs, LOGS);
        assert.deepEqual(result, { rows: 42 });
      } finally {
        await client.close();
      }
    });
  }

  it("a raw 2026-07-28 request with a progressToken and a log level: the notifications, then the result", async () => {
    const saw = gated();
    const call = modernRequest("tools/call", {
      name: "crunch",
      arguments: {},
      _meta: { progressToken: "crunch-1", "io.modelcontextprotocol/logLevel": "info" },
    });
    const messages = (await readSse(await server.fetch(call), undefined, (event) => {
      const message = event.data === "" ? undefined : JSON.parse(event.data);
      if (message?.method === "notifications/progress") saw(message.params.progress);
    })).filter((event) => event.data !== "").map((event) => JSON.parse(event.data));
    const progress = messages.filter((m) => m.method === "notifications/progress").map((m) => m.params);
    assert.deepEqual(
      progress,
      STEPS.map(([progress, total, message]) => ({ progressToken: "crunch-1", progress, total, message })),
    );
    const logs = messages.filter((m) => m.method === "notifications/message").map((m) => m.params);
    assert.deepEqual(logs, LOGS.map((data) => ({ level: "info", data })));
    const answer = messages.at(-1);
    assert.equal(answer.result.resultType, "complete");
    assert.deepEqual(answer.result.structuredContent, { rows: 42 });
  });

  /** A connection that carries MCP messages, one per line or frame: what the stdio and WebSocket tests share. */
  interface Connection {
    readonly messages: Record<string, unknown>[];
    send(message: unknown): void;
    next(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
    answer(id: unknown): Promise<Record<string, unknown>>;
  }
  const connections: [string, () => Promise<{ connection: Connection; end(): Promise<void> }>][] = [
    ["stdio", () => {
      const piped = pipeServer(server);
      return Promise.resolve({ connection: piped, end: () => piped.end() });
    }],
    ["a WebSocket", async () => {
      const socket = await TestSocket.open(`${listener.url.replace("http:", "ws:")}/mcp-lite/v1/ws`);
      return { connection: socket, end: () => socket.close() };
    }],
  ];
  for (const [name, open] of connections) {
    it(`an MCP session over ${name}: notifications/progress for the token, then the result`, async () => {
      const { connection, end } = await open();
      const saw = gated();
      try {
        await openSession(connection);
        connection.send({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "crunch", arguments: {}, _meta: { progressToken: 9 } },
        });
        for (const [step] of STEPS) {
          await connection.next((m) =>
            m.method === "notifications/progress" && (m.params as { progress: number }).progress === step
          );
          saw(step as number);
        }
        const answer = await connection.answer(2);
        assert.deepEqual((answer.result as { structuredContent: unknown }).structuredContent, { rows: 42 });
        const progress = connection.messages.filter((m) => m.method === "notifications/progress").map((m) => m.params);
        assert.deepEqual(
          progress,
          STEPS.map(([progress, total, message]) => ({ progressToken: 9, progress, total, message })),
        );
      } finally {
        await end();
      }
    });
  }
});

/** What `held_progress.py` printed for one scenario. */
interface PythonSeen {
  name: string;
  error?: string;
  progress: unknown[];
  result: { structuredContent?: unknown; isError?: boolean };
}

describe("a held MCP call from the Python clients", { skip: fastmcpMissing("held progress, Python clients") }, () => {
  it("the Python MCP SDK's progress_callback and FastMCP's progress_handler get every step, on both revisions", {
    timeout: 150_000,
  }, async () => {
    const script = `${ROOT}tests/interop/python/held_progress.py`;
    const child = spawn(PYTHON, [script, `${listener.url}/mcp`], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const killer = setTimeout(() => child.kill(), 140_000); // one Python process for every scenario: its start is slow
    const seen: PythonSeen[] = [];
    let saw: (step: number) => void = () => {};
    try {
      for await (const line of createInterface({ input: child.stdout! })) {
        const message = JSON.parse(line);
        // The next call's gate, then the go-ahead: a call made before its gate would run on the last one's, all
        // passed, and report its steps at once, the client seeing the latest only.
        if ("start" in message) saw = gated(), child.stdin!.write("go\n");
        else if ("saw" in message) saw(message.saw);
        else seen.push(message);
      }
    } finally {
      clearTimeout(killer);
    }
    assert.deepEqual(seen.map((each) => each.name), [
      "mcp, legacy",
      "mcp, 2026-07-28",
      "fastmcp, legacy",
      "fastmcp, 2026-07-28",
    ], stderr);
    for (const each of seen) {
      assert.equal(each.error, undefined, `${each.name}: ${each.error}\n${stderr}`);
      assert.deepEqual(each.progress, STEPS, each.name);
      assert.deepEqual(each.result.structuredContent, { rows: 42 }, each.name);
    }
  });
});
