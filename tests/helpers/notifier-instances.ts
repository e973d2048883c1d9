/**
 * What every shared `Notifier` (Redis, PostgreSQL) is asked to do, on a real backend: the contract (each message to
 * every listener of one notifier, until each unsubscribes), and three MCP server instances relaying resource
 * updates and list changes to each other's listeners.
 */
import assert from "node:assert/strict";
import { defineTool } from "../../mod.ts";
import type { Notifier } from "../../src/core/instance/notifier.ts";
import { mcpServer, SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { waitFor } from "./long-running.ts";
import { modernRequest } from "./request.ts";

/** How long a listener waits for the next event before the message counts as lost. */
const NEXT_MS = 5_000;

async function listen(instance: { fetch(request: Request): Promise<Response> }, notifications: object) {
  const stream = new SseReader(await instance.fetch(modernRequest("subscriptions/listen", { notifications }, "s")));
  assert.equal((await stream.next()).method, "notifications/subscriptions/acknowledged");
  return stream;
}

/**
 * Two listeners on one notifier: both get a message; after one unsubscribes, only the other does.
 *
 * @param notifier The notifier, on its channel.
 * @param subscribed How many connections listen on the channel (the backend's own count).
 */
export async function assertNotifierContract(
  notifier: Notifier & { close(): void },
  subscribed: () => Promise<number>,
): Promise<void> {
  const [first, second]: string[][] = [[], []];
  try {
    const [stopFirst, stopSecond] = await Promise.all([
      notifier.subscribe((message) => first.push(message)),
      notifier.subscribe((message) => second.push(message)),
    ]);
    assert.equal(await subscribed(), 1, "one listening connection for both listeners");
    await notifier.publish("one");
    await waitFor(() => first.length === 1 && second.length === 1);
    await stopFirst();
    await notifier.publish("two");
    await waitFor(() => second.length === 2);
    assert.deepEqual([first, second], [["one"], ["one", "two"]]);
    await stopSecond();
  } finally {
    notifier.close();
  }
}

/**
 * Three MCP instances, each on its own notifier of one channel: a resource update and a list change raised on A
 * reach the listeners on A, B and C, once each, in order.
 *
 * @param notifiers The three notifiers.
 * @param ready Whether all three listen (the backend's own count), waited for before the first message.
 */
export async function assertAcrossInstances(
  notifiers: (Notifier & { close(): void })[],
  ready: () => Promise<boolean>,
): Promise<void> {
  // Each instance publishes its definitions' changes as it is set up; listeners opened before those arrive would
  // hear them. Wait until every such publish is done, then until a sentinel sent after them reaches all three
  // connections: each delivers in the order published (Redis runs commands one at a time; PostgreSQL delivers in
  // commit order), so nothing from the set-up comes after it.
  const publishing = new Set<Promise<void>>();
  const tracked = notifiers.map((notifier) => ({
    subscribe: notifier.subscribe.bind(notifier),
    close: notifier.close.bind(notifier),
    publish(message: string) {
      const sent = notifier.publish(message);
      publishing.add(sent);
      return sent.finally(() => publishing.delete(sent));
    },
  }));
  const [a, b, c] = tracked.map((notifier) => mcpServer({ notifier }));
  await waitFor(ready);
  while (publishing.size > 0) await Promise.allSettled([...publishing]);
  const sentinel = `sentinel ${crypto.randomUUID()}`;
  const reached = new Set<number>();
  const stops = await Promise.all(
    notifiers.map((notifier, i) => notifier.subscribe((message) => message === sentinel && reached.add(i))),
  );
  await notifiers[0].publish(sentinel);
  await waitFor(() => reached.size === 3);
  await Promise.all(stops.map((stop) => stop()));
  const streams = await Promise.all([
    listen(b, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
    listen(c, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
    listen(a, { resourceSubscriptions: ["docs://readme"], toolsListChanged: true }),
  ]);
  try {
    // The backend pushes each message (nothing here polls): what is asserted is that every listener
    // gets it, once, in order; the waits only bound a lost message, with room for a loaded machine.
    a.resourceUpdated("docs://readme");
    for (const stream of streams) {
      const event = await stream.next(NEXT_MS);
      assert.equal(event.method, "notifications/resources/updated");
      assert.equal(event.params.uri, "docs://readme");
    }
    a.tool(defineTool("late").describe("Added on A").handle(() => "x"));
    for (const stream of streams) {
      assert.equal((await stream.next(NEXT_MS)).method, "notifications/tools/list_changed");
    }
    c.resourceUpdated("docs://readme"); // A heard its own change once, not echoed back: the next is C's
    assert.equal((await streams[2].next(NEXT_MS)).method, "notifications/resources/updated");
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    for (const notifier of notifiers) notifier.close();
  }
}
