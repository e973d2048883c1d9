/**
 * The 2025-era session table. The 2025 revisions negotiate once (`initialize`) and set a log level
 * once (`logging/setLevel`); this server is stateless, so it issues an `Mcp-Session-Id` that it never
 * requires, and remembers what those two requests said in a bounded, in-process table. A request that
 * reaches another instance (or comes after eviction) is still served, with defaults: every log level,
 * capabilities unknown (so the server may ask and let the client refuse).
 *
 * @module
 */
import type { LegacySession } from "./envelope.ts";

/** A bounded, least-recently-used table of 2025-era sessions. */
export class SessionTable {
  readonly #sessions = new Map<string, LegacySession>();
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
   * @returns The session, or `undefined` when unknown here.
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
}
