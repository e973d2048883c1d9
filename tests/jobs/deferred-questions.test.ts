/**
 * A question asked inside deferred work (`work.elicit()`; on a queue a durable wait, listed in the job's entry, the
 * start suspended until an answer wakes it) by a tool served through `group()` and behind `proxy()`, in process, on
 * MCP-lite and MCP: the caller's client is asked once through its handler, the work resumes from its journal, its step
 * before the question run once, and the answer is the one the caller gave; a declined question ends the job with what
 * the work made of it. Behind `proxy()`, the remote's question reaches the gateway's caller on a redeem (MCP-lite) or
 * `tasks/get` (the tasks extension), which before asked nobody: the redeem failed "no onElicit handler", the task was
 * polled until it expired. The plain tool on a queue: tests/code-mode/queued-programs.test.ts and the kit's
 * tests/testing/durable-run.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker, type ServerOptions } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { SECRET } from "../helpers/long-running.ts";

/** What the work did: drafts made (its step before the question), and the questions the caller's client was asked. */
interface Effects {
  drafts: number;
  asked: string[];
}

/** A ledger server whose `approve` drafts a payment (a step), asks the caller, and pays or not. */
function ledger(effects: Effects, options: Partial<ServerOptions> = {}) {
  const approve = defineTool("approve").describe("Drafts a payment and asks the caller to approve it")
    .input(v.object({ amount: v.number() }))
    .longRunning({ retryAfterMs: 5 })
    .defer(async ({ amount }, work) => {
      const draft = await work.step("draft", () => `draft-${++effects.drafts}`);
      const answer = await work.elicit("approve", {
        message: `Pay ${amount} (${draft})?`,
        requestedSchema: { type: "object", properties: { note: { type: "string" } } },
      });
      return { draft, paid: answer.action === "accept", note: answer.content?.note ?? null };
    });
  return createServer({ name: "ledger", version: "1.0.0", secret: SECRET, logger: false, ...options }).tool(approve);
}

/** The caller's elicitation handler: records each question, and accepts with a note or declines. */
function caller(effects: Effects, action: "accept" | "decline") {
  return {
    onElicit: (request: { message: string }) => {
      effects.asked.push(request.message);
      return action === "accept" ? { action, content: { note: "ok by Ada" } } : { action };
    },
  };
}

const TRANSPORTS = ["mcp-lite", "mcp"] as const;

describe("a question asked inside deferred work, through group() and proxy()", () => {
  for (const transport of TRANSPORTS) {
    it(`a grouped tool on a queue asks the caller once and resumes from its journal (${transport})`, async () => {
      for (const action of ["accept", "decline"] as const) {
        const effects: Effects = { drafts: 0, asked: [] };
        const { queue } = memoryQueue();
        const shared = { queue, resultStore: createMemoryResultStore(), secret: SECRET, logger: false } as const;
        const parent = createServer({ name: "parent", version: "1.0.0", ...shared }).group("ledger", ledger(effects));
        const worker = runWorker(parent);
        try {
          const client = createClient(parent, { transport, ...caller(effects, action) });
          const result = await client.call("ledger.approve", { amount: 40 });
          const paid = action === "accept";
          assert.deepEqual(result, { draft: "draft-1", paid, note: paid ? "ok by Ada" : null }, action);
          assert.deepEqual(effects, { drafts: 1, asked: ["Pay 40 (draft-1)?"] }, action);
        } finally {
          await worker.close();
        }
      }
    });

    it(`a proxied tool whose remote's work asks, on a queue or in process, asks the gateway's caller once (${transport})`, async () => {
      for (const queued of [true, false]) {
        const effects: Effects = { drafts: 0, asked: [] };
        const { queue } = memoryQueue();
        const remote = ledger(effects, queued ? { queue, resultStore: createMemoryResultStore() } : {});
        const worker = queued ? runWorker(remote) : undefined;
        try {
          const gateway = createServer({ name: "gateway", version: "1.0.0", secret: SECRET, logger: false })
            .group("ledger", await proxy(createClient(remote, { transport })));
          const client = createClient(gateway, { transport, ...caller(effects, "accept") });
          const result = await client.call("ledger.approve", { amount: 7 });
          assert.deepEqual(result, { draft: "draft-1", paid: true, note: "ok by Ada" }, `queued: ${queued}`);
          assert.deepEqual(effects, { drafts: 1, asked: ["Pay 7 (draft-1)?"] }, `queued: ${queued}`);
        } finally {
          await worker?.close();
        }
      }
    });
  }
});
