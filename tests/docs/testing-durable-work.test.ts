/**
 * docs/concepts/long-running.md, "Testing durable work", runs as written: a user's test of a three-step tool with a
 * day's sleep and an elicitation, with `durableRun()` (a crash after a step, a mocked step) and `checkIdempotent()`
 * (the two email steps named), and a parent tested with its child (`invoke()`: a crash after it, the child run once;
 * the child mocked by name), to their assertions, on Deno and on Bun.
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/concepts/long-running.md", "Testing durable work", /durableRun\(onboard/);
