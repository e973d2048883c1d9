/**
 * What the bench drivers (`bench/run.ts`, `bench/queue.ts`) and runs share: the repository's paths, their flags, and a
 * child process run to its end within a bound, as each runtime's run is started.
 */
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The repository's root, where the drivers run their children. */
export const ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The installed programs (bun, deno). */
export const BIN: string = join(ROOT, "node_modules", ".bin");
/** Where the drivers keep their builds. */
export const CACHE: string = join(ROOT, "node_modules", ".cache", "mcplite-bench");

/** A `--name value` of the command line: its value, else `fallback` (without one, `undefined`). */
export function flag(name: string): string | undefined;
export function flag(name: string, fallback: string): string;
export function flag(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

/**
 * Runs a command to its end, within `timeoutMs` (then killed); resolves with its output.
 *
 * @param options `echo`: its stderr goes on to ours as it comes, too.
 */
export function exec(
  cmd: string,
  args: string[],
  timeoutMs: number,
  options: { echo?: boolean } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => {
      err += d;
      if (options.echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      err += `\n(killed after ${timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}
