/**
 * docs/guides/events.md runs as written: its "Defining and emitting" block (an event, a tool that emits it, the
 * emit's answer and refusals, the type errors it shows) and its "Subscribing and receiving" block (a receiver that
 * checks Standard Webhooks signatures and echoes the challenge, a subscribe over MCP-lite, a delivery on ChatGPT's
 * profile, a rotation's two signatures), its "Polling and the occurrence log" block (a poll from a null cursor,
 * then from its answer's) and its "Push streams" block (client.events.stream() in process, an emitted occurrence
 * read with its cursor), its "Shutting down" block (a push stream ended with its final result by `listener.close()`)
 * and its "With the AI SDK's client" block (the AI SDK's client subscribing, its receiver
 * checking the delivery), each to its assertions, on Deno and on Bun. The page's other blocks are
 * type-checked with the whole site's (tests/docs/code-blocks.test.ts).
 */
import { describeSectionRuns } from "../helpers/markdown.ts";

describeSectionRuns("docs/guides/events.md", "Defining and emitting", /defineEvent\("order\.shipped"\)/);
describeSectionRuns("docs/guides/events.md", "Subscribing and receiving", /events\/subscribe/);
describeSectionRuns("docs/guides/events.md", "Polling and the occurrence log", /client\.events\.poll/);
describeSectionRuns("docs/guides/events.md", "Push streams", /client\.events\.stream/);
describeSectionRuns("docs/guides/events.md", "Shutting down", /listener\.close\(\)/);
describeSectionRuns("docs/guides/events.md", "With the AI SDK's client", /experimental_events/);
describeSectionRuns("docs/guides/events.md", "Task events", /endEvent/);
