/**
 * A webhook receiver for the events tests: an HTTP server on 127.0.0.1 (node:http, which Bun and Deno serve too)
 * that checks every POST's Standard Webhooks signature with `standardwebhooks`' `Webhook.verify`, echoes a
 * verification's challenge, and keeps what it received (`until` waits for what it receives or answers). For the durability tests it may hold events' requests open
 * unanswered (`hold`), and go down (`down()`: its listener and connections closed, its port kept; or
 * `downAfterAnswer()`, as it answers the next event, before any retry can reach it) and come back (`up()`).
 */
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** A POST the receiver took: its headers, its body, and whether its signature verified. */
export interface Received {
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
  readonly verified: boolean;
  /** The status it was answered with, once answered. */
  answered?: number;
  /** Whether its sender went (its connection closed) before it was answered: a held request's. */
  cut?: boolean;
}

/** A running receiver. */
export interface Receiver {
  /** Its base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** What it received, in order. */
  readonly received: Received[];
  /** The status it answers events with (and verifications, when not 200). */
  status: number;
  /** Whether it echoes a verification's challenge. */
  echo: boolean;
  /** Whether it holds events' requests open, unanswered (recorded all the same), until released or their sender goes. */
  hold: boolean;
  /** Answers the held requests whose senders are still there, with `status`. */
  release(): void;
  /** Stops listening and closes every connection: its sender meets a refused connection. Its port is kept. */
  down(): Promise<void>;
  /** Answers the next event's request with `status`, then goes down as {@link down} does; resolves once down. */
  downAfterAnswer(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
  /** Waits (at most `ms`, 10 s by default) for the delivery of an event, by its id, and returns it. */
  delivered(eventId: string, ms?: number): Promise<Received>;
  /**
   * Waits until `check()` holds, checked now and again as each request arrives and each answer is sent; fails after
   * `ms` (10 s by default: a bound for a loaded machine, not a measure) naming `what`.
   */
  until(check: () => boolean, what: string, ms?: number): Promise<void>;
  /** Stops it. */
  close(): Promise<void>;
}

/** A fresh `whsec_` secret (Standard Webhooks: base64 of 32 random bytes). */
export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

/**
 * Starts a receiver whose signatures are checked against `secrets()` (any of them).
 *
 * @param secrets The secrets a signature may verify with.
 * @returns The receiver, listening.
 */
export async function startReceiver(secrets: () => readonly string[]): Promise<Receiver> {
  const received: Received[] = [];
  const state = { status: 204, echo: true, hold: false };
  const held: (() => void)[] = [];
  let afterAnswer: (() => void) | undefined;
  /** Who waits for a request or an answer (`until`): woken at each. */
  const waiting = new Set<() => void>();
  const changed = () => {
    for (const wake of waiting) wake();
  };
  const until = (check: () => boolean, what: string, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.delete(wake);
        reject(new Error(`not within ${ms} ms: ${what}`));
      }, ms);
      waiting.add(wake);
      wake();
    });
  const server: HttpServer = createHttpServer((request, response) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("end", () => {
      const decoder = new TextDecoder();
      const text = chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      const verified = secrets().some((secret) => {
        try {
          new Webhook(secret).verify(text, headers);
          return true;
        } catch {
          return false;
        }
      });
      const body = JSON.parse(text) as Record<string, unknown>;
      const record: Received = { headers, body, verified };
      received.push(record);
      changed();
      if (body.type === "verification" && state.echo) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ challenge: body.challenge }));
        return;
      }
      const answer = () => {
        if (response.destroyed || response.writableEnded) return; // its sender went
        record.answered = body.type === "verification" ? 200 : state.status;
        response.writeHead(record.answered);
        response.end(body.type === "verification" ? "{}" : undefined);
        changed();
        if (body.type === "verification" || afterAnswer === undefined) return;
        response.once("finish", afterAnswer); // the answer is sent before the connections close
        afterAnswer = undefined;
      };
      if (body.type !== "verification" && state.hold) {
        response.once("close", () => {
          record.cut = record.answered === undefined;
          changed();
        });
        held.push(answer); // its sender waits
      } else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const down = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    received,
    delivered: async (eventId: string, ms = 10_000) => {
      const of = () => received.find((r) => r.body.eventId === eventId);
      await until(() => of() !== undefined, `a delivery of ${eventId}`, ms);
      return of()!;
    },
    until,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    down,
    downAfterAnswer: () => new Promise<void>((resolve) => afterAnswer = () => void down().then(resolve)),
    up: () => new Promise<void>((resolve) => void server.listen(port, "127.0.0.1", resolve)),
    close: () => server.listening ? down() : Promise.resolve(),
  });
}
