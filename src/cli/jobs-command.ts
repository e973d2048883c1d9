/**
 * `mcplite jobs list|show|cancel|retry <module>`: what an operator needs of a server's queued jobs, read from its queue
 * (BullMQ's state, attempt, failure and the job's log, where its steps are) and its result store (the job's entry:
 * working, its result, its failure), through the module the web instances serve, so the same queue and store; and a
 * job cancelled as its caller would cancel it (`Continuations.cancel`: out of the queue, its entry cancelled, its
 * worker's run aborted within a third of a lease, its children too).
 *
 * @module
 */
import { ExitCode } from "./exit-errors.ts";
import type { Terminal } from "./terminal.ts";
import { loadServer, NOT_RUNNABLE } from "./server-module.ts";
import { attachListener } from "../server/listener.ts";
import { registryOf } from "../core/definitions/registry.ts";
import type { QueueItem, WorkQueue } from "../jobs/work-queue.ts";
import type { StoredResult } from "../jobs/result-store.ts";
import type { JournalEntry } from "../jobs/journal-store.ts";
import { Continuations } from "../jobs/continuations.ts";
import { lastRunOf, rerunRefusal, type Reruns, rerunsOf } from "../jobs/job-rerun.ts";

const USAGE = "usage: mcplite jobs list <server module> [--state <state>]… [--tool <name>]… [--limit <n>] [--json]\n" +
  "       mcplite jobs show <server module> [--json] [--] <job id>\n" +
  "       mcplite jobs cancel <server module> [--] <job id>\n" +
  "       mcplite jobs retry <server module> [--from <step>] [--] <job id>";

/**
 * Runs `mcplite jobs`.
 *
 * @param terminal The terminal.
 * @param argv The words after `jobs`.
 * @returns The exit code: 0, 1 for a job the queue and the store know nothing of (or, to `cancel`, one that had
 *   ended), 2 for a usage error, 3 when the module has no server with a queue that can be read (to `cancel`: no
 *   store its instances share).
 */
export async function jobsCommand(terminal: Terminal, argv: string[]): Promise<number> {
  const states: string[] = [], tools: string[] = [];
  let limit = 20, json = false, from: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    // After `--` every word is a positional (POSIX utility conventions, guideline 10): a job id may begin with "-".
    if (argv[i] === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const [name, inline] = argv[i].startsWith("--") && argv[i].includes("=")
      ? [argv[i].slice(0, argv[i].indexOf("=")), argv[i].slice(argv[i].indexOf("=") + 1)]
      : [argv[i], undefined];
    if (name === "--help" || name === "-h") return (await terminal.out(`${USAGE}\n`), ExitCode.Ok);
    if (name === "--json") json = true;
    else if (name === "--state") states.push(inline ?? argv[++i] ?? "");
    else if (name === "--tool") tools.push(inline ?? argv[++i] ?? "");
    else if (name === "--from") from = inline ?? argv[++i] ?? "";
    else if (name === "--limit") {
      const raw = inline ?? argv[++i] ?? "";
      if (!/^[1-9]\d*$/.test(raw)) {
        return await usage(terminal, `--limit takes a positive number, not ${JSON.stringify(raw)}`);
      }
      limit = Number(raw);
    } else if (name.startsWith("-")) {
      return await usage(terminal, `unknown option ${name} (a job id that begins with "-" goes after --)`);
    } else positionals.push(name);
  }
  const [verb, module, id] = positionals;
  if (verb !== "list" && verb !== "show" && verb !== "cancel" && verb !== "retry") {
    return await usage(terminal, "jobs takes list, show, cancel or retry");
  }
  if (from !== undefined && (verb !== "retry" || from === "")) {
    return await usage(terminal, verb !== "retry" ? "--from is for jobs retry" : "--from takes a step's name");
  }
  if (module === undefined) return await usage(terminal, `jobs ${verb} needs a server module`);
  if (tools.length > 0 && verb !== "list") return await usage(terminal, "--tool is for jobs list");
  if (tools.includes("")) return await usage(terminal, "--tool takes a tool's name (event:<name> for deliveries)");
  if (verb !== "list" ? id === undefined || positionals.length > 3 : positionals.length > 2) {
    return await usage(terminal, verb !== "list" ? `jobs ${verb} needs one job id` : "jobs list takes no job id");
  }
  const say = (line: string) => terminal.err(`mcplite jobs: ${line}\n`);
  const found = await loadServer(module, (problem) => usage(terminal, problem), say);
  if (typeof found === "number") return found;
  const runtime = registryOf(attachListener(found).core).runtime;
  // A server of the lite entry without long-running support has no engine: nothing to read or act on.
  const c = runtime.continuations instanceof Continuations ? runtime.continuations : undefined;
  const queue: WorkQueue | undefined = c?.queue;
  if (verb === "cancel") return await cancel(terminal, c, id!, say);
  if (verb === "retry") return await retry(terminal, c, id!, from, say);
  if (queue?.inspect === undefined) {
    await say("the module's server has no queue that can be read (createServer({ queue: bullmqQueue(…) }))");
    return NOT_RUNNABLE;
  }
  if (verb === "list") {
    const jobs = await latest(queue, limit, states, tools);
    await terminal.out(json ? `${JSON.stringify(jobs)}\n` : listed(jobs));
    return ExitCode.Ok;
  }
  const reruns = await rerunsOf(c!, id!);
  // A run again lives in the queue under its first run's id (the job an operator retried), which carries it now.
  const [job] = await queue.inspect({ id: reruns.of === undefined ? id : await lastRunOf(c!, id!, "of") });
  const [entry, journal] = await Promise.all([c!.results.get(id!), c!.journals.load(id!)]);
  if (job === undefined && entry === undefined) {
    await say(`no job ${id} in the queue or the result store (never queued, or no longer kept)`);
    return ExitCode.ToolFailed;
  }
  await terminal.out(
    json
      ? `${JSON.stringify({ ...job, id, result: entry && resultOf(entry), journal, ...reruns })}\n`
      : shown(id!, job, entry, journal, reruns),
  );
  return ExitCode.Ok;
}

