/**
 * `codeMode()`: the `createServer({ codeMode })` option that lets a model write one small program against the
 * server's tools, run in a sandbox, instead of calling them one at a time. It serves a discover tool (the tools'
 * TypeScript declarations, found by search or by name) and an execute tool (a program), in place of the listing or
 * beside it; every inner call goes through the server's one call pipeline with the caller's rights.
 *
 * @module
 */
import type { Definitions } from "../core/definitions/registry.ts";
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import { assertToolName } from "../core/definitions/tool.ts";
import { type Capability, capability } from "../server/server-capability.ts";
import { listingOf, searchCatalog } from "../tool-search/tool-search.ts";
import { discoverToolsTool } from "./discover-tools-tool.ts";
import { executeCodeTool, type ProgramLimits } from "./execute-code-tool.ts";
import type { CodeExecutor } from "./executor.ts";
import { quickjsExecutor } from "./quickjs/quickjs-executor.ts";
import { threadsAvailable } from "../runtime/threads.ts";
import { workerExecutor } from "./worker/worker-executor.ts";
import { continuationsOf } from "../jobs/continuations.ts";
import { createMemoryStore } from "../store/memory-store.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { saveProgramTool } from "./save-program-tool.ts";
import { SavedPrograms, type SavedProgramsOptions } from "./saved-programs.ts";

/** Options of {@link codeMode}. */
export interface CodeModeOptions {
  /**
   * What the lists show (`tools/list`, MCP-lite's, gRPC `GetTools`, the OpenAPI and Webtools documents):
   * `"replace"` (the default) the discover and execute tools and the system tools (`redeem`) only, every tool
   * staying callable by its name, as tool search does; `"beside"` every tool, and the two beside them.
   */
  readonly listing?: "replace" | "beside";
  /**
   * What runs the programs. Default: `workerExecutor()` (QuickJS on threads of its own, apart from the server's
   * event loop) where the runtime has threads (Deno, Bun, Node), else `quickjsExecutor()` (QuickJS on the server's
   * thread: Cloudflare Workers, which have no `Worker` constructor).
   */
  readonly executor?: CodeExecutor;
  /** The limits of one program; a program past one stops, or its call fails, with a message naming it. */
  readonly limits?: {
    /** Wall time, in ms, waits for tool calls included (default 30 000). */
    readonly timeMs?: number;
    /**
     * Time the program computes, in ms (default 1 000), measured on the thread it runs on: with
     * `quickjsExecutor()` the server's, so this is how long one program may hold it.
     */
    readonly cpuMs?: number;
    /** Heap, in bytes (default 64 MiB). */
    readonly memoryBytes?: number;
    /** Stack, in bytes (default 128 KiB): deep recursion (more can overflow the host's own stack). */
    readonly stackBytes?: number;
    /** Console lines and the result's JSON together, in bytes (default 64 KiB). */
    readonly outputBytes?: number;
    /** Tool calls in flight at once (default 16). */
    readonly pendingCalls?: number;
    /** Tool calls in all (default 100): past it, each call throws. */
    readonly calls?: number;
    /** How many programs deep a program's call may run one (default 0: a program's call may not run a program). */
    readonly nesting?: number;
  };
  /**
   * After how long a program still running answers with a promise (a task on MCP) and goes on as declared work
   * (default 5 000 ms), on a server with long-running support (every server of `@mcplite/sdk`; the lite entry's
   * with `longRunning`): in this process, or on a worker where the server has a `queue`. Its job runs the program
   * again from the top, the calls made so far answered from the job, each later call a step of its journal.
   */
  readonly promiseAfterMs?: number;
  /**
   * A promised program's job starts again when its process died (`.longRunning({ retry })`: `attempts` in all),
   * its recorded calls answered from its journal, not made again. Default: none (the job ends failed).
   */
  readonly retry?: PromiseRetry;
  /**
   * Whether a call of a tool whose annotations say `destructiveHint: true` first asks the user (MCP elicitation,
   * form mode); declined, or a client that cannot be asked, the call throws in the program. Default `false`.
   * The question pauses the program as durable work (a task `input_required`, or a held call that asks), as
   * {@link CodeModeOptions.needsApproval} does.
   */
  readonly confirmDestructive?: boolean;
  /**
   * Which other calls of a program ask the user first, by the tool's name and the call's input (as the
   * AI SDK's and the OpenAI Agents SDK's `needsApproval`): `true` asks. The question pauses the program as
   * durable work: an MCP client with tasks sees its task `input_required`, a held call is asked by elicitation,
   * and after the answer the program resumes, its calls made so far not made again. Declined, the call throws
   * in the program. Default: none (only `confirmDestructive`'s).
   *
   * @param name The tool's name, as the server registered it.
   * @param input The call's input, before validation.
   * @returns Whether the user is asked.
   *
   * @example Refunds over 100 ask first
   * ```ts
   * import { codeMode } from "./mod.ts";
   * const mode = codeMode({
   *   needsApproval: (name, input) => name === "refund" && (input as { amount?: number }).amount! > 100,
   * });
   * ```
   */
  readonly needsApproval?: (name: string, input: unknown) => boolean | Promise<boolean>;
  /** The tools a search of the discover tool answers when the model does not say (default 5, at most 50). */
  readonly limit?: number;
  /** The discover tool's name (default `discover_tools`). */
  readonly discoverTool?: string;
  /** The execute tool's name (default `execute_code`). */
  readonly executeTool?: string;
  /**
   * Saved programs (off by default; `{}` turns them on): a caller keeps a program that worked by name with
   * `save_program`, finds it with the discover tool and runs it with `execute_code({ program, args })`, in any
   * later session; kept per principal (the authenticated subject and OAuth client) in the server's store, never
   * seen by another caller.
   */
  readonly savedPrograms?: SavedProgramsOptions;
}

