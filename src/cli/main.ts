#!/usr/bin/env -S deno run -A
/**
 * `mcplite`, the command-line client: inspect a server, list its tools, call one with progress on
 * stderr, Ctrl-C to cancel, and questions answered on the terminal.
 *
 * ```sh
 * deno run -A jsr:@mcplite/sdk/cli list http://localhost:8000
 * deno run -A jsr:@mcplite/sdk/cli call http://localhost:8000 search_books --arg query=data
 * deno run -A jsr:@mcplite/sdk/cli inspect -- deno run -A server.ts
 * ```
 *
 * Running this module runs the CLI with the process's arguments and exits with its code; it exports
 * nothing.
 *
 * @module
 */
import { runCli } from "./cli.ts";
import { systemTerminal } from "./terminal.ts";

const terminal = systemTerminal();
terminal.exit(await runCli(terminal));
