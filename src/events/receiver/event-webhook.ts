/**
 * `eventWebhook()`: the receiver of MCP Events' webhook deliveries (ChatGPT's profile and SEP-3415) as a fetch
 * handler, for `serve()`, `nodeHandler()`, Workers, `Deno.serve` and `Bun.serve`. It reads at most 256 KiB, checks
 * the Standard Webhooks signature and timestamp, answers the verification challenge, runs `onEvent` once per
 * signed delivery (a duplicate `webhook-id` is dropped, whatever `X-MCP-Subscription-Id` says) and tells the server
 * to retry (503) when it throws.
 *
 * @module
 */
import { Webhook } from "standardwebhooks";
import { isObject } from "../../internal/is-object.ts";
import { sha256Hex } from "../../internal/sha256.ts";
import type { ResultStore } from "../../jobs/result-store.ts";
import { sharedStoreOf } from "../../store/store-of.ts";
import { ProtocolError } from "../../errors/error.ts";
import { type BodyLimits, readBody } from "../../server/read-body.ts";
import { MAX_BODY_BYTES } from "../delivery/signing.ts";
import { type SeenDeliveries, seenInMemory, seenInStore } from "./seen-deliveries.ts";

/**
 * At most one event of 256 KiB per request (ChatGPT's MCP Events guide; SEP-3415), arriving within 10 s: a body that
 * trickles in holds the receiver no longer.
 */
const BODY_LIMITS: BodyLimits = { maxBodyBytes: MAX_BODY_BYTES, bodyTimeoutMs: 10_000 };

/**
 * An event as `onEvent` receives it (one delivery's JSON body): for `eventWebhook<typeof server>`, a union
 * discriminated by `name` whose `data` is that event's payload; otherwise any name and an unknown payload.
 *
 * Everything here is signed (Standard Webhooks signs the body with `webhook-id` and `webhook-timestamp`); the body
 * names no subscription (SEP-3415, ChatGPT's MCP Events). The `subscriptionId` beside it comes from the unsigned
 * `X-MCP-Subscription-Id` header and proves only what the key proves: with `secretFor` giving each subscription a
 * secret of its own, it is proven (the key that verified was chosen by it); on SEP-3415's profile, too (the signed
 * `webhook-id` is `<subscriptionId>.<eventId>`, and a header that disagrees is refused, 400); with one `secret` for
 * several subscriptions on ChatGPT's profile, it is a routing hint, not proof, and an occurrence that matched several
 * of them runs `onEvent` once, under the first id to arrive (its copies are signed alike: a replay under another id).
 *
 * @typeParam S The server type (`typeof server`), or a description `{ events: { [name]: { payload: … } } }`.
 */
export type ReceivedEvent<S = unknown> = (unknown extends S ? { [name: string]: unknown }
  : S extends { readonly "~events"?: infer M } ? NonNullable<M>
  : S extends { readonly events: infer D extends object } ? D
  : { [name: string]: unknown }) extends infer M ? string extends keyof M ? DeliveredEvent<string, unknown>
  : [keyof M] extends [never] ? DeliveredEvent<string, unknown>
  : {
    [N in keyof M & string]: DeliveredEvent<
      N,
      (M[N] extends { readonly "~types"?: infer T } ? NonNullable<T> : M[N]) extends { payload: infer P } ? P : unknown
    >;
  }[keyof M & string]
  : never;

/**
 * One delivery's event, its JSON body: what {@link ReceivedEvent} is for one event, and what a handler of that event
 * alone takes.
 *
 * @typeParam N The event's name.
 * @typeParam P Its payload.
 *
 * @example
 * ```ts
 * import type { DeliveredEvent } from "@mcplite/sdk/events";
 * type Shipped = DeliveredEvent<"order.shipped", { orderId: string }>;
 * const onShipped = (event: Shipped): string => `${event.data.orderId} shipped at ${event.timestamp}`;
 * ```
 */
export interface DeliveredEvent<N extends string, P> {
  /** The occurrence's id: the same on every attempt and for every subscription it goes to. */
  readonly eventId: string;
  /** The event's name. */
  readonly name: N;
  /** When it happened, ISO 8601. */
  readonly timestamp: string;
  /** Its payload. */
  readonly data: P;
  /** Where delivery resumes after this one (SEP-3415), when the server keeps cursors. */
  readonly cursor?: string | null;
}

