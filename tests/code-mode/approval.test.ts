/**
 * Approval that pauses (issue 86, item 3): a program whose third call needs the user's approval becomes durable work
 * and its question the job's own. The official v2 client (its default 2025-11-25 mode, no task runtime) holds the call
 * and answers the elicitation; a 2026-07-28 client with tasks sees `tasks/get` answer `input_required`, then answers
 * with `tasks/update`; the v2 client pinned to 2026-07-28 without tasks is asked in an input round. Each time the
 * first two calls are made once (counted). `needsApproval` by name and input; two approvals in parallel take their
 * journal steps in call order, whichever answer comes first. A Redis queue: tests/code-mode/queued-programs.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import {
  type AnyTool,
  createMemoryResultStore,
  createServer,
  defineTool,
  type JournalEntry,
  type JournalStore,
  serve,
  type Server,
} from "../../mod.ts";
import { codeMode, quickjsExecutor } from "../../src/code-mode/mod.ts";
import { TASKS_EXTENSION } from "../../src/internal/mcp-wire.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { modern } from "../bindings/mcp/mcp-helpers.ts";
import { declaring } from "../bindings/mcp/wires.ts";

/** How long a step of a test may take at most: a bound for a loaded machine, not a measure. */
const LOADED_MS = 60_000;
const WITH_TASKS = declaring({ elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } });
const ACCEPT = { action: "accept", content: {} };

/** One sandbox for every server here, loaded by the first program. */
const executor = quickjsExecutor();

/** A server whose `a` and `b` count their calls and whose `wipe` (destructive) counts its own, with `mode`. */
function counted(options: Parameters<typeof codeMode>[0] = { confirmDestructive: true }) {
  const calls = { a: 0, b: 0, wipe: 0, refund: 0 };
  const appended: JournalEntry[] = []; // the jobs' journals, in the order their steps were recorded
  const resultStore = createMemoryResultStore();
  const journals = resultStore.journalStore!;
  const journalStore: JournalStore = {
    load: (job) => journals.load(job),
    append: (job, entry, ttlMs) => (appended.push(entry), journals.append(job, entry, ttlMs)),
  };
  const server = createServer({
    name: "approvals",
    version: "1.0.0",
    secret: SECRET,
    resultStore,
    journalStore,
    // Programs answer inline for a minute: a program that is promised here paused for its approval.
    codeMode: codeMode({ executor, promiseAfterMs: 60_000, limits: { timeMs: 120_000 }, ...options }),
  })
    .tool(defineTool("a").describe("Counts").handle(() => ++calls.a))
    .tool(defineTool("b").describe("Counts").handle(() => ++calls.b))
    .tool(
      defineTool("wipe").describe("Deletes a table").input(v.object({ table: v.string() }))
        .annotations({ destructiveHint: true }).handle(({ table }) => `wiped ${table} (${++calls.wipe})`),
    )
    .tool(
      defineTool("refund").describe("Refunds").input(v.object({ amount: v.number() }))
        .handle(({ amount }) => `refunded ${amount} (${++calls.refund})`),
    ) as unknown as Server<Record<string, AnyTool>>;
  return { server, calls, appended };
}

/** A program whose third call is `wipe`: it answers what each call answered, and what `wipe` said. */
const THIRD = `const a = await tools.a();
const b = await tools.b();
let wiped;
try { wiped = await tools.wipe({ table: "drafts" }); } catch (error) { wiped = error.message; }
return { a, b, wiped };`;

