/**
 * The Worker the Durable Object tests run on workerd: it exports `ResultObject` (bound as `MCPLITE_RESULTS`),
 * serves a server whose result store is `durableObjectResultStore(env.MCPLITE_RESULTS)`, and, at `/store`, runs
 * that store's operations for the test (so that the conformance suite drives the store as it runs in a Worker).
 */
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, type ResultStore } from "../../mod.ts";
import { durableObjectResultStore } from "../../src/durable-object/mod.ts";

export { ResultObject } from "../../src/durable-object/mod.ts";

type Namespace = Parameters<typeof durableObjectResultStore>[0];
type Env = { readonly MCPLITE_RESULTS: Namespace; readonly MCPLITE_SECRET: string };
type Context = { waitUntil(promise: Promise<unknown>): void };

/** Sleeps, then adds up 1..n: deferred work whose result waits in the store. */
const crunch = defineTool("crunch")
  .describe("Adds up 1..n in the background")
  .input(v.object({ n: v.pipe(v.number(), v.integer(), v.maxValue(1_000_000)), ms: v.number() }))
  .longRunning({ retryAfterMs: 100 })
  .handle(({ n, ms }, ctx) =>
    ctx.defer(async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      let sum = 0;
      for (let i = 1; i <= n; i++) sum += i;
      return { sum };
    })
  );

let made: { store: ResultStore; server: ReturnType<typeof createServer> } | undefined;

/** The store and server of this isolate, made with the first request's env. */
function isolate(env: Env) {
  if (made !== undefined) return made;
  const store = durableObjectResultStore(env.MCPLITE_RESULTS);
  const server = createServer({
    name: "durable-object-test",
    version: "1.0.0",
    secret: env.MCPLITE_SECRET,
    resultStore: store,
    bindings: [mcpLiteBinding(), mcpBinding()],
  }).tool(crunch);
  return made = { store, server };
}

/** One store operation, as the test sends it; errors come back by name. */
async function storeOperation(store: ResultStore, request: Request): Promise<Response> {
  const { op, id, entry, ttlMs } = await request.json();
  try {
    if (op === "get") return Response.json({ value: (await store.get(id)) ?? null });
    if (op === "set") return Response.json({ written: await store.set(id, entry, ttlMs) });
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
    if (new URL(request.url).pathname === "/store") return storeOperation(store, request);
    return server.fetch(request, env, ctx);
  },
};