/**
 * Cancels a job as its caller would: `0` once cancelled, `1` when it had ended (how) or is unknown, `3` when the
 * server keeps its jobs in its own process's memory (no instance of this process runs them).
 */
async function cancel(
  terminal: Terminal,
  c: Continuations | undefined,
  id: string,
  say: (line: string) => Promise<void>,
): Promise<number> {
  // A store the server's instances share: without one, its jobs live in the memory of the process that runs them.
  if (c?.leaseMs === undefined) {
    await say("the module's server keeps its jobs in its own process (createServer({ resultStore }) shares them)");
    return NOT_RUNNABLE;
  }
  const before = await c.results.get(id);
  if (before === undefined) {
    await say(`no job ${id} in the result store (never started, or no longer kept)`);
    return ExitCode.ToolFailed;
  }
  if (await c.cancel(id, c.promiseTtlMs)) {
    await terminal.out(`cancelled ${id}\n`);
    return ExitCode.Ok;
  }
  const now = await c.results.get(id);
  await say(`job ${id} had ended already: ${now === undefined ? "no longer kept" : resultOf(now).status}`);
  return ExitCode.ToolFailed;
}

/**
 * Runs a failed job again, as Bull Board's Retry does (`WorkQueue.retry`): a worker runs it as a new run, its completed
 * steps kept up to `--from` (`src/jobs/job-rerun.ts`). `0` once the queue delivers it again, `1` for a job that did not
 * fail (or is unknown), `3` for a queue that cannot run a job again.
 */
async function retry(
  terminal: Terminal,
  c: Continuations | undefined,
  id: string,
  from: string | undefined,
  say: (line: string) => Promise<void>,
): Promise<number> {
  if (c?.queue?.retry === undefined) {
    await say(
      "the module's server has no queue that runs a failed job again (createServer({ queue: bullmqQueue(…) }))",
    );
    return NOT_RUNNABLE;
  }
  // A run again is itself retried through the job that carries it, its first run's; what ran last is what runs again.
  const first = await lastRunOf(c, id, "of");
  const last = await lastRunOf(c, first, "as");
  const [entry, journal] = await Promise.all([c.results.get(last), c.journals.load(last)]);
  const refused = rerunRefusal(last, entry, journal, from);
  if (refused !== undefined) {
    await say(last === id ? refused : `${refused} (the last run of ${id})`);
    return ExitCode.ToolFailed;
  }
  if (!await c.queue.retry(first, from === undefined ? {} : { from })) {
    await say(`the queue holds no failed job ${first} (never failed in the queue, or no longer kept)`);
    return ExitCode.ToolFailed;
  }
  await terminal.out(
    `retrying ${last}${from === undefined ? "" : ` from step ${from}`}: a worker runs it again as a new run\n`,
  );
  return ExitCode.Ok;
}

