/**
 * The words of a text as tool search compares them: identifiers split at camelCase, snake_case,
 * kebab-case, dots and path segments (`sendMail` → `send mail`, `/me/drive/root` → `me drive root`;
 * a short hyphenated word also whole: `to-do` → `to do todo`),
 * lower-cased, common English words dropped, and stemmed (`english-stem.ts`); in linear time whatever
 * the text (a hand-written scan, no backtracking regular expression).
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
  const terms: string[] = [];
  for (const word of textWords(text)) {
    if (word === "" || STOP_WORDS.has(word)) continue;
    terms.push(SELF.has(word) ? "me" : stem(word));
  }
  return terms;
}

/**
 * The words of a text before stop words and stems: identifiers split, lower-cased, cut at everything
 * but ASCII letters and digits (empty strings where the text starts or ends with such a cut).
 *
 * @param text The text.
 * @returns Its words, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textWords } from "./search-tokens.ts";
 * assert.deepEqual(textWords("HTTPServer.sendMail to-do"), ["http", "server", "send", "mail", "to", "do", "todo"]);
 * ```
 */
export function textWords(text: string): string[] {
  return splitIdentifiers(joinHyphenated(text)).toLowerCase().split(/[^a-z0-9]+/);
}

/**
 * Identifiers in a text apart, before it is lower-cased: camelCase and acronyms (`HTTPServer.sendMail` →
 * `HTTP Server.send Mail`), so that a query that names a tool as code does (`sendEmail`) finds its words.
 *
 * @param text The text.
 * @returns The text with a space where an identifier's words meet.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitIdentifiers } from "./search-tokens.ts";
 * assert.equal(splitIdentifiers("send an HTTPRequest via sendMail"), "send an HTTP Request via send Mail");
 * ```
 */
export function splitIdentifiers(text: string): string {
  return splitCapitals(splitCamel(text));
}

// The three steps below read the text once each, in linear time whatever it holds: a tool's description
// comes from a remote or an OpenAPI document, and a regular expression such as /([A-Z]+)([A-Z][a-z])/g
// backtracks over a run of capitals from each of its letters (quadratic: 100,000 capitals took seconds).

const isUpper = (c: number) => c >= 65 && c <= 90; // A-Z
const isLower = (c: number) => c >= 97 && c <= 122; // a-z
const isDigit = (c: number) => c >= 48 && c <= 57; // 0-9
const isLetter = (c: number) => isUpper(c) || isLower(c);
/** A word character of a regular expression's `\b` (ECMA-262, IsWordChar): ASCII letters, digits, `_`. */
const isWordChar = (c: number) => isLetter(c) || isDigit(c) || c === 95;

/** The end of the run of ASCII letters from `at`, looking at `max + 1` of them at most. */
function lettersEnd(text: string, at: number, max: number): number {
  let end = at;
  while (end < text.length && end - at <= max && isLetter(text.charCodeAt(end))) end++;
  return end;
}

/**
 * A short hyphenated word also as one word (`to-do` → `to-do todo`; `e-mail`, `sign-in`): a word of one
 * to four ASCII letters, a hyphen, and another, each whole (`\b[A-Za-z]{1,4}-[A-Za-z]{1,4}\b`).
 */
function joinHyphenated(text: string): string {
  let out = "";
  let copied = 0;
  for (let at = text.indexOf("-"); at !== -1; at = text.indexOf("-", at + 1)) {
    let start = at;
    while (start > 0 && at - start <= 4 && isLetter(text.charCodeAt(start - 1))) start--;
    if (start === at || at - start > 4 || start < copied) continue;
    if (start > 0 && isWordChar(text.charCodeAt(start - 1))) continue;
    const end = lettersEnd(text, at + 1, 4);
    if (end === at + 1 || end - at - 1 > 4 || (end < text.length && isWordChar(text.charCodeAt(end)))) continue;
    out += `${text.slice(copied, end)} ${text.slice(start, at)}${text.slice(at + 1, end)}`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** camelCase apart: a space between a lower-case letter or digit and a capital (`sendMail` → `send Mail`). */
function splitCamel(text: string): string {
  let out = "";
  let copied = 0;
  for (let at = 1; at < text.length; at++) {
    if (!isUpper(text.charCodeAt(at))) continue;
    const before = text.charCodeAt(at - 1);
    if (!isLower(before) && !isDigit(before)) continue;
    out += `${text.slice(copied, at)} `;
    copied = at;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * An acronym apart from the word after it: a space before the last capital of a run of two or more
 * that a lower-case letter follows (`HTTPServer` → `HTTP Server`).
 */
function splitCapitals(text: string): string {
  let out = "";
  let copied = 0;
  let run = 0; // capitals just read
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (isUpper(c)) {
      run++;
      continue;
    }
    if (run >= 2 && isLower(c)) {
      out += `${text.slice(copied, at - 1)} `;
      copied = at - 1;
    }
    run = 0;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
