/**
 * A query as weighted terms: its own words, and the words an API more likely uses for them (a user
 * says "store" and "remove", an API says "create" and "delete").
 *
 * @module
 */
import { searchTokens, splitIdentifiers } from "./search-tokens.ts";

/**
 * Words users say for the words APIs use: the verbs of REST APIs' operations (create, get, list,
 * update, delete: the CRUD of HTTP's POST, GET, PUT/PATCH and DELETE, RFC 9110 §9.3) as English says
 * them, and a few nouns every API spells its own way. No one API's vocabulary: what a user calls a
 * file in one API (`item` in Microsoft Graph) is the author's `synonyms`. Keys and values are plain
 * lower-case words; they are tokenized as queries are.
 */
export const DEFAULT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // Making something: POST to a collection.
  add: ["create"],
  make: ["create"],
  new: ["create"],
  leave: ["create"],
  write: ["create"],
  compose: ["create"],
  post: ["create", "send"],
  setup: ["create"],
  "set up": ["create"],
  // Keeping a value, new or not: the PUT of an upsert as often as a POST.
  store: ["create", "update"],
  save: ["create", "update"],
  set: ["update", "create"],
  put: ["add", "create", "update"],
  // Adding something to a thing that is there (a label on an issue, a file to a release): APIs say `add`
  // (`add-labels`), or update the thing with it.
  apply: ["add", "update"],
  attach: ["add", "update", "upload"],
  tag: ["add", "update", "label"],
  mark: ["update"],
  append: ["add"],
  insert: ["add"],
  include: ["add"],
  // Changing it.
  edit: ["update"],
  change: ["update"],
  modify: ["update"],
  alter: ["update"],
  rename: ["update"],
  // Reading it, one or many.
  show: ["get", "list"],
  read: ["get", "list"],
  see: ["get", "list"],
  view: ["get"],
  fetch: ["get"],
  retrieve: ["get"],
  display: ["get", "list"],
  "look up": ["get", "search"],
  find: ["list", "search"],
  search: ["list"],
  browse: ["list"],
  // Ending it.
  remove: ["delete"],
  erase: ["delete"],
  drop: ["delete"],
  destroy: ["delete"],
  discard: ["delete"],
  trash: ["delete"],
  // Letting someone.
  give: ["assign", "grant"],
  // What users call things, and what APIs do, in any API.
  email: ["mail", "message"],
  picture: ["photo"],
  app: ["application"],
};

/**
 * The verbs of API operations: what a tool does, one of them a call. Several of them as one word's
 * synonyms (put → add, create, update) are alternatives, where the word's other synonyms
 * (notified → create, subscription) add to one another.
 */
// Both calls marked pure: a server that never searches bundles none of the tokenizer (a bundler keeps a call).
// deno-fmt-ignore
const OPERATION_VERBS: ReadonlySet<string> = /* @__PURE__ */ new Set(/* @__PURE__ */ searchTokens(
  "add assign create delete get grant list search send set update upload",
));

/**
 * A query's terms and their weights: each of its own terms 1 (more when repeated), each synonym of a
 * word or phrase `synonymWeight` unless the query has it already; a phrase's own words are dropped.
 * The operation verbs among one word's synonyms are alternatives (put: add, create or update):
 * `alternatives`, when given, is filled with them, one group per word, so that a tool holding two of
 * them (`create-or-update-secret`) counts one.
 *
 * @param query The query.
 * @param synonyms Words and what APIs say for them.
 * @param synonymWeight A synonym's weight (a query's own word: 1).
 * @param alternatives Filled, per word whose synonyms hold two operation verbs or more, with those verbs' terms.
 * @returns Each term's weight.
 */
export function queryTerms(
  query: string,
  synonyms: Readonly<Record<string, readonly string[]>>,
  synonymWeight = 1,
  alternatives: string[][] = [],
): Map<string, number> {
  let text = splitIdentifiers(query).toLowerCase(); // `sendEmail` as `send email`: lower-cased, it would be one word
  const added: (readonly string[])[] = [];
  for (const key of Object.keys(synonyms)) {
    // A phrase ("set up") stands for its synonyms alone: its words mean something else apart.
    if (!key.includes(" ")) continue;
    const phrase = new RegExp(`\\b${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g");
    if (!phrase.test(text)) continue;
    text = text.replace(phrase, " ");
    added.push(synonyms[key]);
  }
  const weights = new Map<string, number>();
  for (const term of searchTokens(text)) weights.set(term, (weights.get(term) ?? 0) + 1);
  for (const word of text.split(/[^a-z0-9]+/)) {
    if (Object.hasOwn(synonyms, word)) added.push(synonyms[word]);
  }
  for (const words of added) {
    const verbs: string[] = [];
    for (const term of words.flatMap((synonym) => searchTokens(synonym))) {
      if (weights.has(term)) continue;
      weights.set(term, synonymWeight);
      if (OPERATION_VERBS.has(term)) verbs.push(term);
    }
    if (verbs.length > 1) alternatives.push(verbs);
  }
  return weights;
}
