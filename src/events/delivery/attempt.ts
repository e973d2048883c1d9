/**
 * One delivery attempt: the callback checked again (its host may resolve elsewhere now), the body signed afresh,
 * one POST that follows no redirect and waits at most the attempt's time limit, and its answer classified as SEP-3415
 * "Events Extension" reads it: 2xx delivered, 410 gone (the subscription ends), 413 too large (the occurrence is
 * dropped), 3xx, 408, 429, 5xx, a network error or a timeout retried (`Retry-After` honoured, RFC 9110 §10.2.3).
 *
 * @module
 */
import { CallbackRefusedError, checkCallback } from "./callback-check.ts";
import type { Deliveries } from "./deliveries.ts";
import { deliveryBody, signedHeaders } from "./signing.ts";
import type { Occurrence, Subscription } from "./subscription.ts";
import { watermark } from "./watermark.ts";

/** How an attempt ended. */
export type Attempted =
  /** A 2xx answer. */
  | { readonly kind: "delivered"; readonly status: number }
  /** 410 Gone: the receiver wants no more. */
  | { readonly kind: "gone"; readonly status: 410 }
  /** 413 Content Too Large: this occurrence never fits. */
  | { readonly kind: "too-large"; readonly status: 413 }
  /** Worth another try: 3xx, 408, 429, 5xx (with its `Retry-After`), or no answer (`error`). */
  | { readonly kind: "retry"; readonly status?: number; readonly retryAfterMs?: number; readonly error?: unknown }
  /** Another 4xx, or a secret that cannot sign (not Standard Webhooks'): no retry mends it. */
  | { readonly kind: "rejected"; readonly status?: number; readonly error?: unknown }
  /** The callback URL is refused now (DNS changed): nothing was sent. */
  | { readonly kind: "refused"; readonly error: CallbackRefusedError }
  /** The server's deliveries were closed (or the worker stopped) first: nothing to record. */
  | { readonly kind: "stopped" };

/**
 * Makes one attempt to deliver an occurrence to a subscription.
 *
 * @param d The server's deliveries.
 * @param sub The subscription, as the store holds it now.
 * @param occ The occurrence.
 * @param stop Aborts it as the worker shuts down (besides the server's `close()`).
 * @returns How it ended.
 */
export async function attempt(
  d: Deliveries,
  sub: Subscription,
  occ: Occurrence,
  stop?: AbortSignal,
): Promise<Attempted> {
  const give = await d.slot();
  try {
    try {
      await checkCallback(sub.url, d.allow, d.lookup);
    } catch (error) {
      if (!(error instanceof CallbackRefusedError)) throw error;
      return error.reason === "unresolved" ? { kind: "retry", error } : { kind: "refused", error };
    }
    // SEP-3415 "Webhook event delivery": the body's `cursor` is a watermark, on its profile (ChatGPT's has none).
    const cursor = sub.profile === "sep" && occ.place !== undefined
      ? await watermark(d.store, sub.id, d.now(), occ.place)
      : undefined;
    const body = deliveryBody(sub.servedAs === undefined ? occ : { ...occ, name: sub.servedAs }, cursor);
    let headers: Headers;
    try {
      // SEP-3415 "Signature scheme": "`webhook-id` is the `eventId` for event deliveries" (ChatGPT's profile alike).
      headers = signedHeaders(sub, occ.eventId, body, d.now());
    } catch (error) {
      return { kind: "rejected", error };
    }
    let response: Response;
    try {
      response = await post(d, sub.url, headers, body, stop);
    } catch (error) {
      if (d.signal.aborted || stop?.aborted) return { kind: "stopped" };
      return { kind: "retry", error };
    }
    await response.body?.cancel().catch(() => {});
    return classify(response, d);
  } finally {
    give();
  }
}

/**
 * POSTs to a callback: no redirect followed (SEP-3415; a redirect could lead past the address check), at most the
 * attempt's time limit.
 *
 * @param d The server's deliveries: `fetch`, the time limit, `close()`.
 * @param url The callback URL.
 * @param headers The signed headers.
 * @param body The body.
 * @param stop Aborts it too.
 * @returns The answer.
 */
export function post(
  d: Deliveries,
  url: string,
  headers: Headers,
  body: string,
  stop?: AbortSignal,
): Promise<Response> {
  const signals = [AbortSignal.timeout(d.timeoutMs), d.signal];
  if (stop !== undefined) signals.push(stop);
  return d.fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.any(signals) });
}

/** What an answer means for the delivery. */
function classify(response: Response, d: Deliveries): Attempted {
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: "delivered", status };
  if (status === 410) return { kind: "gone", status };
  if (status === 413) return { kind: "too-large", status };
  // A redirect is never followed: a browser-like fetch hands it back opaque, status 0.
  if (response.type === "opaqueredirect" || (status >= 300 && status < 400) || status === 0) {
    return { kind: "retry", status };
  }
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: "retry", status, retryAfterMs: retryAfterMs(response.headers.get("retry-after"), d) };
  }
  return { kind: "rejected", status };
}

/** A `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) in ms, capped; `undefined` when none. */
function retryAfterMs(value: string | null, d: Deliveries): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - d.now();
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(0, ms), d.maxRetryAfterMs);
}