/** How many of the queue's latest jobs `--tool` looks through for its matches, at most. */
const TOOL_SCAN = 5_000;

/**
 * The queue's latest jobs (of `states`, when given), newest first: `limit` of them, or with `--tool`, the latest
 * `limit` of those tools among the latest {@link TOOL_SCAN} (an event's deliveries are the tool `event:<name>`; a name
 * ending in `*` takes every tool it begins, `event:*` every delivery).
 */
async function latest(
  queue: WorkQueue,
  limit: number,
  states: readonly string[],
  tools: readonly string[],
): Promise<readonly QueueItem[]> {
  const asked = { ...(states.length === 0 ? {} : { states }) };
  if (tools.length === 0) return await queue.inspect!({ limit, ...asked });
  const named = (tool = "") =>
    tools.some((name) => name.endsWith("*") ? tool.startsWith(name.slice(0, -1)) : tool === name);
  return (await queue.inspect!({ limit: TOOL_SCAN, ...asked })).filter((job) => named(job.tool)).slice(0, limit);
}

/** The jobs as a table, one a line: id, state, attempt, tool, call id, when added, and why it failed. */
function listed(jobs: readonly QueueItem[]): string {
  if (jobs.length === 0) return "no jobs\n";
  const rows = [["ID", "STATE", "ATTEMPT", "TOOL", "CALL", "ADDED", "FAILED"]];
  for (const job of jobs) {
    rows.push([
      job.id,
      job.state,
      String(job.attempt ?? ""),
      job.tool ?? "",
      job.callId === undefined ? "" : String(job.callId),
      job.addedAt === undefined ? "" : new Date(job.addedAt).toISOString(),
      job.failedReason ?? "",
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd()).join("\n") + "\n";
}

/**
 * One job: what the queue holds of it, its entry in the store, its last error, its steps as its log tells them and
 * its journal (each step's and sleep's recorded value, from the job store).
 */
function shown(
  id: string,
  job: QueueItem | undefined,
  entry: StoredResult | undefined,
  journal: readonly JournalEntry[],
  reruns: Reruns,
): string {
  const lines = [`job ${id}`];
  const field = (name: string, value: unknown) => value !== undefined && lines.push(`  ${name.padEnd(9)}${value}`);
  field("tool", job?.tool);
  field("call", job?.callId);
  field("task", job?.taskId);
  field("queue", job === undefined ? "not held (finished and no longer kept)" : job.state);
  field("attempt", job?.attempt);
  field("added", job?.addedAt === undefined ? undefined : new Date(job.addedAt).toISOString());
  field("finished", job?.finishedAt === undefined ? undefined : new Date(job.finishedAt).toISOString());
  const result = entry === undefined ? undefined : resultOf(entry);
  field("result", result === undefined ? "none in the store (expired, or never written)" : result.status);
  field("error", result?.error ?? job?.failedReason);
  field("rerun of", reruns.of);
  field("rerun as", reruns.as);
  const steps = job?.log ?? [];
  lines.push(steps.length === 0 ? "  steps    none logged" : "  steps");
  for (const step of steps) lines.push(`    ${step}`);
  lines.push(journal.length === 0 ? "  journal  empty" : "  journal");
  for (const each of [...journal].sort((a, b) => a.position - b.position)) {
    const json = each.value === undefined ? undefined : JSON.stringify(each.value);
    const size = json === undefined ? "no value" : `${new TextEncoder().encode(json).length} B`;
    lines.push(`    ${each.position} ${each.name}  ${size}  ${new Date(each.at).toISOString()}`);
  }
  return lines.join("\n") + "\n";
}

/** A job's entry in the result store, as an operator reads it: its status, and its error when it failed. */
function resultOf(entry: StoredResult): { status: string; error?: string } {
  if (entry.status === "failed") return { status: "failed", error: entry.error.message };
  if (entry.status !== "completed") return { status: entry.status };
  if (entry.result.isError !== true) return { status: "completed" };
  const text = entry.result.content.flatMap((each) => each.type === "text" ? [each.text] : []).join(" ");
  return { status: "failed (the tool's error result)", error: text };
}

async function usage(terminal: Terminal, problem: string): Promise<number> {
  await terminal.err(`mcplite: ${problem}\n${USAGE}\n`);
  return ExitCode.Error;
}