/**
 * What each of {@link eventWebhook}'s callbacks receives beside its own: the subscription and the delivery's
 * `webhook-id`.
 *
 * @example
 * ```ts
 * import type { DeliveryInfo } from "@mcplite/sdk/events";
 * const onGap = ({ subscriptionId, cursor }: DeliveryInfo & { readonly cursor: string }): void =>
 *   console.warn(`events lost on ${subscriptionId} before ${cursor}`);
 * ```
 */
export interface DeliveryInfo {
  /**
   * The subscription it was delivered for (`X-MCP-Subscription-Id`, which the signature does not cover): proven
   * with `secretFor` (a secret per subscription) or SEP-3415's `webhook-id`; with a shared secret, a hint
   * ({@link ReceivedEvent}).
   */
  readonly subscriptionId: string;
  /** The Standard Webhooks message id: the same on every attempt of one delivery. */
  readonly webhookId: string;
}

/**
 * The options of {@link eventWebhook}: the secrets that sign, the callbacks, and where taken deliveries are kept.
 *
 * @typeParam S The server type (`typeof server`), which types `onEvent`'s events.
 */
export interface EventWebhookOptions<S = unknown> {
  /**
   * The subscription's secret (`whsec_…`, the one given to `client.events.subscribe()`). Several subscriptions may
   * share it; then the subscription id is not proven, and a delivery runs once whatever id it arrives under.
   */
  secret?: string;
  /** Several secrets, any of which may sign (rotation: the old and the new, for the grace period). */
  secrets?: readonly string[];
  /**
   * The secret(s) of a subscription, looked up by its id (`X-MCP-Subscription-Id`); none known: refused (401). A
   * secret of each subscription's own proves its id; subscriptions given the same secrets are one, for duplicates.
   */
  secretFor?: (
    subscriptionId: string,
  ) => string | readonly string[] | undefined | Promise<string | readonly string[] | undefined>;
  /**
   * Runs once per signed delivery (its `webhook-id`, under the key that verified it), then the receiver answers 204;
   * when it throws (or rejects), 503, so that the server retries (the same `webhook-id`, which runs it again).
   * Resolve once the event is safely taken.
   */
  onEvent: (
    delivery: DeliveryInfo & { readonly event: ReceivedEvent<S> },
  ) => void | Promise<void>;
  /** A signed `gap` control (SEP-3415): occurrences were lost before `cursor`. */
  onGap?: (
    delivery: DeliveryInfo & { readonly cursor: string },
  ) => void | Promise<void>;
  /** A signed `terminated` control (SEP-3415): the server ended the subscription, for the reason in `error`. */
  onTerminated?: (
    delivery: DeliveryInfo & { readonly error?: { code: number; message: string; data?: unknown } },
  ) => void | Promise<void>;
  /**
   * Where the deliveries taken are kept, so that a duplicate is dropped on every instance: a store with the
   * ResultStore contract (`redisResultStore()`, …). Default: this process's newest {@link remember} ids.
   */
  store?: Pick<ResultStore, "set" | "delete">;
  /**
   * How many delivery ids the in-memory default remembers (default 10 000). A signature verifies for five minutes
   * either side of its timestamp, so a bound on the ids is not one on replays: once an id is let go of, a delivery
   * signed no later than it is answered 503 (not run), and the sender's retry, signed anew, is taken.
   */
  remember?: number;
  /**
   * How long a store remembers a delivery id, in ms (default 24 h: longer than the server's retries); at least the
   * ten minutes a captured delivery verifies, whatever it says.
   */
  rememberMs?: number;
  /** Hears what made a delivery fail with 503 (a callback's error, a store's). */
  onError?: (error: unknown) => void;
}

