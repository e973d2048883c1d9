/**
 * The script of a program's thread (worker-executor.ts starts it): QuickJS loaded once, when the thread starts,
 * then one program at a time, each `__call` sent to the parent as a message and answered by one. Its limits are
 * measured here, on this thread, `cpu` by its CPU clock where it can be read, so that neither the parent's load nor
 * a wait for a core counts against them. A long program lowers the thread's priority (not on Deno: see
 * src/runtime/thread-priority.ts), and the thread then retires.
 *
 * @module
 */
import type { CodeExecutor } from "../executor.ts";
import { lowerThreadPriority, threadCpuClock, threadId } from "../../runtime/thread-priority.ts";
import type { ThreadCpu } from "../../runtime/thread-priority.ts";
import { parentEnd } from "../../runtime/threads.ts";
import { stopSignal } from "./stop-flag.ts";
import type { FromThread, ToThread } from "./thread-messages.ts";

/** Serves programs for the parent, from now until the parent terminates the thread. */
function serveParent(): void {
  // QuickJS compiles, and short programs run, at the process's priority: on a busy machine a thread at nice 10 gets
  // a few percent of a core, and a trivial program took seconds. A program past LONG_MS of CPU (sandbox-meter.ts)
  // lowers it for the rest of its run, so that hogs yield to the server's thread; the parent then retires the thread
  // (on Deno too, where the priority stays: lowerThreadPriority() says why).
  const tid = threadId();
  const cpuMs = threadCpuClock(tid);
  let long = false;
  const thread: ThreadCpu | undefined = cpuMs && {
    cpuMs,
    long: () => void (long = true, lowerThreadPriority(tid)),
  };
  const executor: Promise<CodeExecutor> = import("../quickjs/quickjs-executor.ts").then((m) =>
    m.sandboxExecutor(undefined, thread)
  );
  const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let current = 0;
  let next = 0;
  const send: (message: FromThread) => void = parentEnd((data) => {
    const message = data as ToThread;
    if (message.type === "ping") return send({ type: "pong" });
    if (message.type === "run") return void run(message);
    const waiting = message.run === current ? calls.get(message.id) : undefined;
    if (waiting === undefined) return;
    calls.delete(message.id);
    if (message.type === "settle") waiting.resolve(message.json === undefined ? undefined : JSON.parse(message.json));
    else waiting.reject(new Error(message.message));
  });

  // The WebAssembly compiled before the first program: its time is the thread's start, not the program's.
  const warm = executor.then((executor) =>
    executor.execute({
      source: "return 0;",
      call: () => Promise.reject(new Error("no tools while warming")),
      limits: {
        timeMs: 60_000,
        cpuMs: 60_000,
        memoryBytes: 1 << 20,
        stackBytes: 64 << 10,
        outputBytes: 64,
        pendingCalls: 1,
      },
    })
  ).then(() => send({ type: "ready", tid }), (error) => send({ type: "broken", message: String(error) }));

  async function run(message: Extract<ToThread, { type: "run" }>): Promise<void> {
    await warm;
    current = message.run;
    calls.clear();
    const outcome = await (await executor).execute({
      source: message.source,
      limits: message.limits,
      signal: stopSignal(message.stop), // the host's stop, read by the sandbox while it computes
      call: (name, args) =>
        new Promise((resolve, reject) => {
          const id = ++next;
          calls.set(id, { resolve, reject });
          send({ type: "call", run: message.run, id, name, args });
        }),
    }).catch((error) => error instanceof Error ? error : new Error(String(error)));
    calls.clear();
    if (outcome instanceof Error) send({ type: "broken", message: outcome.message });
    else send({ type: "done", run: message.run, outcome, long });
  }
}

serveParent();
