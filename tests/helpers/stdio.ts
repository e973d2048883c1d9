/**
 * Stdio test helpers: a stdio server on in-memory streams (messages in, lines out), and the command
 * that runs a TypeScript file on the runtime running the tests (for child processes).
 */
import process from "node:process";
import { serveStdio, type StdioOptions, type StdioServable, type StdioServer } from "../../src/stdio/mod.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A stdio server wired to the test: what it writes is collected line by line. */
export interface PipedServer {
  /** The running server. */
  readonly stdio: StdioServer;
  /** Every message written so far, parsed. */
  readonly messages: Record<string, unknown>[];
  /** Sends raw bytes or text (no newline is added). */
  write(chunk: string | Uint8Array): void;
  /** Sends one message as a line. */
  send(message: unknown): void;
  /** Waits (10 s at most: a bound for a loaded machine, not a measure) for a written message that matches. */
  next(match: (message: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Waits (10 s at most) for the answer to a request id. */
  answer(id: unknown): Promise<Record<string, unknown>>;
  /** Closes the input (EOF) and waits until the server stopped. */
  end(): Promise<void>;
}

/**
 * Serves a server over in-memory streams.
 *
 * @param server The server.
 * @param options More stdio options.
 * @returns The piped server.
 */
export function pipeServer(server: StdioServable, options: Omit<StdioOptions, "input" | "output"> = {}): PipedServer {
  let input!: ReadableStreamDefaultController<Uint8Array>;
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let pending = "";
  const output = new WritableStream<Uint8Array>({
    write(bytes) {
      pending += decoder.decode(bytes);
      let at: number;
      while ((at = pending.indexOf("\n")) !== -1) {
        messages.push(JSON.parse(pending.slice(0, at)));
        pending = pending.slice(at + 1);
      }
      for (const wake of waiters) wake();
    },
  });
  const stdio = serveStdio(server, {
    ...options,
    input: new ReadableStream<Uint8Array>({ start: (controller) => void (input = controller) }),
    output,
  });
  const piped: PipedServer = {
    stdio,
    messages,
    write: (chunk) => input.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk),
    send: (message) => piped.write(JSON.stringify(message) + "\n"),
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found === undefined) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    answer: (id) => piped.next((m) => m.id === id && ("result" in m || "error" in m)),
    async end() {
      input.close();
      await stdio.closed;
    },
  };
  return piped;
}

/**
 * Serves a server over in-memory streams to an MCP 2025-11-25 session: `initialize` (id 1) answered and
 * `notifications/initialized` sent, as a desktop host starts one.
 *
 * @param server The server.
 * @param clientInfo The client's name in `initialize` (default `t`).
 * @returns The piped server, its session open.
 */
export async function initializedSession(server: StdioServable, clientInfo = "t"): Promise<PipedServer> {
  const piped = pipeServer(server);
  await openSession(piped, clientInfo);
  return piped;
}

/**
 * Opens an MCP 2025-11-25 session on a connection that carries one message per line or frame (stdio, a
 * WebSocket): `initialize` (id 1) answered, then `notifications/initialized` sent.
 *
 * @param connection Sends a message, and waits for the answer to a request id.
 * @param clientInfo The client's name in `initialize` (default `t`).
 * @returns When the session is open.
 */
export async function openSession(
  connection: { send(message: unknown): void; answer(id: unknown): Promise<unknown> },
  clientInfo = "t",
): Promise<void> {
  connection.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: clientInfo, version: "1" } },
  });
  await connection.answer(1);
  connection.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/**
 * The command that runs a TypeScript file on the runtime running the tests: `deno run -A file` under
 * Deno, `bun file` under Bun.
 *
 * @param file The file's path.
 * @returns The command and its arguments.
 */
export function runtimeCommand(file: string): { command: string; args: string[] } {
  const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  return deno
    ? { command: process.execPath, args: ["run", "-A", "--unstable-no-legacy-abort", file] }
    : { command: process.execPath, args: [file] };
}
