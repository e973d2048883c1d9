/**
 * `createStdioTransport()`: our client launches a server and speaks to it over stdio. Against our own
 * stdio server on every wire (MCP 2026-07-28 probed, the 2025 handshake, MCP-lite), against servers
 * nobody here wrote (`@modelcontextprotocol/server-everything` on Node, the official SDK v2's stdio
 * server), and against children that fail.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { createClient } from "../../../src/client/mod.ts";
import { ErrorCode, ToolError } from "../../../src/errors/mod.ts";
import { createStdioTransport, type StdioTransportOptions } from "../../../src/client/transports/stdio.ts";
import { recordTimers } from "../../helpers/recorded-timers.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const example = runtimeCommand(`${ROOT}examples/stdio.ts`);

const wires: [string, Partial<StdioTransportOptions>][] = [
  ["MCP (2026-07-28, probed)", {}],
  ["MCP 2025 (initialize)", { protocolVersion: "2025-11-25" }],
  ["MCP-lite over stdio", { wire: "mcp-lite" }],
];

for (const [name, options] of wires) {
  describe(`our stdio client and server: ${name}`, () => {
    it("lists, calls with progress, fails with isError, and cancels", async () => {
      const client = createClient(createStdioTransport({ ...example, ...options }));
      try {
        const tools = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name), ["add_note", "read_note", "count_words", "wait"]);
        await client.call("add_note", { title: "a", text: "one two" });
        const progress: number[] = [];
        const counted = await client.call("count_words", {}, { onProgress: (p) => progress.push(p.progress) });
        assert.deepEqual(counted, { notes: 2, words: 10 });
        assert.deepEqual(progress, [1, 2]);
        await assert.rejects(client.call("read_note", { title: "none" }), (error: Error) => {
          assert.ok(error instanceof ToolError, String(error)); // the tool answered isError
          assert.equal(error.code, ErrorCode.ToolFailed);
          assert.match(error.message, /No note titled "none"/);
          return true;
        });
        const cancel = new AbortController();
        const waiting = client.call("wait", { ms: 30_000 }, { signal: cancel.signal });
        // About time: a caller that gives up a while into the call (asserted the same whenever it does).
        setTimeout(() => cancel.abort(new Error("enough")), 100);
        await assert.rejects(waiting, /enough/); // the abort's reason: the 30 s call was not waited for
        assert.equal(await client.call("read_note", { title: "a" }), "one two"); // the server goes on
      } finally {
        await client.close();
      }
    });
  });
}

describe("our stdio client against servers nobody here wrote", () => {
  it("@modelcontextprotocol/server-everything (Node): tools, a call, a long operation with progress, a resource", async () => {
    const transport = createStdioTransport({
      command: "node",
      args: [`${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, "stdio"],
    });
    const client = createClient(transport);
    try {
      const tools = (await client.listTools()).map((tool) => tool.name);
      assert.ok(tools.includes("echo") && tools.includes("get-sum"), tools.join());
      assert.equal(await client.call("echo", { message: "hi" }), "Echo: hi");
      const progress: number[] = [];
      await client.call("trigger-long-running-operation", { duration: 0.3, steps: 3 }, {
        onProgress: (p) => progress.push(p.progress),
      });
      assert.deepEqual(progress, [1, 2, 3]);
      const resources = await client.listResources();
      assert.ok(resources.length > 0);
      const read = await client.readResource(String(resources[0].uri));
      assert.ok(Array.isArray(read.contents));
    } finally {
      await client.close();
    }
  });

  it("@modelcontextprotocol/server-everything: a task-augmented tool (MCP 2025-11-25 Tasks), asking for input", async () => {
    const transport = createStdioTransport({
      command: "node",
      args: [`${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, "stdio"],
    });
    const asked: string[] = [];
    const client = createClient(transport, {
      pollIntervalMs: 200,
      onElicit: (request) => {
        asked.push(request.message);
        return { action: "accept", content: { interpretation: "historical" } };
      },
    });
    try {
      const tools = await client.listTools();
      const research = tools.find((tool) => tool.name === "simulate-research-query");
      assert.equal(research?.execution?.taskSupport, "required");
      const report = await client.call("simulate-research-query", { topic: "tides", ambiguous: true });
      assert.match(String(report), /^# Research Report: tides \(historical\)$/m);
      assert.equal(asked.length, 1);
      assert.match(asked[0], /"tides" could have multiple interpretations/);
    } finally {
      await client.close();
    }
  });

  it("the official SDK v2's stdio server", async () => {
    const client = createClient(createStdioTransport(runtimeCommand(`${ROOT}tests/helpers/official-stdio-server.ts`)));
    try {
      assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["multiply"]);
      assert.equal(await client.call("multiply", { a: 6, b: 7 }), "42");
    } finally {
      await client.close();
    }
  });
});

describe("children that fail", () => {
  const node = (code: string) => ({ command: "node", args: ["-e", code] });

  it("a server that exits fails the call with its exit code and the tail of its stderr", async () => {
    const client = createClient(
      createStdioTransport(node('console.error("config file missing: /etc/x.toml"); process.exit(3)')),
    );
    await assert.rejects(client.listTools(), (error: Error) => {
      assert.match(error.message, /exited with code 3/);
      assert.match(error.message, /config file missing: \/etc\/x\.toml/);
      return true;
    });
    await client.close();
  });

  it("a server that dies at once fails every call with its exit code and stderr, never a broken pipe (50 spawns)", async () => {
    // The write of the first request races the child's exit: the error must wait for the exit, every time.
    const failures: string[] = [];
    for (let i = 0; i < 50; i++) {
      const client = createClient(createStdioTransport({ command: "sh", args: ["-c", "echo boom >&2; exit 37"] }));
      try {
        await client.listTools();
        failures.push(`run ${i}: listTools() succeeded`);
      } catch (error) {
        const message = (error as Error).message;
        if (!/exited with code 37/.test(message) || !/boom/.test(message)) failures.push(`run ${i}: ${message}`);
      } finally {
        await client.close();
      }
    }
    assert.deepEqual(failures, []);
  });

  it("a server that writes something that is not JSON-RPC fails the call, saying what it wrote", async () => {
    const client = createClient(
      createStdioTransport(node('process.stdout.write("Listening on port 3000\\n"); setInterval(() => {}, 1000)')),
    );
    await assert.rejects(client.listTools(), /not JSON-RPC: Listening on port 3000/);
    await client.close();
  });

  it("a command that does not exist fails with a clear error", async () => {
    const client = createClient(createStdioTransport({ command: "/nonexistent/mcp-server" }));
    await assert.rejects(client.listTools(), /cannot start \/nonexistent\/mcp-server/);
    await client.close();
  });

  it("close() ends a server that ignores stdin closing, with SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-stubborn-"));
    const signals = join(dir, "signals");
    const events = join(dir, "events"); // what the server saw, in order
    const stubborn = node(`
      const { appendFileSync } = require("node:fs");
      process.stdin.on("data", (chunk) => {
        for (const line of String(chunk).split("\\n").filter(Boolean)) {
          const m = JSON.parse(line);
          if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { tools: [] } }) + "\\n");
        }
      });
      process.stdin.on("end", () => appendFileSync(${JSON.stringify(events)}, "stdin closed;")); // keeps running
      process.on("SIGTERM", () => {
        appendFileSync(${JSON.stringify(events)}, "SIGTERM;");
        appendFileSync(${JSON.stringify(signals)}, "SIGTERM");
        process.exit(0);
      });
      setInterval(() => {}, 1000);
    `);
    const transport = createStdioTransport({ ...stubborn, wire: "mcp-lite", closeGraceMs: 300, stderr: "pipe" });
    const client = createClient(transport);
    try {
      await client.listTools();
      const timers = recordTimers();
      try {
        await client.close();
      } finally {
        timers.restore();
      }
      // Stdin closed first, then SIGTERM once the grace passed (the close's timer of 300 ms, not the time a loaded
      // machine took), which ended it (no SIGKILL was needed).
      assert.equal(readFileSync(events, "utf8"), "stdin closed;SIGTERM;");
      assert.ok(timers.delays.includes(300), `no wait of the 300 ms grace: ${timers.delays}`);
      assert.equal(readFileSync(signals, "utf8"), "SIGTERM");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
