/**
 * The values a description says a string takes, when it lists them (`"open", "closed" or "all"`, `one of: asc, desc`,
 * `(draft|published)`): a fixed set a model reads better as an `enum` (JSON Schema 2020-12 Validation §6.1.2), which it
 * then cannot get wrong.
 *
 * @module
 */

/** A word a value may be: an identifier, a kebab or dotted one. */
const VALUE = String.raw`[A-Za-z0-9][\w.-]*`;

/** Quoted values (`'a'`, `"a"`, `` `a` ``), each with where it ends. */
const QUOTED = new RegExp(String.raw`(["'\x60])(${VALUE})\1`, "g");

/** What joins the values of one list: a comma, `or`, `and`, a bar or a slash. */
const JOINER = /^\s*(?:,\s*(?:or|and)?|or|and|\||\/)\s*$/i;

/** A phrase that introduces a list of values written bare: `one of: a, b`, `either a or b`, `possible values: a, b`. */
const INTRODUCED = new RegExp(
  String
    .raw`\b(?:one of|either|possible values(?: are)?|valid values(?: are)?|allowed values(?: are)?|values:)\s*:?\s*(${VALUE}(?:\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s*\|\s*|\s*\/\s*)${VALUE})+)`,
  "i",
);

/** A value leading a bullet (`- 'add' - adds…`, `1. get: …`), the way descriptions list the values they explain. */
const BULLET = new RegExp(String.raw`^\s*(?:[-*•]|\d+[.)])\s*(["'\x60]?)(${VALUE})\1\s*(?:[-–—:(]|$)`, "gm");

/** Words before a quoted list that make it an example or another argument's values (`for 'add' and 'reply'`). */
const NOT_OURS_BEFORE = /\b(?:for|with|when|if|in|supports?|like|e\.g\.?|such as|examples?|including|see)\s*$/i;

/** Words after one that make it another argument's values (`'add' and 'reply' methods`). */
const NOT_OURS_AFTER =
  /^\s*(?:methods?|modes?|operations?|actions?|fields?|param(?:eter)?s?|arguments?|options?|calls?)\b/i;

/** A list written with bars: `(asc|desc)`, `draft | published`. */
const BARRED = new RegExp(String.raw`(?:^|[\s(])(${VALUE}(?:\s*\|\s*${VALUE})+)(?=$|[\s).,;])`);

/**
 * The fixed set of values a description lists, if it lists one.
 *
 * @param description An argument's description.
 * @returns The values (at least two, in order, once each), or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listedValues } from "./fixed-set.ts";
 * assert.deepEqual(listedValues('Filter by state: "open", "closed" or "all".'), ["open", "closed", "all"]);
 * assert.deepEqual(listedValues("Sort direction, either asc or desc"), ["asc", "desc"]);
 * assert.equal(listedValues("The user's name, e.g. 'ada'"), undefined);
 * ```
 */
export function listedValues(description: string): string[] | undefined {
  const bullets = [...new Set([...description.matchAll(BULLET)].map((match) => match[2]))];
  if (bullets.length >= 2) return bullets;
  const quoted = quotedList(description);
  if (quoted !== undefined) return quoted;
  const list = INTRODUCED.exec(description)?.[1] ?? BARRED.exec(description)?.[1];
  if (list === undefined) return undefined;
  const words = list.split(/\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\|)\s*|\s*\/\s*/);
  const values = [...new Set(words.map((word) => word.replace(/\.+$/, "")).filter(Boolean))]; // a sentence's full stop
  return values.length >= 2 ? values : undefined;
}

/**
 * The longest run of quoted values joined by commas, `or`, bars or slashes (two at least), unless the words around it
 * make it examples or another argument's values.
 */
function quotedList(description: string): string[] | undefined {
  let best: string[] = [];
  let run: string[] = [];
  let start = -1;
  let end = -1;
  const consider = () => {
    const ours = !NOT_OURS_BEFORE.test(description.slice(0, start)) && !NOT_OURS_AFTER.test(description.slice(end));
    if (ours && run.length > best.length) best = run;
  };
  for (const match of description.matchAll(QUOTED)) {
    const joined = end >= 0 && JOINER.test(description.slice(end, match.index));
    if (!joined && run.length > 0) consider();
    if (!joined) [run, start] = [[], match.index];
    run = [...run, match[2]];
    end = match.index + match[0].length;
  }
  if (run.length > 0) consider();
  const values = [...new Set(best)];
  return values.length >= 2 ? values : undefined;
}
