/**
 * A BM25F index (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields",
 * CIKM 2004): each document has fields of terms, each field a weight and its own length
 * normalisation; a term's frequencies are combined across fields before BM25's saturation.
 *
 * @module
 */

/** How the fields of a {@link Bm25fIndex} count. */
export interface Bm25fSettings {
  /** Each field's weight, in the order of the documents' fields. */
  readonly weights: readonly number[];
  /** Each field's length normalisation `b` (0: none, 1: full), in the same order. */
  readonly b: readonly number[];
  /** Term-frequency saturation `k1` (default 1.2). */
  readonly k1?: number;
}

/** A document's score. */
export interface Scored {
  /** The document's index, in the order added. */
  readonly doc: number;
  /** Its score, higher is better. */
  readonly score: number;
}

/**
 * An index of documents, each a list of fields of terms, ranked by BM25F.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Bm25fIndex } from "./bm25f-index.ts";
 * const index = new Bm25fIndex([[["send", "mail"], ["send", "a", "message"]], [["list", "user"], ["list", "users"]]], {
 *   weights: [3, 1],
 *   b: [0.3, 0.75],
 * });
 * assert.equal(index.search(["mail"], 1)[0].doc, 0);
 * ```
 */
export class Bm25fIndex {
  /** Per term, the documents holding it and its frequency in each field. */
  readonly #postings = new Map<string, { doc: number; tf: number[] }[]>();
  /** Per document, each field's length in terms. */
  readonly #lengths: number[][] = [];
  readonly #average: number[];
  readonly #weights: readonly number[];
  readonly #b: readonly number[];
  readonly #k1: number;

  /**
   * Indexes documents.
   *
   * @param docs The documents: per document, per field, its terms.
   * @param settings The field weights and normalisations.
   */
  constructor(docs: Iterable<readonly (readonly string[])[]>, settings: Bm25fSettings) {
    this.#weights = settings.weights;
    this.#b = settings.b;
    this.#k1 = settings.k1 ?? 1.2;
    const fields = settings.weights.length;
    const totals = new Array<number>(fields).fill(0);
    for (const doc of docs) {
      const id = this.#lengths.length;
      const counts = new Map<string, number[]>();
      doc.forEach((terms, field) => {
        for (const term of terms) {
          let tf = counts.get(term);
          if (tf === undefined) counts.set(term, tf = new Array<number>(fields).fill(0));
          tf[field]++;
        }
        totals[field] += terms.length;
      });
      for (const [term, tf] of counts) {
        let postings = this.#postings.get(term);
        if (postings === undefined) this.#postings.set(term, postings = []);
        postings.push({ doc: id, tf });
      }
      this.#lengths.push(doc.map((terms) => terms.length));
    }
    const n = Math.max(this.#lengths.length, 1);
    this.#average = totals.map((total) => Math.max(total / n, 1));
  }

  /** How many documents are indexed. */
  get size(): number {
    return this.#lengths.length;
  }

  /**
   * Scores every document that holds a query term.
   *
   * @param query The query's terms (a repeated term counts once more each time), or each term's weight.
   * @param coverage Filled, when given, with the weight of the query's terms each document holds.
   * @returns The score of each document that matched, by document index.
   */
  scores(query: readonly string[] | ReadonlyMap<string, number>, coverage?: Map<number, number>): Map<number, number> {
    const scores = new Map<number, number>();
    const n = this.#lengths.length;
    let weights = query as ReadonlyMap<string, number>;
    if (Array.isArray(query)) {
      const counted = new Map<string, number>();
      for (const term of query) counted.set(term, (counted.get(term) ?? 0) + 1);
      weights = counted;
    }
    for (const [term, times] of weights) {
      const postings = this.#postings.get(term);
      if (postings === undefined) continue;
      const idf = Math.log(1 + (n - postings.length + 0.5) / (postings.length + 0.5));
      for (const { doc, tf } of postings) {
        const lengths = this.#lengths[doc];
        let pseudo = 0;
        for (let f = 0; f < tf.length; f++) {
          if (tf[f] === 0) continue;
          pseudo += this.#weights[f] * tf[f] / (1 - this.#b[f] + this.#b[f] * lengths[f] / this.#average[f]);
        }
        const score = times * idf * pseudo * (this.#k1 + 1) / (this.#k1 + pseudo);
        scores.set(doc, (scores.get(doc) ?? 0) + score);
        coverage?.set(doc, (coverage.get(doc) ?? 0) + times);
      }
    }
    return scores;
  }

  /**
   * The best documents for a query.
   *
   * @param query The query's terms.
   * @param k How many to return at most.
   * @returns The best `k`, best first (ties in the order added).
   */
  search(query: readonly string[], k: number): Scored[] {
    return best(this.scores(query), k);
  }
}

/**
 * The `k` best of a set of scores, best first (ties by document index).
 *
 * @param scores Scores by document index.
 * @param k How many to keep.
 * @returns The best.
 */
export function best(scores: Map<number, number>, k: number): Scored[] {
  const all: Scored[] = [];
  for (const [doc, score] of scores) all.push({ doc, score });
  all.sort((x, y) => y.score - x.score || x.doc - y.doc);
  return all.slice(0, k);
}
