/**
 * The execute tool of code mode: runs the model's program in the sandbox with the tools as async methods of
 * `tools`, and answers its return value and console lines. On a server with long-running support, a program
 * still running after `promiseAfterMs` answers with a promise (a task on MCP) and goes on as the tool's declared
 * work: in this process, or on a worker where the server has a queue (program-job.ts).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { Tool } from "../core/definitions/tool.ts";
import { fail, type ToolResult, toolResult } from "../core/results/result.ts";
import { defineTool } from "../tool/define-tool.ts";
import { servedPrefix } from "../tool-search/served-namespace.ts";
import type { ToolCatalog } from "../tool-search/tool-catalog.ts";
import type { CodeExecutor } from "./executor.ts";
import { depthOf, innerCalls, type InnerCallSettings } from "./inner-call.ts";
import {
  type BegunCall,
  fitsToken,
  hand,
  type HandedProgram,
  heldCalls,
  journal,
  type ProgramJob,
  recordedOf,
  taken,
} from "./program-job.ts";
import { JournalMismatch } from "../jobs/journal-mismatch.ts";
import type { WorkContext } from "../core/long-running/work-context.ts";
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import { programSource } from "./program-source.ts";
import { argsPrelude, executeInput, type ProgramInput, programToRun } from "./run-saved-program.ts";
import type { SavedPrograms } from "./saved-programs.ts";

/** A program's outcome, as the executor answers it. */
type Outcome = Awaited<ReturnType<CodeExecutor["execute"]>>;

/** The limits the executor enforces, as its contract names them. */
type ExecutorLimits = Parameters<CodeExecutor["execute"]>[0]["limits"];

/** The limits of one program: the executor's, and the transform's own. */
export interface ProgramLimits extends ExecutorLimits {
  /** Calls in all. */
  readonly calls: number;
  /** Programs a program's call may run below it. */
  readonly nesting: number;
}

/** How the execute tool is named and runs. */
export interface ExecuteToolSettings {
  /** Its name. */
  readonly name: string;
  /** The discover tool's name, named in its description. */
  readonly discoverTool: string;
  /** The sandbox. */
  readonly executor: CodeExecutor;
  /** The limits. */
  readonly limits: ProgramLimits;
  /** After how long a running program answers with a promise (with long-running support). */
  readonly promiseAfterMs: number;
  /** Whether a destructive tool asks the user before its call. */
  readonly confirmDestructive: boolean;
  /** The promised program's job starts again after its process died (`.longRunning({ retry })`), if given. */
  readonly retry?: PromiseRetry;
  /** The caller's saved programs, run by name (`codeMode({ savedPrograms })`), if on. */
  readonly programs?: SavedPrograms;
}

/**
 * The namespace the program calls the tools through, over the sandbox's one `__call` (`then` left out: not a
 * thenable). On the program's first line, so that the lines an error names are the program's.
 */
const PRELUDE = 'const tools = new Proxy({}, { get: (_, name) => typeof name === "string" && name !== "then" ? ' +
  "(input) => __call(name, input === undefined ? {} : input) : undefined }); ";

/**
 * The execute tool's description.
 *
 * @param settings Its settings.
 * @returns What the model reads.
 */
export function executeDescription(settings: ExecuteToolSettings): string {
  const { limits } = settings;
  return "Runs a JavaScript or TypeScript program in a sandbox and answers its return value and console output. " +
    "Use it to call several tools in one step and keep only what you need: filter, join and loop in code " +
    "instead of calling tools one at a time. Write the body of an async function (`return` gives the answer, " +
    "`await` works at the top level), or an async arrow function `async () => { ... }`. Each tool is an async " +
    "method of `tools`, taking its input object: `const issues = await " +
    'tools["github.list_issues"]({ repo: "sdk" }); return issues.filter((i) => i.open).length;`. Find the tools ' +
    `and their types with ${settings.discoverTool} first. A failed tool call throws an Error you can catch. No ` +
    "network, files, timers or environment: only `tools` and `console`. " +
    `Limits: ${limits.timeMs / 1000} s, ${limits.calls} tool calls.` +
    (settings.programs === undefined
      ? ""
      : " `args` (an object) is the program's `args`; `program` runs a saved program " +
        `by name with \`args\` instead of \`code\` (find them with ${settings.discoverTool}).`);
}

