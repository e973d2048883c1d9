/**
 * The challenge before a new subscription is active (SEP-3415 "Events Extension", OpenAI's MCP Events guide): a
 * signed POST of `{ type: "verification", challenge }` with a random challenge, no redirect followed, answered by a
 * 2xx whose JSON echoes `{ challenge }`. Anything else fails the subscribe with -32015, naming what came back.
 *
 * @module
 */
import { base64urlEncode } from "../../codec/base64url.ts";
import { ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import { post } from "./attempt.ts";
import { checkCallback } from "./callback-check.ts";
import type { Deliveries } from "./deliveries.ts";
import { signedHeaders } from "./signing.ts";
import type { Subscription } from "./subscription.ts";

/** SEP-3415's code for a callback endpoint that failed (here, the challenge). */
const CALLBACK_ERROR = -32015;

/** The most of a challenge's answer read, in bytes: an echo is short. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The callback endpoint failed the challenge (-32015, SEP-3415 -32027 by the subscriber's profile): the events server answers it as is. */
export class CallbackEndpointError extends ProtocolError {
  /**
   * Creates the error.
   *
   * @param answered What the endpoint answered ("answered 404", "did not answer within 10000 ms").
   * @param status The HTTP status it answered with, if it answered.
   * @param cause What failed, for logs.
   */
  constructor(answered: string, status?: number, cause?: unknown) {
    super(CALLBACK_ERROR, `The callback endpoint failed the verification challenge: it ${answered}`, {
      data: status === undefined ? {} : { status },
      cause,
    });
    this.name = "CallbackEndpointError";
  }
}

/**
 * Sends a new subscription's challenge to its callback and checks the echo.
 *
 * @param sub The subscription (pending): its URL, id and secrets.
 * @param d The server's deliveries (the callback check, `fetch`, the time limit).
 * @throws {CallbackRefusedError} When the URL is refused; {@link CallbackEndpointError} when the endpoint did not
 *   echo the challenge; `ProtocolError` `invalid_params` when the secret is not a Standard Webhooks one.
 *
 * @example
 * ```ts ignore
 * await verifyCallback(pending, deliveries); // resolves once the callback echoed the challenge
 * ```
 */
export async function verifyCallback(sub: Subscription, d: Deliveries): Promise<void> {
  await checkCallback(sub.url, d.allow, d.lookup);
  const challenge = base64urlEncode(crypto.getRandomValues(new Uint8Array(32)));
  const body = JSON.stringify({ type: "verification", challenge });
  // SEP-3415 "Signature scheme": a control envelope's `webhook-id` is `msg_<type>_<random>`.
  const random = base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
  const id = sub.profile === "sep" ? `msg_verification_${random}` : `vrf_${random}`;
  const headers = signedHeaders(sub, id, body, d.now());
  let response: Response;
  try {
    response = await post(d, sub.url, headers, body);
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new CallbackEndpointError(
      timedOut ? `did not answer within ${d.timeoutMs} ms` : "could not be reached",
      undefined,
      error,
    );
  }
  const status = response.status;
  if (status < 200 || status >= 300) {
    await response.body?.cancel().catch(() => {});
    const redirect = status >= 300 && status < 400 || response.type === "opaqueredirect";
    throw new CallbackEndpointError(`answered ${status}${redirect ? " (a redirect, never followed)" : ""}`, status);
  }
  let echoed: unknown;
  try {
    echoed = JSON.parse(await boundedText(response));
  } catch (error) {
    throw new CallbackEndpointError(`answered ${status} without a JSON body`, status, error);
  }
  if (!isObject(echoed) || echoed.challenge !== challenge) {
    throw new CallbackEndpointError(`answered ${status} without echoing the challenge`, status);
  }
}

/** A response's text, refused past {@link MAX_ANSWER_BYTES}. */
async function boundedText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new RangeError(`the answer is over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
