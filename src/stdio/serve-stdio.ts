/**
 * `serveStdio()`: a server as a local process that a host launches and talks to over stdin and stdout
 * (MCP 2025-11-25, Transports: stdio), the way desktop hosts and editors run MCP servers.
 *
 * @module
 */
import { type McpOptions, socketCarriers } from "../assembly/socket-carriers.ts";
import { attachListener, type Server } from "../server/mod.ts";
import { ServerConnection } from "./server-connection.ts";
import { LineSplitter } from "../internal/line-splitter.ts";
import { settlesWithin, sleep } from "../internal/sleep.ts";
import { LineWriter, type WriteBytes } from "./line-writer.ts";
import { consoleToStderr, type ProcessPorts, processPorts } from "./process-io.ts";

/** What {@link serveStdio} serves: a `Server` from `createServer()`, whatever its tools. */
export type StdioServable = Server<any>;

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Bytes to read instead of the process's stdin (to embed the server, or in tests). */
  readonly input?: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
  /** Where to write instead of the process's stdout; required with `input`. */
  readonly output?: WritableStream<Uint8Array>;
  /** The longest message accepted, in bytes (default 4 MiB); a longer line is answered with an error and skipped. */
  readonly maxLineBytes?: number;
  /** How long shutdown waits for running requests to answer after aborting them, in ms (default 1500). */
  readonly shutdownTimeoutMs?: number;
  /** Ends the process once the server stopped (default: `true` when serving the process's own stdio). */
  readonly exit?: boolean;
  /** The MCP binding's options (page size, caching hints). */
  readonly mcp?: McpOptions;
}

/** A running stdio server. */
export interface StdioServer {
  /** Settles when the server stopped: its input ended, SIGINT or SIGTERM, `close()`, or a broken output. */
  readonly closed: Promise<void>;
  /**
   * Stops: aborts every running request (`ctx.signal`), waits for their answers (bounded), flushes the
   * output.
   *
   * @returns When it stopped.
   */
  close(): Promise<void>;
}

/**
 * Serves a server over stdio: newline-delimited JSON-RPC 2.0, MCP (the 2025 revisions with their
 * handshake, and the stateless 2026-07-28 revision) and MCP-lite, chosen per message. Requests run
 * concurrently. Stdout carries only protocol: `console.log`, `console.info` and `console.debug` go
 * to stderr while it serves. Closing stdin, SIGINT or SIGTERM aborts every running request, flushes
 * their answers and exits with 0; a closed stdout ends it quietly.
 *
 * @param server The server (from `createServer()`).
 * @param options Other streams, limits, and the MCP options.
 * @returns The running server.
 * @throws {TypeError} For an out-of-range option, or on a runtime without a process.
 *
 * @example Host configuration: `{"command": "deno", "args": ["run", "-A", "server.ts"]}`
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { serveStdio } from "./serve-stdio.ts";
 *
 * const server = createServer({ name: "demo", version: "1.0.0" })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * // serveStdio(server) serves the process's stdin/stdout; here, streams stand in for them.
 * const lines = ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}\n'];
 * const input = ReadableStream.from(lines.map((line) => new TextEncoder().encode(line)));
 * let written = "";
 * const output = new WritableStream<Uint8Array>({ write: (bytes) => void (written += new TextDecoder().decode(bytes)) });
 * await serveStdio(server, { input, output }).closed;
 * assert.equal(JSON.parse(written).result.content[0].text, "pong");
 * ```
 */
