/**
 * `transformTool()`: a tool renamed, described anew, with arguments renamed, defaulted and hidden
 * (valued from the call's context), extra validation, mapped output and scopes, listed and called as
 * any tool on every wire: MCP 2026-07-28 and MCP-lite over HTTP with the SDK's client, gRPC `GetTools`
 * over HTTP/2, Webtools' metadata and the OpenAPI document; and a tool imported from OpenAPI, transformed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, transformTool } from "../../mod.ts";
import { ErrorCode, McpliteError } from "../../src/errors/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { openapiBinding, toolsFromOpenAPI } from "../../src/bindings/openapi/mod.ts";
import { type Listener, serve } from "../../src/server/serve.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { post } from "../helpers/request.ts";

const search = defineTool("search_v2")
  .describe("Searches the index (v2 API)")
  .input(v.object({
    q: v.pipe(v.string(), v.description("the query string")),
    limit: v.pipe(v.number(), v.integer()),
    tenant: v.string(),
  }))
  .output(v.object({ hits: v.array(v.string()) }))
  .handle(({ q, limit, tenant }) => ({ hits: [`${tenant}:${q}:1`, `${tenant}:${q}:2`].slice(0, limit) }));

const find = transformTool(search, {
  name: "find",
  title: "Find documents",
  description: "Finds documents by keyword",
  annotations: { readOnlyHint: true },
  args: {
    q: { name: "query", description: "Keywords to look for" },
    limit: { default: 1 },
    tenant: { hide: true, value: (ctx) => ctx.meta.headers.get("x-tenant") ?? "public" },
  },
  validate: v.object({ query: v.pipe(v.string(), v.minLength(2, "at least 2 characters")) }),
  output: {
    map: ({ hits }) => ({ first: hits[0] ?? null, count: hits.length }),
    schema: v.object({ first: v.nullable(v.string()), count: v.number() }),
  },
});

/** The input schema every wire must advertise for `find`. */
const FIND_INPUT = {
  type: "object",
  properties: {
    query: { type: "string", description: "Keywords to look for" },
    limit: { type: "integer", default: 1 },
  },
  required: ["query"],
};
const FIND_OUTPUT = {
  type: "object",
  properties: { first: { anyOf: [{ type: "string" }, { type: "null" }] }, count: { type: "number" } },
  required: ["first", "count"],
};

function app() {
  return createServer({
    name: "docs",
    version: "1.0.0",
    bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), grpcBinding(), openapiBinding()],
  }).tool(search).tool(find);
}

/** A listed tool's schemas, without what a wire adds around them. */
function schemasOf(tools: readonly { name: string; inputSchema?: unknown; outputSchema?: unknown }[], name: string) {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool, `${name} is listed`);
  return { input: tool.inputSchema, output: tool.outputSchema };
}

