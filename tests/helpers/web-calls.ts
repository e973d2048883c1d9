/**
 * MCP-lite calls to the web instances of a queued deployment (`tests/helpers/queue-processes.ts`' `startWeb()`), each
 * bounded in time, and the backends such a test runs on: for the tests that break an instance (a `kill -9`).
 */
import assert from "node:assert/strict";
import { waitFor } from "./long-running.ts";
import type { QueueBackends } from "./queue-backends.ts";
import type { QueueProcess } from "./queue-processes.ts";
import { toolsCall } from "./request.ts";

/** How long a read may take: a bound for a loaded machine, not a measure. */
const READ_MS = 10_000;

/** A JSON-RPC answer of MCP-lite's `tools/call`. */
export interface LiteAnswer {
  result?: {
    content: { text: string }[];
    structuredContent?: { n: number; pid: number };
    isError?: boolean;
    _meta?: { response_type?: string; promise_token?: string };
  };
  error?: { message: string };
}

/** One MCP-lite call to a web instance, bounded in time: a read never hangs. */
export async function liteCall(web: QueueProcess, name: string, args: unknown): Promise<LiteAnswer> {
  const response = await fetch(`${web.url}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
    signal: AbortSignal.timeout(READ_MS),
  });
  return await response.json();
}

/** The promise token of a call answered "not done yet". */
export function promiseTokenOf(answer: LiteAnswer): string {
  assert.equal(answer.result?._meta?.response_type, "promise", JSON.stringify(answer));
  return answer.result!._meta!.promise_token!;
}

/** Redeems `token` on `web` until it ends (within `waitMs`), and gives its end. */
export async function redeemedEnd(web: QueueProcess, token: string, waitMs: number): Promise<LiteAnswer> {
  let answer: LiteAnswer | undefined;
  await waitFor(
    async () => (answer = await liteCall(web, "redeem", { promise: token })).result?._meta?.response_type !== "promise",
    waitMs,
  );
  return answer!;
}

/** The backends of `servers` a deployment runs on, each with why it is missing and its URL's variable. */
export function webBackends(servers: QueueBackends) {
  return [
    { name: "redis-server", missing: () => servers.redis ? false : "needs redis-server", variable: "REDIS_URL" },
    { name: "PostgreSQL", missing: () => servers.postgres ? false : "needs PostgreSQL", variable: "DATABASE_URL" },
  ] as const;
}
