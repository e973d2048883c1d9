/**
 * `mcplite skills <target>`: the server's Agent Skills (SEP-2640); `mcplite skills <target> get <name>`
 * fetches one, verified file by file against its entry, and prints its `SKILL.md` or, with `--out`,
 * writes its files below that directory and nowhere else.
 *
 * @module
 */
import { ExitCode, UsageError } from "./exit-errors.ts";
import type { CommandContext } from "./command.ts";

interface Fs {
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
}

/**
 * Runs `skills`.
 *
 * @param ctx The client, the command line and the terminal.
 * @returns The exit code.
 */
export async function skillsCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal } = ctx;
  const entries = await client.skills.list();
  if (args.skill === undefined) {
    const rows = entries.map((e) => ({
      uri: e.uri,
      name: String(e.frontmatter.name),
      description: String(e.frontmatter.description),
    }));
    await terminal.out(
      args.json ? JSON.stringify(entries, null, 2) + "\n" : rows.map((r) => `${r.name}\t${r.description}\n`).join(""),
    );
    return ExitCode.Ok;
  }
  const entry = entries.find((e) => e.frontmatter.name === args.skill);
  if (entry === undefined) {
    throw new UsageError(`no skill named ${JSON.stringify(args.skill)} (see mcplite skills <target>)`);
  }
  const skill = await client.skills.load(entry); // SKILL.md verified: size, digest, frontmatter
  if (args.out === undefined) {
    await terminal.out(skill.markdown);
    return ExitCode.Ok;
  }
  // Deno, Bun and Node all have it; loaded only to write, and named literally so that JSR can analyse it.
  const fs: Fs = await import("node:fs/promises");
  const root = args.out.replace(/\/+$/, "") || ".";
  const write = async (path: string, bytes: Uint8Array) => {
    // Entry paths come from the server: only plain segments, so nothing lands outside `root`.
    const segments = path.split("/");
    if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\"))) {
      throw new UsageError(`the skill lists a file outside itself: ${JSON.stringify(path)}`);
    }
    const dir = [root, skill.name, ...segments.slice(0, -1)].join("/");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(`${dir}/${segments.at(-1)}`, bytes);
  };
  await write("SKILL.md", new TextEncoder().encode(skill.markdown));
  for (const path of skill.files) await write(path, await skill.read(path));
  await terminal.err(`wrote ${skill.files.length + 1} verified files to ${root}/${skill.name}\n`);
  return ExitCode.Ok;
}
