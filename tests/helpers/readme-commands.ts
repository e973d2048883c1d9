/**
 * An example's README read as its tests run it: its shell blocks, the command line that starts a file on the
 * runtime running the tests (Deno's under `deno test`, Bun's under `bun test`) with its environment, and step 1's
 * `export NAME=value` settings; and the children a test starts from them, killed when its file ends.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { after } from "node:test";
import { type ShellBlock, shellBlocks } from "./markdown.ts";
import { ROOT } from "./process.ts";

/** A README's commands, for the runtime running the tests. */
export interface ReadmeCommands {
  /** The runtime its command lines are read for: the one running the tests. */
  readonly runtime: "deno" | "bun";
  /** Its shell blocks. */
  readonly blocks: ShellBlock[];
  /** Its `export NAME=value` lines without a shell expansion (PATH is the test's). */
  readonly settings: Record<string, string>;
  /** The command line that starts `file` on this runtime: its environment and its arguments. */
  commandOf(file: string): { env: Record<string, string>; argv: string[] };
}

/**
 * Reads a README's commands.
 *
 * @param readme Its path from the repository's root.
 * @returns Its blocks, settings and command lines.
 */
export function readmeCommands(readme: string): ReadmeCommands {
  const blocks = shellBlocks(readFileSync(`${ROOT}${readme}`, "utf8"), readme);
  const commands = blocks.flatMap((block) => block.code.split("\n").map((line) => line.trim()));
  const runtime = "Deno" in globalThis ? "deno" as const : "bun" as const;
  const settings: Record<string, string> = {};
  for (const line of commands) {
    const setting = /^export ([A-Z_]+)=([^$\s]+)$/.exec(line);
    if (setting !== null) settings[setting[1]] = setting[2];
  }
  const commandOf = (file: string) => {
    const line = commands.find((text) => text.endsWith(file) && text.split(/\s+/).includes(runtime));
    assert.ok(line !== undefined, `${readme} starts ${file} on ${runtime}`);
    const words = line.split(/\s+/);
    const env: Record<string, string> = {};
    while (/^[A-Z_]+=/.test(words[0])) {
      const [name, ...value] = words.shift()!.split("=");
      env[name] = value.join("=");
    }
    return { env, argv: words };
  };
  return { runtime, blocks, settings, commandOf };
}

/**
 * The children a test file starts, each killed (SIGKILL, awaited) when the file ends if it is still running.
 *
 * @returns The list to push them to.
 */
export function killedAfter(): ChildProcess[] {
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
  });
  return children;
}
