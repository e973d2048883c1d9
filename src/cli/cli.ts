/**
 * The CLI as a function: reads the command line, connects, runs the command, and returns the exit
 * code. Ctrl-C aborts the running request (which cancels the call on the server) and gives 130; a
 * second Ctrl-C exits at once.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import { appCommand } from "./app.ts";
import { parseArgs } from "./args.ts";
import { callCommand } from "./call.ts";
import type { CommandContext } from "./command.ts";
import { errorJson, errorLine, ExitCode, needsLogin } from "./exit-errors.ts";
import { HELP } from "./help.ts";
import { initCommand } from "./init.ts";
import { serverJsonCommand } from "./server-json.ts";
import { inspectCommand } from "./inspect.ts";
import { listCommand } from "./list.ts";
import { skillsCommand } from "./skills-command.ts";
import { typesCommand } from "./types-command/types-command.ts";
import { type Login, startLogin } from "./login.ts";
import { defaultTokenPath } from "./token-file.ts";
import { env } from "../runtime/env.ts";
import { terminalElicit } from "./elicit.ts";
import { fileResources, resourcePaths } from "./resource-files.ts";
import { connect } from "./target.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../internal/mcp-apps-wire.ts";
import type { Terminal } from "./terminal.ts";

const COMMANDS: Record<string, (ctx: CommandContext) => Promise<number>> = {
  inspect: inspectCommand,
  list: listCommand,
  call: callCommand,
  app: appCommand,
  skills: skillsCommand,
  types: typesCommand,
  // Its receiver (and the signature library) loads only when asked for.
  events: async (ctx) => await (await import("./events-command.ts")).eventsCommand(ctx),
  // The tokenizer's data is megabytes: loaded only for a check.
  check: async (ctx) => await (await import("./check-command.ts")).checkCommand(ctx),
};

/** `app` renders views, so it tells servers so (SEP-1865), over MCP, the wire that serves them. */
const APP_HOST = { capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } };

/** How long a cancelled call may take to tell the server before the CLI exits anyway, in ms. */
const CANCEL_GRACE_MS = 3000;

/**
 * Runs the CLI.
 *
 * @param terminal The terminal (arguments, streams, signals).
 * @returns The exit code.
 */
export async function runCli(terminal: Terminal): Promise<number> {
  // `init` writes a project and talks to no server: its command line is its own.
  if (terminal.args[0] === "init") return await initCommand(terminal, terminal.args.slice(1));
  // `dev` serves a module of the user's, loaded only when asked for.
  if (terminal.args[0] === "dev") {
    return await (await import("./dev/dev-command.ts")).devCommand(terminal, terminal.args.slice(1));
  }
  // `worker` runs a module's queued jobs, loaded only when asked for.
  if (terminal.args[0] === "worker") {
    return await (await import("./worker-command.ts")).workerCommand(terminal, terminal.args.slice(1));
  }
  // `jobs` reads a module's queue and store, loaded only when asked for.
  if (terminal.args[0] === "jobs") {
    return await (await import("./jobs-command.ts")).jobsCommand(terminal, terminal.args.slice(1));
  }
  if (terminal.args[0] === "server-json") return await serverJsonCommand(terminal, terminal.args.slice(1));
  let args;
  try {
    args = parseArgs(terminal.args);
  } catch (error) {
    // The line could not be read, but whether it asked for JSON can be.
    const dash = terminal.args.indexOf("--");
    const json = (dash < 0 ? terminal.args : terminal.args.slice(0, dash)).includes("--json");
    return await fail(terminal, json, error, ExitCode.Error, " (see mcplite --help)");
  }
  // `check tools.json` reads a file: no server to connect to.
  if (args.command === "check" && args.toolsFile !== undefined) {
    try {
      return await (await import("./check-command.ts")).checkFileCommand(terminal, args);
    } catch (error) {
      return await fail(terminal, args.json, error, ExitCode.Error);
    }
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
  const elicitation = terminalElicit(terminal, {
    before: async () => await ctx.view?.pause(),
    after: () => ctx.view?.resume(),
  });
  ctx.elicit = async (request) => await elicitation.onElicit(request, { signal: controller.signal });
  let login: Login | undefined;
  try {
    if (args.login && args.url !== undefined) {
      login = await startLogin(args, args.tokens ?? defaultTokenPath(env), (line) => terminal.err(`${line}\n`));
    }
    client = await connect(args, {
      auth: login?.auth,
      ...elicitation,
      // Always: a tool that asks for a resource the user did not name is told to pass --resource.
      onResourceRequest: fileResources(resourcePaths(args.resourcePairs)),
      ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      onWarning: (message) => void terminal.err(`mcplite: warning: ${message}\n`),
      onPending: (note) => ctx.view?.pending(note),
      ...(args.command === "app" ? APP_HOST : {}),
    });
    ctx.client = client;
    return await run(ctx as CommandContext);
  } catch (error) {
    if (controller.signal.aborted) {
      return await fail(terminal, args.json, new Error("cancelled"), ExitCode.Interrupted);
    }
    const hint = !args.login && args.url !== undefined && needsLogin(error)
      ? " (the server wants authorization: run again with --login)"
      : "";
    return await fail(terminal, args.json, error, ExitCode.Error, hint);
  } finally {
    stopListening();
    await client?.close().catch(() => {});
    await login?.close().catch(() => {});
    if (graceTimer !== undefined) clearTimeout(graceTimer);
  }
}

/** Reports an error: one line on stderr and, with `--json`, the error as JSON on stdout. */
async function fail(terminal: Terminal, json: boolean, error: unknown, exitCode: number, hint = ""): Promise<number> {
  await terminal.err(`mcplite: ${errorLine(error)}${hint}\n`);
  if (json) {
    const report = errorJson(error, exitCode);
    report.error.message += hint;
    await terminal.out(JSON.stringify(report) + "\n");
  }
  return exitCode;
}
