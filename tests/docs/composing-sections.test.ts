/**
 * docs/guides/composing.md's "Tool transforms" and "Tool search" sections run as written (the group, proxy and
 * gateway sections: tests/docs/composing.test.ts): each of their TypeScript blocks is saved in a project that maps
 * `@mcplite/sdk` to this checkout (tests/helpers/markdown.ts) and must exit 0 (its own assertions pass) on Deno and
 * on Bun.
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/guides/composing.md", "Tool transforms", /transformTool\(/);
describeSectionRuns("docs/guides/composing.md", "Tool search", /toolSearch\(/);
