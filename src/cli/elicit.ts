/**
 * Elicitation on the terminal: the server's message, then one question per form field (its title,
 * type, choices and default, from the requested schema), then whether to send. Without a terminal on
 * stdin nothing can be asked, and the call fails saying so.
 *
 * @module
 */
import type { ElicitAnswer, ElicitRequest } from "../client/input.ts";
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
 * Creates the elicitation handler that asks on the terminal.
 *
 * @param terminal The terminal.
 * @param hooks What to do around each question.
 * @returns The handler for `onElicit`.
 */
export function terminalElicit(
  terminal: Terminal,
  hooks: PromptHooks,
): (request: ElicitRequest) => Promise<ElicitAnswer> {
  let queue = Promise.resolve<unknown>(undefined);
  return (request) => {
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
        return await ask(terminal, request);
      } finally {
        hooks.after();
      }
    });
    queue = asked.catch(() => {});
    return asked;
  };
}

async function ask(terminal: Terminal, request: ElicitRequest): Promise<ElicitAnswer> {
  await terminal.err(`\n? ${request.message ?? "The server asks for input"}\n`);
  if (request.mode === "url") {
    await terminal.err(`  Open ${request.url}\n`);
    return await confirm(terminal, "  Done? [Y/n] ");
  }
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
      const line = await terminal.readLine();
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

async function confirm(terminal: Terminal, question: string): Promise<ElicitAnswer> {
  await terminal.err(question);
  const line = await terminal.readLine();
  if (line === null) return { action: "cancel" };
  return /^\s*(n|no)\s*$/i.test(line) ? { action: "decline" } : { action: "accept" };
}
