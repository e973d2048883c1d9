/**
 * The 2025-era session table. The 2025 revisions negotiate once (`initialize`) and set a log level once
 * (`logging/setLevel`); this stateless server issues an `Mcp-Session-Id` it never requires, and remembers what
 * those two requests said in a bounded, in-process table. A request that reaches another instance (or comes after
 * eviction) is served with defaults: every log level, capabilities unknown (the server may ask, the client refuse).
 * A client ends its session with a `DELETE` (MCP 2025-11-25, Transports: Session Management); its id is kept,
 * without its state, so that a later request with it is answered 404 until the table's bound evicts it.
 *
 * @module
 */
import type { LegacySession } from "./envelope.ts";

/** A bounded, least-recently-used table of 2025-era sessions; an ended session is kept as `undefined`. */
export class SessionTable {
  readonly #sessions = new Map<string, LegacySession | undefined>();
  readonly #limit: number;

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
   * any other request, tells whether its session was ended (one method: every server bundles it).
   *
   * @param id The `Mcp-Session-Id` header, if any.
   * @param other Whether the request is not the `DELETE`: tells, ends nothing.
   * @returns The status to answer, 0 for none (go on): for the `DELETE`, 204 once ended, 404 for an id unknown
   *   here or already ended, 400 without one; for another request, 404 for an ended session, else 0.
   */
  end(id: string | null, other: boolean): number {
    const sessions = this.#sessions;
    if (id === null) return other ? 0 : 400;
    if (sessions.get(id) !== undefined) return other ? 0 : (sessions.set(id, undefined), 204);
    return other && !sessions.has(id) ? 0 : 404;
  }
}
