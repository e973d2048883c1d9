/**
 * Scenario 5: `tools/call` round trips over stdio (MCP 2025-11-25, Transports: stdio), each server a
 * child process on the runtime running the bench, called one request at a time over its stdin and
 * stdout: ours (MCP-lite, MCP 2025 after `initialize`, MCP 2026-07-28 with its envelope), the official
 * SDK v2's and tmcp's stdio servers, against a floor that parses each line and answers a fixed result.
 * Beside them, ours over a WebSocket (MCP-lite's messages, one per text frame; MCP-lite spec v0.042
 * §8.2): the same child, its socket on 127.0.0.1, the bench's runtime's global `WebSocket` calling.
 *
 * Run: `bun bench/stdio.bench.ts` · `deno run -A bench/stdio.bench.ts` · `npm run bench` (Bun and Deno:
 * the children are TypeScript, which Node 20 cannot run).
 *
 * @module
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runScenario } from "./harness.ts";

const DENO = (globalThis as { Deno?: unknown }).Deno !== undefined;

/** One server as a child process, with requests matched to responses by id. */
class Child {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, (line: string) => void>();
  #first: ((line: string) => void) | undefined;
  /** The first line the child wrote (the WebSocket child's port). */
  readonly firstLine: Promise<string> = new Promise((resolve) => this.#first = resolve);
  #pending = "";
  #nextId = 1;

  constructor(file: string) {
    const path = fileURLToPath(new URL(file, import.meta.url));
    const args = DENO ? ["run", "-A", path] : [path];
    this.#child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stderr.resume();
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (text: string) => {
      this.#pending += text;
      let at: number;
      while ((at = this.#pending.indexOf("\n")) !== -1) {
        const line = this.#pending.slice(0, at);
        this.#pending = this.#pending.slice(at + 1);
        this.#first?.(line);
        this.#first = undefined;
        const match = /"id":(\d+)/.exec(line);
        if (match !== null) this.#waiting.get(Number(match[1]))?.(line);
      }
    });
  }

  /** Sends a request and resolves with its response line. */
  request(method: string, params: Record<string, unknown>): Promise<string> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, (line) => {
        this.#waiting.delete(id);
        resolve(line);
      });
      this.#child.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`);
    });
  }

  /** Sends a notification. */
  notify(method: string): void {
    this.#child.stdin.write(`{"jsonrpc":"2.0","method":"${method}"}\n`);
  }

  /** Opens a 2025 session. */
  async initialize(): Promise<this> {
    await this.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1.0.0" },
    });
    this.notify("notifications/initialized");
    return this;
  }

  /** Ends it. */
  stop(): void {
    this.#child.stdin.end();
    setTimeout(() => this.#child.kill("SIGKILL"), 1000).unref?.();
  }
}

/** A socket to a child's WebSocket binding, with requests matched to responses by id. */
class Socket {
  readonly #socket: WebSocket;
  readonly #waiting = new Map<number, (text: string) => void>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      const text = String(event.data);
      const match = /"id":(\d+)/.exec(text);
      if (match !== null) this.#waiting.get(Number(match[1]))?.(text);
    });
  }

  /** Opens a socket to the child's `/mcp-lite/v1/ws` once it printed its port. */
  static async open(child: Child): Promise<Socket> {
    const port = (await child.firstLine).trim();
    const socket = new WebSocket(`ws://127.0.0.1:${port}/mcp-lite/v1/ws`, "mcp-lite.v1");
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", reject, { once: true });
    });
    return new Socket(socket);
  }

  /** Sends a request and resolves with its response frame. */
  request(method: string, params: Record<string, unknown>): Promise<string> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, (text) => {
        this.#waiting.delete(id);
        resolve(text);
      });
      this.#socket.send(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`);
    });
  }

  /** Closes it. */
  close(): void {
    this.#socket.close();
  }
}

const ARGS = { name: "add", arguments: { a: 1, b: 2 } };
const MODERN = {
  ...ARGS,
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  },
};

const floor = new Child("./servers/stdio/floor.ts");
const oursLite = new Child("./servers/stdio/ours.ts");
const ours2025 = await new Child("./servers/stdio/ours.ts").initialize();
const ours2026 = new Child("./servers/stdio/ours.ts");
const sdk = await new Child("./servers/stdio/sdk.ts").initialize();
const tmcp = await new Child("./servers/stdio/tmcp.ts").initialize();
const webSocketChild = new Child("./servers/websocket/ours.ts");
const children = [floor, oursLite, ours2025, ours2026, sdk, tmcp, webSocketChild];
const socket = await Socket.open(webSocketChild);

try {
  await runScenario("tools/call over stdio", [
    { name: "floor", fn: () => floor.request("tools/call", ARGS), expect: '"sum":3' },
    { name: "ours · MCP-lite", fn: () => oursLite.request("tools/call", ARGS), expect: '"response_type":"answer"' },
    { name: "ours · MCP 2025", fn: () => ours2025.request("tools/call", ARGS), expect: '"sum":3' },
    {
      name: "ours · MCP 2026-07-28",
      fn: () => ours2026.request("tools/call", MODERN),
      expect: '"resultType":"complete"',
    },
    { name: "SDK v2 2.4 (2025)", fn: () => sdk.request("tools/call", ARGS), expect: '"sum":3' },
    { name: "tmcp 1.20 (2025)", fn: () => tmcp.request("tools/call", ARGS), expect: '"sum":3' },
    {
      name: "ours · MCP-lite over WebSocket",
      fn: () => socket.request("tools/call", ARGS),
      expect: '"response_type":"answer"',
    },
  ]);
} finally {
  socket.close();
  for (const child of children) child.stop();
}
