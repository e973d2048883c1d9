/**
 * Request middleware (`server.use()`) runs around every method on every wire: a key-checking
 * middleware refuses the lists, reads, prompts, completions, skills, tasks, subscriptions and
 * discovery without the key (401 on HTTP), answers them with it, and sees each method by name.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, type Middleware } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { h2Exchange } from "../helpers/grpc-exchange.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { defineSkill } from "../../src/skills/mod.ts";
import { greeting, readme, userProfile } from "../bindings/mcp/mcp-helpers.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { legacyRequest, modernRequest, post } from "../helpers/request.ts";

const KEY = { "x-api-key": "k" };
const SKILL_MD = "---\nname: greet\ndescription: Greets people politely\n---\nSay hello.\n";

const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
const slow = defineTool("slow").longRunning({ retryAfterMs: 40 })
  .handle((_args, ctx) => ctx.promise({ state: {} }))
  .redeem(() => "done");
const WITH_TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};

/** A server on every HTTP wire, whose middleware wants `x-api-key: k` and records what it saw. */
async function keyedServer(seen: string[]) {
  const requireKey: Middleware = async (call, next) => {
    seen.push(call.name === undefined ? call.method : `${call.method} ${call.name}`);
    if (call.ctx.meta.headers.get("x-api-key") !== "k") {
      throw new ProtocolError(ErrorCode.Unauthenticated, `an API key is required for ${call.method}`);
    }
    call.ctx.auth = { subject: "key-holder" };
    return await next();
  };
  return createServer({
    name: "keyed",
    version: "1.0.0",
    secret: "test secret: at least thirty-two bytes long",
    logger: false, // a forged task id on purpose: no error line
    heartbeatMs: 0,
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding()],
  })
    .tool(add)
    .tool(slow)
    .resource(readme)
    .resource(userProfile)
    .prompt(greeting)
    .skill(await defineSkill({ "SKILL.md": SKILL_MD }))
    .use(requireKey);
}

type Fetch = { fetch(request: Request): Promise<Response> };

async function send(server: Fetch, request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await server.fetch(request);
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
}

/** The 2026-07-28 requests of every method a server with resources, prompts and skills serves. */
const MODERN: [string, Record<string, unknown>][] = [
  ["server/discover", {}],
  ["tools/list", {}],
  ["tools/call", { name: "add", arguments: { a: 1, b: 2 } }],
  ["resources/list", {}],
  ["resources/templates/list", {}],
  ["resources/read", { uri: "docs://readme" }],
  ["prompts/list", {}],
  ["prompts/get", { name: "greeting", arguments: { name: "Ada" } }],
  ["completion/complete", {
    ref: { type: "ref/resource", uri: "users://{id}/profile" },
    argument: { name: "id", value: "al" },
  }],
  ["skills/list", {}],
  ["skills/get", { uri: "skill://greet/SKILL.md" }],
  ["tasks/get", { taskId: "not-a-task", ...WITH_TASKS }],
];