/**
 * Builds the execute tool of a registry.
 *
 * @param registry The server's definitions.
 * @param catalog The search, for the names an unknown one suggests.
 * @param settings Its name, the sandbox, the limits.
 * @returns The tool.
 */
export function executeCodeTool(
  registry: Registry,
  catalog: ToolCatalog,
  settings: ExecuteToolSettings,
  // deno-lint-ignore no-explicit-any
): Tool<string, any, any, any> {
  const { limits } = settings;
  const { calls: _calls, nesting: _nesting, ...executorLimits } = limits; // the transform's own stay here
  const longRunning = registry.longRunning !== undefined;
  const declared = defineTool(settings.name)
    .describe(executeDescription(settings))
    .input(executeInput(settings.programs !== undefined))
    .annotations({ openWorldHint: true });
  // One run of a program: its calls through the pipeline with `ctx`'s caller (recorded, or answered from a record).
  const started = (
    source: string,
    ctx: CallContext,
    recording: Pick<InnerCallSettings, "onCall" | "replay">,
    args?: unknown,
  ) => {
    const stop = new AbortController();
    let context = ctx; // the job's, once it takes the program over
    let unlink = follow(ctx.signal, stop);
    const calls = innerCalls(
      ctx,
      {
        registry,
        catalog,
        executeTool: settings.name,
        prefix: servedPrefix(ctx.tool, settings.name),
        maxCalls: limits.calls,
        confirmDestructive: settings.confirmDestructive,
        context: () => context,
        ...recording,
      },
      stop.signal,
      () => stop.abort(),
    );
    // A call that differs from what an earlier run recorded refuses the run: the program may not catch it.
    let refused: JournalMismatch | undefined;
    const held = heldCalls((name, input) =>
      calls.call(name, input).catch((error: unknown) => {
        if (error instanceof JournalMismatch) {
          refused ??= error;
          stop.abort();
        }
        throw error;
      })
    );
    const running = settings.executor.execute({
      source: PRELUDE + argsPrelude(args) + source,
      call: held.call,
      limits: executorLimits,
      signal: stop.signal,
    });
    const answer = (outcome: Outcome): ToolResult => {
      stop.abort(); // what an inner call left open on its signal (a proxied call's stream) ends with the program
      unlink();
      if (refused !== undefined) throw refused;
      const asked = calls.asked();
      if (asked !== undefined) throw asked; // the call ends with the question; the program runs again with the answer
      return outcome.ok ? answered(outcome) : failed(outcome);
    };
    /** The job takes the running program over: its signal stops it, its calls run in the job's context. */
    const adopt = (work: CallContext) => {
      unlink();
      unlink = follow(work.signal, stop);
      context = work;
    };
    const { hold, release } = held;
    return { running, answer, adopt, detach: () => unlink(), hold, release, stop: () => stop.abort() };
  };
  // The programs handed to a job of this process, by the id their job's input names (program-job.ts).
  const handed = new Map<string, HandedProgram<ReturnType<typeof started>>>();
  const run = async (input: ProgramInput, ctx: CallContext): Promise<unknown> => {
    if (depthOf(ctx.meta) > limits.nesting) {
      return fail(
        `A program may not run a program here (nesting: at most ${limits.nesting} below the model's own)`,
        { reason: "nesting" },
      );
    }
    const chosen = await programToRun(settings.programs, input, ctx);
    if ("content" in chosen) return chosen; // a saved program not found, or its args refused
    const { code, args } = chosen;
    const program = programSource(code);
    if (!program.ok) return failed({ ok: false, reason: "syntax", message: program.message, logs: [] });
    const begun: BegunCall[] = [];
    const onCall: InnerCallSettings["onCall"] = (n, name, outcome) => begun.push({ n, name, outcome });
    const running = started(program.source, ctx, { onCall }, args);
    if (!longRunning || limits.timeMs <= settings.promiseAfterMs) return running.answer(await running.running);
    const early = await firstOf(running.running, settings.promiseAfterMs);
    if (early !== undefined) return running.answer(early);
    // Still running: the call answers with a promise, and the program goes on as the tool's declared work, whose
    // input travels in a token where it may start elsewhere (a queue, a retry): too large for one, it goes on here.
    const maxBytes = registry.runtime.tokens.codec.maxBytes;
    const queued = registry.runtime.continuations.queue !== undefined;
    const carried = queued || settings.retry !== undefined;
    if (carried && !fitsToken({ code, args, calls: [] }, maxBytes)) return running.answer(await running.running);
    if (!queued) {
      // In this process: the job takes the running program over (the calls it began, journaled as they end).
      running.detach(); // the call is over: the job's cancellation stops the program from now on
      return ctx.defer({ code, args, calls: [], handed: hand(handed, running, begun) } satisfies ProgramJob);
    }
    // On a queue: no new call starts, those in flight end (a program that ends meanwhile answers), and a worker
    // runs the program again, these calls answered from the job's input.
    const ended = await Promise.race([running.running, running.hold().then(() => undefined)]);
    if (ended !== undefined) return running.answer(ended);
    const job: ProgramJob = { code, args, calls: await recordedOf(begun) };
    if (!fitsToken(job, maxBytes)) {
      running.release(); // the results it read are too large for the job's token: it goes on in this call
      return running.answer(await running.running);
    }
    running.stop();
    running.answer(await running.running); // a question asked meanwhile still ends the call with it
    return ctx.defer(job);
  };
  // The promised program's job: the program handed over in this process, else run again from the top, the calls
  // recorded before the promise answered from its input and each later call a step of the job's journal.
  const work = async ({ code, args, calls, handed: id }: ProgramJob, work: WorkContext): Promise<ToolResult> => {
    const ctx = work as unknown as CallContext; // its step() is the journal's
    const program = taken(handed, id);
    if (program !== undefined) {
      journal(ctx, program.begun);
      program.running.adopt(ctx);
      return program.running.answer(await program.running.running);
    }
    const source = programSource(code);
    if (!source.ok) return failed({ ok: false, reason: "syntax", message: source.message, logs: [] });
    const replay = new Map(calls.map((call) => [call.n, call]));
    const running = started(source.source, ctx, { replay }, args);
    return running.answer(await running.running);
  };
  if (!longRunning) return declared.handle(run as never);
  // deno-lint-ignore no-explicit-any
  return declared.longRunning({ retry: settings.retry }).defer(work as any).handle(run as any);
}

