/**
 * The terminal the CLI talks to, on Deno, Bun or Node: arguments, TTY checks, writes that finish
 * before the process exits, lines read from stdin, Ctrl-C, and the exit itself. Runtime checks
 * instead of `node:*` imports, so the same file runs everywhere.
 *
 * @module
 */

/** What the CLI needs from its process; tests pass their own. */
export interface Terminal {
  /** The command-line arguments, without the runtime and script. */
  readonly args: string[];
  /** Whether stdin is a terminal (questions can be asked). */
  readonly stdinIsTty: boolean;
  /** Whether stderr is a terminal (a progress bar can be drawn). */
  readonly stderrIsTty: boolean;
  /** The width of stderr, in columns (80 when unknown). */
  columns(): number;
  /** Writes to stdout; resolves once the text is handed to the OS. */
  out(text: string): Promise<void>;
  /** Writes to stderr; resolves once the text is handed to the OS. */
  err(text: string): Promise<void>;
  /** Reads one line from stdin, without its end; `null` at end of input. */
  readLine(): Promise<string | null>;
  /** Calls `handler` on each SIGINT; returns a function that stops listening. */
  onInterrupt(handler: () => void): () => void;
  /** Ends the process. */
  exit(code: number): never;
}

interface DenoLike {
  args: string[];
  stdin: { isTerminal(): boolean; readable: ReadableStream<Uint8Array<ArrayBuffer>> };
  stdout: { write(p: Uint8Array): Promise<number> };
  stderr: { isTerminal(): boolean; write(p: Uint8Array): Promise<number> };
  consoleSize(): { columns: number };
  addSignalListener(signal: "SIGINT", handler: () => void): void;
  removeSignalListener(signal: "SIGINT", handler: () => void): void;
  exit(code: number): never;
}

interface NodeStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string, callback: (error?: Error | null) => void): boolean;
}

interface ProcessLike {
  argv: string[];
  stdin: {
    isTTY?: boolean;
    setEncoding(encoding: string): void;
    on(event: string, listener: (chunk?: string) => void): void;
    pause(): void;
    resume(): void;
  };
  stdout: NodeStream;
  stderr: NodeStream;
  on(event: "SIGINT", handler: () => void): void;
  off(event: "SIGINT", handler: () => void): void;
  exit(code: number): never;
}

/**
 * Returns the terminal of the running process (Deno, or Bun and Node through `process`).
 *
 * @returns The terminal.
 */
export function systemTerminal(): Terminal {
  const g = globalThis as { Deno?: DenoLike; process?: ProcessLike };
  if (g.Deno) return denoTerminal(g.Deno);
  if (g.process) return processTerminal(g.process);
  throw new Error("mcplite needs Deno, Bun or Node");
}

function denoTerminal(deno: DenoLike): Terminal {
  const encoder = new TextEncoder();
  const lines = lineReader(() => deno.stdin.readable);
  return {
    args: deno.args,
    stdinIsTty: deno.stdin.isTerminal(),
    stderrIsTty: deno.stderr.isTerminal(),
    columns: () => {
      try {
        return deno.consoleSize().columns || 80;
      } catch {
        return 80;
      }
    },
    out: (text) => writeAll(deno.stdout, encoder.encode(text)),
    err: (text) => writeAll(deno.stderr, encoder.encode(text)),
    readLine: lines,
    onInterrupt: (handler) => {
      deno.addSignalListener("SIGINT", handler);
      return () => deno.removeSignalListener("SIGINT", handler);
    },
    exit: (code) => deno.exit(code),
  };
}

async function writeAll(file: { write(p: Uint8Array): Promise<number> }, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}

function processTerminal(proc: ProcessLike): Terminal {
  const write = (stream: NodeStream, text: string) =>
    new Promise<void>((resolve) => {
      // A closed pipe (`mcplite … | head`) must not crash the CLI: the callback reports it, we move on.
      stream.write(text, () => resolve());
    });
  return {
    args: proc.argv.slice(2),
    stdinIsTty: proc.stdin.isTTY === true,
    stderrIsTty: proc.stderr.isTTY === true,
    columns: () => proc.stderr.columns || 80,
    out: (text) => write(proc.stdout, text),
    err: (text) => write(proc.stderr, text),
    readLine: processLines(proc),
    onInterrupt: (handler) => {
      proc.on("SIGINT", handler);
      return () => proc.off("SIGINT", handler);
    },
    exit: (code) => proc.exit(code),
  };
}

/** Buffered text split into lines; `take()` gives a line, `null` at the end, `undefined` when more is needed. */
class LineBuffer {
  #text = "";
  #ended = false;

  push(text: string): void {
    this.#text += text;
  }

  end(): void {
    this.#ended = true;
  }

  take(): string | null | undefined {
    const newline = this.#text.indexOf("\n");
    if (newline >= 0) {
      const line = this.#text.slice(0, newline).replace(/\r$/, "");
      this.#text = this.#text.slice(newline + 1);
      return line;
    }
    if (!this.#ended) return undefined;
    const rest = this.#text;
    this.#text = "";
    return rest === "" ? null : rest;
  }
}

/** Lines from a byte stream, opened on first use. */
function lineReader(open: () => ReadableStream<Uint8Array<ArrayBuffer>>): () => Promise<string | null> {
  let reader: ReadableStreamDefaultReader<string> | undefined;
  const lines = new LineBuffer();
  return async () => {
    reader ??= open().pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const line = lines.take();
      if (line !== undefined) return line;
      const { value, done } = await reader.read();
      if (done) lines.end();
      else lines.push(value);
    }
  };
}

/** Lines from `process.stdin`, which flows only while a line is awaited (so it never holds the process open). */
function processLines(proc: ProcessLike): () => Promise<string | null> {
  const lines = new LineBuffer();
  let waiting: (() => void) | undefined;
  let listening = false;
  return async () => {
    if (!listening) {
      listening = true;
      proc.stdin.setEncoding("utf8");
      proc.stdin.on("data", (chunk) => {
        lines.push(chunk ?? "");
        waiting?.();
      });
      proc.stdin.on("end", () => {
        lines.end();
        waiting?.();
      });
    }
    for (;;) {
      const line = lines.take();
      if (line !== undefined) return line;
      proc.stdin.resume();
      await new Promise<void>((resolve) => waiting = resolve);
      waiting = undefined;
      proc.stdin.pause();
    }
  };
}
