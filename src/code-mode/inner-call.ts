/**
 * A program's calls of the server's tools (`tools.name(input)`, the sandbox's one `__call`): each goes through the
 * server's one call pipeline as a direct `tools/call` would, with the caller's identity, signal, budgets and request
 * metadata, so it meets validation, `.scopes()`, middleware (a span of its own under the program's, with `otel()`),
 * budgets and a proxy's credential rules. What the pipeline cannot know is refused here: a name the model may not
 * call (unknown, a view's alone), a program run by a program, more calls than the limit; a call that needs the user's
 * approval asks first, through the program's job where it can pause (program-job.ts), and its step begins in call order.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { CallMeta } from "../core/call/call-meta.ts";
import { InputRequiredSignal } from "../core/call/input-round.ts";
import { runCall } from "../core/call/pipeline.ts";
import { budgetCallerOf, waitUntilOf } from "../core/call/tool-call-context.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { ToolResult } from "../core/results/result.ts";
import { echoed } from "../internal/echo.ts";
import { visibleTo } from "../internal/mcp-apps-wire.ts";
import { type Recorded, type RecordedCall, replayedCall } from "./program-job.ts";
import type { ToolCatalog } from "../tool-search/tool-catalog.ts";

/** The request `_meta` key that counts how deep in programs a call is (0, or absent: the model's own call). */
export const DEPTH_KEY = "io.mcplite/code-mode-depth";

/** What a program's calls are checked against. */
export interface InnerCallSettings {
  /** The server's definitions. */
  readonly registry: Registry;
  /** The search, for the names an unknown one suggests. */
  readonly catalog: ToolCatalog;
  /** The execute tool's own name: a program calling it would run a program. */
  readonly executeTool: string;
  /** The prefix the code-mode tools are served under (`crm.` through `server.group("crm", child)`), or `""`. */
  readonly prefix: string;
  /** The most calls a program makes. */
  readonly maxCalls: number;
  /** Whether a call asks the user before it runs (a destructive tool with `confirmDestructive`, `needsApproval`). */
  readonly needsApproval: (name: string, destructive: boolean, input: unknown) => boolean | Promise<boolean>;
  /**
   * Makes the program durable work before a question (program-job.ts): `true` once it is (its questions then park
   * its job), `false` where it cannot be (asked in the call, as an input round where the wire asks by rounds).
   */
  readonly pause?: (n: number) => Promise<boolean>;
  /** Hears each call as it begins its step (`call-<n>-<name>`), with its outcome to come: for a promised program's job. */
  readonly onCall?: (n: number, name: string, outcome: Promise<Recorded>) => void;
  /** Outcomes recorded by an earlier run of the program, by call number: answered from here, not called again. */
  readonly replay?: ReadonlyMap<number, RecordedCall>;
  /** The context the calls run in from now on (default the one given): a promised program's job, once it took over. */
  readonly context?: () => CallContext;
}

/** A program's calls: the function the sandbox's `__call` calls, and what stopped the program if the client must answer first. */
export interface InnerCalls {
  /**
   * Calls a tool by name (as the caller's server serves it) with its input; rejects with an `Error` the program can
   * catch. `park` is called while the call waits (for the user, for its turn): no longer a call in flight until
   * it calls what `park` returned.
   */
  readonly call: (name: string, input: unknown, park?: () => () => void) => Promise<unknown>;
  /** Set when a question (a destructive tool's confirmation) ends the call in an input round: the handler rethrows it. */
  readonly asked: () => InputRequiredSignal | undefined;
}

/**
 * Makes the calls of one program run by one call of the execute tool.
 *
 * @param ctx The execute call's context: the caller, its metadata and budgets, its input rounds.
 * @param settings The server's tools and the limits.
 * @param signal Aborted when the program stops.
 * @param stop Stops the program (a question that ends the call).
 * @returns The program's calls.
 */
