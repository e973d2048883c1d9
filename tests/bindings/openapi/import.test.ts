/**
 * `toolsFromOpenAPI()`: a server's own document imported into a second server answers the same through
 * MCP (the official v2 client) and MCP-lite; GitHub's REST description (`@octokit/openapi`, OpenAPI
 * 3.0.3) and Directus's (`@directus/specs`, 3.0.1) import every operation as a uniquely named, valid
 * tool in bounded memory, and their calls reach a local HTTP server the test starts, with
 * input validated before any request leaves.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServer, serve, type Server } from "../../../mod.ts";
import type { ToolMap } from "../../../src/server/server.ts";
import type { Listener } from "../../../src/types.ts";
import { openapiBinding, toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { add, echo, fails } from "../../helpers/fixtures.ts";
import { GITHUB_OPENAPI_MISSING, githubDescription } from "../../helpers/github-openapi.ts";

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const require = createRequire(import.meta.url);
/** A JSON file inside an installed package (its `package.json` found first: exports may hide the rest). */
const readJson = (pkg: string, file: string) =>
  JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`).replace(/package\.json$/, file), "utf8"));

function countOperations(document: { paths: Record<string, Record<string, unknown>> }): number {
  let count = 0;
  for (const item of Object.values(document.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) if (item[method] !== undefined) count++;
  }
  return count;
}

async function liteCall(origin: string, name: string, args: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const { result } = await response.json();
  const { _meta: _, ...rest } = result;
  return rest;
}

describe("round trip: a server's own document, imported into a second server", () => {
  let api: Listener;
  let proxy: Listener;
  before(async () => {
    const origin = createServer({ name: "api", version: "1.0.0", bindings: [openapiBinding()] }).tool(add).tool(echo)
      .tool(fails);
    api = await serve(origin, { port: 0, hostname: "127.0.0.1", quiet: true });
    const apiUrl = api.url.replace(/\/$/, "");
    const document = await (await fetch(`${apiUrl}/api/openapi.json`)).json();
    const tools = await toolsFromOpenAPI(document, { baseUrl: apiUrl });
    let second = createServer({ name: "proxy", version: "1.0.0" });
    for (const tool of tools) second = second.tool(tool);
    proxy = await serve(second, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  it("answers the same as the original through MCP-lite", async () => {
    const origin = proxy.url.replace(/\/$/, "");
    assert.deepEqual(await liteCall(origin, "add", { a: 2, b: 5 }), {
      content: [{ type: "text", text: '{"sum":7}' }],
      structuredContent: { sum: 7 },
    });
    assert.deepEqual(await liteCall(origin, "echo", { text: "hi", times: 2 }), {
      content: [{ type: "text", text: "hihi" }],
    });
    const failed = await liteCall(origin, "fails", {});
    assert.equal(failed.isError, true);
    assert.match(JSON.stringify(failed.content), /HTTP 422: the quota is exhausted/);
  });

  it("answers the same as the original through MCP (the official v2 client)", async () => {
    const client = new Client({ name: "v2", version: "2.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url.replace(/\/$/, "")}/mcp`)));
    try {
      const listed = await client.listTools();
      assert.deepEqual(listed.tools.map((t) => t.name).sort(), ["add", "echo", "fails"]);
      const sum = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
      assert.deepEqual(sum.structuredContent, { sum: 3 });
      const bad = await client.callTool({ name: "add", arguments: { a: "one" } });
      assert.equal(bad.isError, true, "refused by the imported JSON Schema before any request left");
    } finally {
      await client.close();
    }
  });
});

