/**
 * Type tests for `.longRunning()`'s flow control: its keys and priority read the tool's arguments as typed (declared
 * before it with `.input()`), and the caller; a key that reads what the arguments lack, or returns no string, does not
 * compile; `retry` beside them still makes `ctx.defer()` start declared work only. Checked by `deno check`, never run.
 */
import * as v from "valibot";
import { defineTool } from "../../mod.ts";

const input = v.object({ account: v.string(), urgent: v.optional(v.boolean()) });

export const typed = defineTool("sync").input(input).longRunning({
  concurrency: { limit: 1, key: ({ account }) => account },
  rateLimit: { limit: 5, periodMs: 1_000, key: (_args, auth) => auth?.subject ?? "anonymous" },
  dedupe: { key: ({ account }, auth) => `${auth?.clientId}:${account}`, ttlMs: 60_000 },
  priority: ({ urgent }) => urgent ? 1 : 10,
  retry: { attempts: 3 },
}).defer(({ account }) => account);

export const unknownField = defineTool("sync").input(input).longRunning({
  // @ts-expect-error the arguments have no `user`
  concurrency: { limit: 1, key: ({ user }) => user },
});

export const notAString = defineTool("sync").input(input).longRunning({
  // @ts-expect-error a key is a string
  dedupe: { key: ({ urgent }) => urgent },
});

defineTool("sync").input(input).longRunning({ priority: 2, retry: { attempts: 2 } }).handle((_args, ctx) =>
  // @ts-expect-error with retry, a handler defers declared work only (no inline function)
  ctx.defer(() => Promise.resolve(1))
);