/**
 * Creates the receiver of MCP Events' webhook deliveries: a fetch handler `(request) => Promise<Response>`. It
 * accepts a POST of JSON (405, 415), at most 256 KiB (413) arriving within 10 s (408), signed per Standard Webhooks
 * by a known secret within five minutes (401); answers the verification challenge (`{ challenge }`); drops a duplicate
 * `webhook-id` (204), under any `X-MCP-Subscription-Id` unless `secretFor` proves it (see {@link ReceivedEvent});
 * runs `onGap`, `onTerminated` or `onEvent` and answers 204, or 503 when it throws (the server retries).
 *
 * @typeParam S The server type (`eventWebhook<typeof server>`): `onEvent`'s events are a union by `name`.
 * @param options The secrets, the callbacks, and the store of taken deliveries.
 * @returns The handler.
 * @throws {TypeError} When no secret is given, or one is not a Standard Webhooks secret.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Webhook } from "standardwebhooks";
 * import { eventWebhook } from "./event-webhook.ts";
 *
 * const secret = "whsec_" + btoa("a secret of at least 24 bytes, at random");
 * const seen: unknown[] = [];
 * const receive = eventWebhook({ secret, onEvent: ({ event }) => void seen.push(event.data) });
 * const event = { eventId: "e1", name: "order.shipped", timestamp: new Date().toISOString(), data: { orderId: "o1" } };
 * const body = JSON.stringify(event);
 * const headers = {
 *   "content-type": "application/json",
 *   "webhook-id": "e1",
 *   "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
 *   "webhook-signature": new Webhook(secret).sign("e1", new Date(), body),
 *   "x-mcp-subscription-id": "sub_1",
 * };
 * const response = await receive(new Request("http://localhost/", { method: "POST", headers, body }));
 * assert.equal(response.status, 204);
 * assert.deepEqual(seen, [{ orderId: "o1" }]);
 * ```
 */
export function eventWebhook<S = unknown>(options: EventWebhookOptions<S>): (request: Request) => Promise<Response> {
  const fixed = [...(options.secret === undefined ? [] : [options.secret]), ...(options.secrets ?? [])];
  if (fixed.length === 0 && options.secretFor === undefined) {
    throw new TypeError("eventWebhook(): give `secret`, `secrets` or `secretFor`");
  }
  const signers = fixed.map(signer);
  const seen: SeenDeliveries = options.store === undefined
    ? seenInMemory(options.remember ?? 10_000)
    : seenInStore(sharedStoreOf(options.store), options.rememberMs ?? 86_400_000);
  return async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
    if (type !== "application/json") return new Response(null, { status: 415 });
    let text: string;
    try {
      text = await readBody(request, BODY_LIMITS);
    } catch (error) {
      // RFC 9110 §15.5.14 (413) and §15.5.9 (408); bytes that are not UTF-8, or a body that broke off: 400
      const code = error instanceof ProtocolError ? error.code : undefined;
      return new Response(null, {
        status: code === "payload_too_large" ? 413 : code === "request_timeout" ? 408 : 400,
      });
    }
    const h = request.headers;
    const subscriptionId = h.get("x-mcp-subscription-id") ?? "";
    const webhookId = h.get("webhook-id") ?? "";
    const signed = {
      "webhook-id": webhookId,
      "webhook-timestamp": h.get("webhook-timestamp") ?? "",
      "webhook-signature": h.get("webhook-signature") ?? "",
    };
    let body: unknown;
    // The duplicate check's scope: what the verifying key proves. The receiver's own secrets prove no subscription
    // (one scope); `secretFor`'s prove the subscriptions they were given for (one scope per secret list).
    let scope = "";
    try {
      let keys = signers;
      if (keys.length === 0) {
        const secrets = await secretsOf(options.secretFor!, subscriptionId);
        keys = secrets.map(signer);
        scope = await fingerprint(secrets);
      }
      body = verified(keys, text, signed);
    } catch (error) {
      if (error instanceof Unsigned) return new Response(null, { status: 401 });
      options.onError?.(error);
      return new Response(null, { status: 503 });
    }
    if (!isObject(body)) return new Response(null, { status: 400 });
    if (body.type === "verification") {
      return typeof body.challenge === "string" && body.challenge !== ""
        ? Response.json({ challenge: body.challenge })
        : new Response(null, { status: 400 });
    }
    if (subscriptionId === "" || !wellFormed(body, webhookId, subscriptionId)) {
      return new Response(null, { status: 400 });
    }
    // Standard Webhooks §Verifying: the signature covers webhook-id, webhook-timestamp and the body, not
    // X-MCP-Subscription-Id; a delivery is its signed webhook-id within its key's scope, whatever that header says.
    const key = `${scope} ${webhookId}`;
    try {
      // Read as `verify()` read it (parseInt), so the time is the one the signature was checked against.
      const claim = await seen.claim(key, Number.parseInt(signed["webhook-timestamp"], 10));
      if (claim === "duplicate") return new Response(null, { status: 204 });
      // Signed before an id the memory let go of: perhaps a replay of it. Not run; the sender's retry, signed anew
      // (Standard Webhooks: a fresh webhook-timestamp per attempt), is newer than anything forgotten.
      if (claim === "forgotten") return new Response(null, { status: 503, headers: { "retry-after": "1" } });
    } catch (error) {
      options.onError?.(error);
      return new Response(null, { status: 503 });
    }
    try {
      const info = { subscriptionId, webhookId };
      if (body.type === "gap") await options.onGap?.({ ...info, cursor: body.cursor as string });
      else if (body.type === "terminated") await options.onTerminated?.({ ...info, error: body.error as never });
      else await options.onEvent({ ...info, event: body as unknown as ReceivedEvent<S> });
      return new Response(null, { status: 204 });
    } catch (error) {
      options.onError?.(error);
      await seen.release(key).catch(() => {});
      return new Response(null, { status: 503 });
    }
  };
}

