/**
 * `mcplite types <target> [--out file] [--check]`: lists every tool of a server in any language and
 * writes a TypeScript module of their input and output types, for `createClient<Remote>(url)`; with
 * `--check`, fails (exit 1) naming the tools that changed when the file no longer matches the server.
 *
 * @module
 */
import type { CommandContext } from "../command.ts";
import { ExitCode, UsageError } from "../exit-errors.ts";
import { typesDrift } from "./types-drift.ts";
import { typesModule } from "./types-module.ts";

/** The part of `node:fs/promises` the command uses. */
interface Fs {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
}

/**
 * Runs `types`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns 0, or 1 when `--check` finds the file out of step with the server.
 * @throws {UsageError} For `--check` without `--out`.
 */
export async function typesCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  if (args.check && args.out === undefined) throw new UsageError("--check needs --out <file>: the file to compare");
  const tools = await client.listTools({ signal });
  const module = typesModule(tools);
  const count = `${tools.length} tool${tools.length === 1 ? "" : "s"}`;
  if (args.out === undefined) {
    await terminal.out(module.text);
    return ExitCode.Ok;
  }
  // Deno, Bun and Node all have it; loaded only for a file, and named literally so that JSR can analyse it.
  const fs: Fs = await import("node:fs/promises");
  if (!args.check) {
    await fs.writeFile(args.out, module.text);
    await terminal.err(`mcplite: wrote the types of ${count} to ${args.out}\n`);
    return ExitCode.Ok;
  }
  const current = await fs.readFile(args.out, "utf8").catch((error: { code?: string }) => {
    if (error?.code === "ENOENT") return undefined;
    throw error;
  });
  const drift = current === undefined ? [`${args.out} does not exist`] : typesDrift(current, module);
  if (drift.length === 0) {
    await terminal.err(`mcplite: ${args.out} matches the server's ${count}\n`);
    return ExitCode.Ok;
  }
  await terminal.err(
    `mcplite: ${args.out} no longer matches the server: ${drift.join("; ")}\n` +
      `  (run mcplite types again without --check to update it)\n`,
  );
  return ExitCode.ToolFailed;
}