export function serveStdio(server: StdioServable, options: StdioOptions = {}): StdioServer {
  const maxLineBytes = options.maxLineBytes ?? 4 * 1024 * 1024;
  const graceMs = options.shutdownTimeoutMs ?? 1500;
  if (!(Number.isInteger(maxLineBytes) && maxLineBytes > 0)) {
    throw new TypeError("maxLineBytes must be a positive integer");
  }
  if (!(graceMs >= 0)) throw new TypeError("shutdownTimeoutMs must be 0 or more");
  if ((options.input === undefined) !== (options.output === undefined)) {
    throw new TypeError("serveStdio needs both input and output, or neither");
  }
  const ports: ProcessPorts | undefined = options.input === undefined ? processPorts() : undefined;
  const input = options.input ?? ports!.input;
  const write: WriteBytes = ports?.write ?? writerOf(options.output!);
  const exit = options.exit ?? ports !== undefined;

  let stopping: Promise<void> | undefined;
  let stopped!: () => void;
  const stoppedSignal = new Promise<void>((resolve) => (stopped = resolve));
  const source = readerOf(input);
  const out = new LineWriter(write, () => void stop(new Error("the output closed")));
  // The gate has nothing to check on stdio: no Host or Origin, no CORS, no bearer token and no DPoP proof
  // (RFC 9449 §4.2: a proof names an HTTP method and URL, which stdio has none of), since the
  // host that launched the process is the caller (MCP 2025-11-25, Authorization: a stdio server takes
  // its credentials from the environment). Requests run with no `ctx.auth`, as middleware leave it.
  const connection = new ServerConnection(attachListener(server).core, out, {
    carriers: socketCarriers(options.mcp),
    maxMessageBytes: maxLineBytes,
    transport: "pipe",
  });
  const restoreConsole = ports === undefined ? undefined : consoleToStderr();
  const removeSignals = ports?.onSignal((signal) => void stop(new Error(`the server received ${signal}`)));
  ports?.onOutputError(() => void stop(new Error("the output closed")));

  function stop(reason: Error): Promise<void> {
    return stopping ??= (async () => {
      stopped(); // a wait for the output to drain ends too
      source.cancel(); // a pending read ends: the loop below finishes
      await settlesWithin(connection.close(reason), graceMs);
      if (!out.broken) await settlesWithin(out.flush(), 400);
      removeSignals?.();
      restoreConsole?.();
      if (exit) ports?.exit(0);
    })();
  }

  /**
   * Between two bursts whose first has not all answered: a turn of the event loop (timers and I/O run); then,
   * while the host has not taken all that was written to it, until those requests have answered, so that the
   * room check which follows counts their answers however long they take. A host that takes it all meanwhile
   * is reading: the next burst starts without waiting for slow requests (requests run concurrently). A burst
   * already answered (a client calling one at a time) goes on at once.
   */
  async function burstDone(answered: Promise<void>): Promise<void> {
    await Promise.race([sleep(0), stoppedSignal]);
    const drained = out.drained();
    if (drained !== undefined) await Promise.race([answered, drained, stoppedSignal]);
  }

  const closed = (async () => {
    const splitter = new LineSplitter(maxLineBytes);
    // Lines start a burst at a time, counted across chunks: the next chunk may be read before the
    // requests of the last one have answered (a read of bytes already there is no turn of the event loop).
    let started = 0;
    try {
      while (stopping === undefined) {
        const next = await source.read();
        if (next.done || stopping !== undefined) break;
        for (const line of splitter.push(next.value)) {
          if (started++ === BURST) {
            started = 1;
            const answered = connection.nextWave();
            if (answered !== undefined) await burstDone(answered);
            if (stopping !== undefined) break;
          }
          // A reader that stops reading stdout: read no more requests until what it was sent drains.
          const room = out.room();
          if (room !== undefined) await Promise.race([room, stoppedSignal]);
          if (stopping !== undefined) break;
          connection.receive(line);
        }
      }
      const last = splitter.finish();
      if (last !== undefined && stopping === undefined) connection.receive(last);
    } catch { /* a failed read ends the input like a close */ }
    await stop(new Error("stdin closed"));
  })();
  return { closed, close: () => stop(new Error("the server closed")).then(() => closed) };
}

/** The most requests that start before the event loop turns (and, for a host behind, before they answered). */
const BURST = 16;

/** Reads chunks, and can end a pending read (a reader's `cancel`, an async iterator's `return`). */
interface Source {
  read(): Promise<IteratorResult<Uint8Array>>;
  cancel(): void;
}

function readerOf(input: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Source {
  if (input instanceof ReadableStream) {
    const reader = input.getReader();
    return {
      read: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      cancel: () => void reader.cancel().catch(() => {}),
    };
  }
  const iterator = input[Symbol.asyncIterator]();
  return { read: () => iterator.next(), cancel: () => void iterator.return?.()?.catch(() => {}) };
}

function writerOf(output: WritableStream<Uint8Array>): WriteBytes {
  const writer = output.getWriter();
  return (bytes) => writer.write(bytes);
}
