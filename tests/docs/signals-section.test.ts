/**
 * docs/concepts/long-running.md's "Waiting for the outside world" runs as written: its TypeScript block is saved in a
 * project that maps `@mcplite/sdk` to this checkout (tests/helpers/markdown.ts) and must exit 0 (its own assertions
 * pass) on Deno and on Bun.
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/concepts/long-running.md", "Waiting for the outside world", /work\.waitFor\(/);
