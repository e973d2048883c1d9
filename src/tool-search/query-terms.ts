/**
 * A query as weighted terms: its own words, and the words an API more likely uses for them (a user
 * says "email" and "remove", Microsoft Graph says "mail" and "delete"), at half weight.
 *
 * @module
 */
import { searchTokens } from "./search-tokens.ts";

/**
 * Words users say for the words APIs use: the CRUD verbs of REST APIs and a few nouns. Keys and
 * values are plain lower-case words; they are tokenized as queries are.
 */
export const DEFAULT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  add: ["create"],
  make: ["create"],
  new: ["create"],
  remove: ["delete"],
  erase: ["delete"],
  edit: ["update"],
  change: ["update"],
  modify: ["update"],
  rename: ["update"],
  set: ["update"],
  show: ["get", "list"],
  read: ["get", "list"],
  fetch: ["get"],
  view: ["get"],
  find: ["list", "search"],
  all: ["list"],
  email: ["mail", "message"],
  mails: ["message"],
  mail: ["message"],
  inbox: ["message", "mail"],
  file: ["item", "children"],
  folder: ["item", "children"],
  meeting: ["event", "online"],
  appointment: ["event"],
  schedule: ["event", "calendar"],
  picture: ["photo"],
  colleague: ["people", "user"],
  coworker: ["people", "user"],
  boss: ["manager"],
};

/**
 * A query's terms and their weights: each of its own terms 1 (more when repeated), each synonym of a
 * word half a weight unless the query has it already.
 *
 * @param query The query.
 * @param synonyms Words and what APIs say for them.
 * @returns Each term's weight.
 */
export function queryTerms(query: string, synonyms: Readonly<Record<string, readonly string[]>>): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of searchTokens(query)) weights.set(term, (weights.get(term) ?? 0) + 1);
  const words = query.toLowerCase().split(/[^a-z0-9]+/);
  for (const word of words) {
    for (const synonym of Object.hasOwn(synonyms, word) ? synonyms[word] : []) {
      for (const term of searchTokens(synonym)) if (!weights.has(term)) weights.set(term, 0.5);
    }
  }
  return weights;
}
