/**
 * One JSON-RPC connection to a child process over its stdin and stdout (MCP 2025-11-25, Transports:
 * stdio; MCP-lite over stdio, as the README specifies it), presented to the client's HTTP transports as
 * a `fetch`: a POST becomes a line on stdin, and the answer a JSON or SSE response carrying the
 * messages the server sent about that request, then its response. So every wire the client speaks
 * over HTTP (the 2026-07-28 probe and envelope, the 2025 session with its standalone stream,
 * MCP-lite's streaming events) works unchanged over a pipe.
 *
 * @module
 */
import { LineSplitter, OVERSIZE } from "../../internal/line-splitter.ts";
import { isObject } from "../../internal/is-object.ts";
import { PARTIAL_NOTIFICATION } from "../../internal/mcp-wire.ts";
import { settlesWithin } from "../../internal/sleep.ts";
import { TransportError } from "../errors.ts";
import type { FetchLike } from "../http.ts";
import type { ChildProcess } from "./child-process.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const STDERR_TAIL = 2048;
/** How long a failed write waits for the child's exit, so the error names its code and stderr. */
const EXIT_WAIT_MS = 3000;
const MAX_LINE = 64 * 1024 * 1024;
const SSE_HEADERS = { "content-type": "text/event-stream" };
const JSON_HEADERS = { "content-type": "application/json" };

/** A request sent to the child, waiting for its response. */
interface Pending {
  /** The id the client gave it. */
  readonly clientId: unknown;
  /** MCP-lite (`notifications/*` name it by `requestId`) rather than MCP (progress by token). */
  readonly lite: boolean;
  /** The progress token it carries (MCP). */
  readonly progressToken: unknown;
  /** Sends an SSE event on its response, when the client accepted a stream. */
  readonly event: ((data: string, name?: string) => void) | undefined;
  /** Delivers the response. */
  readonly settle: (message: Record<string, unknown>) => void;
  /** Fails it. */
  readonly fail: (error: Error) => void;
}

/** Options of a {@link StdioConnection}. */
export interface StdioConnectionOptions {
  /** Forward the child's stderr to this process's stderr (default: keep only its tail, for errors). */
  readonly inheritStderr?: boolean;
  /** How long `server/discover` may go unanswered before the server counts as a 2025 one (default 5 s). */
  readonly probeTimeoutMs?: number;
}

/** The connection to one child. */
export class StdioConnection {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, Pending>();
  readonly #probeTimeoutMs: number;
  #nextId = 1;
  #standalone: ((message: string) => void) | undefined;
  #endStandalone: (() => void) | undefined;
  #failure: TransportError | undefined;
  #stderr = "";
  #closing = false;
  readonly #failed: Promise<void>;
  #markFailed!: () => void;

  /**
   * Starts reading the child's output.
   *
   * @param child The child.
   * @param options Stderr forwarding and the probe timeout.
   */
  constructor(child: ChildProcess, options: StdioConnectionOptions = {}) {
    this.#child = child;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? 5000;
    this.#failed = new Promise((resolve) => this.#markFailed = resolve);
    void this.#readStdout();
    const stderrRead = this.#readStderr(options.inheritStderr === true);
    void child.exited.then(async (exit) => {
      await settlesWithin(stderrRead, 500); // its last words, for the error
      const how = exit.signal !== null ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
      this.#fail(`the server process ${how}`);
    });
  }

  /** The `fetch` the client's transports send through. */
  readonly fetch: FetchLike = (request) => this.#handle(request);

