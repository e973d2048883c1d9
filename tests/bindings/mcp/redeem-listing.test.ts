/**
 * Which clients are listed the `redeem` system tool, per protocol and revision: MCP-lite clients (a
 * promise token is how its long-running tools answer), and MCP clients without tasks (every 2025
 * revision, and 2026-07-28 without the `io.modelcontextprotocol/tasks` extension), whose held call
 * answers a promise for the model to redeem once the hold passes. A 2026-07-28 client that declared the
 * extension gets a task for every promise, so its model is not shown `redeem`; nor is a client that
 * sees no tool able to answer it with a promise. Checked with the official v1 and v2 clients, our
 * client, and raw requests. And what a 2025-11-25 client that asks for that revision's experimental
 * tasks gets: tasks are served on 2026-07-28 only, so its task-augmented call is answered as an
 * ordinary (held) one, which the official v1 client's experimental tasks API refuses.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../../mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import type { Listener } from "../../../src/types.ts";
import { SECRET } from "../../helpers/long-running.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../../helpers/request.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

const plain = defineTool("plain").describe("Answers at once").handle(() => "ok");
const job = defineTool("job").describe("Works a while").longRunning()
  .handle((_args, ctx) => ctx.defer(() => Promise.resolve({ done: true })));
const taskOnly = defineTool("task_only").describe("Only as a task").longRunning({ taskSupport: "required" })
  .handle((_args, ctx) => ctx.defer(() => Promise.resolve({ done: true })));

function jobsServer() {
  return createServer({ name: "jobs", version: "1.0.0", secret: SECRET, bindings: [mcpLiteBinding(), mcpBinding()] })
    .tool(plain).tool(job);
}

/** The tool names of a `tools/list` answer. */
async function names(response: Response | Promise<Response>): Promise<string[]> {
  const body = await (await response).json();
  const tools = (body.result ?? body).tools as { name: string }[];
  return tools.map((tool) => tool.name);
}

describe("redeem, listed per protocol and revision", () => {
  let listener: Listener;
  let url: string;
  before(async () => {
    listener = await serve(jobsServer(), { port: 0, hostname: "127.0.0.1", quiet: true });
    url = `${listener.url.replace(/\/$/, "")}/mcp`;
  });
  after(() => listener.close());

  it("is listed to MCP-lite clients", async () => {
    assert.deepEqual(await names(jobsServer().fetch(post("/mcp-lite/v1/listtools", {}))), ["plain", "job", "redeem"]);
    const client = createClient(jobsServer(), { transport: "mcp-lite" });
    assert.ok((await client.listTools()).some((tool) => tool.name === "redeem"));
    await client.close();
  });

  it("is listed to the official v1 client (2025-11-25): past the hold, a call answers a promise to redeem", async () => {
    const client = new ClientV1({ name: "v1", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(url)));
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ["plain", "job", "redeem"]);
    } finally {
      await client.close();
    }
  });

  it("is listed to every 2025 revision", async () => {
    const server = jobsServer();
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      const listed = await names(
        server.fetch(legacyRequest("tools/list", {}, 1, version, { accept: "application/json" })),
      );
      assert.deepEqual(listed, ["plain", "job", "redeem"], version);
    }
  });

  it("is listed to the official v2 client pinned to 2026-07-28 without the tasks extension", async () => {
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new TransportV2(new URL(url)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ["plain", "job", "redeem"]);
    } finally {
      await client.close();
    }
  });

  it("is not listed to the official v2 client pinned to 2026-07-28 that declares the tasks extension", async () => {
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: TASKS,
    });
    await client.connect(new TransportV2(new URL(url)));
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ["plain", "job"]);
    } finally {
      await client.close();
    }
  });

  it("is not listed to a 2026-07-28 request that declared the tasks extension", async () => {
    const server = jobsServer();
    const declared = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS }) };
    assert.deepEqual(await names(server.fetch(modernRequest("tools/list", declared))), ["plain", "job"]);
    // Each variant is its own cached list: the undeclared one, asked next, still has redeem.
    assert.deepEqual(await names(server.fetch(modernRequest("tools/list"))), ["plain", "job", "redeem"]);
    assert.deepEqual(await names(server.fetch(modernRequest("tools/list", declared))), ["plain", "job"]);
  });

  it("is not listed to our client on 2026-07-28, which declares tasks; it is with tasks: false", async () => {
    const server = jobsServer();
    const withTasks = createClient("http://localhost/mcp", {
      fetch: (request) => server.fetch(request),
      protocolVersion: "2026-07-28",
    });
    assert.deepEqual((await withTasks.listTools()).map((tool) => tool.name), ["plain", "job"]);
    // The call still ends: a task, polled to its result.
    assert.deepEqual((await withTasks.callTool("job", {})).structuredContent, { done: true });
    await withTasks.close();
    const withoutTasks = createClient("http://localhost/mcp", {
      fetch: (request) => server.fetch(request),
      protocolVersion: "2026-07-28",
      tasks: false,
    });
    assert.deepEqual((await withoutTasks.listTools()).map((tool) => tool.name), ["plain", "job", "redeem"]);
    await withoutTasks.close();
  });

  it("is not listed where no tool the client sees can answer it with a promise", async () => {
    const server = createServer({ name: "tasks", version: "1.0.0", secret: SECRET, bindings: [mcpBinding()] })
      .tool(plain).tool(taskOnly);
    // 2025: the task-only tool is not listed, and nothing else answers with a promise.
    assert.deepEqual(
      await names(server.fetch(legacyRequest("tools/list", {}, 1, "2025-11-25", { accept: "application/json" }))),
      [
        "plain",
      ],
    );
    // 2026-07-28 without tasks: the task-only tool is listed (and refused -32021 when called), never a promise.
    assert.deepEqual(await names(server.fetch(modernRequest("tools/list"))), ["plain", "task_only"]);
    const declared = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS }) };
    assert.deepEqual(await names(server.fetch(modernRequest("tools/list", declared))), ["plain", "task_only"]);
  });

  it("stays callable by a client that was not listed it", async () => {
    const server = jobsServer();
    const first = await server.call("job", {});
    assert.equal(first.kind, "promise");
    const declared = { _meta: modernMeta({ "io.modelcontextprotocol/clientCapabilities": TASKS }) };
    const call = { name: "redeem", arguments: { promise: first.kind === "promise" ? first.token : "" }, ...declared };
    const body = await (await server.fetch(modernRequest("tools/call", call))).json();
    assert.notEqual(body.result?.isError, true, JSON.stringify(body));
  });
});

