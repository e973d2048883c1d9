/**
 * What a running call shows on stderr: on a terminal, one bar redrawn in place (progress/total,
 * message, elapsed time, a spinner while a promise or task is awaited); elsewhere, one plain line per
 * event, so logs and CI output stay readable.
 *
 * @module
 */
import type { LogEntry, Progress } from "../client/transport.ts";
import type { Terminal } from "./terminal.ts";

/** The view of one running call. */
export interface ProgressView {
  /** Shows a progress report. */
  progress(progress: Progress): void;
  /** Notes a partial result. */
  partial(value: unknown): void;
  /** Shows a log message from the server. */
  log(entry: LogEntry): void;
  /** Shows what the call waits on (a promise, a task and its status). */
  pending(note: string): void;
  /** Clears the bar while something else (a question) uses the terminal. */
  pause(): Promise<void>;
  /** Draws the bar again after {@link ProgressView.pause}. */
  resume(): void;
  /** Clears the bar for good; resolves once everything is written. */
  stop(): Promise<void>;
}

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
const REDRAW_MS = 100;
const BAR_WIDTH = 20;

/**
 * Creates the view for a call of `tool`: a bar when stderr is a terminal, plain lines otherwise.
 *
 * @param terminal The terminal.
 * @param tool The tool's name.
 * @param now The clock (tests pass their own).
 * @returns The view.
 */
export function createProgressView(terminal: Terminal, tool: string, now: () => number = Date.now): ProgressView {
  const started = now();
  let chain = Promise.resolve();
  const write = (text: string) => {
    chain = chain.then(() => terminal.err(text));
  };
  const elapsed = () => formatElapsed(now() - started);

  if (!terminal.stderrIsTty) {
    return {
      progress: (p) => write(`progress ${fraction(p)}${p.message ? ` ${p.message}` : ""} [${elapsed()}]\n`),
      partial: (value) => write(`partial ${preview(value, 200)}\n`),
      log: (entry) => write(logLine(entry)),
      pending: (note) => write(`waiting: ${note} [${elapsed()}]\n`),
      pause: () => chain,
      resume: () => {},
      stop: () => chain,
    };
  }

  let last: Progress | undefined;
  let waitingOn: string | undefined;
  let parts = 0;
  let frame = 0;
  let paused = false;
  let shown = false;
  const draw = () => {
    if (paused) return;
    frame = (frame + 1) % SPINNER.length;
    const line = barLine(tool, last, waitingOn, parts, SPINNER[frame], elapsed());
    write(`\r\x1b[2K${truncate(line, terminal.columns() - 1)}`);
    shown = true;
  };
  const clear = () => {
    if (shown) write("\r\x1b[2K");
    shown = false;
  };
  draw();
  let timer: ReturnType<typeof setInterval> | undefined = setInterval(draw, REDRAW_MS);
  return {
    progress: (p) => {
      last = p;
      draw();
    },
    partial: () => {
      parts++;
    },
    pending: (note) => {
      waitingOn = note;
      draw();
    },
    log: (entry) => {
      clear();
      write(logLine(entry));
      draw();
    },
    pause: () => {
      paused = true;
      clear();
      return chain;
    },
    resume: () => {
      paused = false;
      draw();
    },
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      paused = true;
      clear();
      return chain;
    },
  };
}

function barLine(
  tool: string,
  p: Progress | undefined,
  waitingOn: string | undefined,
  parts: number,
  spin: string,
  elapsed: string,
): string {
  const pieces = [`${spin} ${tool}`];
  if (p === undefined) pieces.push(waitingOn ?? (parts > 0 ? "streaming" : "waiting"));
  else if (p.total !== undefined && p.total > 0) {
    const ratio = Math.max(0, Math.min(1, p.progress / p.total));
    const filled = Math.round(ratio * BAR_WIDTH);
    pieces.push(`[${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}] ${fraction(p)}`);
  } else pieces.push(fraction(p));
  if (p?.message) pieces.push(p.message);
  if (parts > 0) pieces.push(`${parts} part${parts === 1 ? "" : "s"}`);
  pieces.push(elapsed);
  return pieces.join(" · ");
}

/** `2/4 (50%)`, or the bare count when the total is unknown. */
function fraction(p: Progress): string {
  if (p.total === undefined || p.total <= 0) return String(p.progress);
  return `${p.progress}/${p.total} (${Math.round((p.progress / p.total) * 100)}%)`;
}

function logLine(entry: LogEntry): string {
  const data = typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data);
  return `log ${entry.level}${entry.logger ? ` ${entry.logger}` : ""}: ${data}\n`;
}

/**
 * Formats a duration as `0.4s`, `12.3s` or `2m05s`.
 *
 * @param ms The duration in ms.
 * @returns The text.
 */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** A value on one line, at most `max` characters. */
function preview(value: unknown, max: number): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return truncate(text.replace(/\s*\n\s*/g, " ").trim(), max);
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max - 1)).join("") + "…";
}
