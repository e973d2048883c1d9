/**
 * The execute tool of code mode: runs the model's program in the sandbox with the tools as async methods of
 * `tools`, and answers its return value and console lines. On a server with long-running support, a program
 * still running after `promiseAfterMs`, or paused by a call that needs the user's approval, answers with a promise (a
 * task on MCP) and goes on as the tool's declared work: in this process, or on a worker with a queue (program-job.ts).
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
import { MODERN_VERSIONS, TASKS_EXTENSION } from "../internal/mcp-wire.ts";

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
  /** Whether a call asks the user before it runs (codeMode()'s `confirmDestructive` and `needsApproval`). */
  readonly needsApproval: InnerCallSettings["needsApproval"];
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
  // `onPause`, where the call may become durable work: a call that needs the user's approval asks for it, and
  // waits until the job took the program over (its question then parks the job), or until it cannot.
  const started = (
    source: string,
    ctx: CallContext,
    recording: Pick<InnerCallSettings, "onCall" | "replay">,
    args?: unknown,
    onPause?: () => void,
  ) => {
    const stop = new AbortController();
    let context = ctx; // the job's, once it takes the program over
    let unlink = follow(ctx.signal, stop);
    let pausable = onPause !== undefined;
    const parked: ((durable: boolean) => void)[] = [];
    /** The calls waiting for the user's answer, by number: not recorded for a worker, which asks again. */
    const asking = new Set<number>();
    const pause = (n: number): Promise<boolean> => {
      if (context !== ctx || !pausable) return Promise.resolve(context !== ctx);
      asking.add(n);
      return new Promise<boolean>((resolve, reject) => {
        const stopped = () => reject(new Error("The program was stopped")); // handed over: it runs elsewhere
        if (stop.signal.aborted) return stopped();
        stop.signal.addEventListener("abort", stopped, { once: true });
        parked.push(resolve);
        onPause!();
      }).finally(() => asking.delete(n));
    };
    /** The parked calls go on: durable (the job took the program over), or asked in this call. */
    const unpause = (durable: boolean) => {
      pausable &&= durable;
      for (const go of parked.splice(0)) go(durable);
    };
    const calls = innerCalls(
      ctx,
      {
        registry,
        catalog,
        executeTool: settings.name,
        prefix: servedPrefix(ctx.tool, settings.name),
        maxCalls: limits.calls,
        needsApproval: settings.needsApproval,
        pause,
        context: () => context,
        ...recording,
      },
      stop.signal,
      () => stop.abort(),
    );
    // A call that differs from what an earlier run recorded refuses the run: the program may not catch it.
    let refused: JournalMismatch | undefined;
    const held = heldCalls((name, input, park) =>
      calls.call(name, input, park).catch((error: unknown) => {
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
      unpause(true);
    };
    const { hold, release } = held;
    const stopIt = () => stop.abort();
    return { running, answer, adopt, detach: () => unlink(), hold, release, unpause, asking, stop: stopIt };
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
    // A call that needs approval pauses the program: it becomes durable work now, where the caller can follow it.
    const pausable = longRunning && followsWork(ctx);
    let pauseNow = () => {};
    const paused = new Promise<undefined>((resolve) => pauseNow = () => resolve(undefined));
    const running = started(program.source, ctx, { onCall }, args, pausable ? () => pauseNow() : undefined);
    const promising = longRunning && limits.timeMs > settings.promiseAfterMs;
    if (!promising && !pausable) return running.answer(await running.running);
    const early = await firstOf(running.running, promising ? settings.promiseAfterMs : undefined, paused);
    if (early !== undefined) return running.answer(early);
    // Still running, or paused: the call answers with a promise, and the program goes on as the tool's declared work,
    // whose input travels in a token where it may start elsewhere (a queue, a retry): too large, it goes on here.
    const maxBytes = registry.runtime.tokens.codec.maxBytes;
    const queued = registry.runtime.continuations.queue !== undefined;
    const carried = queued || settings.retry !== undefined;
    if (carried && !fitsToken({ code, args, calls: [] }, maxBytes)) {
      running.unpause(false);
      return running.answer(await running.running);
    }
    if (!queued) {
      // In this process: the job takes the running program over (the calls it began, journaled as they end).
      running.detach(); // the call is over: the job's cancellation stops the program from now on
      return ctx.defer({ code, args, calls: [], handed: hand(handed, running, begun) } satisfies ProgramJob);
    }
    // On a queue: no new call starts, those in flight end (a program that ends meanwhile answers), and a worker
    // runs the program again, these calls answered from the job's input.
    const ended = await Promise.race([running.running, running.hold().then(() => undefined)]);
    if (ended !== undefined) return running.answer(ended);
    const job: ProgramJob = { code, args, calls: await recordedOf(begun.filter(({ n }) => !running.asking.has(n))) };
    if (!fitsToken(job, maxBytes)) {
      running.release(); // the results it read are too large for the job's token: it goes on in this call
      running.unpause(false);
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

/** The program's outcome if it ends within `ms` (none: no limit) and before `paused`, else `undefined`. */
async function firstOf(
  running: Promise<Outcome>,
  ms: number | undefined,
  paused: Promise<undefined>,
): Promise<Outcome | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    if (ms !== undefined) timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([running, late, paused]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the caller can follow a program's durable work and answer its questions: one that can be asked at all (a
 * client that declared no elicitation is refused in its call, at once), and not an MCP 2026-07-28 client without the
 * tasks extension, whose held call cannot ask (it asks by input rounds, SEP-2322) and would end with text naming
 * `redeem`: it is asked in its call instead (an input round, the program run again after it).
 */
function followsWork(ctx: CallContext): boolean {
  if (!ctx.client.supports("elicitation")) return false;
  const { wire, protocolVersion } = ctx.meta;
  const modern = wire === "mcp" && protocolVersion !== undefined && MODERN_VERSIONS.includes(protocolVersion);
  return !modern || ctx.client.supports(TASKS_EXTENSION);
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
