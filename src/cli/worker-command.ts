/**
 * `mcplite worker <module>`: runs the queued jobs of the server a module exports (`runWorker()`), with
 * no listener, until SIGTERM or SIGINT (or, started by npm, until the shell npm ran it in is gone), which drain it:
 * running jobs get `--drain-ms` to finish, then go back to the queue. The module is the one the web instances serve, so the worker has the same tools,
 * middleware, secret, result store and queue.
 *
 * @module
 */
import { loadServer } from "./server-module.ts";
import { ExitCode } from "./exit-errors.ts";
import type { Terminal } from "./terminal.ts";
import { runWorker } from "../jobs/worker/run-worker.ts";

const USAGE = "usage: mcplite worker <server module> [--concurrency <n>] [--drain-ms <ms>]";

const g = globalThis as unknown as {
  Deno?: { addSignalListener(signal: string, handler: () => void): void };
  process?: {
    on(signal: string, handler: () => void): void;
    readonly ppid: number;
    readonly env: Record<string, string>;
  };
};

/** How often a worker that npm started looks whether the shell npm started it in is still its parent, in ms. */
const LAUNCHER_LOOK_MS = 500;

/**
 * Resolves once the worker is told to stop: SIGTERM or SIGINT, or, when npm started it (`npx mcplite worker`, an npm
 * script: `npm_lifecycle_event` set), once the shell npm ran it under is gone. npm runs a bin under `sh -c`, which
 * Debian's dash does not replace by the command, and passes a SIGTERM it gets (a container's stop) to that shell
 * alone: the shell dies and the worker would run on, orphaned, until killed. Its parent's pid changes then, on Node
 * and Bun (`process.ppid` is read anew), which says it as the signal would have.
 */
function stopAsked(): Promise<string> {
  return new Promise<string>((resolve) => {
    for (const name of ["SIGTERM", "SIGINT"]) {
      if (g.Deno) g.Deno.addSignalListener(name, () => resolve(name));
      else g.process!.on(name, () => resolve(name));
    }
    if (g.Deno || g.process?.env.npm_lifecycle_event === undefined) return;
    const parent = g.process.ppid;
    const look = setInterval(() => {
      if (g.process!.ppid === parent) return;
      clearInterval(look);
      resolve("the shell npm started it in stopped (npm passes its SIGTERM there alone)");
    }, LAUNCHER_LOOK_MS);
    (look as { unref?: () => void }).unref?.();
  });
}

/**
 * Runs `mcplite worker`.
 *
 * @param terminal The terminal.
 * @param argv The words after `worker`.
 * @returns The exit code: 0 once drained after a signal, 2 for a usage error, 3 when the module has no
 *   server with a queue.
 */
export async function workerCommand(terminal: Terminal, argv: string[]): Promise<number> {
  const options: { concurrency?: number; drainMs?: number } = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].startsWith("--") && argv[i].includes("=")
      ? [argv[i].slice(0, argv[i].indexOf("=")), argv[i].slice(argv[i].indexOf("=") + 1)]
      : [argv[i], undefined];
    if (name === "--help" || name === "-h") return (await terminal.out(`${USAGE}\n`), ExitCode.Ok);
    if (name === "--concurrency" || name === "--drain-ms") {
      const raw = inline ?? argv[++i] ?? "";
      if (!/^\d+$/.test(raw) || (name === "--concurrency" && Number(raw) === 0)) {
        return await usage(
          terminal,
          `${name} takes a ${name === "--concurrency" ? "positive " : ""}number, not ${JSON.stringify(raw)}`,
        );
      }
      if (name === "--concurrency") options.concurrency = Number(raw);
      else options.drainMs = Number(raw);
    } else if (name.startsWith("-")) return await usage(terminal, `unknown option ${name}`);
    else positionals.push(name);
  }
  if (positionals.length !== 1) return await usage(terminal, "worker needs one server module");
  const say = (line: string) => terminal.err(`mcplite worker: ${line}\n`);
  const found = await loadServer(positionals[0], (problem) => usage(terminal, problem), say);
  if (typeof found === "number") return found;
  let worker;
  try {
    worker = runWorker(found, options);
  } catch (error) {
    return (await say((error as Error).message), 3);
  }
  await say(`taking jobs (${options.concurrency ?? 8} at once)`);
  const signal = await stopAsked();
  await say(`${signal}: draining ${worker.running} running job(s)`);
  await worker.close();
  await say("drained");
  return ExitCode.Ok;
}

async function usage(terminal: Terminal, problem: string): Promise<number> {
  await terminal.err(`mcplite: ${problem}\n${USAGE}\n`);
  return ExitCode.Error;
}
