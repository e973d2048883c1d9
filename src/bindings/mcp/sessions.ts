/**
 * The 2025-era session table: the `initialize` and `logging/setLevel` of a session id this stateless server
 * issues but never requires, kept in a bounded, in-process table. A request that reaches another instance (or
 * comes after eviction) is served with defaults (every log level, capabilities unknown). A `DELETE` ends a
 * session (MCP 2025-11-25, Transports: Session Management), answered 204: its id is kept without state, so
 * that a later request with it is answered 404 here until the table's bound evicts it.
 *
 * @module
 */
import type { LegacySession } from "./envelope.ts";

/** A bounded, least-recently-used table of 2025-era sessions; an ended session is kept as `undefined`. */
export class SessionTable {
  readonly #sessions = new Map<string, LegacySession | undefined>();
  readonly #limit: number;
  /** Whether a session ever ended here: until one does, no request needs its session id looked at for it. */
  someEnded = false;

  /**
   * Creates an empty table.
   *
   * @param limit How many sessions to remember.
   */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Opens a session and returns its id (a random UUID: visible ASCII, unguessable).
   *
   * @param session What `initialize` negotiated.
   * @returns The session id.
   */
  open(session: LegacySession): string {
    const id = crypto.randomUUID();
    if (this.#sessions.size >= this.#limit) this.#sessions.delete(this.#sessions.keys().next().value!);
    this.#sessions.set(id, session);
    return id;
  }

  /**
   * Looks a session up, marking it recently used.
   *
   * @param id The `Mcp-Session-Id` header, if any.
   * @returns The session, or `undefined` when unknown here or ended.
   */
  get(id: string | null): LegacySession | undefined {
    if (id === null) return undefined;
    const session = this.#sessions.get(id);
    if (session !== undefined) {
      this.#sessions.delete(id);
      this.#sessions.set(id, session);
    }
    return session;
  }

  /**
   * Ends a session on its client's `DELETE` (MCP 2025-11-25, Transports: Session Management), or, for
   * any other request, tells whether its session was ended here (one method: every server bundles it).
   * A `DELETE` of an id unknown here (another instance's, or evicted) is answered 204 as well: sessions are
   * never required, so there is nothing to forget here, and a client behind a load balancer ends its session
   * whichever instance its `DELETE` reaches; a second `DELETE` is as idempotent (RFC 9110 §9.2.2).
   *
   * @param id The `Mcp-Session-Id` header, if any.
   * @param other Whether the request is not the `DELETE`: tells, ends nothing.
   * @returns The status to answer, 0 for none (go on): for the `DELETE`, 204, or 400 without an id; for
   *   another request, 404 for a session ended here, else 0.
   */
  end(id: string | null, other: boolean): number {
    const sessions = this.#sessions;
    if (other) return id !== null && sessions.has(id) && sessions.get(id) === undefined ? 404 : 0;
    if (id === null) return 400;
    if (sessions.get(id) !== undefined) sessions.set(id, undefined), this.someEnded = true;
    return 204;
  }
}
