/**
 * docs/guides/openapi.md's "Output schemas" section runs as written: each of its TypeScript blocks is saved in a
 * project that maps `@mcplite/sdk` to this checkout (tests/helpers/markdown.ts) and must exit 0 (its own assertions
 * pass) on Deno and on Bun; tests/docs/code-blocks.test.ts type-checks it with every other docs block.
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/guides/openapi.md", "Output schemas", /outputSchemas: "list"/);