describe("code mode: a call that needs approval pauses the program", () => {
  it("the official v2 client (held call, no task runtime) answers the elicitation; the first two calls made once", {
    timeout: 120_000,
  }, async () => {
    const { server, calls, appended } = counted();
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(String((request.params as { message: string }).message));
      assert.deepEqual([calls.a, calls.b, calls.wipe], [1, 1, 0], "the program waits at its third call");
      return ACCEPT as never;
    });
    try {
      await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
      assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
      const result = await client.callTool({ name: "execute_code", arguments: { code: THIRD } });
      assert.deepEqual(result.structuredContent, { result: { a: 1, b: 1, wiped: "wiped drafts (1)" }, logs: [] });
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^A program wants to call "wipe", which may delete or overwrite data, with/);
      assert.deepEqual([calls.a, calls.b, calls.wipe], [1, 1, 1]);
      // Durable work, not a question on the call: the job's journal holds the answered call, once (the calls made
      // before the pause travel with the queued job, or were journaled as it ran here: once either way).
      const names = appended.map(({ name }) => name);
      assert.ok(names.includes("call-3-wipe"), names.join());
      assert.equal(new Set(names).size, names.length, names.join());
    } finally {
      await client.close();
      await listener.close();
    }
  });

  it("with tasks: tasks/get shows input_required, tasks/update resumes it; declined, the program catches it", {
    timeout: 120_000,
  }, async () => {
    const { server, calls } = counted();
    for (const [action, wiped] of [["accept", "wiped drafts (1)"], ["decline", /did not allow the call of "wipe"/]]) {
      calls.a = calls.b = calls.wipe = 0;
      const called = await modern(server, "tools/call", {
        name: "execute_code",
        arguments: { code: THIRD },
        ...WITH_TASKS,
      });
      assert.equal(called.body.result?.resultType, "task", JSON.stringify(called.body));
      const { taskId } = called.body.result;
      const get = async () => (await modern(server, "tasks/get", { taskId, ...WITH_TASKS })).body.result;
      let task = await get();
      await waitFor(async () => (task = await get()).status === "input_required", LOADED_MS);
      assert.deepEqual(Object.keys(task.inputRequests), ["confirm-3"]);
      assert.equal(task.inputRequests["confirm-3"].method, "elicitation/create");
      assert.deepEqual([calls.a, calls.b, calls.wipe], [1, 1, 0]);
      const answer = action === "accept" ? ACCEPT : { action };
      await modern(server, "tasks/update", { taskId, inputResponses: { "confirm-3": answer }, ...WITH_TASKS });
      await waitFor(async () => (task = await get()).status === "completed", LOADED_MS);
      const ended = task.result.structuredContent.result;
      assert.deepEqual([ended.a, ended.b], [1, 1]);
      if (typeof wiped === "string") assert.equal(ended.wiped, wiped);
      else assert.match(ended.wiped, wiped);
      assert.deepEqual([calls.a, calls.b, calls.wipe], [1, 1, action === "accept" ? 1 : 0]);
    }
  });

  it("the v2 client pinned to 2026-07-28 without tasks is asked in an input round: the calls made before, once", {
    timeout: 120_000,
  }, async () => {
    const { server, calls } = counted();
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    let asked = 0;
    client.setRequestHandler("elicitation/create", () => {
      asked++;
      return ACCEPT as never;
    });
    try {
      await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
      const result = await client.callTool({ name: "execute_code", arguments: { code: THIRD } });
      assert.deepEqual(result.structuredContent, { result: { a: 1, b: 1, wiped: "wiped drafts (1)" }, logs: [] });
      assert.equal(asked, 1);
      assert.deepEqual([calls.a, calls.b, calls.wipe], [1, 1, 1]);
    } finally {
      await client.close();
      await listener.close();
    }
  });

  it("needsApproval asks by name and input; two approvals in parallel take their steps in call order", {
    timeout: 120_000,
  }, async () => {
    const { server, calls, appended } = counted({
      needsApproval: (name, input) => name === "refund" && (input as { amount: number }).amount > 100,
    });
    const code = `await tools.a();
const small = await tools.refund({ amount: 5 });
const [first, second] = await Promise.all([tools.refund({ amount: 500 }), tools.refund({ amount: 700 })]);
return { small, first, second };`;
    const called = await modern(server, "tools/call", { name: "execute_code", arguments: { code }, ...WITH_TASKS });
    const { taskId } = called.body.result;
    const get = async () => (await modern(server, "tasks/get", { taskId, ...WITH_TASKS })).body.result;
    let task = await get();
    await waitFor(async () => {
      task = await get();
      return task.status === "input_required" && Object.keys(task.inputRequests).length === 2;
    }, LOADED_MS);
    assert.deepEqual(Object.keys(task.inputRequests).sort(), ["confirm-3", "confirm-4"]);
    assert.match(
      task.inputRequests["confirm-4"].params.message,
      /^A program wants to call "refund" with \{"amount":700\}/,
    );
    // The later call's answer first: the job waits for its questions in its queue (a durable wait), and once both are
    // answered its program runs again, each call's step in call order.
    await modern(server, "tasks/update", { taskId, inputResponses: { "confirm-4": ACCEPT }, ...WITH_TASKS });
    await modern(server, "tasks/update", { taskId, inputResponses: { "confirm-3": ACCEPT }, ...WITH_TASKS });
    await waitFor(async () => (task = await get()).status === "completed", LOADED_MS);
    assert.deepEqual(task.result.structuredContent.result, {
      small: "refunded 5 (1)",
      first: "refunded 500 (2)",
      second: "refunded 700 (3)",
    });
    // Journaled by place in call order, once each: the fourth call's step, approved first, at a place after the third's.
    const names = appended.map(({ name }) => name);
    assert.equal(new Set(names).size, names.length, names.join());
    const place = (name: string) => appended.find((entry) => entry.name === name)?.position ?? NaN;
    assert.ok(place("call-3-refund") < place("call-4-refund"), JSON.stringify(appended));
    assert.equal(calls.refund, 3);
  });
});
