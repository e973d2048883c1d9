/**
 * How long a Standard Webhooks secret's key is (`whsec_` and the base64 of 24 to 64 random bytes, Standard Webhooks
 * §Signing; SEP-3415 requires the same of a subscription's secret), for the client that sends one and the server that
 * takes it.
 *
 * @module
 */

/** Standard Webhooks' secret: `whsec_` and the base64 of its key. */
const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The byte length of a Standard Webhooks secret's key.
 *
 * @param secret What was given as the secret.
 * @returns Its key's length in bytes; 0 when it is no `whsec_` secret of base64.
 */
function webhookSecretBytes(secret: unknown): number {
  const key = typeof secret === "string" ? SECRET.exec(secret)?.[1].replace(/=+$/, "") : undefined;
  // base64 of n characters holds floor(3n / 4) bytes; one character past a multiple of 4 is no base64 at all.
  return key === undefined || key.length % 4 === 1 ? 0 : Math.floor(key.length * 3 / 4);
}

/**
 * Whether a secret is `whsec_` and a key as long as Standard Webhooks and SEP-3415 require: 24 to 64 bytes.
 *
 * @param secret What was given as the secret.
 * @returns Whether it fits.
 */
export function webhookSecretFits(secret: unknown): secret is string {
  const bytes = webhookSecretBytes(secret);
  return bytes >= 24 && bytes <= 64;
}
