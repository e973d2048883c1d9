/**
 * The two ends of a program's thread, on each runtime: the web-standard `Worker` on Bun, `node:worker_threads` on
 * Node and Deno (whose web `Worker` has no `unref()`; reached at run time through `process.getBuiltinModule`, so
 * that no bundle for a Worker or a browser needs it), started on Deno by a spawner thread (thread-spawner.ts), and
 * nothing on Cloudflare Workers (no `Worker` constructor).
 *
 * @module
 */
import type { FromSpawner, ToSpawner } from "./spawner-messages.ts";

/** A thread as its parent holds it: messages both ways, stopped hard by `terminate()`. */
export interface Thread {
  /** Sends a message (structured clone). */
  post(message: unknown): void;
  /**
   * Stops the thread: at once on Node; on Bun at its next call out of WebAssembly, on Deno when its event loop
   * turns (a thread computing runs on: worker/stop-flag.ts is how a program's thread stops itself).
   */
  terminate(): void;
  /** Lets the process exit while the thread is idle, where the runtime can (every runtime here today). */
  unref(): void;
  /** Keeps the process alive while the thread runs a program. */
  ref(): void;
  /** Whether `unref()` does anything: where it does not, an idle thread keeps the process alive. */
  readonly unrefs: boolean;
}

/** What a parent hears from its thread. */
export interface ThreadEvents {
  /** A message the thread sent. */
  message(data: unknown): void;
  /** The thread failed (its script did not load, or it crashed) or exited. */
  failed(error: Error): void;
}

/** A `node:worker_threads` `MessagePort`, as far as the threads here use one. */
interface NodePort {
  postMessage(message: unknown, transfer?: unknown[]): void;
  on(event: "message", listener: (data: unknown) => void): void;
  ref(): void;
  unref(): void;
  close(): void;
}

/** `node:worker_threads` as far as the threads here use it. */
export interface NodeThreads {
  readonly Worker: new (url: URL, options?: { workerData?: unknown; transferList?: unknown[] }) => {
    postMessage(message: unknown, transfer?: unknown[]): void;
    terminate(): Promise<number>;
    ref(): void;
    unref(): void;
    on(event: "message", listener: (data: unknown) => void): void;
    on(event: "error", listener: (error: Error) => void): void;
    on(event: "exit", listener: (code: number) => void): void;
  };
  readonly MessageChannel: new () => { port1: NodePort; port2: NodePort };
  readonly parentPort: {
    postMessage(message: unknown): void;
    on(event: "message", listener: (data: unknown) => void): void;
  } | null;
  /** A spawned thread's data: `{ port }`, the port to its parent, for a thread a spawner started. */
  readonly workerData: unknown;
}

/** Node's threads, where there is no web `Worker` and the runtime hands `node:worker_threads` over. */
export function nodeThreads(): NodeThreads | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  // Cloudflare Workers with nodejs_compat answer getBuiltinModule too, without threads.
  if ((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers") return;
  return process?.getBuiltinModule?.("node:worker_threads") as NodeThreads | undefined;
}

/**
 * Whether this runtime runs threads: a web `Worker` (Deno, Bun) or `node:worker_threads` (Node).
 *
 * @returns False on Cloudflare Workers and in browsers without workers.
 */
export function threadsAvailable(): boolean {
  return typeof (globalThis as { Worker?: unknown }).Worker === "function" || nodeThreads()?.Worker !== undefined;
}

/**
 * Starts a thread running the module at `url`.
 *
 * @param url The module, a file or https URL.
 * @param events What the parent does with the thread's messages and failure.
 * @returns The thread.
 * @throws {TypeError} Where the runtime has no threads.
 */
export function spawnThread(url: URL, events: ThreadEvents): Thread {
  const threads = nodeThreads();
  // Deno's web Worker keeps the process alive while it lives, idle or not; its node:worker_threads has unref().
  const WebWorker = "Deno" in globalThis && threads?.Worker !== undefined
    ? undefined
    : (globalThis as { Worker?: typeof Worker }).Worker;
  if (typeof WebWorker === "function") {
    const worker = new WebWorker(url, { type: "module" });
    worker.onmessage = (event) => events.message(event.data);
    worker.onerror = (event) => {
      event.preventDefault(); // the parent handles it: not an uncaught error of the parent's
      events.failed(new Error(event.message || "the program's thread failed"));
    };
    const own = worker as unknown as { ref?: () => void; unref?: () => void };
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => worker.terminate(),
      unref: () => own.unref?.(),
      ref: () => own.ref?.(),
      unrefs: typeof own.unref === "function",
    };
  }
  if (threads?.Worker === undefined) {
    throw new TypeError("this runtime has no threads (no Worker, no node:worker_threads)");
  }
  const worker = new threads.Worker(url);
  worker.on("message", (data) => events.message(data));
  worker.on("error", (error) => events.failed(error));
  worker.on("exit", (code) => events.failed(new Error(`the program's thread exited (${code})`)));
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => void worker.terminate(),
    unref: () => worker.unref(),
    ref: () => worker.ref(),
    unrefs: true,
  };
}

