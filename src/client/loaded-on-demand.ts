/**
 * What a client loads with its first use, as one module so that a bundler splits off one chunk: Agent
 * Skills (`client.skills`, SEP-2640), MCP Events (`client.events`), the 2025 MCP session (a server without
 * 2026-07-28), a task's polling, answering input, the retry policy (a refused request), and MCP-lite's other requests
 * (prompts, resources, an extension's methods), SSE answers and refusals. A one-call script reaches none.
 *
 * @module
 */
export { createSkillsApi } from "./client-skills.ts";
export { finishTask } from "./finish-task.ts";
export { answerInput, answerInputs } from "./input.ts";
export { isRedeem, refusedBeforeRunning, retryDelayOf, SAFE_METHODS } from "./retry-policy.ts";
export { LegacySession } from "./transports/mcp-legacy.ts";
export { raceHandshake } from "./transports/legacy-handshake.ts";
export { liteFailure, readLiteStream, requestLite } from "./transports/mcplite-on-demand.ts";
export { createEventsApi } from "./client-events.ts";
