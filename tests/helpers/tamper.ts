/**
 * Forged tokens for tests: a real token with one character of its MAC changed.
 */

/**
 * The token with its fifth character from the end changed, so that its MAC no longer matches. Not the last
 * ones: a MAC's final base64url character carries padding bits a decoder may ignore, and replacing the last two
 * with fixed characters gave the token back unchanged in 1 run of about 256 (they were already those).
 */
export function tamper(token: string): string {
  const at = token.length - 5;
  return token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
}
