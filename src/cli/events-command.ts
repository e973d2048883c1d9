/**
 * `mcplite events tail <target> [event…]`: watches a server's MCP Events locally. It starts a webhook receiver
 * (`eventWebhook()`) on 127.0.0.1, subscribes to the events named (or every one the server lists) with that
 * callback and a secret of its own, prints each delivery as one JSON line, and unsubscribes on Ctrl-C.
 *
 * @module
 */
import { newSecret } from "../client/client-events.ts";
import { eventWebhook } from "../events/receiver/event-webhook.ts";
import { serve } from "../server/serve.ts";
import type { CommandContext } from "./command.ts";
import { ExitCode, UsageError } from "./exit-errors.ts";

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
  const input = argumentsOf(args.argsJson);
  let names = args.events ?? [];
  if (names.length === 0) {
    names = (await client.events.list({ signal })).filter((e) => e.delivery.includes("webhook")).map((e) => e.name);
    if (names.length === 0) throw new UsageError("the server lists no events to tail");
  }
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
    for (const name of names) {
      taken.push((await client.events.subscribe(name, { arguments: input, url, secret }, { signal })).id);
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

/** `--args '{…}'`: the subscriptions' arguments, one JSON object (default `{}`). */
function argumentsOf(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError("--args takes one JSON object");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError("--args takes one JSON object");
  }
  return value as Record<string, unknown>;
}
