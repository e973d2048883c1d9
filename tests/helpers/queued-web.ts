/**
 * A web instance of `tests/helpers/queued-server.ts` (its settings from the environment), for the rolling
 * deploy test: serves on a free 127.0.0.1 port, prints `{"port":…}` once listening, and on SIGTERM stops
 * listening (the requests in flight finish), closes its connections and exits 0.
 */
import process from "node:process";
import { serve } from "../../mod.ts";
import { close, ready, server } from "./queued-server.ts";

if (server === undefined) throw new Error("set REDIS_URL or DATABASE_URL, QUEUE and LOCK_MS");
await ready?.(); // as a readiness probe: no traffic before the store answers
const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
console.log(JSON.stringify({ port: Number(new URL(listener.url).port) }));
process.on("SIGTERM", async () => {
  await listener.close();
  await close?.();
  process.exit(0);
});