/** Aborts `stop` when `signal` does; returns what unlinks them. */
function follow(signal: AbortSignal, stop: AbortController): () => void {
  const onAbort = () => stop.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** The program's outcome if it ends within `ms`, else `undefined` (the timer cleared either way). */
async function firstOf(running: Promise<Outcome>, ms: number): Promise<Outcome | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), ms));
  try {
    return await Promise.race([running, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A program that ended: its value's JSON, then its console lines; `{ result, logs }` as structured content. */
function answered(outcome: Extract<Outcome, { ok: true }>): ToolResult {
  const json = JSON.stringify(outcome.value) ?? "undefined";
  const text = outcome.logs.length === 0 ? json : `${json}\n\nConsole:\n${outcome.logs.join("\n")}`;
  return toolResult({
    content: [{ type: "text", text }],
    structuredContent: outcome.value === undefined
      ? { logs: [...outcome.logs] }
      : { result: outcome.value, logs: [...outcome.logs] },
  });
}

/** A program that did not end well: why, then its console lines (`isError`, so the model fixes it and tries again). */
function failed(outcome: Extract<Outcome, { ok: false }>): ToolResult {
  const { reason, message, logs } = outcome;
  const head = reason === "syntax"
    ? `The program does not parse: ${message}`
    : reason === "thrown"
    ? `The program threw ${message}`
    : `The program was stopped (${reason}): ${message}`;
  const text = logs.length === 0 ? head : `${head}\n\nConsole:\n${logs.join("\n")}`;
  return fail(text, { reason, logs: [...logs] });
}
