/**
 * The `mcplite dev` child's life: started on the runtime running the CLI, restarted (the old one
 * ended first, so two versions never run side by side), its output passed through, and its state
 * (starting, ready at a loopback URL, or failed with the file and line) told to whoever waits.
 *
 * @module
 */
import { type ChildProcess, spawnChild } from "../../client/transports/child-process.ts";
import { type DevMessage, parseDevMessage } from "./dev-messages.ts";
import type { ListDigests } from "./dev-lists.ts";
import { type LoadFailure, locateFailure } from "./dev-load-error.ts";

/** What the dev server is doing. */
export type DevState =
  | { readonly phase: "starting"; readonly generation: number }
  | {
    readonly phase: "ready";
    readonly generation: number;
    /** The child's own URL (loopback, a new port each time). */
    readonly url: string;
    /** The server's `basePath`. */
    readonly basePath: string;
    /** How long the start took, in ms, from the change (or the command) that caused it. */
    readonly startMs: number;
    /** What it lists (absent for an app that is not a server). */
    readonly lists?: ListDigests;
  }
  | { readonly phase: "failed"; readonly generation: number; readonly failure: LoadFailure };

/** How the supervisor starts a child and where its output goes. */
export interface SupervisorOptions {
  /** The program and arguments that run the child entry (it reads the module's URL on stdin). */
  readonly command: { readonly command: string; readonly args: readonly string[] };
  /** The server module's `file:` URL. */
  readonly moduleUrl: string;
  /** The module's local files, to locate a failure in them. */
  readonly graph: () => ReadonlySet<string>;
  /** Where the child's output goes. */
  readonly output: (stream: "out" | "err", text: string) => void;
  /** Hears of every state. */
  readonly onState: (state: DevState) => void;
  /** Hears that the next child loaded the SDK and waits. */
  readonly onWarm?: () => void;
}

/** How long a child may take to end on SIGTERM before it is killed, in ms. */
const TERM_GRACE_MS = 2000;
/** How much of a child's stderr is kept, to explain an exit before it served. */
const STDERR_KEPT = 4000;

/** A child and what it said on stderr lately. */
interface Started {
  readonly child: ChildProcess;
  /** The end of its stderr, to explain an exit before it served. */
  stderr: string;
  ended: boolean;
  /** It loaded the SDK and waits for the module. */
  warm: boolean;
  /** Hears its messages once it was given the module. */
  onMessage?: (message: DevMessage) => void;
  /** Settles when its stdout ended. */
  stdoutEnded?: Promise<void>;
}

/**
 * Starts, restarts and stops the child. The next child is started as soon as the current one serves
 * or failed: it loads the runtime and the SDK, then waits for the module's URL, so that a restart
 * costs the user's modules alone (Node takes a second to load the SDK from its TypeScript sources).
 */
export class DevSupervisor {
  #state: DevState = { phase: "starting", generation: 0 };
  #child: ChildProcess | undefined;
  #spare: Promise<Started | undefined> | undefined;
  #spareStarted: Started | undefined;
  #closed = false;
  #stopping = false;
  #waiters: (() => void)[] = [];
  readonly #options: SupervisorOptions;

  /** @param options How to start the child and where its output goes. */
  constructor(options: SupervisorOptions) {
    this.#options = options;
  }

  /** The current state. */
  get state(): DevState {
    return this.#state;
  }

  /** Whether the child is being ended (a restart, or the dev server stopping). */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Whether the next restart finds a child with the SDK loaded, waiting. */
  get warm(): boolean {
    return this.#spareStarted?.warm === true && !this.#spareStarted.ended;
  }

