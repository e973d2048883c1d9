/**
 * A query as weighted terms: its own words, and the words an API more likely uses for them (a user
 * says "email" and "remove", Microsoft Graph says "mail" and "delete").
 *
 * @module
 */
import { searchTokens } from "./search-tokens.ts";

/**
 * Words users say for the words APIs use: the CRUD verbs of REST APIs and a few nouns. Keys and
 * values are plain lower-case words; they are tokenized as queries are.
 */
export const DEFAULT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // The verbs of REST APIs (create, get, list, update, delete) and of their actions.
  add: ["create"],
  make: ["create"],
  new: ["create"],
  post: ["create", "send"],
  setup: ["create"],
  "set up": ["create"],
  "look up": ["get", "search"],
  "sign in": ["signin"],
  "log in": ["signin"],
  set: ["update", "create"],
  remove: ["delete"],
  erase: ["delete"],
  edit: ["update"],
  change: ["update"],
  modify: ["update"],
  rename: ["update"],
  show: ["get", "list"],
  read: ["get", "list"],
  fetch: ["get"],
  view: ["get"],
  find: ["list", "search"],
  search: ["list"],
  give: ["assign", "grant"],
  notify: ["create", "subscription"],
  notified: ["create", "subscription"],
  webhook: ["create", "subscription"],
  // What users call things, and what APIs do.
  email: ["mail", "message"],
  mails: ["message"],
  mail: ["message"],
  inbox: ["message", "mail"],
  file: ["item", "children"],
  folder: ["item", "children"],
  meeting: ["event", "online"],
  appointment: ["event"],
  calendar: ["event"],
  schedule: ["event", "calendar"],
  picture: ["photo"],
  app: ["application"],
  "app registration": ["application"],
  "app registrations": ["application"],
  everyone: ["user"],
  employee: ["user"],
  account: ["user"],
  colleague: ["people", "user"],
  "work with": ["people"],
  coworker: ["people", "user"],
  available: ["presence"],
  availability: ["presence"],
  boss: ["manager"],
};

/**
 * A query's terms and their weights: each of its own terms 1 (more when repeated), each synonym of a
 * word or phrase `synonymWeight` unless the query has it already; a phrase's own words are dropped.
 *
 * @param query The query.
 * @param synonyms Words and what APIs say for them.
 * @param synonymWeight A synonym's weight (a query's own word: 1).
 * @returns Each term's weight.
 */
export function queryTerms(
  query: string,
  synonyms: Readonly<Record<string, readonly string[]>>,
  synonymWeight = 1,
): Map<string, number> {
  let text = query.toLowerCase();
  const added: string[] = [];
  for (const key of Object.keys(synonyms)) {
    // A phrase ("set up") stands for its synonyms alone: its words mean something else apart.
    if (!key.includes(" ")) continue;
    const phrase = new RegExp(`\\b${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g");
    if (!phrase.test(text)) continue;
    text = text.replace(phrase, " ");
    added.push(...synonyms[key]);
  }
  const weights = new Map<string, number>();
  for (const term of searchTokens(text)) weights.set(term, (weights.get(term) ?? 0) + 1);
  for (const word of text.split(/[^a-z0-9]+/)) {
    if (Object.hasOwn(synonyms, word)) added.push(...synonyms[word]);
  }
  for (const synonym of added) {
    for (const term of searchTokens(synonym)) if (!weights.has(term)) weights.set(term, synonymWeight);
  }
  return weights;
}
