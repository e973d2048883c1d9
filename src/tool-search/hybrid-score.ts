/**
 * Hybrid ranking: lexical scores (BM25F) and an embedder's cosine similarities, each scaled to
 * [0, 1] and mixed by a weight, so that a query that shares no word with a tool can still find it.
 *
 * @module
 */

/** Turns a text into a vector (an embedding model's), for semantic tool search. */
export type Embedder = (text: string) => Promise<ArrayLike<number>>;

/**
 * The cosine similarity of two vectors (0 when either is all zeros).
 *
 * @param a A vector.
 * @param b A vector of the same length.
 * @returns Their cosine, in [-1, 1].
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Mixes lexical scores with semantic similarities: `(1 - weight) · lexical / best lexical + weight ·
 * max(0, cosine)`, for every document that has either.
 *
 * @param lexical BM25F scores by document.
 * @param semantic Cosine similarities by document.
 * @param weight The semantic share, in [0, 1].
 * @returns The mixed scores by document.
 */
export function hybridScores(
  lexical: ReadonlyMap<number, number>,
  semantic: ReadonlyMap<number, number>,
  weight: number,
): Map<number, number> {
  let top = 0;
  for (const score of lexical.values()) top = Math.max(top, score);
  const mixed = new Map<number, number>();
  for (const [doc, score] of lexical) mixed.set(doc, (1 - weight) * (top === 0 ? 0 : score / top));
  for (const [doc, similarity] of semantic) {
    mixed.set(doc, (mixed.get(doc) ?? 0) + weight * Math.max(0, similarity));
  }
  return mixed;
}
