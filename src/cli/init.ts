/**
 * `mcplite init [dir] --runtime deno|bun|node|workers [--sdk <tarball|checkout|registry>]`: writes a new
 * project (a tool, a way to start it, a test of its own) into a directory that is missing or empty, then
 * prints the next steps. Without `--runtime`, the runtime running the CLI (Deno, Bun, else Node); without
 * `--sdk`, the SDK the CLI runs from (see `init-sdk.ts`).
 *
 * @module
 */
import { ExitCode, UsageError } from "./exit-errors.ts";
import { type SdkSource, sdkSource, sdkSpecifier } from "./init-sdk.ts";
import { nextSteps, projectFiles, type Runtime, RUNTIMES } from "./init-templates.ts";
import type { Terminal } from "./terminal.ts";

interface Fs {
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  readdir(path: string): Promise<string[]>;
  writeFile(path: string, data: string): Promise<void>;
}

/** What `init`'s command line says. */
interface InitArgs {
  dir: string;
  runtime: Runtime;
  /** `--sdk`'s value, if given. */
  sdk?: string;
}

/** The runtime running the CLI. */
function currentRuntime(): Runtime {
  if ("Deno" in globalThis) return "deno";
  if ("Bun" in globalThis) return "bun";
  return "node";
}

const USAGE = "mcplite init [dir] --runtime deno|bun|node|workers [--sdk <tarball|checkout|registry>]";

/** Reads `[dir] [--runtime <r>] [--sdk <s>]` (also `--runtime=<r>`, `--sdk=<s>`). */
function parseInitArgs(args: string[]): InitArgs {
  let dir: string | undefined;
  let runtime: string = currentRuntime();
  let sdk: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--runtime" || arg.startsWith("--runtime=")) {
      const value = arg === "--runtime" ? args[++i] : arg.slice("--runtime=".length);
      if (value === undefined) throw new UsageError("--runtime needs a value: deno, bun, node or workers");
      runtime = value;
    } else if (arg === "--sdk" || arg.startsWith("--sdk=")) {
      sdk = arg === "--sdk" ? args[++i] : arg.slice("--sdk=".length);
      if (sdk === undefined || sdk === "") {
        throw new UsageError("--sdk needs a value: a tarball (npm pack), a checkout, or registry");
      }
    } else if (arg.startsWith("-")) {
      throw new UsageError(`init: unknown option ${arg} (${USAGE})`);
    } else if (dir === undefined) {
      dir = arg;
    } else {
      throw new UsageError(`init: one directory only, not ${JSON.stringify(arg)}`);
    }
  }
  if (!(RUNTIMES as readonly string[]).includes(runtime)) {
    throw new UsageError(`init: --runtime is deno, bun, node or workers, not ${JSON.stringify(runtime)}`);
  }
  return { dir: dir ?? ".", runtime: runtime as Runtime, sdk };
}

/**
 * Runs `init`.
 *
 * @param terminal The terminal.
 * @param args The arguments after `init`.
 * @returns The exit code: 0, or 2 for a bad command line, a directory that is not empty, or an `--sdk` that
 *   names no tarball or built checkout.
 */
export async function initCommand(terminal: Terminal, args: string[]): Promise<number> {
  // Deno, Bun and Node all have them; named literally so that JSR can analyse them.
  const fs: Fs = await import("node:fs/promises");
  const { cwd } = await import("node:process");
  let parsed: InitArgs;
  try {
    parsed = parseInitArgs(args);
  } catch (error) {
    await terminal.err(`mcplite: ${(error as Error).message}\n`);
    return ExitCode.Error;
  }
  const root = parsed.dir.replace(/\/+$/, "") || "/";
  const existing = await fs.readdir(root).catch(() => []);
  if (existing.length > 0) {
    await terminal.err(`mcplite: ${root} is not empty; init writes into a new or empty directory only\n`);
    return ExitCode.Error;
  }
  let sdk: SdkSource;
  try {
    sdk = await sdkSource(parsed.sdk, import.meta.url, cwd());
  } catch (error) {
    await terminal.err(`mcplite: ${(error as Error).message}\n`);
    return ExitCode.Error;
  }
  const name = projectName(root);
  const specifier = sdkSpecifier(sdk, root.startsWith("/") ? root : `${cwd()}/${root}`);
  const files = projectFiles(parsed.runtime, name, specifier);
  for (const [path, text] of Object.entries(files)) {
    const at = `${root}/${path}`;
    await fs.mkdir(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    await fs.writeFile(at, text);
  }
  await terminal.out(
    `Created a ${parsed.runtime} project in ${root}: ${Object.keys(files).join(", ")}\n\n` +
      (specifier === undefined ? "" : `@mcplite/sdk from ${specifier}\n`) +
      nextSteps(parsed.runtime, root, specifier !== undefined),
  );
  return ExitCode.Ok;
}

/** A package name from the directory's last segment (lowercase, npm's allowed characters). */
function projectName(root: string): string {
  const last = root === "." ? "" : root.split("/").filter((s) => s !== "" && s !== ".").at(-1) ?? "";
  return last.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+/, "") || "mcplite-app";
}
