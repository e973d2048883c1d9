/**
 * A spawner thread (threads.ts, `threadStarter()` on Deno): starts and terminates its parent's threads, each of them
 * talking to the parent over a `MessagePort` of its own, so that the parent's thread never waits on a thread's start:
 * Deno's `Worker` constructor blocks its caller until the new thread runs (30–250 ms, longer on a busy machine), and
 * a server's thread that waits holds every caller. Its messages are {@link ToSpawner} and {@link FromSpawner}.
 *
 * @module
 */
import { nodeThreads } from "./threads.ts";
import type { FromSpawner, ToSpawner } from "./spawner-messages.ts";

/** Serves the parent's starts and terminations until the parent ends this thread. */
function serveStarts(): void {
  const threads = nodeThreads();
  const parent = threads?.parentPort;
  if (threads === undefined || !parent) throw new TypeError("thread-spawner.ts runs as a node:worker_threads thread");
  const started = new Map<number, { terminate(): unknown }>();
  const tell = (message: FromSpawner) => parent.postMessage(message);
  parent.on("message", (data) => {
    const message = data as ToSpawner;
    if (message.type === "terminate") return void started.get(message.id)?.terminate();
    const { id, port } = message;
    try {
      const worker = new threads.Worker(new URL(message.url), { workerData: { port }, transferList: [port] });
      started.set(id, worker);
      worker.on("error", (error) => tell({ type: "failed", id, message: error.message }));
      worker.on("exit", (code) => (started.delete(id), tell({ type: "exit", id, code })));
    } catch (error) {
      tell({ type: "failed", id, message: (error as Error).message });
    }
  });
}

serveStarts();
