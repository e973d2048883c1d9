/**
 * A `.longRunning()` tool with `.output()` called by MCP clients that did not declare the tasks
 * extension: the official v1 client (`@modelcontextprotocol/sdk` 1.32, 2025 revisions), the v2 client
 * (`@modelcontextprotocol/client` 2.4, 2026-07-28 without the extension) and the Inspector CLI, each
 * after `tools/list`, so each validates the result against the tool's `outputSchema`. The server holds
 * such a call until the work ends and answers the real result; past `holdMs` it answers an `isError`
 * result naming the promise, which every one of them accepts.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { LOADED_MS, SECRET, waitFor } from "../../helpers/long-running.ts";
import { outputJobTools, Rows } from "../../helpers/output-jobs.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};
const { StdioClientTransport: StdioV1 } = await import(`${V1}/client/stdio.js`) as {
  StdioClientTransport: new (params: { command: string; args: string[] }) => Parameters<ClientV1["connect"]>[0];
};

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BUN = `${ROOT}node_modules/.bin/bun`;
const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js`;

/**
 * How long the second server holds a call for a client without tasks: it serves `stuck` alone, whose work never
 * ends while it is held; the first holds work that ends for as long as a loaded machine may take (a hold of 1.5 s
 * for every tool made an ended work's answer a race with the clock).
 */
const HOLD_MS = 1_500;

/** The "stuck" works' gate: each ends only once a test opens it (a fresh gate closes it again for the next). */
let gate = Promise.withResolvers<void>();
let stuckEnded = 0; // how many "stuck" works ended

const [crunch, watch] = outputJobTools();
const stuck = defineTool("stuck")
  .describe("Works for longer than the server holds a call")
  .output(Rows)
  .longRunning({ retryAfterMs: 50 })
  .handle((_args, ctx) =>
    ctx.defer(async (signal) => {
      const { promise: opened } = gate;
      await new Promise<void>((resolve) => {
        void opened.then(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
        if (signal.aborted) resolve();
      });
      stuckEnded++;
      return { rows: 1 };
    })
  );

/** The server with the given hold and tools. */
const jobsServer = (holdMs: number) =>
  createServer({
    name: "jobs",
    version: "1.0.0",
    secret: SECRET,
    heartbeatMs: 200,
    bindings: [mcpLiteBinding(), mcpBinding({ holdMs })],
  }).tool(crunch).tool(watch).tool(stuck);

let listener: Listener;
let shortHold: Listener;
before(async () => {
  listener = await serve(jobsServer(LOADED_MS), { port: 0, hostname: "127.0.0.1" });
  shortHold = await serve(jobsServer(HOLD_MS), { port: 0, hostname: "127.0.0.1" });
});
after(async () => {
  gate.resolve();
  await listener.close();
  await shortHold.close();
});

/** What both clients answer a call with. */
interface CallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What both clients can do, in one shape. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Connects a client, lists the tools, and calls them. `overStdio`: the server is a child process
 * (the fixtures of `output-jobs-stdio.ts`, default hold), so the hold's bound is not tested there.
 */
function clientSuite(name: string, connect: (url?: string) => Promise<AnyClient>, overStdio = false): void {
  describe(name, () => {
    let client: AnyClient;
    before(async () => {
      client = await connect(listener.url);
      const { tools } = await client.listTools(); // the client now validates results against outputSchema
      assert.ok(tools.find((tool) => tool.name === "crunch")?.outputSchema !== undefined);
    });
    after(async () => await client.close());

    it("gets deferred work's real result once it ends, well before its retryAfterMs", async () => {
      // The next poll is 30 s away (crunch's retryAfterMs): an answer within a third of it (a bound for any load)
      // came when the work ended, not at the next poll.
      let bound: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([
        client.callTool({ name: "crunch", arguments: { n: 9 } }) as Promise<CallResult>,
        new Promise<never>((_, reject) =>
          bound = setTimeout(() => reject(new Error("answered at the next poll, not when the work ended")), 10_000)
        ),
      ]).finally(() => clearTimeout(bound));
      assert.deepEqual(result.structuredContent, { rows: 9 });
      assert.notEqual(result.isError, true);
    });

    it("gets a continuation's real result after the server redeemed it on its behalf", async () => {
      const result = await client.callTool({ name: "watch" }) as CallResult;
      assert.deepEqual(result.structuredContent, { rows: 7 });
    });

    if (overStdio) return;

    it("past the hold, gets an isError result naming the promise, not a schema violation", async () => {
      const client = await connect(shortHold.url);
      try {
        await client.listTools(); // the client validates results against outputSchema
        const result = await client.callTool({ name: "stuck" }) as CallResult;
        assert.equal(result.isError, true);
        assert.equal(result.structuredContent, undefined);
        const text = result.content[0].text ?? "";
        assert.match(text, /Call the "redeem" tool/);
        const token = /"promise": ("mcl1\.[^"]+")/.exec(text)?.[1];
        assert.ok(token !== undefined, text);
        const ended = stuckEnded;
        gate.resolve();
        await waitFor(() => stuckEnded > ended); // ended: the redeem answers at once, whatever the hold
        const redeemed = await client.callTool({ name: "redeem", arguments: { promise: JSON.parse(token) } });
        assert.deepEqual((redeemed as CallResult).structuredContent, { rows: 1 });
      } finally {
        gate = Promise.withResolvers<void>();
        await client.close();
      }
    });
  });
}

clientSuite("the official v1 client (2025 revisions)", async (url) => {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(new TransportV1(new URL(`${url}/mcp`)));
  return client;
});

clientSuite("the official v2 client (2026-07-28, no tasks extension)", async (url) => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" });
  await client.connect(new TransportV2(new URL(`${url}/mcp`)));
  return client;
});

const stdioServer = runtimeCommand(`${ROOT}tests/helpers/output-jobs-stdio.ts`);

clientSuite("the official v1 client over stdio (2025-11-25)", async () => {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(new StdioV1(stdioServer));
  return client;
}, true);

clientSuite("the official v2 client over stdio", async () => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" });
  await client.connect(new StdioV2(stdioServer));
  return client;
}, true);

/** Runs the Inspector CLI against a target: a URL and its transport, or a command ({@link LOADED_MS} at most). */
function inspect(target: string[], ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      BUN,
      [INSPECTOR, "--cli", ...target, ...args],
      { timeout: LOADED_MS, cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Calls a tool with the Inspector CLI and returns the printed result, failing on a non-zero exit. */
async function inspectCall(target: string[], tool: string): Promise<CallResult> {
  const { code, stdout, stderr } = await inspect(target, "--method", "tools/call", "--tool-name", tool);
  assert.equal(code, 0, stderr || stdout);
  return JSON.parse(stdout);
}

describe("the MCP Inspector CLI", () => {
  it("over Streamable HTTP, calls deferred work and a continuation and prints their real results", async () => {
    const http = [`${listener.url}/mcp`, "--transport", "http"];
    for (const [tool, rows] of [["crunch", 42], ["watch", 7]] as const) {
      const result = await inspectCall(http, tool);
      assert.deepEqual(result.structuredContent, { rows });
      assert.notEqual(result.isError, true);
    }
  });

  it("over stdio, calls deferred work and prints its real result", async () => {
    const result = await inspectCall([stdioServer.command, ...stdioServer.args], "crunch");
    assert.deepEqual(result.structuredContent, { rows: 42 });
  });
});
