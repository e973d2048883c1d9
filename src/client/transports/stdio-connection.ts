/**
 * One JSON-RPC connection to a child process over its stdin and stdout (MCP 2025-11-25, Transports:
 * stdio; MCP-lite over stdio, as the README specifies it): a {@link MessageConnection} whose messages
 * are lines. A child that exits, or writes something that is not JSON-RPC, fails the requests with its
 * exit and the tail of its stderr.
 *
 * @module
 */
import { LineSplitter, OVERSIZE } from "../../internal/line-splitter.ts";
import type { McpliteError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import { settlesWithin } from "../../internal/sleep.ts";
import { transportError } from "../errors.ts";
import { responseBound, responseTooLarge } from "../response-bound.ts";
import type { ChildProcess } from "./child-process.ts";
import { MessageConnection } from "./message-connection.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const STDERR_TAIL = 2048;
/** How long a failed write waits for the child's exit, so the error names its code and stderr. */
const EXIT_WAIT_MS = 3000;

/** Options of a {@link StdioConnection}. */
export interface StdioConnectionOptions {
  /** Forward the child's stderr to this process's stderr (default: keep only its tail, for errors). */
  readonly inheritStderr?: boolean;
  /** The most bytes one line may hold (`maxResponseBytes`, default 16 MiB). */
  readonly maxLineBytes?: number;
}

/** The connection to one child. */
export class StdioConnection extends MessageConnection {
  readonly #child: ChildProcess;
  #stderr = "";
  #closing = false;
  /** What ended the connection, for a write that raced the child's exit. */
  #failure: McpliteError | undefined;
  readonly #failed: Promise<void>;
  #markFailed!: () => void;
  readonly #maxLine: number;

  /**
   * Starts reading the child's output.
   *
   * @param child The child.
   * @param options Stderr forwarding.
   */
  constructor(child: ChildProcess, options: StdioConnectionOptions = {}) {
    super();
    this.#maxLine = responseBound(options.maxLineBytes);
    this.#child = child;
    this.#failed = new Promise((resolve) => this.#markFailed = resolve);
    void this.#readStdout();
    const stderrRead = this.#readStderr(options.inheritStderr === true);
    void child.exited.then(async (exit) => {
      await settlesWithin(stderrRead, 500); // its last words, for the error
      const how = exit.signal !== null ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
      this.#fail(`the server process ${how}`);
    });
  }

  /**
   * Ends the child: closes its stdin, then SIGTERM after `graceMs`, then SIGKILL after as long again.
   *
   * @param graceMs How long each step waits.
   * @returns When the child ended.
   */
  async close(graceMs = 2000): Promise<void> {
    this.#closing = true;
    this.endStandalone();
    await this.#child.closeStdin().catch(() => {});
    if (await settlesWithin(this.#child.exited, graceMs)) return;
    this.#child.kill("SIGTERM");
    if (await settlesWithin(this.#child.exited, graceMs)) return;
    this.#child.kill("SIGKILL");
    await settlesWithin(this.#child.exited, graceMs);
  }

  /**
   * Writes a line. A write that fails because the child died (EPIPE) races the exit: the caller is told
   * why the child died (exit code, stderr tail) once the exit is known, waiting for it at most
   * {@link EXIT_WAIT_MS}.
   */
  protected async write(text: string): Promise<void> {
    try {
      await this.#child.write(encoder.encode(text + "\n"));
    } catch (error) {
      if (this.#failure === undefined) await settlesWithin(this.#failed, EXIT_WAIT_MS);
      throw this.#failure ?? error;
    }
  }

  async #readStdout(): Promise<void> {
    const splitter = new LineSplitter(this.#maxLine);
    try {
      for await (const chunk of this.#child.stdout) {
        for (const line of splitter.push(chunk)) {
          if (line === OVERSIZE) return this.#fail(responseTooLarge(this.#maxLine, "A line the server wrote"));
          let message: unknown;
          try {
            message = JSON.parse(decoder.decode(line));
          } catch {
            return this.#fail(`the server wrote something that is not JSON-RPC: ${decoder.decode(line).slice(0, 200)}`);
          }
          if (isObject(message)) this.receive(message);
        }
        // A line past the bound fails now, not at a newline that may never come.
        if (splitter.overflowing) return this.#fail(responseTooLarge(this.#maxLine, "A line the server wrote"));
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

  /** Fails every pending request, and every later one, with what happened and the stderr tail. */
  #fail(what: string | McpliteError): void {
    if (this.failed) return;
    const tail = this.#stderr.trim();
    const reason = this.#closing ? "the connection was closed" : what;
    this.#failure = typeof reason !== "string"
      ? reason // the line's bound: the server's own words are not what went wrong
      : transportError(tail === "" ? reason : `${reason}; its stderr ends with:\n${tail}`);
    this.#markFailed();
    this.fail(this.#failure);
    if (!this.#closing) this.#child.kill("SIGTERM");
  }
}
