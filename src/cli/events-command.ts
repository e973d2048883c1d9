/**
 * `mcplite events tail <target> [event…] [--mode webhook|push|poll]`: watches a server's MCP Events locally, each
 * occurrence one JSON line. Webhook (the default): a receiver (`eventWebhook()`) on 127.0.0.1, subscribed to the events
 * named (or every one listed) with the arguments `--args`/`--arg` give, unsubscribed on Ctrl-C. Push and poll
 * (SEP-3415): `client.events.stream()` or `client.events.poll()` per event, which need no callback the server reaches.
 *
 * @module
 */
import { McpliteError } from "../errors/error.ts";
import { eventWebhook } from "../events/receiver/event-webhook.ts";
import { serve } from "../server/serve.ts";
import type { ToolInfo } from "../client/transport.ts";
import { nextBackoff, passes } from "../client/event-stream.ts";
import { sleep } from "../internal/sleep.ts";
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
  const mode = args.mode ?? "webhook";
  const chosen = named.length > 0
    ? named.map((name) => listed.find((e) => e.name === name)!)
    : listed.filter((e) => !Array.isArray(e.delivery) || e.delivery.includes(mode));
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
  const line = (value: unknown) => terminal.out(`${JSON.stringify(value)}\n`);
  if (mode !== "webhook") {
    await terminal.err(`mcplite: tailing ${names.join(", ")} by ${mode} (Ctrl-C to stop)\n`);
    await Promise.all(tailed.map(({ name, input }) => follow(ctx, mode, name, input, line)));
    return ExitCode.Ok;
  }
  const secret = newSecret();
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
        // The server refused this loopback callback, as it does unless it allow-lists it: as not https, invalid
        // params (SEP-3415), or Forbidden (ChatGPT's -32012, SEP-3415's -32024) from a server that says so.
        const refused = error instanceof McpliteError &&
          (error.rpcCode === -32012 || error.rpcCode === -32024 ||
            (error.rpcCode === -32602 && /callback/i.test(error.message)));
        if (refused) {
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

/**
 * Prints an event's occurrences as they come, by push (one `events/stream`, which the client resumes from its cursor
 * when it drops) or poll (`events/poll` from each answer's cursor, waiting out its `nextPollMs`; a poll the network or a
 * restarting server failed, again from the same cursor, after 1 s doubling to 30 s), until Ctrl-C.
 */
async function follow(
  ctx: CommandContext,
  mode: "push" | "poll",
  name: string,
  input: Record<string, unknown>,
  line: (value: unknown) => Promise<void>,
): Promise<void> {
  const { client, signal } = ctx;
  try {
    if (mode === "push") {
      for await (const event of client.events.stream(name, { arguments: input, signal })) await line(event);
      return;
    }
    let cursor: string | null | undefined;
    let backoff = 0;
    while (!signal.aborted) {
      let polled;
      try {
        polled = await client.events.poll(name, { arguments: input, cursor }, { signal });
      } catch (error) {
        // A server restarting (a deploy), or out of reach a while: polled again from the same cursor, so nothing
        // emitted meanwhile is missed, as the stream reconnects from its own.
        if (signal.aborted || !passes(error)) throw error;
        await sleep(backoff = nextBackoff(backoff), signal).catch(() => {});
        continue;
      }
      backoff = 0;
      for (const event of polled.events) await line(event);
      cursor = polled.cursor;
    }
  } catch (error) {
    if (!signal.aborted) throw error; // Ctrl-C ends the stream or the poll: not a failure
  }
}
