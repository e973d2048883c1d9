/**
 * A `.stream()` tool that reports its own progress, over MCP: the author's `ctx.progress()` values,
 * totals and messages reach the caller intact and increasing (MCP 2025-11-25, Progress), and the
 * yielded partials take none of them. Called by the official v1 client (`@modelcontextprotocol/sdk`
 * 1.32) and v2 client (`@modelcontextprotocol/client` 2.4) over Streamable HTTP and over stdio, and by
 * our own client, which still receives the partials.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { serve } from "../../../mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import type { Transport } from "../../../src/client/transport.ts";
import { createStdioTransport } from "../../../src/client/transports/stdio.ts";
import type { Listener } from "../../../src/types.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";
import { PARTS, steppingServer, STEPS } from "../../helpers/stepping.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load them by a computed specifier (typed here by hand), as a user on Node would.
type V1Transport = Parameters<ClientV1["connect"]>[0];
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => V1Transport;
};
const { StdioClientTransport: StdioV1 } = await import(`${V1}/client/stdio.js`) as {
  StdioClientTransport: new (params: { command: string; args: string[]; stderr?: "pipe" }) => V1Transport;
};

const child = runtimeCommand(fileURLToPath(new URL("../../helpers/stepping-stdio-server.ts", import.meta.url)));
const JOINED = PARTS.join("");

/** One progress notification as the official clients hand it over. */
interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** What the official clients return for a call. */
interface CallResult {
  content: { type: string; text?: string }[];
}

/** Calls `stepping` with a progress callback: `call` adapts the client's own signature. */
async function stepThrough(
  call: (onprogress: (p: Progress) => void) => Promise<unknown>,
): Promise<{ progress: unknown[]; text: string | undefined }> {
  const progress: unknown[] = [];
  const result = await call((p) => progress.push([p.progress, p.total, p.message])) as CallResult;
  return { progress, text: result.content.map((block) => block.text).join("") };
}

let listener: Listener;
before(async () => listener = await serve(steppingServer(), { port: 0, hostname: "127.0.0.1" }));
after(async () => await listener.close());

const officialClients: [string, () => Promise<{ call: Parameters<typeof stepThrough>[0]; close(): Promise<void> }>][] =
  [
    ["v1 over Streamable HTTP", () => v1(new HttpV1(new URL(`${listener.url}/mcp`)))],
    ["v1 over stdio", () => v1(new StdioV1({ ...child, stderr: "pipe" }))],
    ["v2 over Streamable HTTP (2026-07-28)", () => v2(new HttpV2(new URL(`${listener.url}/mcp`)))],
    ["v2 over stdio (2025-11-25)", () => v2(new StdioV2({ ...child, stderr: "pipe" }))],
  ];

/**
 * Over stdio the call is `stepping_acked`, and the first progress calls `ack`: the official clients drop
 * progress they read in the same chunk as the answer (typescript-sdk issue 2580), so the tool waits until the
 * first step has reached the caller's handler, however loaded the machine.
 */
function acked(transport: unknown, callTool: (name: string, onprogress?: (p: Progress) => void) => Promise<unknown>) {
  const stdio = transport instanceof StdioV1 || transport instanceof StdioV2;
  return (onprogress: (p: Progress) => void) =>
    callTool(stdio ? "stepping_acked" : "stepping", (p) => {
      if (stdio && p.progress === 1) void callTool("ack");
      onprogress(p);
    });
}

async function v1(transport: V1Transport) {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(transport);
  return {
    call: acked(
      transport,
      (name, onprogress) => client.callTool({ name, arguments: {} }, undefined, onprogress && { onprogress }),
    ),
    close: () => client.close(),
  };
}

async function v2(transport: Parameters<ClientV2["connect"]>[0]) {
  const client = new ClientV2({ name: "v2", version: "2.4.0" });
  await client.connect(transport);
  return {
    call: acked(
      transport,
      (name, onprogress) => client.callTool({ name, arguments: {} }, onprogress && { onprogress }),
    ),
    close: () => client.close(),
  };
}

describe("a streaming tool's own progress, from the official clients", () => {
  for (const [name, connect] of officialClients) {
    it(`arrives intact and increasing, and the result holds every part (${name})`, async () => {
      const client = await connect();
      try {
        const { progress, text } = await stepThrough(client.call);
        if (name.includes("stdio")) {
          // The first step is acknowledged before the tool goes on; of the rest, the official clients drop what
          // they read in the same chunk as the answer (typescript-sdk issue 2580), however early the server
          // writes it. What arrives must be the author's own, intact and in order.
          assert.deepEqual(progress[0], STEPS[0]);
          const steps = progress as [number, number, string][];
          for (const entry of steps) assert.deepEqual(entry, STEPS[entry[0] - 1]);
          assert.deepEqual(steps.map(([step]) => step), steps.map(([step]) => step).sort((a, b) => a - b));
        } else assert.deepEqual(progress, STEPS);
        assert.equal(text, JOINED);
      } finally {
        await client.close();
      }
    });
  }
});

describe("a streaming tool's own progress, from our client", () => {
  const ours: [string, () => Transport | string, Record<string, unknown>][] = [
    ["HTTP, 2026-07-28", () => `${listener.url}/mcp`, {}],
    ["HTTP, 2025-11-25", () => `${listener.url}/mcp`, { protocolVersion: "2025-11-25" }],
    ["stdio, 2026-07-28", () => createStdioTransport(child), {}],
    ["stdio, 2025-11-25", () => createStdioTransport({ ...child, protocolVersion: "2025-11-25" }), {}],
  ];
  for (const [name, target, options] of ours) {
    it(`keeps progress and partials apart (${name})`, async () => {
      const client = createClient(target(), options);
      try {
        const progress: unknown[] = [];
        const stream = client.stream("stepping", {}, {
          onProgress: (p) => progress.push([p.progress, p.total, p.message]),
        });
        const partials: unknown[] = [];
        for await (const partial of stream) partials.push(partial);
        assert.deepEqual(partials, PARTS);
        assert.deepEqual(progress, STEPS);
        assert.equal(await stream.result, JOINED);
      } finally {
        await client.close();
      }
    });
  }
});