/** The 2025-era requests. */
const LEGACY: [string, Record<string, unknown>][] = [
  ["initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }],
  ["ping", {}],
  ["tools/list", {}],
  ["tools/call", { name: "add", arguments: { a: 1, b: 2 } }],
  ["resources/list", {}],
  ["resources/read", { uri: "docs://readme" }],
  ["prompts/list", {}],
  ["prompts/get", { name: "greeting", arguments: { name: "Ada" } }],
  ["completion/complete", { ref: { type: "ref/prompt", name: "greeting" }, argument: { name: "name", value: "A" } }],
];

describe("request middleware around every method", () => {
  let server: Awaited<ReturnType<typeof keyedServer>>;
  const seen: string[] = [];
  before(async () => {
    server = await keyedServer(seen);
  });

  it("MCP 2026-07-28: refuses each method without the key (401) and answers it with the key", async () => {
    for (const [method, params] of MODERN) {
      seen.length = 0;
      const refused = await send(server, modernRequest(method, params));
      assert.equal(refused.status, 401, `${method} without the key`);
      assert.match(String((refused.body.error as { message: string }).message), /API key is required/);
      assert.equal(seen.length, 1, `${method}: the middleware ran once`);
      assert.equal(seen[0].split(" ")[0], method);
      const answered = await send(server, modernRequest(method, params, 1, KEY));
      assert.equal(answered.status, 200, `${method} with the key`);
      if (method === "tasks/get") {
        // Past the middleware: the task code itself refuses a forged id.
        assert.equal((answered.body.error as { code: number }).code, -32602);
      } else {
        assert.ok(answered.body.result, `${method} with the key: ${JSON.stringify(answered.body)}`);
      }
    }
  });

  it("MCP 2026-07-28: the middleware sees the name of what is asked for", async () => {
    seen.length = 0;
    for (const [method, params] of MODERN) await send(server, modernRequest(method, params, 1, KEY));
    assert.deepEqual(seen, [
      "server/discover",
      "tools/list",
      "tools/call add",
      "resources/list",
      "resources/templates/list",
      "resources/read docs://readme",
      "prompts/list",
      "prompts/get greeting",
      "completion/complete users://{id}/profile",
      "skills/list",
      "skills/get skill://greet/SKILL.md",
      "tasks/get",
    ]);
  });

  it("does not tell a refused caller whether a tool, prompt or resource exists", async () => {
    for (
      const [method, params] of [
        ["tools/call", { name: "nope", arguments: {} }],
        ["prompts/get", { name: "nope" }],
        ["resources/read", { uri: "docs://nope" }],
      ] as const
    ) {
      assert.equal((await send(server, modernRequest(method, params))).status, 401, method);
      assert.equal((await send(server, legacyRequest(method, params))).status, 401, method);
      const known = await send(server, modernRequest(method, params, 1, KEY));
      assert.equal((known.body.error as { code: number }).code, -32602, `${method} with the key: not found`);
    }
  });

  it("MCP 2026-07-28: subscriptions/listen is refused without the key", async () => {
    const refused = await send(
      server,
      modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }),
    );
    assert.equal(refused.status, 401);
  });

  it("MCP 2025: refuses each method without the key (401) and answers it with the key", async () => {
    for (const [method, params] of LEGACY) {
      const refused = await send(server, legacyRequest(method, params));
      assert.equal(refused.status, 401, `${method} without the key`);
      const answered = await send(server, legacyRequest(method, params, 1, "2025-11-25", KEY));
      assert.equal(answered.status, 200, `${method} with the key`);
      assert.ok(answered.body.result, `${method} with the key: ${JSON.stringify(answered.body)}`);
    }
  });

  it("MCP 2025 batches: each element goes through the middleware", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "docs://readme" } },
    ];
    const headers = { "mcp-protocol-version": "2025-03-26" };
    const refused = await server.fetch(post("/mcp", batch, headers));
    const answers = await refused.json() as { error?: { message: string } }[];
    assert.equal(answers.length, 2);
    for (const answer of answers) assert.match(answer.error!.message, /API key is required/);
    const answered = await (await server.fetch(post("/mcp", batch, { ...headers, ...KEY }))).json() as {
      result?: unknown;
    }[];
    assert.ok(answered.every((a) => a.result !== undefined));
  });

  it("MCP-lite: listtools, tools/list on calltools and tools/call", async () => {
    seen.length = 0;
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    const call = { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } };
    for (
      const [path, body] of [["/mcp-lite/v1/listtools", {}], ["/mcp-lite/v1/calltools", list], [
        "/mcp-lite/v1/calltools",
        call,
      ]] as const
    ) {
      const refused = await send(server, post(path, body));
      assert.equal(refused.status, 401, `${path} without the key`);
      const answered = await send(server, post(path, body, KEY));
      assert.equal(answered.status, 200, `${path} with the key`);
    }
    assert.deepEqual(seen, [
      "tools/list",
      "tools/list",
      "tools/list",
      "tools/list",
      "tools/call add",
      "tools/call add",
    ]);
  });

  it("Webtools: the metadata (tools/list) and the execution (tools/call)", async () => {
    seen.length = 0;
    assert.equal((await server.fetch(new Request("http://localhost/webtools/"))).status, 401);
    assert.equal((await server.fetch(new Request("http://localhost/webtools/", { headers: KEY }))).status, 200);
    const execute = { action: "add", request: { a: 1, b: 2 } };
    assert.equal((await send(server, post("/webtools/", execute))).status, 401);
    assert.deepEqual((await send(server, post("/webtools/", execute, KEY))).body, { status: "ok", data: "3" });
    assert.deepEqual(seen, ["tools/list", "tools/list", "tools/call add", "tools/call add"]);
  });
});

