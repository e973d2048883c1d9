/**
 * The requests a client may cancel (MCP 2025-11-25, Cancellation; MCP-lite over a socket the same), in
 * one table for every carrier, keyed by scope and request id. A request id alone is the client's
 * choice and not unique across clients, so the scope is what the client shares with its requests (a
 * connection, a 2025 session: the binding says which). The table is in-process: the cancellation must
 * reach the instance running the call. A connection also aborts and awaits its requests here when it
 * closes.
 *
 * @module
 */
import type { SignalSource } from "../core/call/call-meta.ts";

/** A request's id, as JSON-RPC 2.0 §4 allows it (a `null` id is never named by a cancellation). */
export type RequestId = string | number | null;

/** What requests are cancellable within: a session id, or a connection (the object standing for it). */
export type Scope = string | object;

/** One running request. */
export class RunningRequest {
  /** Its id. */
  readonly id: RequestId;
  /** Whether the client cancelled it. */
  cancelled = false;
  readonly #controller = new AbortController();
  readonly #source: SignalSource | undefined;
  readonly #scope: Scope;
  readonly #remove: (scope: Scope, running: RunningRequest) => void;
  #signal: AbortSignal | undefined;
  #work: Promise<unknown> | undefined;

  /**
   * Creates the handle of a request ({@link InFlight.start} does).
   *
   * @param id Its id.
   * @param source What else aborts it, if anything.
   * @param scope Its scope.
   * @param remove Ends its tracking.
   */
  constructor(
    id: RequestId,
    source: SignalSource | undefined,
    scope: Scope,
    remove: (scope: Scope, running: RunningRequest) => void,
  ) {
    this.id = id;
    this.#source = source;
    this.#scope = scope;
    this.#remove = remove;
  }

  /** Aborted when the client cancels, the scope closes, or the source's signal aborts; built when read. */
  get signal(): AbortSignal {
    return this.#signal ??= this.#source === undefined
      ? this.#controller.signal
      : AbortSignal.any([this.#source.signal, this.#controller.signal]);
  }

  /** What the request still does, once it runs asynchronously. */
  get work(): Promise<unknown> | undefined {
    return this.#work;
  }

  /**
   * Aborts the request.
   *
   * @param reason Why.
   */
  abort(reason: Error): void {
    this.#controller.abort(reason);
  }

  /**
   * Ends tracking when the work settles.
   *
   * @param work What the request does.
   */
  settles(work: Promise<unknown>): void {
    this.#work = work;
    work.then(this.end, this.end);
  }

  /** Ends tracking now. */
  readonly end = (): void => this.#remove(this.#scope, this);
}

/** The table of running requests, by scope. */
export class InFlight {
  readonly #scopes = new Map<Scope, Set<RunningRequest>>();

  readonly #remove = (scope: Scope, running: RunningRequest): void => {
    const set = this.#scopes.get(scope);
    if (set !== undefined && set.delete(running) && set.size === 0) this.#scopes.delete(scope);
  };

  /**
   * Starts tracking a request; end it with {@link RunningRequest.end} or {@link RunningRequest.settles}.
   *
   * @param scope Its scope.
   * @param id Its id.
   * @param source What else aborts it (the HTTP request), if anything.
   * @returns Its handle.
   */
  start(scope: Scope, id: RequestId, source?: SignalSource): RunningRequest {
    const running = new RunningRequest(id, source, scope, this.#remove);
    const set = this.#scopes.get(scope);
    if (set === undefined) this.#scopes.set(scope, new Set([running]));
    else set.add(running);
    return running;
  }

  /**
   * Receives `notifications/cancelled` (MCP 2025-11-25, Cancellation): aborts the request it names
   * in the scope, with the client's reason. Every carrier reports a cancellation in these words.
   *
   * @param scope The scope the notification came in.
   * @param params The notification's params: `requestId`, and `reason` if any.
   * @returns Whether a request was cancelled.
   */
  cancel(scope: Scope, params: Record<string, unknown>): boolean {
    const { requestId, reason } = params;
    if (typeof requestId !== "string" && typeof requestId !== "number") return false;
    let found = false;
    for (const running of this.#scopes.get(scope) ?? []) {
      if (running.id !== requestId || running.cancelled) continue;
      running.cancelled = true;
      running.abort(
        new Error(typeof reason === "string" ? `cancelled by the client: ${reason}` : "cancelled by the client"),
      );
      found = true;
    }
    return found;
  }

  /**
   * Aborts every request of a scope (its connection is closing).
   *
   * @param scope The scope.
   * @param reason Why.
   */
  abortAll(scope: Scope, reason: Error): void {
    for (const running of this.#scopes.get(scope) ?? []) running.abort(reason);
  }

  /**
   * Waits until every request of a scope that runs asynchronously settled.
   *
   * @param scope The scope.
   * @returns When they did.
   */
  async settled(scope: Scope): Promise<void> {
    for (;;) {
      const works = [...this.#scopes.get(scope) ?? []].map((running) => running.work).filter((w) => w !== undefined);
      if (works.length === 0) return;
      await Promise.allSettled(works);
    }
  }
}
