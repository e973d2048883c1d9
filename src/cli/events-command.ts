/**
 * `mcplite events tail <target> [event…]`: watches a server's MCP Events locally. It starts a webhook receiver
 * (`eventWebhook()`) on 127.0.0.1, subscribes to the events named (or every one the server lists) with that
 * callback, a secret of its own and the arguments `--args`/`--arg` give (read as `call` reads them), prints each
 * delivery as one JSON line, and unsubscribes on Ctrl-C.
 *
 * @module
 */
import { McpliteError } from "../errors/error.ts";
import { eventWebhook } from "../events/receiver/event-webhook.ts";
import { serve } from "../server/serve.ts";
import type { ToolInfo } from "../client/transport.ts";
import { argumentsFor } from "./arg-values.ts";
import type { CommandContext } from "./command.ts";
import { ExitCode, UsageError } from "./exit-errors.ts";

/**
 * The secret of this run's receiver and subscriptions, `whsec_` and the base64 of 32 random bytes (Standard Webhooks
 * §Signing): the CLI owns both ends, so it makes its own.
 */
function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/** How long each unsubscribe may take once Ctrl-C was pressed (the CLI exits 3 s after it anyway), in ms. */
const UNSUBSCRIBE_MS = 2000;

/**
 * Runs `events tail`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns The exit code.
 */
export async function eventsCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  const listed = await client.events.list({ signal });
  const named = args.events ?? [];
  for (const name of named) {
    if (listed.some((e) => e.name === name)) continue;
    const known = listed.map((e) => e.name).join(", ") || "none";
    throw new UsageError(`no event named ${JSON.stringify(name)} (the server lists ${known})`);
  }
  const chosen = named.length > 0
    ? named.map((name) => listed.find((e) => e.name === name)!)
    : listed.filter((e) => !Array.isArray(e.delivery) || e.delivery.includes("webhook"));
  if (chosen.length === 0) throw new UsageError("the server lists no events to tail");
  // --args and --arg as `call` reads them, against each event's input schema. An event whose required arguments
  // they leave out is refused when named, and left out (saying so) when tailing every event listed: the server
  // would refuse its subscription (-32602) and with it the whole run.
  const tailed: { name: string; input: Record<string, unknown> }[] = [];
  const lacking: string[] = [];
  for (const event of chosen) {
    const input = argumentsFor(event as unknown as ToolInfo, args.argsJson, args.argPairs);
    const absent = missingArguments(event.inputSchema, input);
    if (absent.length === 0) {
      tailed.push({ name: event.name, input });
      continue;
    }
    const why = `needs ${absent.join(", ")} (--arg ${absent[0]}=… or --args)`;
    if (named.length > 0) throw new UsageError(`${event.name} ${why}`);
    lacking.push(`${event.name} ${why}`);
    await terminal.err(`mcplite: not tailing ${event.name}: it ${why}\n`);
  }
  if (tailed.length === 0) throw new UsageError(`no event to tail: ${lacking.join("; ")}`);
  const names = tailed.map((e) => e.name);
  const secret = newSecret();
  const line = (value: unknown) => terminal.out(`${JSON.stringify(value)}\n`);
  const receive = eventWebhook({
    secret,
    onEvent: ({ subscriptionId, webhookId, event }) => line({ subscriptionId, webhookId, ...event }),
    onGap: ({ subscriptionId, cursor }) => line({ type: "gap", subscriptionId, cursor }),
    onTerminated: ({ subscriptionId, error }) => line({ type: "terminated", subscriptionId, error }),
  });
  const listener = await serve({ fetch: receive }, { port: args.port ?? 0, hostname: "127.0.0.1", quiet: true });
  const url = `http://127.0.0.1:${listener.port}/`;
  const taken: string[] = [];
  try {
    for (const { name, input } of tailed) {
      try {
        taken.push((await client.events.subscribe(name, { arguments: input, url, secret }, { signal })).id);
      } catch (error) {
        // Forbidden (ChatGPT's -32012, SEP-3415's -32024 to a client that declared the extension): the server refused
        // this loopback callback, as it does unless it allow-lists it.
        if (error instanceof McpliteError && (error.rpcCode === -32012 || error.rpcCode === -32024)) {
          await terminal.err(
            `mcplite: the server refused the callback ${url} for ${name}; to tail on this machine it must list ` +
              `http://127.0.0.1 in createServer({ events: { allowCallbacks } })\n`,
          );
        }
        throw error;
      }
    }
    await terminal.err(`mcplite: tailing ${names.join(", ")} at ${url} (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
    return ExitCode.Ok;
  } finally {
    const options = { timeoutMs: UNSUBSCRIBE_MS, maxTimeoutMs: UNSUBSCRIBE_MS };
    await Promise.all(taken.map((id) => client.events.unsubscribe({ id }, options).catch(() => {})));
    await listener.close();
  }
}

/**
 * The arguments an input schema requires (its top-level `required`, JSON Schema §10.3.2.3) that `input` leaves out.
 *
 * @param schema The event's input schema.
 * @param input The arguments read from --args and --arg.
 * @returns Their names, in the schema's order.
 */
function missingArguments(schema: unknown, input: Record<string, unknown>): string[] {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required)
    ? required.filter((key): key is string => typeof key === "string" && !(key in input))
    : [];
}
