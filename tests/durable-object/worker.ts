/**
 * The Worker the Durable Object tests run on workerd: it exports `ResultObject` (bound as `MCPLITE_RESULTS`),
 * serves a server whose result store is `durableObjectResultStore(env.MCPLITE_RESULTS)` and whose notifier is
 * `durableObjectNotifier(env.MCPLITE_RESULTS)`; at `/store` it runs that store's operations (its sets', and its shared
 * store's) for
 * the test (so that the conformance suite drives the store as it runs in a Worker), and at `/listeners` it answers
 * how many WebSockets the notifier's object holds (its own count).
 */
import * as v from "valibot";
import {
  createServer,
  defineResource,
  defineTool,
  mcpBinding,
  mcpLiteBinding,
  type ResultStore,
  type Server,
} from "../../mod.ts";
import {
  type DurableObjectNamespaceLike,
  durableObjectNotifier,
  durableObjectResultStore,
} from "../../src/durable-object/mod.ts";
import { NOTIFIER_URL } from "../../src/durable-object/object-protocol.ts";

export { ResultObject } from "../../src/durable-object/mod.ts";

type Env = { readonly MCPLITE_RESULTS: DurableObjectNamespaceLike; readonly MCPLITE_SECRET: string };
type Context = { waitUntil(promise: Promise<unknown>): void };

/** Sleeps, then adds up 1..n: deferred work whose result waits in the store. */
const crunch = defineTool("crunch")
  .describe("Adds up 1..n in the background")
  .input(v.object({ n: v.pipe(v.number(), v.integer(), v.maxValue(1_000_000)), ms: v.number() }))
  .longRunning({ retryAfterMs: 100 })
  .handle(({ n, ms }, ctx) =>
    ctx.defer(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms)); // the work's own length
      let sum = 0;
      for (let i = 1; i <= n; i++) sum += i;
      return { sum };
    })
  );

/** A resource whose updates listeners subscribe to. */
const readme = defineResource("docs://readme").name("readme").read(() => "# Read me");

/** Tells the listeners of every isolate that the read-me changed. */
const touch = (server: () => Server) =>
  defineTool("touch").describe("Updates the read-me").handle(() => {
    server().resourceUpdated("docs://readme");
    return "touched";
  });

/** Registers one more tool on this isolate: its listeners, and every other isolate's, hear tools/list_changed. */
const grow = (server: () => Server) =>
  defineTool("grow").describe("Adds a tool").handle(() => {
    server().tool(defineTool(`grown-${crypto.randomUUID()}`).describe("Grown").handle(() => "x"));
    return "grown";
  });

let made: { store: ResultStore; server: Server } | undefined;

/** The store and server of this isolate, made with the first request's env. */
function isolate(env: Env) {
  if (made !== undefined) return made;
  const store = durableObjectResultStore(env.MCPLITE_RESULTS);
  const server: Server = createServer({
    name: "durable-object-test",
    version: "1.0.0",
    secret: env.MCPLITE_SECRET,
    resultStore: store,
    notifier: durableObjectNotifier(env.MCPLITE_RESULTS),
    // workerd learns that a stream's client left at the stream's next write: a keep-alive each second.
    heartbeatMs: 1_000,
    bindings: [mcpLiteBinding(), mcpBinding()],
  }).tool(crunch).resource(readme).tool(touch(() => server)).tool(grow(() => server));
  return made = { store, server };
}

/** How many WebSockets the notifier's object holds. */
function listeners(env: Env): Promise<Response> {
  const namespace = env.MCPLITE_RESULTS;
  return namespace.get(namespace.idFromName("mcplite:notifications")).fetch(NOTIFIER_URL);
}

/**
 * One store operation, as the test sends it; errors come back by name. The result store's (`get`, `set`, `delete`,
 * the sets'), and the shared store's it is a view of (`record.get`, `record.put`, …: issue 100's store contract).
 */
async function storeOperation(store: ResultStore, request: Request): Promise<Response> {
  const { op, id, entry, ttlMs, member, value, final, expected, absent, next } = await request.json();
  const records = store.store!;
  try {
    if (op === "record.get") {
      const read = await records.get(id);
      return Response.json({ value: read ?? null, found: read !== undefined });
    }
    if (op === "record.put") return Response.json({ written: await records.put(id, value, ttlMs, { final }) });
    if (op === "record.putIfAbsent") return Response.json({ written: await records.putIfAbsent(id, value, ttlMs) });
    if (op === "record.compareAndSet") {
      return Response.json({ written: await records.compareAndSet(id, absent ? undefined : expected, next, ttlMs) });
    }
    if (op === "record.delete") return Response.json({ done: await records.delete(id) });
    if (op === "get") return Response.json({ value: (await store.get(id)) ?? null });
    if (op === "set") return Response.json({ written: await store.set(id, entry, ttlMs) });
    if (op === "add") return Response.json({ done: await store.addMember!(id, member, ttlMs) });
    if (op === "remove") return Response.json({ done: await store.removeMember!(id, member) });
    if (op === "members") return Response.json({ members: await store.members!(id) });
    await store.delete(id);
    return Response.json({});
  } catch (error) {
    const { name, message } = error as Error;
    return Response.json({ error: { name, message } });
  }
}

export default {
  fetch(request: Request, env: Env, ctx: Context): Promise<Response> {
    const { store, server } = isolate(env);
    const path = new URL(request.url).pathname;
    if (path === "/store") return storeOperation(store, request);
    if (path === "/listeners") return listeners(env);
    return server.fetch(request, env, ctx);
  },
};
