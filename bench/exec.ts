/**
 * Running a bench's child process to its end, within a bound, from the repository's root: how `bench/run.ts` and
 * `bench/queue.ts` start each runtime's run.
 */
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

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