export function innerCalls(
  ctx: CallContext,
  settings: InnerCallSettings,
  signal: AbortSignal,
  stop: () => void,
): InnerCalls {
  let made = 0;
  let asked: InputRequiredSignal | undefined;
  const meta = innerMeta(ctx);
  // Steps begin in call order, whatever order the user's answers come in: a later run (a retry, a worker) takes them
  // in the same order, which the journal checks (JournalMismatch).
  let turn: Promise<void> = Promise.resolve();
  const call = async (served: string, input: unknown, park?: () => () => void): Promise<unknown> => {
    if (asked !== undefined) throw asked; // the call ends with a question: nothing more runs in this round
    const n = ++made;
    const before = turn;
    let mine = () => {};
    turn = new Promise((resolve) => mine = resolve);
    try {
      return await one(n, served, input, before, mine, park);
    } finally {
      mine(); // a call that took no step lets the next one begin
    }
  };
  /** Call `n`: checked, approved, then its step, begun once every earlier call began its own (`before`). */
  const one = async (
    n: number,
    served: string,
    input: unknown,
    before: Promise<void>,
    begun: () => void,
    park?: () => () => void,
  ): Promise<unknown> => {
    if (typeof served !== "string") throw new TypeError("A tool's name is a string");
    if (n > settings.maxCalls) {
      throw new Error(`Too many tool calls: a program makes at most ${settings.maxCalls} (limits.calls)`);
    }
    const { registry, prefix } = settings;
    const name = prefix !== "" && served.startsWith(prefix) ? served.slice(prefix.length) : served;
    if (name === settings.executeTool) {
      throw new Error(`"${served}" cannot be called from a program: a program may not run a program (nesting)`);
    }
    // The model calls: a tool only a view may call (SEP-1865, Visibility) is unknown to it, as discovery never finds it.
    const tool = registry.get(name);
    if (tool === undefined || !visibleTo(tool.meta, "model")) {
      const found = await settings.catalog.search(name, 3, ctx.auth);
      const suggestions = found.map((t) => `"${prefix}${t.name}"`).join(", ");
      throw new Error(`Tool not found: ${echoed(served)}${suggestions === "" ? "" : `; did you mean ${suggestions}?`}`);
    }
    const replayed = settings.replay?.get(n);
    if (replayed !== undefined) return answerOf(replayedCall(ctx, replayed, n, name));
    const destructive = tool.annotations?.destructiveHint === true;
    const approval = await settings.needsApproval(name, destructive, input);
    const resume = park?.(); // waiting for its turn is not in flight: it begins nothing until then
    await before;
    resume?.();
    if (signal.aborted) throw new Error("The program was stopped"); // handed over meanwhile: it runs elsewhere
    // Once per call: a later input round (the program run again after an answer) gets what this one got.
    // In a promised program's job, its journal's step: a later run of the job reads it back (program-job.ts), the
    // user's answer with it (a declined call stays declined, an allowed one is not asked again).
    const stepped = (settings.context?.() ?? ctx).step<Recorded>(`call-${n}-${name}`, async () => {
      if (approval) {
        const answer = await approved(n, served, input, destructive, park);
        if (answer !== "accept") {
          return { ok: false, message: `The user did not allow the call of "${served}" (${answer})` };
        }
      }
      const via = settings.context?.() ?? ctx;
      const outcome = await runCall(registry, {
        name,
        arguments: input ?? {},
        meta,
        signal,
        host: { env: via.env, waitUntil: waitUntilOf(via), auth: via.auth, caller: budgetCallerOf(via) },
        sink: { log: (level, data, logger) => via.log(level, data, logger) },
      }).catch((error: unknown) => error instanceof Error ? error : new Error(String(error)));
      if (outcome instanceof Error) return { ok: false, message: outcome.message };
      switch (outcome.kind) {
        case "answer":
          return { ok: true, value: valueOf(outcome.result) };
        case "failure":
          return { ok: false, message: failureText(outcome.result, served) };
        case "promise":
          return { ok: true, value: { promise: outcome.token } }; // redeemed with tools.redeem({ token })
        default:
          return {
            ok: false,
            message: `"${served}" needs input from the client: call it directly, not from a program`,
          };
      }
    });
    begun();
    settings.onCall?.(n, name, stepped);
    return answerOf(await stepped);
  };
  /** Asks the user about call `n`, once the program is durable work where it can be (its question parks the job). */
  const approved = async (
    n: number,
    served: string,
    input: unknown,
    destructive: boolean,
    park?: () => () => void,
  ): Promise<string> => {
    const resume = park?.(); // waits for the user, not a call in flight: a hand-over to a queue does not wait for it
    await settings.pause?.(n);
    const answer = await confirm(settings.context?.() ?? ctx, `confirm-${n}`, served, input, destructive).catch(
      (error) => {
        if (!(error instanceof InputRequiredSignal)) throw error;
        asked = error;
        stop(); // the call ends with the question: the program runs again, from the top, with the answer
        throw error;
      },
    );
    resume?.();
    return answer;
  };
  return { call, asked: () => asked };
}

/** What the program gets of a recorded outcome: its value, or an Error it can catch. */
function answerOf(recorded: Recorded): unknown {
  if (!recorded.ok) throw new Error(recorded.message);
  return recorded.value;
}

/** The metadata of a program's calls: the caller's, one level deeper in programs, under the execute call's span. */
function innerMeta(ctx: CallContext): CallMeta {
  const own = ctx.meta.requestMeta;
  const traceparent = ctx.get(TRACE_PARENT); // the execute call's span, set by otel()'s middleware
  return {
    ...ctx.meta,
    requestMeta: {
      ...own,
      [DEPTH_KEY]: depthOf(ctx.meta) + 1,
      ...(traceparent === undefined ? {} : { traceparent }),
    },
  };
}

/**
 * How deep in programs a call is: 0 for the model's own.
 *
 * @param meta The call's metadata.
 * @returns The depth.
 */
export function depthOf(meta: CallMeta): number {
  const depth = meta.requestMeta?.[DEPTH_KEY];
  return typeof depth === "number" && Number.isInteger(depth) && depth > 0 ? depth : 0;
}

/** Asks the user whether a call may run (MCP elicitation, form mode): `accept`, `decline` or `cancel`. */
async function confirm(
  ctx: CallContext,
  key: string,
  served: string,
  input: unknown,
  destructive: boolean,
): Promise<string> {
  try {
    const answer = await ctx.elicit(key, {
      message: `A program wants to call "${served}"${destructive ? ", which may delete or overwrite data," : ""} with ${
        echoed(JSON.stringify(input ?? {}))
      }. Allow it?`,
      requestedSchema: { type: "object", properties: {} },
    });
    return answer.action;
  } catch (error) {
    if (error instanceof InputRequiredSignal) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`"${served}" needs the user's confirmation, which could not be asked: ${why}`);
  }
}

/** What a program gets of a tool's answer: its structured content, else its text (parsed when JSON), else its blocks. */
function valueOf(result: ToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content;
  if (blocks.length === 0 || !blocks.every((block) => block.type === "text")) return blocks;
  const text = blocks.map((block) => (block as { text: string }).text).join("\n");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A failed call's message: the tool's own text. */
function failureText(result: ToolResult, served: string): string {
  const text = result.content.filter((block) => block.type === "text").map((block) => (block as { text: string }).text);
  return text.length === 0 ? `"${served}" failed` : text.join("\n");
}
