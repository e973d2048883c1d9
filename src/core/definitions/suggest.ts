/**
 * "Did you mean …?" for unknown names: tools, and the arguments of an imported OpenAPI operation.
 *
 * @module
 */

/**
 * Finds the known name closest to a mistyped one, if any is close enough to be a likely typo.
 *
 * @param wanted The name that was asked for.
 * @param known The names that exist.
 * @returns The closest name, or `undefined`.
 */
export function suggestName(wanted: string, known: Iterable<string>): string | undefined {
  const lower = wanted.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const score = candidate.includes(lower) || lower.includes(candidate) ? 0.5 : distance(lower, candidate);
    if (score < bestScore) {
      bestScore = score;
      best = name;
    }
  }
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return bestScore <= limit ? best : undefined;
}

/** Levenshtein distance, with two rows. Names are at most 64 characters long. */
function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}