describe("request middleware over stdio", () => {
  const seen: string[] = [];
  let refuse = true;
  const server = createServer({ name: "stdio", version: "1.0.0" }).tool(add).resource(readme).use((call, next) => {
    seen.push(call.method);
    if (refuse) throw new ProtocolError(ErrorCode.Unauthenticated, `not now: ${call.method}`);
    return next();
  });
  const piped = pipeServer(server);
  after(() => piped.end());

  it("sees and can refuse every MCP method, and MCP-lite's", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    piped.send(initialize);
    assert.match(String(((await piped.answer(1)).error as { message: string }).message), /not now: initialize/);
    refuse = false;
    piped.send({ ...initialize, id: 2 });
    assert.ok((await piped.answer(2)).result);
    refuse = true;
    piped.send({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "docs://readme" } });
    assert.match(String(((await piped.answer(3)).error as { message: string }).message), /not now: resources\/read/);
    piped.send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
    assert.match(String(((await piped.answer(4)).error as { message: string }).message), /not now: tools\/list/);
    assert.deepEqual(seen, ["initialize", "initialize", "resources/read", "tools/list"]);
  });
});

describe("request middleware on gRPC and Connect", () => {
  const seen: string[] = [];
  const server = createServer({ name: "grpc", version: "1.0.0", bindings: [grpcBinding()] }).tool(add).use(
    (call, next) => {
      seen.push(call.name === undefined ? call.method : `${call.method} ${call.name}`);
      if (call.ctx.meta.headers.get("x-api-key") !== "k") {
        throw new ProtocolError(ErrorCode.Unauthenticated, `an API key is required for ${call.method}`);
      }
      return next();
    },
  );
  let listener: GrpcListener;
  before(async () => {
    listener = await serveGrpc(server, { port: 0 });
  });
  after(() => listener.close());

  it("Connect on fetch: GetTools is tools/list and CallTool is tools/call; refused without the key", async () => {
    seen.length = 0;
    const connect = (method: string, body: unknown, headers: Record<string, string> = {}) =>
      server.fetch(post(`/mcplite.MCPLite/${method}`, body, headers));
    const call = { name: "add", arguments: { a: 1, b: 2 } };
    for (const [method, body] of [["GetTools", {}], ["CallTool", call]] as const) {
      const refused = await connect(method, body);
      assert.equal(refused.status, 401, method);
      assert.equal((await refused.json()).code, "unauthenticated");
      const answered = await connect(method, body, KEY);
      assert.equal(answered.status, 200, method);
      await answered.body?.cancel();
    }
    assert.deepEqual(seen, ["tools/list", "tools/list", "tools/call add", "tools/call add"]);
  });

  it("gRPC on serveGrpc(): GetTools is refused UNAUTHENTICATED without the key", async () => {
    const status = async (headers: Record<string, string>) => {
      // one empty message, uncompressed; the status in the trailers, or in the headers of a trailers-only answer
      const answer = await h2Exchange(listener.url, "/mcplite.MCPLite/GetTools", {
        "content-type": "application/grpc",
        ...headers,
      }, new Uint8Array(5));
      return (answer.trailers["grpc-status"] ?? answer.headers["grpc-status"]) as string | undefined;
    };
    assert.equal(await status({}), "16");
    assert.equal(await status(KEY), "0");
  });
});
