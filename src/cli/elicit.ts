/**
 * Elicitation on the terminal: the server's message, then one question per form field (its title,
 * type, choices and default, from the requested schema), then whether to send; in URL mode, the page to
 * open, answered once the user presses Enter or the server says it is complete. Without a terminal on
 * stdin nothing can be asked, and the call fails saying so.
 *
 * @module
 */
import type { ElicitAnswer, ElicitRequest, InputHandlers, UrlElicitRequest } from "../client/input.ts";
import { typeLabel, valueFor } from "./arg-values.ts";
import { UsageError } from "./exit-errors.ts";
import type { Terminal } from "./terminal.ts";

type Schema = Record<string, unknown>;

/** Hooks around a question: the progress bar steps aside while the user types. */
export interface PromptHooks {
  /** Called before asking. */
  before(): Promise<void>;
  /** Called after the answer. */
  after(): void;
}

/**
 * Creates the elicitation handlers that ask on the terminal, forms and pages to open (URL mode).
 *
 * @param terminal The terminal.
 * @param hooks What to do around each question.
 * @returns `onElicit`, the modes it declares, and `onElicitationComplete`.
 */
export function terminalElicit(
  terminal: Terminal,
  hooks: PromptHooks,
): Required<Pick<InputHandlers, "onElicit" | "elicitationModes" | "onElicitationComplete">> {
  let queue = Promise.resolve<unknown>(undefined);
  const lines = new Lines(terminal);
  const completions = new Completions();
  const onElicit = (request: ElicitRequest): Promise<ElicitAnswer> => {
    if (!terminal.stdinIsTty) {
      return Promise.reject(
        new UsageError(
          `the server asks for input (${JSON.stringify(request.message ?? "")}), ` +
            "but stdin is not a terminal: run mcplite in a terminal to answer",
        ),
      );
    }
    // Questions from parallel input requests are asked one form at a time.
    const asked = queue.then(async () => {
      await hooks.before();
      try {
        return request.mode === "url"
          ? await openPage(terminal, lines, completions, request)
          : await ask(lines, request);
      } finally {
        hooks.after();
      }
    });
    queue = asked.catch(() => {});
    return asked;
  };
  return { onElicit, elicitationModes: ["form", "url"], onElicitationComplete: (id) => completions.complete(id) };
}

/**
 * The terminal's lines, where a line asked for but not waited for (the server completed a page first)
 * is kept for the next question instead of being lost.
 */
class Lines {
  readonly #terminal: Terminal;
  #pending: Promise<string | null> | undefined;

  constructor(terminal: Terminal) {
    this.#terminal = terminal;
  }

  /** Writes to stderr. */
  err(text: string): Promise<void> {
    return this.#terminal.err(text);
  }

  /** The next line, or `null` at the end of stdin; `settled` tells whether it was taken. */
  read(): Promise<string | null> {
    const line = this.#pending ?? this.#terminal.readLine();
    this.#pending = line;
    return line.finally(() => {
      if (this.#pending === line) this.#pending = undefined;
    });
  }

  /** Gives up waiting for the line `read()` asked for: the next `read()` returns it. */
  keep(line: Promise<string | null>): void {
    this.#pending = line;
  }
}

/** The `notifications/elicitation/complete` the server sent, and who waits for them. */
class Completions {
  readonly #done = new Set<string>();
  readonly #waiting = new Map<string, () => void>();

  complete(id: string): void {
    this.#done.add(id);
    this.#waiting.get(id)?.();
  }

  /** Resolves when the server completes `id`. */
  wait(id: string): { done: Promise<void>; stop(): void } {
    let stop = () => {};
    const done = new Promise<void>((resolve) => {
      if (this.#done.has(id)) return resolve();
      this.#waiting.set(id, resolve);
      stop = () => this.#waiting.delete(id);
    });
    return { done, stop };
  }
}

/**
 * A page to open (MCP 2025-11-25, Elicitation, URL mode): the whole URL and its host, never opened by
 * the CLI itself; the answer goes once the user presses Enter (done) or types `n` (declines), or the
 * server says the elicitation is complete.
 */
async function openPage(
  terminal: Terminal,
  lines: Lines,
  completions: Completions,
  request: UrlElicitRequest,
): Promise<ElicitAnswer> {
  const host = URL.parse(request.url)?.host ?? "?";
  await terminal.err(`\n? ${request.message}\n  Open in your browser (${host}):\n  ${request.url}\n`);
  await terminal.err("  Press Enter when you are done there, or n to decline: ");
  const line = lines.read();
  if (request.elicitationId === undefined) return answerOf(await line);
  const completion = completions.wait(request.elicitationId);
  const first = await Promise.race([line.then((text) => ({ text })), completion.done.then(() => undefined)]);
  completion.stop();
  if (first !== undefined) return answerOf(first.text);
  lines.keep(line);
  await terminal.err("\n  The server says it is complete.\n");
  return { action: "accept" };
}

function answerOf(line: string | null): ElicitAnswer {
  if (line === null) return { action: "cancel" };
  return /^\s*(n|no)\s*$/i.test(line) ? { action: "decline" } : { action: "accept" };
}

async function ask(terminal: Lines, request: ElicitRequest): Promise<ElicitAnswer> {
  await terminal.err(`\n? ${request.message ?? "The server asks for input"}\n`);
  const schema = (request.requestedSchema ?? {}) as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  const content: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const label = String(property.title ?? key);
    const hints = [typeLabel(property)];
    if (Array.isArray(property.enum)) hints[0] += `: ${property.enum.map((e, i) => `${i + 1}) ${e}`).join("  ")}`;
    if ("default" in property) hints.push(`default ${JSON.stringify(property.default)}`);
    else if (required.has(key)) hints.push("required");
    if (typeof property.description === "string") await terminal.err(`  ${property.description}\n`);
    for (;;) {
      await terminal.err(`  ${label} (${hints.join(", ")}): `);
      const line = await terminal.read();
      if (line === null) return { action: "cancel" };
      if (line.trim() === "") {
        if ("default" in property) content[key] = property.default;
        else if (required.has(key)) {
          await terminal.err("  (an answer is required; Ctrl-D cancels)\n");
          continue;
        }
        break;
      }
      try {
        content[key] = readAnswer(property, line, key);
        break;
      } catch (error) {
        await terminal.err(`  ${(error as Error).message}\n`);
      }
    }
  }
  const answer = await confirm(terminal, "  Send? [Y/n] ");
  return answer.action === "accept" ? { action: "accept", content } : answer;
}

/** Reads an answer: a choice by its number, `y`/`n` for booleans, anything else by the field's type. */
function readAnswer(property: Schema, line: string, key: string): unknown {
  const text = line.trim();
  if (Array.isArray(property.enum) && /^\d+$/.test(text)) {
    const choice = property.enum[Number(text) - 1];
    if (choice !== undefined && !property.enum.includes(text)) return choice;
  }
  if (property.type === "boolean") {
    if (/^(y|yes)$/i.test(text)) return true;
    if (/^(n|no)$/i.test(text)) return false;
  }
  return valueFor(property, property.type === "string" ? line : text, key);
}

async function confirm(terminal: Lines, question: string): Promise<ElicitAnswer> {
  await terminal.err(question);
  return answerOf(await terminal.read());
}
