/**
 * A light English stemmer for tool search: folds plurals and the common verb and noun endings
 * (`messages`, `messaging` → `messag`; `created`, `creates` → `creat`) so that a user's words meet a
 * tool's, without a dictionary. Lighter than Porter's algorithm on purpose: identifiers are short.
 *
 * @module
 */

/** Endings removed (longest first), each when what remains keeps at least 3 letters. */
const ENDINGS = ["ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "es", "ed", "s"];

/**
 * The stem of a lower-case word: the word without its first matching ending (`-ies`/`-ied` become
 * `-y`); words of 3 letters or fewer, and words ending in `ss`, `us` or `is`, are kept whole.
 *
 * @param word A lower-case word.
 * @returns Its stem.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /(ss|us|is)$/.test(word)) return word;
  for (const ending of ENDINGS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const base = word.slice(0, -ending.length);
    if (ending === "ies" || ending === "ied") return `${base}y`;
    return base.endsWith("e") ? base.slice(0, -1) : base;
  }
  return word.endsWith("e") ? word.slice(0, -1) : word;
}