const DEFAULT_LIMITS: ProgramLimits = {
  timeMs: 30_000,
  cpuMs: 1_000,
  memoryBytes: 64 << 20,
  stackBytes: 128 << 10,
  outputBytes: 64 << 10,
  pendingCalls: 16,
  calls: 100,
  nesting: 0,
};

/**
 * Code mode, as `createServer({ codeMode: codeMode() })`: the model finds tools with `discover_tools` (their
 * TypeScript declarations, by search or by name) and runs a program with `execute_code` (TypeScript or JavaScript,
 * in a sandbox, QuickJS on a thread of its own by default), calling several tools in one round trip and answering only what it keeps.
 * Inside the program each tool is an async method of `tools` (`await tools.sendMail({ to })`,
 * `tools["github.list_issues"](input)`); each call goes through the server's one call pipeline with the caller's
 * identity, signal and budgets, as a direct `tools/call`: validation, `.scopes()`, middleware, app-only
 * visibility, a proxy's credential rules. It serves the server's own tools, a `group()`'s and a `proxy()`'s.
 * Not with `toolSearch` (both decide the lists).
 *
 * @param options The listing, the sandbox, the limits, the approvals, the names.
 * @returns The capability, for `createServer({ codeMode })`.
 * @throws {TypeError} When a limit is out of range or a name is invalid; at `createServer()`, with `toolSearch`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { codeMode } from "./mod.ts";
 *
 * // Programs answer inline for up to 30 s here (default 5 s; past it, the call answers with a promise).
 * const server = createServer({ name: "shop", version: "1.0.0", codeMode: codeMode({ promiseAfterMs: 30_000 }) })
 *   .tool(defineTool("orders").describe("Lists the orders").handle(() => ({ orders: [{ id: 1, total: 30 }, { id: 2, total: 5 }] })))
 *   .tool(defineTool("refund").describe("Refunds an order").input(v.object({ id: v.number() })).handle(({ id }) => `refunded ${id}`));
 *
 * const call = server.call.bind(server) as (name: string, args: object) => ReturnType<typeof server.call>;
 * const ran = await call("execute_code", {
 *   code: "const { orders } = await tools.orders();\nreturn orders.filter((o: { total: number }) => o.total > 10).map((o) => o.id);",
 * });
 * assert.deepEqual(ran.kind === "answer" && ran.result.structuredContent, { result: [1], logs: [] });
 * ```
 */
export function codeMode(options: CodeModeOptions = {}): Capability<"codeMode"> {
  const limits: ProgramLimits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < (key === "nesting" ? 0 : 1)) {
      throw new TypeError(`codeMode(): limits.${key} is a positive integer`);
    }
  }
  const limit = options.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new TypeError("codeMode(): limit is 1 to 50");
  const promiseAfterMs = options.promiseAfterMs ?? 5_000;
  if (!Number.isInteger(promiseAfterMs) || promiseAfterMs < 0 || promiseAfterMs > 2_147_483_647) {
    throw new TypeError("codeMode(): promiseAfterMs is an integer from 0 to 2147483647 (a timer's range)");
  }
  const discoverName = options.discoverTool ?? "discover_tools";
  const executeName = options.executeTool ?? "execute_code";
  assertToolName(discoverName);
  assertToolName(executeName);
  if (discoverName === executeName) throw new TypeError("codeMode(): the discover and execute tools need two names");
  const executor = options.executor ?? (threadsAvailable() ? workerExecutor() : quickjsExecutor());
  const saveName = options.savedPrograms === undefined ? undefined : options.savedPrograms.tool ?? "save_program";
  if (saveName !== undefined) {
    assertToolName(saveName);
    if (saveName === discoverName || saveName === executeName) {
      throw new TypeError("codeMode(): the save tool needs a name of its own");
    }
  }
  const own = new Set([discoverName, executeName, ...saveName === undefined ? [] : [saveName]]);
  return capability("codeMode", (registry: Definitions) => {
    let store: SharedStore | undefined; // the server's, else one of this server's own in memory
    const programs = options.savedPrograms === undefined ? undefined : new SavedPrograms(
      options.savedPrograms,
      () =>
        store ??= (registry.runtime.continuations && continuationsOf(registry.runtime).store) ?? createMemoryStore(),
    );
    if (registry.listing !== undefined) {
      throw new TypeError("createServer(): codeMode and toolSearch cannot be given together (both decide the lists)");
    }
    const catalog = searchCatalog(registry, {}, own);
    registry.add(
      discoverToolsTool(registry, catalog, { name: discoverName, executeTool: executeName, limit, programs }),
    );
    registry.add(executeCodeTool(registry, catalog, {
      name: executeName,
      discoverTool: discoverName,
      executor,
      limits,
      promiseAfterMs,
      needsApproval: (name, destructive, input) =>
        (destructive && options.confirmDestructive === true) || (options.needsApproval?.(name, input) ?? false),
      retry: options.retry,
      programs,
    }));
    if (programs !== undefined && saveName !== undefined) {
      registry.add(saveProgramTool(programs, { name: saveName, executeTool: executeName, discoverTool: discoverName }));
    }
    if (options.listing !== "beside") registry.listing = listingOf((tool) => own.has(tool.name));
  });
}
