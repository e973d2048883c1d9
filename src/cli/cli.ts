/**
 * The CLI as a function: reads the command line, connects, runs the command, and returns the exit
 * code. Ctrl-C aborts the running request (which cancels the call on the server) and gives 130; a
 * second Ctrl-C exits at once.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import { parseArgs } from "./args.ts";
import { callCommand } from "./call.ts";
import type { CommandContext } from "./command.ts";
import { errorLine, ExitCode } from "./errors.ts";
import { HELP } from "./help.ts";
import { inspectCommand } from "./inspect.ts";
import { listCommand } from "./list.ts";
import { skillsCommand } from "./skills.ts";
import { type Login, startLogin } from "./login.ts";
import { defaultTokenPath } from "./token-file.ts";
import { env } from "../internal/env.ts";
import { terminalElicit } from "./prompt.ts";
import { connect } from "./target.ts";
import type { Terminal } from "./terminal.ts";

const COMMANDS: Record<string, (ctx: CommandContext) => Promise<number>> = {
  inspect: inspectCommand,
  list: listCommand,
  call: callCommand,
  skills: skillsCommand,
};

/** How long a cancelled call may take to tell the server before the CLI exits anyway, in ms. */
const CANCEL_GRACE_MS = 3000;

/**
 * Runs the CLI.
 *
 * @param terminal The terminal (arguments, streams, signals).
 * @returns The exit code.
 */
export async function runCli(terminal: Terminal): Promise<number> {
  let args;
  try {
    args = parseArgs(terminal.args);
  } catch (error) {
    await terminal.err(`mcplite: ${errorLine(error)} (see mcplite --help)\n`);
    return ExitCode.Error;
  }
  const run = COMMANDS[args.command];
  if (run === undefined) {
    await terminal.out(HELP);
    return ExitCode.Ok;
  }

  const controller = new AbortController();
  let client: Client | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const stopListening = terminal.onInterrupt(() => {
    if (controller.signal.aborted) terminal.exit(ExitCode.Interrupted);
    controller.abort(new Error("cancelled (Ctrl-C)"));
    graceTimer = setTimeout(() => terminal.exit(ExitCode.Interrupted), CANCEL_GRACE_MS);
  });
  const ctx: Partial<CommandContext> = { args, terminal, signal: controller.signal };
  let login: Login | undefined;
  try {
    if (args.login && args.url !== undefined) {
      login = await startLogin(args, args.tokens ?? defaultTokenPath(env), (line) => terminal.err(`${line}\n`));
    }
    client = await connect(args, {
      auth: login?.auth,
      onElicit: terminalElicit(terminal, {
        before: async () => await ctx.view?.pause(),
        after: () => ctx.view?.resume(),
      }),
      ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      onWarning: (message) => void terminal.err(`mcplite: warning: ${message}\n`),
      onPending: (note) => ctx.view?.pending(note),
    });
    ctx.client = client;
    return await run(ctx as CommandContext);
  } catch (error) {
    if (controller.signal.aborted) {
      await terminal.err("mcplite: cancelled\n");
      return ExitCode.Interrupted;
    }
    await terminal.err(`mcplite: ${errorLine(error)}\n`);
    return ExitCode.Error;
  } finally {
    stopListening();
    await client?.close().catch(() => {});
    await login?.close().catch(() => {});
    if (graceTimer !== undefined) clearTimeout(graceTimer);
  }
}
