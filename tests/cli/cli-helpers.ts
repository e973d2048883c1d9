/**
 * Running the CLI as a user does: a child process of the runtime running the tests (`deno run -A` or
 * `bun`), against a fixture server this process serves on 127.0.0.1.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { type Binding, defineTool, fail, serve } from "../../mod.ts";
import type { Listener } from "../../src/server/serve.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { fixtureServer, withDefaults } from "../helpers/fixtures.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = `${ROOT}src/cli/main.ts`;

/** Asks the user for a name, then greets them. */
const greet = defineTool("greet")
  .describe("Asks for a name, then greets")
  .handle(async (_, ctx) => {
    const answer = await ctx.elicit("who", {
      message: "Who should I greet?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return answer.action === "accept" ? `Hello, ${answer.content?.name}!` : fail(`no greeting: ${answer.action}`);
  });

/** The fixture tools plus one that elicits, on MCP-lite, MCP and Webtools (or only the bindings given). */
export function cliServer(bindings: Binding[] = withDefaults(webtoolsBinding())) {
  return fixtureServer({ bindings, secret: "cli-tests-secret-0123456789abcdef" }).tool(greet);
}

/** Serves {@link cliServer} on a free port. */
export function startServer(bindings?: Binding[]): Promise<Listener> {
  return serve(cliServer(bindings), { port: 0, hostname: "127.0.0.1", quiet: true });
}

/** What a CLI run gave. */
export interface CliRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** The runtime and arguments that run the CLI's entry point. */
export function cliCommand(args: string[]): [string, string[]] {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (deno) return [deno.execPath(), ["run", "-A", MAIN, ...args]];
  return [process.execPath, [MAIN, ...args]];
}

/**
 * Runs the CLI to its end (killed after `timeoutMs`).
 *
 * @param args The command line.
 * @param options The time limit, and a hook that sees the child and its stderr as it comes.
 */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  const [command, argv] = cliCommand(args);
  return runProgram(command, argv, options);
}

/** Options of {@link runProgram}. */
export interface RunOptions {
  /** Kill the child after this long (default 20 s). */
  timeoutMs?: number;
  /** Sees the child and its stderr so far, as it comes. */
  onStderr?: (text: string, child: ChildProcess) => void;
  /** Variables added to the child's environment. */
  env?: Record<string, string>;
}

/**
 * Runs a program to its end, stdin closed at once, killed after `timeoutMs`.
 *
 * @param command The program.
 * @param argv Its arguments.
 * @param options The time limit and a stderr hook.
 */
export function runProgram(command: string, argv: string[], options: RunOptions = {}): Promise<CliRun> {
  const child = spawn(command, argv, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...options.env, NO_COLOR: "1" },
  });
  child.stdin!.end();
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => stdout += chunk);
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    options.onStderr?.(stderr, child);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Bundles the CLI for Node (`bun build --target node`), as JSR's npm layer would give Node JavaScript. */
export async function buildNodeBundle(): Promise<string> {
  const out = join(scratchDir("mcplite-cli-"), "mcplite.mjs");
  const built = await runProgram(`${ROOT}node_modules/.bin/bun`, ["build", MAIN, "--target", "node", "--outfile", out]);
  if (built.code !== 0) throw new Error(`bun build failed: ${built.stderr}`);
  return out;
}
