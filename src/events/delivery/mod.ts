/**
 * SEAM (issue 77): the delivery of MCP Events' webhooks, as the events runtime calls it. This file is a minimal,
 * in-process stand-in written by the events-server work for its own tests; the delivery work's module (retries,
 * the queue, suspension, delivery-time address checks) replaces it whole on merge. Standard Webhooks v1 signatures.
 *
 * @module
 */
import { Webhook } from "standardwebhooks";
import type { ResultStore } from "../../jobs/result-store.ts";
import type { TokenCodec } from "../../codec/token.ts";

/** A subscription, as stored (`evsub:<id>`). */
export interface Subscription {
  readonly id: string;
  readonly key: string;
  readonly principal: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly url: string;
  /** Newest first: the previous one signs too until `previousUntil`. */
  readonly secrets: readonly string[];
  readonly previousUntil?: number;
  readonly profile: "chatgpt" | "sep";
  readonly status: "pending" | "active" | "suspended";
  readonly failures: number;
  readonly expiresAt: number;
}

/** One occurrence of an event: the webhook body. */
export interface Occurrence {
  readonly eventId: string;
  readonly name: string;
  readonly timestamp: string;
  readonly data: unknown;
}

/** What delivery is given by the events runtime. */
export interface DeliveryDeps {
  readonly store: ResultStore;
  readonly allowCallbacks: readonly string[];
  readonly retryDelaysMs: readonly number[];
  readonly suspendAfter: number;
  readonly queue?: unknown;
  /** The server's token codec: seals a queued delivery's data as a job token is. */
  readonly codec: TokenCodec;
  readonly onError: (error: unknown) => void;
  readonly now: () => number;
}

/** A callback URL this server will not call (SEP-3415: -32012). */
export class CallbackRefused extends Error {}

/**
 * Checks a callback URL: https without credentials or fragment, unless its origin is allowed. (The stand-in does
 * not resolve the host: the delivery work's check does, refusing private and loopback addresses.)
 */
export function checkCallback(url: string, allow: readonly string[]): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new CallbackRefused("the callback is not a URL"));
  }
  if (parsed.username || parsed.password || parsed.hash) {
    return Promise.reject(new CallbackRefused("a callback URL has no credentials nor fragment"));
  }
  if (allow.includes(parsed.origin)) return Promise.resolve();
  if (parsed.protocol !== "https:") return Promise.reject(new CallbackRefused("a callback URL is https"));
  const host = parsed.hostname;
  if (host === "localhost" || /^(127\.|10\.|192\.168\.|169\.254\.|0\.)/.test(host) || host.startsWith("[")) {
    return Promise.reject(new CallbackRefused("the callback's address is private or loopback"));
  }
  return Promise.resolve();
}

/** The live secrets of a subscription: the newest, and the previous one during its grace. */
function live(sub: Subscription, now: number): readonly string[] {
  return sub.previousUntil !== undefined && now < sub.previousUntil ? sub.secrets : sub.secrets.slice(0, 1);
}

/** POSTs a signed body to the subscription's callback. */
async function post(sub: Subscription, webhookId: string, body: string, deps: DeliveryDeps): Promise<Response> {
  const at = new Date(deps.now());
  const signature = live(sub, at.getTime()).map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(" ");
  return await fetch(sub.url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/json",
      "webhook-id": webhookId,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
      "X-MCP-Subscription-Id": sub.id,
    },
    body,
  });
}

/** The challenge before a new subscription is active: 2xx and `{ challenge }` echoed, or it throws. */
export async function verifyCallback(sub: Subscription, deps: DeliveryDeps): Promise<void> {
  await checkCallback(sub.url, deps.allowCallbacks);
  const challenge = crypto.randomUUID();
  const response = await post(sub, `ver_${challenge}`, JSON.stringify({ type: "verification", challenge }), deps);
  const echoed = response.ok ? await response.json().catch(() => undefined) : await response.body?.cancel();
  if ((echoed as { challenge?: unknown } | undefined)?.challenge !== challenge) {
    throw new Error(`the callback did not echo the challenge (HTTP ${response.status})`);
  }
}

/** Delivers one occurrence, in process: one attempt (the stand-in does not retry); 410 ends the subscription. */
export async function deliver(sub: Subscription, occ: Occurrence, deps: DeliveryDeps): Promise<void> {
  await checkCallback(sub.url, deps.allowCallbacks);
  const webhookId = sub.profile === "sep" ? `${sub.id}.${occ.eventId}` : occ.eventId;
  const response = await post(sub, webhookId, JSON.stringify(occ), deps);
  await response.body?.cancel();
  if (response.status === 410) await deps.store.delete(`evsub:${sub.id}`);
}
