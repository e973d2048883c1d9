/**
 * A `Notifier` on PostgreSQL's LISTEN/NOTIFY: list_changed and resource-updated notifications raised on any
 * instance reach the listeners held by every instance using the same database.
 *
 * @module
 */
import type { Notifier } from "../core/instance/notifier.ts";

/** A channel name the notifier writes into `LISTEN`: a plain SQL identifier. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** The first wait before the listening connection is opened again, in ms; it doubles up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 2_000;

/** The connection the notifier listens on: a node-postgres client checked out of the pool for good. */
interface ListeningClient {
  query(text: string): Promise<unknown>;
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (error?: unknown) => void): unknown;
  release(destroy?: boolean): void;
}

/**
 * The options of {@link postgresNotifier}.
 *
 * @example
 * ```ts
 * import type { PostgresNotifierOptions } from "@mcplite/sdk/postgres";
 * // Two servers on one database, each hearing only its own instances.
 * const options: PostgresNotifierOptions = { channel: "billing_notifications" };
 * ```
 */
export interface PostgresNotifierOptions {
  /**
   * The channel it publishes and listens on (default `"mcplite_notifications"`, a plain SQL name): the instances
   * of one server share it, and another server on the same database takes its own.
   */
  readonly channel?: string;
}

/**
 * Creates a notifier on LISTEN/NOTIFY. It publishes with `pg_notify()` through the pool, and listens on one
 * connection it checks out of the pool at the first subscription (a listening connection must stay open); when
 * that connection breaks (PostgreSQL restarting), it opens another, waiting 100 ms doubling to 2 s between tries,
 * and listens again; the break reaches the `onError` given to `subscribe` (the server's) once per outage. A
 * first subscription while the database is out of reach fails with its error, and the notifier goes on trying.
 * Messages published while no connection listened are not delivered (NOTIFY keeps nothing for later). `close()`
 * gives the connection back. A message is at most 8 000 bytes (PostgreSQL's bound on a payload).
 *
 * @param pool A node-postgres `Pool` (npm `pg`): its `query()` publishes, its `connect()` gives the connection.
 * @param options The channel.
 * @returns The notifier, for `createServer({ notifier })`.
 *
 * @example
 * ```ts ignore
 * import pg from "pg"; // npm install pg @types/pg
 * import { createServer } from "@mcplite/sdk";
 * import { postgresNotifier, postgresResultStore } from "@mcplite/sdk/postgres";
 * const pool = new pg.Pool({ connectionString: "postgres://app@10.0.0.6/app" }).on("error", () => {});
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: postgresResultStore(pool),
 *   notifier: postgresNotifier(pool),
 * });
 * ```
 */
export function postgresNotifier(
  pool: { query(text: string, values?: unknown[]): Promise<unknown>; connect(): Promise<unknown> },
  options: PostgresNotifierOptions = {},
): Notifier & { close(): void } {
  const channel = options.channel ?? "mcplite_notifications";
  if (!CHANNEL_NAME.test(channel)) {
    throw new TypeError(`the channel ${JSON.stringify(channel)} is not a plain SQL name`);
  }
  const listeners = new Set<(message: string) => void>();
  let onError: ((error: unknown) => void) | undefined;
  let connecting: Promise<void> | undefined; // the first attempt, which subscribe() waits for
  let client: ListeningClient | undefined;
  let retire: (() => void) | undefined; // gives the listening connection back
  let closed = false;
  let healthy = true;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const report = (error: unknown) => {
    if (healthy) onError?.(error);
    healthy = false;
  };
  /** Checks a connection out and listens on it; when it breaks, reports it and opens another. */
  const listen = async (): Promise<void> => {
    const connection = await pool.connect() as ListeningClient;
    let broken = false;
    const reopen = (error?: unknown) => {
      if (broken) return;
      broken = true;
      connection.release(true);
      if (client !== connection) return; // it broke while it was being set up: that attempt fails
      client = undefined;
      retire = undefined;
      if (closed) return;
      report(error ?? new Error("the listening connection to PostgreSQL ended"));
      reconnect(FIRST_BACKOFF_MS);
    };
    connection.on("error", reopen);
    connection.on("end", reopen);
    connection.on("notification", (message) => {
      if (message.channel !== channel || message.payload === undefined) return;
      for (const listener of listeners) listener(message.payload);
    });
    try {
      await connection.query(`LISTEN ${channel}`);
    } catch (error) {
      reopen(error);
      throw error;
    }
    if (closed || broken) {
      if (!broken) connection.release(true);
      if (broken) throw new Error("the listening connection to PostgreSQL ended");
      return;
    }
    client = connection;
    retire = () => {
      broken = true; // its end is not a break
      connection.release(true);
    };
    healthy = true;
  };
  /** Tries again after `wait` ms, doubling the wait up to {@link MAX_BACKOFF_MS} while it fails. */
  const reconnect = (wait: number) => {
    retry = setTimeout(() => {
      retry = undefined;
      if (closed) return;
      listen().catch((error) => {
        report(error);
        if (!closed && client === undefined && retry === undefined) reconnect(Math.min(2 * wait, MAX_BACKOFF_MS));
      });
    }, wait);
  };

  return {
    async publish(message) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, message]);
    },
    async subscribe(listener, errors) {
      onError ??= errors;
      listeners.add(listener);
      // The first subscription opens the connection and waits for it (failing with the first attempt, which is
      // tried again in the background); later ones wait for an attempt under way, or for none.
      if (client === undefined && retry === undefined && connecting === undefined) {
        connecting = listen().finally(() => connecting = undefined).catch((error) => {
          healthy = false; // the caller is told: the next outage's first error is reported
          if (!closed && client === undefined && retry === undefined) reconnect(FIRST_BACKOFF_MS);
          throw error;
        });
      }
      await connecting;
      return () => {
        listeners.delete(listener);
        return Promise.resolve();
      };
    },
    close() {
      closed = true;
      clearTimeout(retry);
      retire?.();
      client = undefined;
    },
  };
}
