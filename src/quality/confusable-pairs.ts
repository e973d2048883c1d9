/**
 * The pairs of tools a picker would mix up, found with tool search's own ranking (BM25F over names, descriptions and
 * arguments): names of the same words; descriptions that rank each other first among the other tools, close to
 * their own tool's score, or a description that ranks another tool above its own; and, beside either, the same
 * required arguments. Each pair says what tells the two apart: the words only one holds.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import type { ToolCatalog } from "../tool-search/tool-catalog.ts";
import { searchTokens, textWords } from "../tool-search/search-tokens.ts";
import type { ConfusablePair, ConfusionReason } from "./check-report.ts";
import type { ListedTool } from "./listed-tools.ts";

/**
 * How close two tools must score on each other's description, against each one's own score, for the two descriptions
 * to be confusable, when each is the other's best match. Measured on the official GitHub MCP server's 117 tools: pairs
 * at 0.25 and above are the ones its users mix up (`list_pull_requests` and `search_pull_requests` at 0.31); below,
 * tools about one thing that do different things (`search_repositories`, `search_users`: 0.11).
 */
const CLOSE = 0.25;

/** How many words of each tool {@link ConfusablePair.apart} names. */
const APART_WORDS = 5;

/**
 * Finds the confusable pairs of a list.
 *
 * @param catalog The list's catalog (`listedCatalog()`).
 * @param tools The tools, in list order.
 * @returns The pairs, in list order of their first tool.
 */
export async function confusablePairs(
  catalog: ToolCatalog<ListedTool>,
  tools: readonly ListedTool[],
): Promise<ConfusablePair[]> {
  const n = tools.length;
  const index = new Map(tools.map((tool, i) => [tool, i]));
  // Per tool, the other tool its description ranks first, and that tool's score over its own (above 1: ranked above
  // it). One pass over the scores per tool, unsorted: thousands of tools (an imported API) are thousands of queries.
  const best: ({ other: number; ratio: number } | undefined)[] = [];
  for (const tool of tools) {
    const scores = await catalog.scored(descriptionQuery(tool), undefined);
    const own = scores.get(tool) ?? 0;
    let top: { other: number; score: number } | undefined;
    for (const [other, score] of scores) {
      const at = index.get(other)!;
      if (other !== tool && (top === undefined || score > top.score || score === top.score && at < top.other)) {
        top = { other: at, score };
      }
    }
    best.push(top === undefined ? undefined : { other: top.other, ratio: own > 0 ? top.score / own : Infinity });
  }
  // Why two descriptions are confusable, in words; undefined when they are not.
  const close = (a: number, b: number): string | undefined => {
    const [ab, ba] = [best[a], best[b]];
    if (ab?.other === b && ab.ratio > 1) return `${tools[a].name}'s description ranks ${tools[b].name} above it`;
    if (ba?.other === a && ba.ratio > 1) return `${tools[b].name}'s description ranks ${tools[a].name} above it`;
    const mutual = ab?.other === b && ba?.other === a && Math.min(ab.ratio, ba.ratio) >= CLOSE;
    return mutual ? "each description finds the other tool first after its own" : undefined;
  };
  const names = tools.map((tool) => nameKey(tool.name));
  // The pairs worth a look: tools of one name key, and each tool with the one its description ranks first.
  const candidates = new Set<number>();
  const byName = new Map<string, number[]>();
  names.forEach((key, i) => {
    if (key === "") return;
    const same = byName.get(key) ?? byName.set(key, []).get(key)!;
    for (const j of same) candidates.add(j * n + i);
    same.push(i);
  });
  best.forEach((found, a) => {
    if (found !== undefined) candidates.add(Math.min(a, found.other) * n + Math.max(a, found.other));
  });
  const terms = tools.map(termsOf);
  const rarity = rarityOf(terms);
  const pairs: ConfusablePair[] = [];
  for (const key of [...candidates].sort((x, y) => x - y)) {
    const [a, b] = [Math.floor(key / n), key % n];
    const reasons: ConfusionReason[] = [];
    if (names[a] !== "" && names[a] === names[b]) reasons.push("names");
    const described = close(a, b);
    if (described !== undefined) reasons.push("descriptions");
    if (reasons.length === 0) continue;
    const required = requiredOf(tools[a]);
    if (required !== "" && required === requiredOf(tools[b])) reasons.push("arguments");
    const [first, second] = [tools[a].name, tools[b].name];
    pairs.push({
      tools: [first, second],
      reasons,
      why: whyOf(reasons, described ?? "", required),
      apart: {
        [first]: distinct(terms[a], terms[b], rarity),
        [second]: distinct(terms[b], terms[a], rarity),
      },
    });
  }
  return pairs;
}

/** What a tool's description asks for, as a query: its title and description, or its name's words without one. */
function descriptionQuery(tool: ListedTool): string {
  const text = [tool.title, tool.description].filter((part) => part !== undefined && part.trim() !== "").join(". ");
  return text === "" ? textWords(tool.name).join(" ") : text;
}

/** A name's stemmed words, sorted: `get_user`, `getUsers` and `users-get` are one key. */
function nameKey(name: string): string {
  return [...new Set(searchTokens(name))].sort().join(" ");
}

/** The required arguments, sorted, as one key (`""`: none). */
function requiredOf(tool: ListedTool): string {
  const schema = tool.info.inputSchema as unknown;
  const required = isObject(schema) && Array.isArray(schema.required) ? schema.required : [];
  return required.filter((name): name is string => typeof name === "string").sort().join(", ");
}

/** The reasons in a sentence. */
function whyOf(reasons: readonly ConfusionReason[], described: string, required: string): string {
  const parts = reasons.map((reason) =>
    reason === "names"
      ? "their names are the same words"
      : reason === "descriptions"
      ? described
      : `they require the same arguments (${required})`
  );
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** A tool's words, stemmed, each with the first way it was written: its name, description and argument names. */
function termsOf(tool: ListedTool): Map<string, string> {
  const schema = tool.info.inputSchema as unknown;
  const properties = isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const text = [tool.name, tool.title ?? "", tool.description ?? "", ...properties].join(" ");
  const words = new Map<string, string>();
  for (const word of textWords(text)) {
    if (word.length < 3 || /^\d+$/.test(word)) continue; // "up", "10": nothing a description is told apart by
    const [term] = searchTokens(word);
    if (term !== undefined && !words.has(term)) words.set(term, word);
  }
  return words;
}

/** How rare each word is across the list (inverse document frequency). */
function rarityOf(terms: readonly ReadonlyMap<string, string>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const words of terms) for (const term of words.keys()) counts.set(term, (counts.get(term) ?? 0) + 1);
  const rarity = new Map<string, number>();
  for (const [term, count] of counts) rarity.set(term, Math.log(terms.length / count));
  return rarity;
}

/** The words one tool holds and the other lacks, rarest first. */
function distinct(own: Map<string, string>, other: Map<string, string>, rarity: Map<string, number>): string[] {
  return [...own].filter(([term]) => !other.has(term))
    .sort(([x], [y]) => rarity.get(y)! - rarity.get(x)!)
    .slice(0, APART_WORDS)
    .map(([, word]) => word);
}