  /**
   * Ends the child: closes its stdin, then SIGTERM after `graceMs`, then SIGKILL after as long again.
   *
   * @param graceMs How long each step waits.
   * @returns When the child ended.
   */
  async close(graceMs = 2000): Promise<void> {
    this.#closing = true;
    this.#endStandalone?.();
    await this.#child.closeStdin().catch(() => {});
    if (await settlesWithin(this.#child.exited, graceMs)) return;
    this.#child.kill("SIGTERM");
    if (await settlesWithin(this.#child.exited, graceMs)) return;
    this.#child.kill("SIGKILL");
    await settlesWithin(this.#child.exited, graceMs);
  }

  async #handle(request: Request): Promise<Response> {
    if (this.#failure !== undefined) throw this.#failure;
    const path = new URL(request.url).pathname;
    const lite = /\/(listtools|tools|calltools|rpc)$/.test(path);
    if (request.method === "GET" && !lite) return this.#openStandalone(request.signal);
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const body = await request.json() as Record<string, unknown>;
    const listOnly = /\/(listtools|tools)$/.test(path);
    if (!listOnly && (body.id === undefined || body.method === undefined)) {
      await this.#send(body); // a notification, or the answer to a server→client request
      return new Response(null, { status: 202 });
    }
    const method = listOnly ? "tools/list" : String(body.method);
    const params = (isObject(body.params) ? body.params : {}) as Record<string, unknown>;
    const accept = request.headers.get("accept") ?? "";
    const streaming = accept.includes("text/event-stream");
    const meta = isObject(params._meta) ? params._meta : undefined;
    const sent = lite && streaming ? { ...params, _meta: { ...meta, stream: true } } : params;
    const id = this.#nextId++;
    const message = { jsonrpc: "2.0", id, method, params: sent };
    const clientId = body.id;
    const shape = (response: Record<string, unknown>) => ({ ...response, id: clientId });

    if (!streaming) {
      const response = await this.#exchange(id, message, request.signal, {
        lite,
        clientId,
        progressToken: meta?.progressToken,
      });
      if (listOnly) return new Response(JSON.stringify(response.result ?? response), { headers: JSON_HEADERS });
      return new Response(JSON.stringify(shape(response)), { headers: JSON_HEADERS });
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let open = true;
    const event = (data: string, name?: string) => {
      if (!open) return;
      controller.enqueue(encoder.encode(`${name === undefined ? "" : `event: ${name}\n`}data: ${data}\n\n`));
    };
    const end = () => {
      if (!open) return;
      open = false;
      controller.close();
    };
    const body$ = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    this.#exchange(id, message, request.signal, { lite, clientId, progressToken: meta?.progressToken, event })
      .then((response) => {
        if (!lite) event(JSON.stringify(shape(response)));
        else if ("result" in response) event(JSON.stringify(response.result), "done");
        else event(JSON.stringify({ id: clientId, ...(response.error as Record<string, unknown>) }), "error");
        end();
      }, (error: Error) => {
        if (!open) return;
        open = false;
        controller.error(error);
      });
    return new Response(body$, { headers: SSE_HEADERS });
  }

  /** Sends a request and waits for its response; an abort sends `notifications/cancelled`. */
  #exchange(
    id: number,
    message: Record<string, unknown>,
    signal: AbortSignal,
    route: { lite: boolean; clientId: unknown; progressToken: unknown; event?: (data: string, name?: string) => void },
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const onAbort = () => {
        done();
        void this.#write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }).catch(
          () => {},
        );
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        clientId: route.clientId,
        lite: route.lite,
        progressToken: route.progressToken,
        event: route.event,
        settle: (response) => {
          done();
          resolve(response);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
      // MCP 2026-07-28, client probe over stdio: a server that never answers `server/discover` is a 2025 one.
      if (message.method === "server/discover") {
        timer = setTimeout(() => {
          this.#pending.get(id)?.settle({
            jsonrpc: "2.0",
            id,
            error: { code: -32601, message: "server/discover went unanswered" },
          });
        }, this.#probeTimeoutMs);
      }
      this.#send(message).catch((error: Error) => this.#pending.get(id)?.fail(error));
    });
  }

  #openStandalone(signal: AbortSignal): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => this.#endStandalone?.(),
    });
    const end = () => {
      if (this.#standalone === send) this.#standalone = undefined;
      try {
        controller.close();
      } catch { /* closed already */ }
    };
    const send = (message: string) => controller.enqueue(encoder.encode(`data: ${message}\n\n`));
    this.#endStandalone?.();
    this.#standalone = send;
    this.#endStandalone = end;
    signal.addEventListener("abort", end, { once: true });
    return new Response(body, { headers: SSE_HEADERS });
  }

  /** Routes one message from the child. */
  #receive(message: Record<string, unknown>): void {
    const { id, method } = message;
    if (method === undefined) { // a response
      if (typeof id === "number") this.#pending.get(id)?.settle(message);
      return;
    }
    const text = JSON.stringify(message);
    const params = (isObject(message.params) ? message.params : {}) as Record<string, unknown>;
    if (id !== undefined) { // a server→client request (2025): the standalone stream, else the newest MCP call
      const target = this.#standalone ?? this.#newest((p) => !p.lite && p.event !== undefined)?.event;
      if (target !== undefined) return target(text);
      void this.#write({
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: "The client cannot answer requests now" },
      })
        .catch(() => {});
      return;
    }
    if (typeof params.requestId === "number") { // MCP-lite notifications name their request
      const pending = this.#pending.get(params.requestId);
      if (pending?.lite && pending.event !== undefined) {
        const { requestId: _, ...rest } = params;
        const name = method === "notifications/partial"
          ? "message"
          : method === "notifications/progress"
          ? "progress"
          : "log";
        pending.event(JSON.stringify(rest), name);
        return;
      }
    }
    if (
      (method === "notifications/progress" || method === PARTIAL_NOTIFICATION) && params.progressToken !== undefined
    ) {
      const pending = this.#newest((p) => !p.lite && p.progressToken === params.progressToken);
      pending?.event?.(text);
      return;
    }
    if (method === "notifications/message") {
      const pending = this.#newest((p) => !p.lite && p.event !== undefined);
      if (pending !== undefined) return pending.event!(text);
    }
    this.#standalone?.(text); // list changes, resource updates: what the 2025 GET stream carries
  }

  #newest(match: (pending: Pending) => boolean): Pending | undefined {
    let found: Pending | undefined;
    for (const pending of this.#pending.values()) if (match(pending)) found = pending;
    return found;
  }

  async #readStdout(): Promise<void> {
    const splitter = new LineSplitter(MAX_LINE);
    try {
      for await (const chunk of this.#child.stdout) {
        for (const line of splitter.push(chunk)) {
          if (line === OVERSIZE) return this.#fail("the server wrote a line over 64 MiB");
          let message: unknown;
          try {
            message = JSON.parse(decoder.decode(line));
          } catch {
            return this.#fail(`the server wrote something that is not JSON-RPC: ${decoder.decode(line).slice(0, 200)}`);
          }
          if (isObject(message)) this.#receive(message);
        }
      }
    } catch { /* the pipe broke: the exit says why */ }
  }

  async #readStderr(inherit: boolean): Promise<void> {
    try {
      for await (const chunk of this.#child.stderr) {
        const text = decoder.decode(chunk, { stream: true });
        this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
        if (inherit) console.error(text.replace(/\n$/, ""));
      }
    } catch { /* closed */ }
  }

  async #write(message: Record<string, unknown>): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    await this.#child.write(encoder.encode(JSON.stringify(message) + "\n"));
  }

  /**
   * Writes a message the caller waits on. A write that fails because the child died (EPIPE) races the
   * exit; the caller is told why the child died (exit code, stderr tail) once the exit is known, waiting
   * for it at most {@link EXIT_WAIT_MS}.
   */
  async #send(message: Record<string, unknown>): Promise<void> {
    try {
      await this.#write(message);
    } catch (error) {
      if (this.#failure === undefined) await settlesWithin(this.#failed, EXIT_WAIT_MS);
      throw this.#failure ?? transportError(`cannot write to the server: ${error}`);
    }
  }

  /** Fails every pending request, and every later one, with what happened and the stderr tail. */
  #fail(what: string): void {
    if (this.#failure !== undefined) return;
    const tail = this.#stderr.trim();
    const reason = this.#closing ? "the connection was closed" : what;
    this.#failure = transportError(tail === "" ? reason : `${reason}; its stderr ends with:\n${tail}`);
    this.#markFailed();
    for (const pending of [...this.#pending.values()]) pending.fail(this.#failure);
    this.#endStandalone?.();
    if (!this.#closing) this.#child.kill("SIGTERM");
  }
}

function transportError(message: string): TransportError {
  return new TransportError(message);
}
