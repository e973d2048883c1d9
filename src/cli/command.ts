/**
 * What every command gets.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import type { ElicitAnswer, ElicitRequest } from "../client/input.ts";
import type { CliArgs } from "./args.ts";
import type { ProgressView } from "./progress.ts";
import type { Terminal } from "./terminal.ts";

/** A command's inputs. */
export interface CommandContext {
  /** The client for the target. */
  client: Client;
  /** The command line. */
  args: CliArgs;
  /** The terminal. */
  terminal: Terminal;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** Shows the running call's progress; `call` sets it, questions pause it. */
  view?: ProgressView;
  /** Asks the user on the terminal (the client's `onElicit`), e.g. the pages a `-32042` error names. */
  elicit?: (request: ElicitRequest) => Promise<ElicitAnswer>;
}
