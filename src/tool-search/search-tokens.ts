/**
 * The words of a text as tool search compares them: identifiers split at camelCase, snake_case,
 * kebab-case, dots and path segments (`sendMail` → `send mail`, `/me/drive/root` → `me drive root`;
 * a short hyphenated word also whole: `to-do` → `to do todo`),
 * lower-cased, common English words dropped, and stemmed (`english-stem.ts`).
 *
 * @module
 */
import { stem } from "./english-stem.ts";

/** Words too common to tell tools apart. */
// deno-fmt-ignore
const STOP_WORDS = /* @__PURE__ */ new Set([
  "a", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
  "has", "have", "how", "i", "in", "into", "is", "it", "its", "of", "on", "or", "our", "please", "that",
  "the", "their", "them", "then", "there", "these", "this", "to", "use", "using", "via", "want", "was",
  "we", "what", "when", "which", "will", "with", "would", "you", "your",
]);

/** Words a user says for the caller itself, which REST APIs name `me` (`/me/…`). */
const SELF = /* @__PURE__ */ new Set(["my", "mine", "myself", "me"]);

/**
 * The search terms of a text, in order, repeated as often as they occur.
 *
 * @param text A tool's name, description or argument, or a query.
 * @returns The terms.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchTokens } from "./search-tokens.ts";
 * assert.deepEqual(searchTokens("me.messages.sendMail"), ["me", "messag", "send", "mail"]);
 * assert.deepEqual(searchTokens("List the files in my OneDrive"), ["list", "fil", "me", "one", "driv"]);
 * ```
 */
export function searchTokens(text: string): string[] {
  const words = text
    .replace(/\b([A-Za-z]{1,4})-([A-Za-z]{1,4})\b/g, "$1-$2 $1$2") // to-do, e-mail, sign-in: also as one word
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2") // camelCase
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2") // HTTPServer → HTTP Server
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const terms: string[] = [];
  for (const word of words) {
    if (word === "" || STOP_WORDS.has(word)) continue;
    terms.push(SELF.has(word) ? "me" : stem(word));
  }
  return terms;
}
