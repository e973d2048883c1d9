/**
 * The searchable catalog of a server's tools: a BM25F index over their names, descriptions and
 * arguments (`bm25f-index.ts`), built on the first search and again after the tools change, with an
 * embedder's vectors mixed in when one is given (`hybrid-score.ts`).
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import { holdsScopes } from "../core/definitions/scopes.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { visibleTo } from "../internal/mcp-apps-wire.ts";
import { best, Bm25fIndex } from "./bm25f-index.ts";
import { asksRemoval, DESTRUCTIVE_FACTOR, isDestructive } from "./destructive-rank.ts";
import { cosine, type Embedder, hybridScores } from "./hybrid-score.ts";
import { queryTerms } from "./query-terms.ts";
import { type FieldTerms, nameDepth, type SearchableTool, toolFields, toolText } from "./tool-fields.ts";

/** How a {@link ToolCatalog} ranks. */
export interface CatalogSettings {
  /** The weights of a tool's action (its name's last segment), name path, summary, description and arguments. */
  readonly weights: readonly [number, number, number, number, number];
  /** The exponent of the share of the query's terms a tool holds, its score's factor (0: ignored). */
  readonly coverage: number;
  /** How much a tool whose action the query names gains (score × (1 + this × the share of its terms named)). */
  readonly actionBonus: number;
  /** How much each segment of a name's path lowers a score (score / (1 + depth × this)). */
  readonly depthPenalty: number;
  /** Words users say and what APIs say for them. */
  readonly synonyms: Readonly<Record<string, readonly string[]>>;
  /** The embedder, if any. */
  readonly embed?: Embedder;
  /** The embedder's share of the score, in [0, 1]. */
  readonly semanticWeight: number;
  /** Which tools are never found (the search and call tools). */
  readonly excluded: ReadonlySet<string>;
}

/** Where a catalog's tools come from: a server's registry, or the tools another server lists. */
export interface CatalogSource<T extends SearchableTool> {
  /** The tools, in registration order. */
  readonly tools: Iterable<T>;
  /** Tells the catalog when the tools changed (a `tools` change), so that it indexes them again. */
  onChange(listener: (change: { readonly kind: string }) => void): unknown;
}

/** A tool found, with its score (higher is better; comparable within one query only). */
export interface Ranked<T> {
  /** The tool. */
  readonly tool: T;
  /** Its score for the query. */
  readonly score: number;
}

/** The index of the tools as they were when it was built. */
interface Built<T> {
  readonly tools: T[];
  readonly index: Bm25fIndex;
  /** Each tool's prior: shallower names first among equal matches. */
  readonly priors: readonly number[];
  /** Each tool's action terms, once each (`list`, `event` of `ListEvents`). */
  readonly actions: readonly (readonly string[])[];
  /** Which tools remove something (`destructive-rank.ts`). */
  readonly destructive: readonly boolean[];
}

/** Each field's length normalisation: names are short and alike, descriptions vary. */
const B = [0.3, 0.5, 0.5, 0.75, 0.75];

/** A server's tools, searchable. */
export class ToolCatalog<T extends SearchableTool = AnyTool> {
  readonly #registry: CatalogSource<T>;
  readonly #settings: CatalogSettings;
  readonly #fields = new WeakMap<T, FieldTerms>();
  readonly #vectors = new WeakMap<T, Promise<ArrayLike<number>>>();
  #built: Built<T> | undefined;
  #stale = false;

  /**
   * Makes the catalog of a registry's tools; the index is built on first use.
   *
   * @param registry The server's definitions, or another source of tools.
   * @param settings How to rank.
   */
  constructor(registry: CatalogSource<T>, settings: CatalogSettings) {
    this.#registry = registry;
    this.#settings = settings;
    registry.onChange((change) => {
      if (change.kind === "tools") this.#stale = true; // a tool's terms are kept: only new ones are read
    });
  }