describe("real-world descriptions from npm", () => {
  let upstream: Listener;
  const seen: { method: string; url: string; body: string; authorization: string | null }[] = [];
  before(async () => {
    // A few of GitHub's operation shapes: GET /repos/{owner}/{repo}, POST /repos/{owner}/{repo}/issues.
    upstream = await serve({
      fetch: async (request: Request) => {
        const url = new URL(request.url);
        seen.push({
          method: request.method,
          url: url.pathname + url.search,
          body: await request.text(),
          authorization: request.headers.get("authorization"),
        });
        if (request.method === "GET" && url.pathname === "/repos/octo/hello") {
          return Response.json({ id: 1, full_name: "octo/hello", private: false });
        }
        if (request.method === "POST" && url.pathname === "/repos/octo/hello/issues") {
          return Response.json({ number: 7, title: JSON.parse(seen.at(-1)!.body).title }, { status: 201 });
        }
        if (url.pathname.startsWith("/repos/")) {
          return Response.json({ message: "Not Found", documentation_url: "https://docs" }, { status: 404 });
        }
        return Response.json(
          { type: "about:blank", title: "Bad Request", status: 400, detail: "no" },
          { status: 400, headers: { "content-type": "application/problem+json" } },
        );
      },
    }, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => upstream.close());

  it(
    "imports every GitHub REST operation (OpenAPI 3.0.3) as a uniquely named valid tool, in bounded memory",
    { timeout: 180_000 },
    async (t) => {
      const document = await githubDescription("api.github.com.json");
      if (document === undefined) return t.skip(GITHUB_OPENAPI_MISSING);
      const operations = countOperations(document);
      assert.ok(operations > 1_000, `GitHub describes ${operations} operations`);
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      const tools = await toolsFromOpenAPI(document, {
        baseUrl: upstream.url,
        headers: { authorization: "Bearer configured-token" },
        // The recording upstream answers abbreviated bodies, not GitHub's documented ones: listed, not checked.
        outputSchemas: "list",
      });
      const ms = performance.now() - started;
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
      console.log(`@octokit/openapi: ${tools.length} tools in ${ms.toFixed(0)} ms, heap +${heapMb.toFixed(0)} MB`);
      assert.equal(tools.length, operations);
      assert.equal(new Set(tools.map((t) => t.name)).size, tools.length, "unique names");
      for (const tool of tools) assert.match(tool.name, NAME);
      // Its speed is not asserted (the time measures the machine); the test's timeout stops a runaway import.
      assert.ok(heapMb < 1_024, `heap grew ${heapMb} MB`);
      // Every tool's input schema is serialisable JSON (no cycle left by a recursive schema).
      for (const tool of tools) JSON.stringify(tool.input.jsonSchema);

      // Imported tools are known at run time only: the server is typed with any tool name.
      const server: Server<ToolMap> = createServer({ name: "github", version: "1.0.0" });
      for (const tool of tools) server.tool(tool);
      const get = await server.call("repos_get", { owner: "octo", repo: "hello" });
      assert.equal(get.kind, "answer");
      assert.deepEqual(get.kind === "answer" && get.result.structuredContent, {
        id: 1,
        full_name: "octo/hello",
        private: false,
      });
      assert.equal(seen.at(-1)!.authorization, "Bearer configured-token", "the configured credentials");
      const created = await server.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", labels: ["a"] });
      assert.deepEqual(created.kind === "answer" && created.result.structuredContent, { number: 7, title: "Bug" });
      assert.deepEqual(JSON.parse(seen.at(-1)!.body), { title: "Bug", labels: ["a"] });
      const missing = await server.call("repos_get", { owner: "octo", repo: "nope" });
      assert.equal(missing.kind, "failure");
      assert.deepEqual(missing.kind === "failure" && missing.result.structuredContent?.status, 404);
      const before = seen.length;
      await assert.rejects(server.call("issues_create", { owner: "octo", repo: "hello" }), /title/);
      // An open body (no additionalProperties: false): a misspelt argument is refused all the same.
      await assert.rejects(
        server.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", lables: ["x"] }),
        /Unknown argument "lables".*did you mean "labels"\?/,
      );
      assert.equal(seen.length, before, "invalid input never leaves");
      const listed = await server.call("issues_list-for-repo", {
        owner: "octo",
        repo: "hello",
        labels: "bug",
        per_page: 5,
      });
      assert.equal(listed.kind, "failure");
      assert.equal(seen.at(-1)!.url, "/repos/octo/hello/issues?labels=bug&per_page=5");
    },
  );

  it("imports every Directus operation (OpenAPI 3.0.1) as a uniquely named valid tool", async () => {
    const document = readJson("@directus/specs", "dist/openapi.json");
    const started = performance.now();
    const tools = await toolsFromOpenAPI(document, { baseUrl: upstream.url });
    console.log(`@directus/specs: ${tools.length} tools in ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(tools.length, countOperations(document));
    assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
    for (const tool of tools) {
      assert.match(tool.name, NAME);
      JSON.stringify(tool.input.jsonSchema);
    }
    const get = tools.find((t) => t.annotations?.readOnlyHint === true);
    assert.ok(get, "GET operations are read-only");
    assert.ok(tools.some((t) => t.annotations?.destructiveHint === true), "DELETE operations are destructive");
  });
});