describe("transformTool() over HTTP: MCP 2026-07-28 and MCP-lite", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(app(), { port: 0, hostname: "127.0.0.1" });
  });
  after(async () => await listener.close());

  for (const transport of ["mcp", "mcp-lite"] as const) {
    const client = () =>
      createClient(transport === "mcp" ? `${listener.url}/mcp` : listener.url, {
        transport,
        headers: { "x-tenant": "acme" },
      });

    it(`${transport}: lists the new name, description and schemas, the original beside it`, async () => {
      const tools = await client().listTools();
      assert.deepEqual(tools.map((t) => t.name), ["search_v2", "find"]);
      const listed = tools.find((t) => t.name === "find")!;
      assert.equal(listed.title, "Find documents");
      assert.equal(listed.description, "Finds documents by keyword");
      assert.deepEqual(listed.annotations, { readOnlyHint: true });
      assert.deepEqual(schemasOf(tools, "find"), { input: FIND_INPUT, output: FIND_OUTPUT });
      const original = schemasOf(tools, "search_v2").input as { properties: Record<string, unknown> };
      assert.deepEqual(Object.keys(original.properties), ["q", "limit", "tenant"], "the original is unchanged");
    });

    it(`${transport}: maps the arguments back, fills the default and the hidden value, maps the output`, async () => {
      const c = client();
      assert.deepEqual(await c.call("find", { query: "mcp" }), { first: "acme:mcp:1", count: 1 });
      assert.deepEqual(await c.call("find", { query: "mcp", limit: 5 }), { first: "acme:mcp:1", count: 2 });
      assert.deepEqual(await c.call("search_v2", { q: "mcp", limit: 5, tenant: "t" }), {
        hits: ["t:mcp:1", "t:mcp:2"],
      });
    });

    it(`${transport}: refuses hidden and old names, the extra check and the original's, as invalid arguments`, async () => {
      const c = client();
      const refused = async (args: Record<string, unknown>, pattern: RegExp) => {
        const error = await (c.call as (name: string, args: unknown) => Promise<unknown>)("find", args).then(
          () => assert.fail(`${JSON.stringify(args)} was accepted`),
          (e: unknown) => e,
        );
        assert.ok(error instanceof McpliteError, String(error));
        assert.equal(error.code, ErrorCode.InvalidArguments, error.message);
        assert.match(error.message, pattern);
      };
      await refused({ query: "mcp", tenant: "other" }, /tenant: Unknown argument: it is not an argument of this tool/);
      await refused({ q: "mcp" }, /q: Unknown argument: it is now called "query"/);
      await refused({ query: "m" }, /query: at least 2 characters/);
      await refused({ query: "mcp", limit: 1.5 }, /limit: Invalid integer/);
      await refused({ query: 42 }, /query: /);
    });
  }

  it("mcp: a raw tools/list shows what the client saw", async () => {
    const response = await fetch(`${listener.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "tests", version: "0.0.0" },
          },
        },
      }),
    });
    const body = await response.json();
    assert.deepEqual(schemasOf(body.result.tools, "find"), { input: FIND_INPUT, output: FIND_OUTPUT });
  });
});

describe("transformTool() on gRPC, Webtools and OpenAPI", () => {
  const server = app();
  const grpc = grpcListener(server);

  it("gRPC GetTools (HTTP/2) lists the transformed schemas, and CallTool maps", async () => {
    const client = grpc.client("gRPC");
    const list = await client.getTools({});
    const tools = list.tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema, outputSchema: t.outputSchema }));
    assert.deepEqual(schemasOf(tools, "find"), { input: FIND_INPUT, output: FIND_OUTPUT });
    const { result } = await client.callTool({ name: "find", arguments: { query: "rpc", limit: 2 } });
    assert.deepEqual(result?.structuredContent, { first: "public:rpc:1", count: 2 });
  });

  it("Webtools' metadata and the OpenAPI document describe the transformed tool", async () => {
    const webtools = await (await server.fetch(new Request("http://localhost/webtools"))).json();
    const action = webtools.actions.find((a: { name: string }) => a.name === "find");
    assert.deepEqual(action.requestSchema, FIND_INPUT);
    assert.deepEqual(action.responseSchema, FIND_OUTPUT);
    const document = await (await server.fetch(new Request("http://localhost/api/openapi.json"))).json();
    const operation = document.paths["/api/tools/find"].post;
    assert.deepEqual(operation.requestBody.content["application/json"].schema, FIND_INPUT);
    assert.equal(operation.description ?? operation.summary, "Finds documents by keyword");
    assert.equal(document.paths["/api/tools/search_v2"].post.operationId, "search_v2");
  });
});

describe("transformTool() on a tool imported from OpenAPI", () => {
  const document = {
    openapi: "3.1.0",
    info: { title: "Issues", version: "1.0.0" },
    paths: {
      "/repos/{owner}/issues": {
        get: {
          operationId: "listRepoIssues",
          summary: "Lists a repository's issues",
          parameters: [
            { name: "owner", in: "path", required: true, schema: { type: "string" } },
            { name: "st", in: "query", schema: { type: "string", enum: ["open", "closed"] } },
            { name: "X-Api-Key", in: "header", required: true, schema: { type: "string" } },
          ],
          responses: {
            "200": { description: "The issues", content: { "application/json": { schema: { type: "array" } } } },
          },
        },
      },
    },
  };
  /** The API itself, in process: it records what it was asked and answers with two issues. */
  const seen: { url: string; key: string | null }[] = [];
  const api = (request: Request) => {
    seen.push({ url: request.url, key: request.headers.get("x-api-key") });
    return Promise.resolve(Response.json([{ number: 1, state: "open" }, { number: 2, state: "open" }]));
  };

  it("renames, hides (valued from the caller), defaults and maps an imported operation, on MCP and MCP-lite", async () => {
    const [imported] = await toolsFromOpenAPI(document, { baseUrl: "http://api.test", fetch: api });
    const issues = transformTool(imported, {
      name: "my_issues",
      description: "Lists the caller's open issues",
      args: {
        owner: { hide: true, value: (ctx) => ctx.auth?.subject },
        st: { name: "state", default: "open", description: "open or closed" },
        "X-Api-Key": { hide: true, value: "k-123" },
      },
      // The import answers a JSON array wrapped, { result: [...] } (its output schema's shape).
      output: {
        map: (value) => ({ numbers: (value as { result: { number: number }[] }).result.map((i) => i.number) }),
      },
    });
    const server = createServer({ name: "gateway", version: "1.0.0", auth: opaqueAuth() }).tool(issues);
    const listed = await (await server.fetch(post("/mcp-lite/v1/listtools", {}, bearer("reader")))).json();
    assert.deepEqual(listed.tools[0].inputSchema.properties, {
      state: { type: "string", enum: ["open", "closed"], default: "open", description: "open or closed" },
    });
    assert.equal(listed.tools[0].inputSchema.required, undefined);
    const call = await (await server.fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "my_issues", arguments: {} },
    }, bearer("reader")))).json();
    assert.deepEqual(call.result?.structuredContent ?? call.structuredContent, { numbers: [1, 2] });
    assert.deepEqual(seen.at(-1), { url: "http://api.test/repos/reader/issues?st=open", key: "k-123" });
    const refused = await (await server.fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "my_issues", arguments: { state: "closed", owner: "someone-else" } },
    }, bearer("reader")))).json();
    assert.match(JSON.stringify(refused), /owner: Unknown argument/);
    const mistyped = await (await server.fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "my_issues", arguments: { state: 5 } },
    }, bearer("reader")))).json();
    const paths = (mistyped.error?.data?.issues as { path: string }[] | undefined)?.map((issue) => issue.path);
    assert.ok(paths?.length && paths.every((path) => path === "state"), JSON.stringify(mistyped)); // renamed from st
    assert.equal(seen.length, 1, "a refused call never reaches the API");
  });
});

describe("transformTool() and scopes", () => {
  const purge = defineTool("purge").describe("Purges a document").scopes("docs:read").input(
    v.object({ id: v.string() }),
  ).handle(({ id }) => `purged ${id}`);
  const adminPurge = transformTool(purge, { name: "admin_purge", scopes: ["docs:admin"] });
  const server = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth() }).tool(purge).tool(adminPurge);
  const list = async (token: string) =>
    (await (await server.fetch(post("/mcp-lite/v1/listtools", {}, bearer(token)))).json()).tools.map((
      t: { name: string },
    ) => t.name);
  const call = (token: string) =>
    server.fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "admin_purge", arguments: { id: "7" } },
    }, bearer(token)));

  it("keeps the original's scopes and adds its own: lists show it only to callers holding both", async () => {
    assert.deepEqual(adminPurge.scopes, ["docs:read", "docs:admin"]);
    assert.deepEqual(await list("stranger"), []);
    assert.deepEqual(await list("reader"), ["purge"]);
    assert.deepEqual(await list("admin"), ["purge", "admin_purge"]);
  });

  it("refuses a caller without them with 403 insufficient_scope, as .scopes() does", async () => {
    const refused = await call("reader");
    assert.equal(refused.status, 403);
    assert.match(
      refused.headers.get("www-authenticate") ?? "",
      /error="insufficient_scope", scope="docs:read docs:admin"/,
    );
    await refused.body?.cancel();
    const done = await (await call("admin")).json();
    assert.match(JSON.stringify(done), /purged 7/);
  });
});

describe("transformTool() definitions", () => {
  it("refuses what cannot work, naming it", () => {
    assert.throws(() => transformTool(search, { args: { nope: { name: "x" } } as never }), /no argument "nope"/);
    assert.throws(
      () => transformTool(search, { args: { tenant: { hide: true } } }),
      /"tenant" is required: hide it with a value/,
    );
    assert.throws(
      () => transformTool(search, { args: { q: { name: "limit" } } }),
      /two arguments would be called "limit"/,
    );
    assert.throws(() => transformTool(search, { name: "bad name" }), /invalid tool name/);
    const ticks = defineTool("ticks").describe("Ticks").stream(async function* () {
      yield 1;
    });
    assert.throws(() => transformTool(ticks, { output: { map: () => 1 } }), /streaming or long-running/);
  });

  it("swaps two arguments' names, and streams through a transformed streaming tool", async () => {
    const minus = defineTool("minus").describe("Subtracts").input(v.object({ a: v.number(), b: v.number() }))
      .stream(async function* ({ a, b }) {
        yield "working";
        return { difference: a - b };
      });
    const swapped = transformTool(minus, { args: { a: { name: "b" }, b: { name: "a" } } });
    const server = createServer({ name: "m", version: "1.0.0" }).tool(swapped);
    const outcome = await server.call("minus", { a: 1, b: 10 });
    assert.ok(outcome.kind === "answer");
    assert.deepEqual(outcome.result.structuredContent, { difference: 9 });
  });

  it("keeps a long-running tool's promises: redeemed under the new name, through the original's .redeem()", async () => {
    const analyze = defineTool("analyze").describe("Answers later")
      .input(v.object({ id: v.string(), owner: v.string() }))
      .handle(({ id, owner }, ctx) => ctx.promise({ state: { id, owner } }))
      .redeem(({ id, owner }) => ({ id, owner, rows: 42 }));
    const later = transformTool(analyze, {
      name: "analyze_later",
      args: { id: { name: "dataset" }, owner: { hide: true, value: (ctx) => ctx.meta.headers.get("x-owner") ?? "?" } },
    });
    const server = createServer({ name: "t", version: "1", secret: "a test secret of at least thirty-two bytes" })
      .tool(later);
    const call = async (name: string, args: unknown) =>
      await (await server.fetch(post("/mcp-lite/v1/calltools", {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: args },
      }, { "x-owner": "ada" }))).json();
    const first = await call("analyze_later", { dataset: "d1" });
    const token = first.result?._meta?.promise_token;
    assert.equal(typeof token, "string", JSON.stringify(first));
    const redeemed = await call("redeem", { promise: token });
    assert.deepEqual(redeemed.result.structuredContent, { id: "d1", owner: "ada", rows: 42 });
  });

  it("runs a check function over the new names, defaults filled in: a message or issues refuse the call", async () => {
    const seen: unknown[] = [];
    const ranged = transformTool(search, {
      name: "ranged",
      args: { q: { name: "query" }, limit: { default: 2 }, tenant: { hide: true, value: "t" } },
      validate: (args) => {
        seen.push(args);
        if (args.query === "all") return "query: too broad";
        return (args.limit ?? 0) > 10 ? [{ path: "limit", message: "at most 10" }] : undefined;
      },
    });
    const server = createServer({ name: "r", version: "1.0.0" }).tool(ranged);
    const outcome = await server.call("ranged", { query: "mcp" });
    assert.ok(outcome.kind === "answer");
    assert.deepEqual(outcome.result.structuredContent, { hits: ["t:mcp:1", "t:mcp:2"] });
    assert.deepEqual(seen, [{ query: "mcp", limit: 2 }]);
    await assert.rejects(server.call("ranged", { query: "all" }), (error: Error & { code?: string }) => {
      assert.equal(error.code, ErrorCode.InvalidArguments);
      assert.match(error.message, /query: too broad/);
      return true;
    });
    await assert.rejects(server.call("ranged", { query: "mcp", limit: 11 }), /limit: at most 10/);
  });

  it("copies the caller's arguments as data: a __proto__ key sets no hidden argument, defaults go by own keys", async () => {
    const seen: unknown[] = [];
    const account = defineTool("account").describe("Reads an account")
      .input(v.object({ q: v.string(), role: v.optional(v.string()), constructor: v.optional(v.string()) }))
      .handle((args) => (seen.push(args), "ok"));
    const hidden = transformTool(account, {
      args: { role: { hide: true }, constructor: { name: "ctor", default: "made" } },
    });
    const server = createServer({ name: "a", version: "1.0.0" }).tool(hidden);
    // In process, the arguments object is the caller's own: JSON.parse keeps __proto__ as an own key.
    const outcome = await server.call("account", JSON.parse('{"q":"x","__proto__":{"role":"admin"}}'));
    assert.ok(outcome.kind === "answer", JSON.stringify(outcome));
    assert.deepEqual(seen, [{ q: "x", constructor: "made" }]);
    assert.equal(({} as Record<string, unknown>).role, undefined);
  });

  it("passes a failure of the original on, unmapped", async () => {
    const flaky = defineTool("flaky").describe("Fails").output(v.object({ n: v.number() })).handle(() => {
      throw new Error("upstream is down");
    });
    const mapped = transformTool(flaky, { output: { map: ({ n }) => ({ doubled: n * 2 }) } });
    const outcome = await createServer({ name: "f", version: "1.0.0", logger: false }).tool(mapped).call("flaky", {});
    assert.ok(outcome.kind === "failure");
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "upstream is down" }]);
  });
});