/** A signature no secret verifies, or headers that are missing or stale. */
class Unsigned extends Error {}

/** A Standard Webhooks signer of a secret; a malformed secret is the caller's error. */
function signer(secret: string): Webhook {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) {
    throw new TypeError("eventWebhook(): a secret is `whsec_` and base64 (the one given to events.subscribe())");
  }
  return new Webhook(secret);
}

/** The secrets `secretFor` gives for a subscription; none known is unsigned. */
async function secretsOf(
  secretFor: NonNullable<EventWebhookOptions["secretFor"]>,
  subscriptionId: string,
): Promise<string[]> {
  const found = subscriptionId === "" ? undefined : await secretFor(subscriptionId);
  const list = found === undefined ? [] : typeof found === "string" ? [found] : [...found];
  if (list.length === 0) throw new Unsigned();
  return list;
}

/**
 * A short name of a secret list (SHA-256, 128 bits), to scope the ids a store keeps without writing the secrets.
 * Two subscriptions given the same secrets are one scope: a delivery signed for one is a duplicate for the other.
 */
async function fingerprint(secrets: readonly string[]): Promise<string> {
  return (await sha256Hex(new TextEncoder().encode([...secrets].sort().join(" ")))).slice(0, 32);
}

/**
 * The body, parsed, once one of the secrets verifies its signature within the five minutes' tolerance (Standard
 * Webhooks §Verifying: `standardwebhooks`' `verify()`, which compares in constant time).
 */
function verified(signers: readonly Webhook[], text: string, headers: Record<string, string>): unknown {
  if (!signers.some((webhook) => passes(webhook, text, headers))) throw new Unsigned();
  try {
    return JSON.parse(text);
  } catch {
    return null; // signed, but not JSON: 400
  }
}

/** Whether one secret verifies the signature (`verify()` throws `WebhookVerificationError` otherwise). */
function passes(webhook: Webhook, text: string, headers: Record<string, string>): boolean {
  try {
    webhook.verify(text, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a body is a control (`gap` with a cursor, `terminated`) or an event whose `eventId` the `webhook-id`
 * carries: itself (SEP-3415 "Signature scheme", ChatGPT's profile), or after the subscription's id, as servers of
 * this SDK up to 1.0.0-rc.1 sent it on SEP-3415's profile (`<subscriptionId>.<eventId>`).
 */
function wellFormed(body: Record<string, unknown>, webhookId: string, subscriptionId: string): boolean {
  if (body.type === "gap") return typeof body.cursor === "string";
  if (body.type === "terminated") return body.error === undefined || isObject(body.error);
  if (body.type !== undefined) return false;
  const { eventId, name, timestamp } = body;
  return typeof eventId === "string" && typeof name === "string" && typeof timestamp === "string" &&
    (webhookId === eventId || webhookId === `${subscriptionId}.${eventId}`);
}
