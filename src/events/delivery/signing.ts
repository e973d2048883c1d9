/**
 * A delivery's request, signed per Standard Webhooks v1 (`standardwebhooks`): `webhook-id`, a fresh
 * `webhook-timestamp` on every attempt, and in `webhook-signature` one `v1,` signature per live secret (the newest,
 * and the older ones during a rotation's grace); `X-MCP-Subscription-Id` names the subscription (OpenAI's MCP
 * Events guide). The body is one event's JSON, at most 256 KiB.
 *
 * @module
 */
import { Webhook } from "standardwebhooks";
import { ProtocolError } from "../../errors/error.ts";
import { utf8Length } from "../../internal/utf8-length.ts";
import type { Occurrence, Subscription } from "./subscription.ts";

/** The largest body a delivery sends, in bytes (OpenAI's MCP Events guide: 256 KiB, one event per request). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The body of an occurrence's delivery.
 *
 * @param occ The occurrence.
 * @param cursor The watermark it carries (SEP-3415's profile), if any.
 * @returns Its JSON.
 * @throws {RangeError} When it is over {@link MAX_BODY_BYTES}: no receiver takes it, so it is never sent.
 */
export function deliveryBody(occ: Occurrence, cursor?: string): string {
  const { eventId, name, timestamp, data } = occ;
  const body = JSON.stringify(
    cursor === undefined ? { eventId, name, timestamp, data } : { eventId, name, timestamp, data, cursor },
  );
  const bytes = utf8Length(body);
  if (bytes > MAX_BODY_BYTES) {
    throw new RangeError(`the event's delivery body is ${bytes} bytes, over the limit of ${MAX_BODY_BYTES}`);
  }
  return body;
}

/**
 * The secrets that sign now: the newest, and the older ones while the rotation's grace lasts.
 *
 * @param sub The subscription.
 * @param now The clock's time, ms since the epoch.
 * @returns The live secrets, newest first.
 */
export function liveSecrets(sub: Pick<Subscription, "secrets" | "previousUntil">, now: number): readonly string[] {
  return (sub.previousUntil ?? 0) > now ? sub.secrets : sub.secrets.slice(0, 1);
}

/**
 * The headers of one attempt: signed now, over `body` exactly as sent.
 *
 * @param sub The subscription: its id, profile and secrets.
 * @param id The message's `webhook-id`.
 * @param body The body, as sent.
 * @param now The clock's time, ms since the epoch (`webhook-timestamp` is its seconds).
 * @returns The request's headers.
 * @throws {ProtocolError} `invalid_params` when a secret is not Standard Webhooks' (`whsec_` + base64).
 */
export function signedHeaders(
  sub: Pick<Subscription, "id" | "secrets" | "previousUntil">,
  id: string,
  body: string,
  now: number,
): Headers {
  const at = new Date(now);
  const signatures = liveSecrets(sub, now).map((secret) => signerOf(secret).sign(id, at, body));
  return new Headers({
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now / 1000)),
    "webhook-signature": signatures.join(" "),
    "x-mcp-subscription-id": sub.id,
  });
}

/** The signer of a secret, as a receiver with the same library reads it. */
function signerOf(secret: string): Webhook {
  try {
    return new Webhook(secret);
  } catch (cause) {
    throw new ProtocolError(
      "invalid_params",
      "The webhook secret is not a Standard Webhooks secret (whsec_ + base64)",
      {
        cause,
      },
    );
  }
}