  /** The index, built now if the tools changed since. */
  #index(): Built<T> {
    const built = this.#built;
    if (built !== undefined && !this.#stale) return built;
    this.#stale = false;
    // The model searches: a tool only a view may call (SEP-1865, Visibility) is never found.
    const tools = [...this.#registry.tools].filter((tool) =>
      !this.#settings.excluded.has(tool.name) && visibleTo(tool.meta, "model")
    );
    // A change of the lists alone (tools revealed) leaves the tools as they were: the index stands.
    if (built !== undefined && tools.length === built.tools.length && tools.every((t, i) => t === built.tools[i])) {
      return built;
    }
    const fields = this.#fields;
    const docs = tools.map((tool) => {
      let terms = fields.get(tool);
      if (terms === undefined) fields.set(tool, terms = toolFields(tool));
      return terms;
    });
    const index = new Bm25fIndex(docs, { weights: this.#settings.weights, b: B });
    const priors = tools.map((tool) => 1 / (1 + this.#settings.depthPenalty * nameDepth(tool)));
    const actions = docs.map((fields) => [...new Set(fields[0])]);
    const destructive = tools.map((tool, doc) => isDestructive(tool, actions[doc]));
    return this.#built = { tools, index, priors, actions, destructive };
  }

  /** Builds the index now (it is otherwise built by the first search); returns how many tools it holds. */
  warm(): number {
    return this.#index().tools.length;
  }

  /**
   * The tools that best match a query, among those the caller holds the scopes of and the model may
   * see (not a view's alone).
   *
   * @param query What the caller looks for, in its words.
   * @param k How many tools at most.
   * @param auth The caller.
   * @returns The tools, best first.
   */
  async search(query: string, k: number, auth: AuthInfo | undefined): Promise<T[]> {
    return (await this.ranked(query, k, auth)).map(({ tool }) => tool);
  }

  /**
   * The tools that best match a query, as {@link search} finds them, with their scores.
   *
   * @param query What the caller looks for, in its words.
   * @param k How many tools at most.
   * @param auth The caller.
   * @returns The tools and their scores, best first.
   */
  async ranked(query: string, k: number, auth: AuthInfo | undefined): Promise<Ranked<T>[]> {
    const { tools, scores } = await this.#scores(query, auth);
    return best(scores, k).map(({ doc, score }) => ({ tool: tools[doc], score }));
  }

  /**
   * Every tool's score for a query, as {@link ranked} ranks them, unsorted: for a caller that wants a few of them
   * out of thousands of queries (the tool-quality check runs each tool's description), where sorting is the cost.
   *
   * @param query What the caller looks for, in its words.
   * @param auth The caller.
   * @returns The score of each tool that matched.
   */
  async scored(query: string, auth: AuthInfo | undefined): Promise<Map<T, number>> {
    const { tools, scores } = await this.#scores(query, auth);
    const scored = new Map<T, number>();
    for (const [doc, score] of scores) scored.set(tools[doc], score);
    return scored;
  }

  /** The scores of a query, by document, and the tools they index. */
  async #scores(query: string, auth: AuthInfo | undefined): Promise<{ tools: T[]; scores: Map<number, number> }> {
    const { tools, index, priors, actions, destructive } = this.#index();
    const alternatives: string[][] = [];
    const terms = queryTerms(query, this.#settings.synonyms, 1, alternatives);
    const coverage = new Map<number, number>();
    let scores = alternativeScores(index, terms, alternatives, coverage);
    const groupOf = new Map<string, number>();
    alternatives.forEach((group, g) => group.forEach((term) => groupOf.set(term, g)));
    const bonus = this.#settings.actionBonus;
    let asked = 0; // one word's alternatives count as one
    for (const [term, weight] of terms) if (!groupOf.has(term)) asked += weight;
    for (const group of alternatives) asked += Math.max(...group.map((term) => terms.get(term)!));
    for (const [doc, score] of scores) {
      // The action a user names (its verb, `list` of `ListEvents`, and what it acts on, `event`) is what they
      // want done: among tools about the same thing, the one that does it. One word's alternatives name one.
      const action = actions[doc];
      let named = 0;
      const counted = new Set<number>();
      for (const term of action) {
        const group = groupOf.get(term);
        if (group !== undefined && counted.has(group)) continue;
        if (group !== undefined) counted.add(group);
        named += Math.min(terms.get(term) ?? 0, 1);
      }
      const does = action.length === 0 ? 1 : 1 + bonus * named / action.length;
      // A tool that holds more of what was asked beats one that holds one rare word of it many times.
      const covered = (coverage.get(doc) ?? 0) / asked;
      scores.set(doc, score * priors[doc] * does * covered ** this.#settings.coverage);
    }
    const embed = this.#settings.embed;
    if (embed !== undefined && this.#settings.semanticWeight > 0) {
      const [wanted, vectors] = await Promise.all([
        embed(query),
        Promise.all(tools.map((t) => this.#vector(t, embed))),
      ]);
      const semantic = new Map<number, number>();
      vectors.forEach((vector, doc) => semantic.set(doc, cosine(wanted, vector)));
      scores = hybridScores(scores, semantic, this.#settings.semanticWeight);
    }
    // A query that asks for no removal wants the tool that makes or reads, before the one that deletes the same thing.
    if (!asksRemoval(terms)) {
      for (const [doc, score] of scores) if (destructive[doc]) scores.set(doc, score * DESTRUCTIVE_FACTOR);
    }
    for (const doc of scores.keys()) if (!holdsScopes(tools[doc].scopes, auth)) scores.delete(doc);
    return { tools, scores };
  }

  /** A tool's vector, asked of the embedder once per tool. */
  #vector(tool: T, embed: Embedder): Promise<ArrayLike<number>> {
    let vector = this.#vectors.get(tool);
    if (vector === undefined) {
      vector = embed(toolText(tool));
      vector.catch(() => this.#vectors.delete(tool)); // asked again next time
      this.#vectors.set(tool, vector);
    }
    return vector;
  }
}

/**
 * The index's scores of a query whose words' verbs are alternatives: a tool holding two of one word's
 * (`create-or-update-secret` for put → add, create, update) scores the best of them, not their sum, and
 * counts one in `coverage`.
 *
 * @param index The index.
 * @param terms The query's terms and weights.
 * @param alternatives Per word, the verbs that are its alternatives (`queryTerms()`).
 * @param coverage Filled with the weight of the query's terms each tool holds.
 * @returns Each matching tool's score.
 */
function alternativeScores(
  index: Bm25fIndex,
  terms: ReadonlyMap<string, number>,
  alternatives: readonly (readonly string[])[],
  coverage: Map<number, number>,
): Map<number, number> {
  const grouped = new Set(alternatives.flat());
  const scores = index.scores(new Map([...terms].filter(([term]) => !grouped.has(term))), coverage);
  for (const group of alternatives) {
    const best = new Map<number, { score: number; weight: number }>();
    for (const term of group) {
      const held = new Map<number, number>();
      for (const [doc, score] of index.scores(new Map([[term, terms.get(term)!]]), held)) {
        if (score > (best.get(doc)?.score ?? 0)) best.set(doc, { score, weight: held.get(doc)! });
      }
    }
    for (const [doc, { score, weight }] of best) {
      scores.set(doc, (scores.get(doc) ?? 0) + score);
      coverage.set(doc, (coverage.get(doc) ?? 0) + weight);
    }
  }
  return scores;
}