/**
 * Starts the threads of one pool: {@link spawnThread} where starting a thread does not hold the parent's thread
 * (Bun, Node); on Deno, through a spawner thread the pool starts once (thread-spawner.ts), since Deno's `Worker`
 * constructor waits until the new thread runs, which on a busy machine held a server's thread up to a second.
 *
 * @returns What starts one thread, as {@link spawnThread} does.
 */
export function threadStarter(): (url: URL, events: ThreadEvents) => Thread {
  const threads = nodeThreads();
  if (!("Deno" in globalThis) || threads === undefined) return spawnThread;
  const spawnerUrl = new URL(
    import.meta.url.endsWith(".ts") ? "./thread-spawner.ts" : "./thread-spawner.js",
    import.meta.url,
  );
  let spawner: InstanceType<NodeThreads["Worker"]> | undefined;
  const live = new Map<number, ThreadEvents>();
  let ids = 0;
  const spawnerFor = () => {
    if (spawner !== undefined) return spawner;
    const started = spawner = new threads.Worker(spawnerUrl);
    started.unref(); // each thread's own port keeps the process alive while it runs a program
    started.on("message", (data) => {
      const message = data as FromSpawner;
      const events = live.get(message.id);
      if (message.type === "exit") live.delete(message.id);
      events?.failed(
        new Error(message.type === "failed" ? message.message : `the program's thread exited (${message.code})`),
      );
    });
    const lost = (error: Error) => {
      spawner = undefined; // the next start starts another spawner
      for (const events of live.values()) events.failed(error);
      live.clear();
    };
    started.on("error", lost);
    started.on("exit", (code) => lost(new Error(`the threads' spawner exited (${code})`)));
    return started;
  };
  return (url, events) => {
    const id = ++ids;
    const { port1, port2 } = new threads.MessageChannel();
    const send = (message: ToSpawner, transfer?: unknown[]) => spawnerFor().postMessage(message, transfer);
    live.set(id, events);
    port1.on("message", (data) => events.message(data));
    send({ type: "start", id, url: url.href, port: port2 }, [port2]);
    return {
      post: (message) => port1.postMessage(message),
      terminate: () => (live.delete(id), send({ type: "terminate", id }), port1.close()),
      unref: () => port1.unref(),
      ref: () => port1.ref(),
      unrefs: true,
    };
  };
}

/**
 * The thread's own end, inside it: listens to its parent and answers.
 *
 * @param onMessage What the thread does with each message.
 * @returns How it sends one to its parent.
 */
export function parentEnd(onMessage: (data: unknown) => void): (message: unknown) => void {
  const scope = globalThis as unknown as {
    addEventListener?(type: "message", listener: (event: MessageEvent) => void): void;
    postMessage?(message: unknown): void;
  };
  // A thread a spawner started talks to its parent over the port it was handed (thread-spawner.ts).
  const handed = (nodeThreads()?.workerData as { port?: NodePort } | undefined)?.port;
  if (handed !== undefined) {
    handed.on("message", onMessage);
    return (message) => handed.postMessage(message);
  }
  if (typeof scope.postMessage === "function" && typeof scope.addEventListener === "function") {
    scope.addEventListener("message", (event) => onMessage(event.data)); // a web worker (Deno, Bun)
    return (message) => scope.postMessage!(message);
  }
  const port = nodeThreads()?.parentPort;
  if (!port) throw new TypeError("not in a thread: no parent to answer");
  port.on("message", onMessage);
  return (message) => port.postMessage(message);
}
