/**
 * `mcplite dev` as a user starts it, for the dev tests: a project folder in the OS's temp directory
 * (its `node_modules` a link to the repository's, so Bun and Node find valibot; Deno reads the
 * repository's deno.json, the working directory), the CLI started on a runtime, its stderr kept, and
 * bounded waits for what it prints and for a call's answer.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { output, ROOT } from "../../helpers/process.ts";
import { readUntil, waitFor } from "../../helpers/wait.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";

/** A running `mcplite dev`. */
export interface DevSession {
  /** The project folder. */
  readonly dir: string;
  /** The dev server's origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** All it printed on stderr so far. */
  stderr(): string;
  /** Waits until stderr (after `from` characters) matches, bounded; returns the match. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Writes a file of the project. */
  write(file: string, text: string): void;
  /**
   * Stops it with Ctrl-C as a terminal sends it (SIGINT to its whole process group), waits until the
   * group is empty (bounded), and removes the folder.
   *
   * @returns Its exit code, and whether a process of its group outlived it.
   */
  stop(): Promise<{ code: number | null; orphans: boolean }>;
}

/** The SDK, imported by absolute path from a project outside the repository. */
export const SDK = JSON.stringify(`${ROOT}mod.ts`);

/** The SDK's errors entry point (`@mcplite/sdk/errors`), imported the same way. */
export const SDK_ERRORS = JSON.stringify(`${ROOT}src/errors/mod.ts`);

/**
 * Writes the project's files and starts `mcplite dev` on it.
 *
 * @param files The project's files (the first is the module served).
 * @param node Node's binary: run the CLI on Node (else on the runtime running the test).
 * @param extra Options after the module, and variables added to the environment.
 */
export async function startDev(
  files: Record<string, string>,
  node?: string,
  extra: { args?: string[]; env?: Record<string, string> } = {},
): Promise<DevSession> {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-dev-"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const { command, args } = node === undefined
    ? runtimeCommand(`${ROOT}src/cli/main.ts`)
    : { command: node, args: [`${ROOT}src/cli/bin.mjs`] };
  const child: ChildProcess = spawn(command, [...args, "dev", join(dir, Object.keys(files)[0]), ...extra.args ?? []], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: "0", NO_COLOR: "1", ...extra.env },
    detached: true, // a process group of its own, as a terminal's job
  });
  const stderr = output(child, ["stderr"]);
  let exited = false;
  child.stdout!.resume();
  child.once("exit", () => void (exited = true));
  // Each line checked as it comes: a bound, not a poll.
  const said = (pattern: RegExp, from = 0, timeoutMs = 30_000) => stderr.until(pattern, timeoutMs, from);
  let code: number | null = null;
  child.once("exit", (exitCode) => void (code = exitCode));
  const group = (signal: NodeJS.Signals | 0) => {
    try {
      process.kill(-child.pid!, signal);
      return true;
    } catch {
      return false; // the group is empty
    }
  };
  const stop = async () => {
    if (!exited) {
      if (!group("SIGINT")) child.kill("SIGINT");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => (child.kill("SIGKILL"), resolve()), 10_000);
        child.once("exit", () => (clearTimeout(timer), resolve()));
        if (exited) (clearTimeout(timer), resolve());
      });
    }
    // The group's other processes are no children of the test's: nothing says when they are gone (a bound of 5 s).
    await waitFor(() => !group(0), 5_000).catch(() => {});
    const orphans = group(0);
    if (orphans) group("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    return { code, orphans };
  };
  try {
    const origin = (await said(/dev page at (http:\/\/\S+)\/_dev/))[1];
    return {
      dir,
      origin,
      stderr: stderr.text,
      waitFor: said,
      write: (file, text) => writeFileSync(join(dir, file), text),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Calls until `check` holds for the answer (or the error), bounded: a restart is waited for, not slept.
 *
 * @returns What the last call gave, and how long it took to hold, in ms (reported, never asserted).
 */
export async function until<T>(
  call: () => Promise<T>,
  check: (answer: T | Error) => boolean,
  timeoutMs = 30_000,
): Promise<{ answer: T | Error; ms: number }> {
  const start = performance.now();
  const answer = await readUntil(() => call().catch((error: Error) => error), check, "the expected answer", {
    timeoutMs,
    everyMs: 25,
  });
  return { answer, ms: Math.round(performance.now() - start) };
}