describe("2025-11-25 experimental tasks are not served", () => {
  let listener: Listener;
  before(async () => listener = await serve(jobsServer(), { port: 0, hostname: "127.0.0.1", quiet: true }));
  after(() => listener.close());

  it("declares no tasks capability; a task-augmented call gets the held result, tasks/get -32601", async () => {
    const client = new ClientV1({ name: "v1", version: "1.0.0" }, {
      capabilities: { tasks: { requests: { tools: { call: {} } } } },
    } as never);
    await client.connect(new TransportV1(new URL(`${listener.url.replace(/\/$/, "")}/mcp`)));
    try {
      assert.equal(client.getServerCapabilities()?.tasks, undefined);
      // The official v1 client's experimental API wants a CreateTaskResult and fails on the ordinary result.
      const messages: { type: string; error?: Error }[] = [];
      const stream = client.experimental.tasks.callToolStream({ name: "job", arguments: {} }, undefined, {
        task: { ttl: 60_000 },
      });
      for await (const message of stream) messages.push(message as { type: string; error?: Error });
      assert.equal(messages.at(-1)?.type, "error");
      assert.match(String(messages.at(-1)?.error?.message), /task/);
      await assert.rejects(client.experimental.tasks.getTask("any"), /-32601/);
      // What it can do: an ordinary call, held until the work ends.
      const result = await client.callTool({ name: "job", arguments: {} });
      assert.deepEqual(result.structuredContent, { done: true });
    } finally {
      await client.close();
    }
  });

  it("answers a raw task-augmented 2025-11-25 tools/call as an ordinary call", async () => {
    const server = jobsServer();
    const response = await server.fetch(
      legacyRequest("tools/call", { name: "job", arguments: {}, task: { ttl: 60_000 } }, 1, "2025-11-25", {
        accept: "application/json",
      }),
    );
    const body = await response.json();
    assert.deepEqual(body.result.structuredContent, { done: true });
    assert.equal(body.result.task, undefined);
  });
});