  async #spawn(): Promise<Started | undefined> {
    const { command, args } = this.#options.command;
    let child: ChildProcess;
    try {
      child = await spawnChild({ command, args });
    } catch (error) {
      this.#options.output("err", `mcplite dev: cannot start ${command}: ${error}\n`);
      return undefined;
    }
    const started: Started = { child, stderr: "", ended: false, warm: false };
    void child.exited.then(() => void (started.ended = true));
    started.stdoutEnded = this.#readStdout(started);
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        const text = decoder.decode(chunk, { stream: true });
        started.stderr = (started.stderr + text).slice(-STDERR_KEPT);
        this.#options.output("err", text);
      }
    })().catch(() => {});
    return started;
  }

  /**
   * Ends the running child (if any) and starts the module in the next one.
   *
   * @param since When the change that asks for it was seen (`performance.now()`), for the start time.
   */
  async restart(since: number = performance.now()): Promise<void> {
    await this.stop();
    const generation = this.#state.generation + 1;
    this.#set({ phase: "starting", generation });
    const waiting = this.#spare;
    this.#spare = undefined;
    this.#spareStarted = undefined;
    let started = await waiting;
    if (started?.ended) started = undefined;
    started ??= await this.#spawn();
    if (started === undefined) {
      return this.#set({ phase: "failed", generation, failure: { message: "the runtime could not be started" } });
    }
    const child = started.child;
    this.#child = child;
    started.onMessage = (message) => {
      if (this.#child !== child) return;
      if (message.type === "ready") {
        const startMs = Math.round(performance.now() - since);
        const { url, basePath, lists } = message;
        this.#set({ phase: "ready", generation, url, basePath, startMs, lists });
      } else if (message.type === "failed") {
        this.#set({ phase: "failed", generation, failure: locateFailure(message, this.#options.graph()) });
      }
    };
    void child.exited.then(async (exit) => {
      await started.stdoutEnded;
      if (this.#child !== child) return; // ended by restart() or stop()
      this.#child = undefined;
      const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
      const message = this.#state.phase === "ready"
        ? `the server exited (${how})`
        : `the module exited before it served (${how})`;
      if (this.#state.phase !== "failed") {
        const failure = locateFailure({ message, stack: started.stderr }, this.#options.graph());
        this.#set({ phase: "failed", generation, failure });
      }
    });
    await child.write(new TextEncoder().encode(`${this.#options.moduleUrl}\n`)).catch(() => {});
  }

  async #readStdout(started: Started): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of started.child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const message = parseDevMessage(line);
        if (message === undefined) this.#options.output("out", `${line}\n`);
        else if (message.type === "waiting") (started.warm = true, this.#options.onWarm?.());
        else started.onMessage?.(message);
      }
    }
    if (buffered) this.#options.output("out", buffered);
  }

  /**
   * Waits until the child serves or failed.
   *
   * @param signal Stops waiting.
   * @returns The state then.
   */
  async settled(signal?: AbortSignal): Promise<DevState> {
    while (this.#state.phase === "starting" && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    return this.#state;
  }

  /**
   * Waits until a child later than `generation` serves (a failed start is waited past: the next edit
   * starts another), or until the supervisor closes.
   *
   * @param generation The generation that was served.
   * @param signal Stops waiting.
   * @returns The state then: ready, unless closed or stopped.
   */
  async nextReady(generation: number, signal?: AbortSignal): Promise<DevState> {
    while (
      !(this.#state.phase === "ready" && this.#state.generation > generation) && !this.#closed && !signal?.aborted
    ) {
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    return this.#state;
  }

  /** Ends the child and the one waiting; nothing starts after. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const wake of this.#waiters.splice(0)) wake();
    const spare = await this.#spare;
    this.#spare = undefined;
    spare?.child.kill("SIGKILL");
    await this.stop();
  }

  /** Ends the child: SIGTERM, then SIGKILL after a grace period. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child === undefined) return;
    this.#stopping = true;
    await child.closeStdin().catch(() => {});
    child.kill("SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => (child.kill("SIGKILL"), resolve()), TERM_GRACE_MS);
    });
    await Promise.race([child.exited, killed]);
    clearTimeout(timer);
    await child.exited;
  }

  #set(state: DevState): void {
    this.#state = state;
    this.#stopping = false;
    // The next child starts once this one no longer needs the machine to itself.
    if (state.phase !== "starting" && this.#spare === undefined && !this.#closed) {
      this.#spare = this.#spawn().then((started) => (this.#spareStarted = started));
    }
    this.#options.onState(state);
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
