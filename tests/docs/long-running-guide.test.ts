/**
 * docs/concepts/long-running.md runs as written: its "Parallel steps and child work" block (three children invoked in
 * parallel, steps in a `Promise.all`, a child's failure caught), to its assertions, on Deno and on Bun. The page's
 * other blocks are type-checked with the whole site's (tests/docs/code-blocks.test.ts).
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/concepts/long-running.md", "Parallel steps and child work", /invoke\(work, `resize:/);
