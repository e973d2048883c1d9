/**
 * docs/guides/code-mode.md runs as written: its "Turning it on" block (a server and a group behind code mode, the
 * lists, discovery, one program over three tools), its "Executors" block (an executor that wraps QuickJS's, a
 * program answered and an endless loop stopped) and its "Saved programs" block (a program one caller saved, found and
 * run by another session of theirs, never by another caller), each to its assertions, on Deno and on Bun. The page's
 * other blocks are type-checked with the whole site's (tests/docs/code-blocks.test.ts).
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/guides/code-mode.md", "Turning it on", /codeMode: codeMode\(/);
describeSectionRuns("docs/guides/code-mode.md", "Executors", /quickjsExecutor\(\)/);
describeSectionRuns("docs/guides/code-mode.md", "Saved programs", /savedPrograms: \{ max: 20 \}/);
