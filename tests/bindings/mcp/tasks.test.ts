import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tamper } from "../../helpers/tamper.ts";
import * as v from "valibot";
import {
  createMemoryResultStore,
  createServer,
  defineTool,
  mcpBinding,
  mcpLiteBinding,
  type ResultStore,
  type ServerOptions,
} from "../../../mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../../../src/errors/mod.ts";
import { createClient, type ElicitAnswer } from "../../../src/client/mod.ts";
import { createInProcessTransport } from "../../../src/client/transports/in-process.ts";
import { jobServer, SECRET, waitFor } from "../../helpers/long-running.ts";
import { post, toolsCall } from "../../helpers/request.ts";
import { type Answer, legacy, mcpServer, modern, send } from "./mcp-helpers.ts";
import { declaring } from "./wires.ts";

const TASKS = "io.modelcontextprotocol/tasks";
const WITH_TASKS = declaring({ elicitation: {}, extensions: { [TASKS]: {} } });
const YES = { action: "accept", content: { confirm: true } };
/** Answers a client without tasks at once instead of holding its call until the work ends. */
const NO_HOLD: Partial<ServerOptions> = { bindings: [mcpLiteBinding(), mcpBinding({ holdMs: 0 })] };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** An outside job system, shared by every server instance of a test (a database, say). */
function createWorld() {
  return { done: new Set<string>(), cancelled: new Set<string>(), aborted: 0, started: 0, requiredRuns: 0, looks: 0 };
}
type World = ReturnType<typeof createWorld>;

/** Waits for `signal` to abort; rejects with its reason. */
function untilAborted(signal: AbortSignal, world: World): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener("abort", () => {
      world.aborted++;
      reject(signal.reason);
    }, { once: true })
  );
}

/** The long-running tools of these tests. */
function taskTools(world: World) {
  // A continuation: the job runs elsewhere; .redeem() polls it by id (the task id carries the state).
  const watch = defineTool("watch")
    .describe("Watches an outside job")
    .input(v.object({ job: v.string() }))
    .output(v.object({ job: v.string(), status: v.string() }))
    .longRunning({ retryAfterMs: 40 })
    .handle(({ job }, ctx) => ctx.promise({ state: { job } }))
    .redeem(({ job }, ctx) => {
      world.looks++; // each look at the job
      return world.done.has(job) ? { job, status: "done" } : ctx.promise({ state: { job } });
    })
    .cancel(({ job }) => {
      world.cancelled.add(job);
    });

  // A continuation whose .redeem() needs the user's approval.
  const approve = defineTool("approve")
    .describe("Waits for an approval")
    .longRunning({})
    .handle((_args, ctx) => ctx.promise({ state: { ticket: "T-1" } }))
    .redeem(async ({ ticket }, ctx) => {
      const answer = await ctx.elicit("approval", {
        message: `Approve ${ticket}?`,
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      return `${ticket}: ${answer.content?.confirm === true ? "approved" : "rejected"}`;
    });

  // Deferred work that runs until cancelled (or 5 s).
  const brew = defineTool("brew")
    .describe("Brews in the background until cancelled")
    .longRunning({ retryAfterMs: 20 })
    .handle((_args, ctx) =>
      ctx.defer(async (signal) => {
        world.started++;
        await Promise.race([untilAborted(signal, world), new Promise((resolve) => setTimeout(resolve, 5_000))]);
        return "brewed";
      })
    );

  // Deferred work that asks, then finishes.
  const removeFile = defineTool("remove_file")
    .describe("Removes a file once confirmed")
    .input(v.object({ filename: v.string() }))
    .longRunning({ retryAfterMs: 20 })
    .handle(({ filename }, ctx) =>
      ctx.defer(async (signal) => {
        const abort = untilAborted(signal, world);
        abort.catch(() => {});
        const answer = await Promise.race([
          ctx.elicit("confirm", {
            message: `Delete ${filename}?`,
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          }),
          abort,
        ]);
        return answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
      })
    );

  // Deferred work that asks two questions at once.
  const pair = defineTool("pair")
    .describe("Asks two questions at once")
    .longRunning({ retryAfterMs: 20 })
    .handle((_args, ctx) =>
      ctx.defer(async () => {
        const form = {
          message: "Name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        };
        const [a, b] = await Promise.all([ctx.elicit("first", form), ctx.elicit("second", form)]);
        return `${a.content?.name} & ${b.content?.name}`;
      })
    );

  const flaky = defineTool("flaky")
    .describe("Fails as a tool error")
    .longRunning({ retryAfterMs: 20 })
    .handle((_args, ctx) => ctx.defer(() => Promise.reject(new ToolError("the disk is full"))));

  const broken = defineTool("broken")
    .describe("Fails with a protocol error")
    .longRunning({ retryAfterMs: 20 })
    .handle((_args, ctx) =>
      ctx.defer(() => Promise.reject(new ProtocolError(ErrorCode.Internal, "the backend is down")))
    );

  const onlyTasks = defineTool("only_tasks")
    .describe("Runs as a task only")
    .longRunning({ taskSupport: "required" })
    .handle((_args, ctx) => {
      world.requiredRuns++;
      return ctx.defer(() => "ran");
    });

  return [watch, approve, brew, removeFile, pair, flaky, broken, onlyTasks];
}

function taskServer(world: World, options: Partial<ServerOptions> = {}) {
  let server = createServer({ name: "tasks", version: "1.0.0", secret: SECRET, ...options });
  for (const tool of taskTools(world)) server = server.tool(tool);
  return server;
}

/** Calls a tool on 2026 with the tasks extension declared; returns the result. */
async function create(
  server: { fetch(r: Request): Promise<Response> },
  name: string,
  args: Record<string, unknown> = {},
) {
  const { status, body } = await modern(server, "tools/call", { name, arguments: args, ...WITH_TASKS });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.result.resultType, "task", JSON.stringify(body.result));
  return body.result;
}

function tasks(
  server: { fetch(r: Request): Promise<Response> },
  method: string,
  params: Record<string, unknown>,
): Promise<Answer> {
  return modern(server, method, { ...params, ...WITH_TASKS });
}

async function get(server: { fetch(r: Request): Promise<Response> }, taskId: string) {
  const { status, body } = await tasks(server, "tasks/get", { taskId });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}

async function until(server: { fetch(r: Request): Promise<Response> }, taskId: string, status: string) {
  let last: { status: string } | undefined;
  await waitFor(async () => (last = await get(server, taskId)).status === status, 15_000).catch(() => {
    throw new Error(`task never reached ${status}; last ${JSON.stringify(last)}`);
  });
  return last as Record<string, unknown> & { status: string };
}

describe("MCP tasks extension (2026-07-28)", () => {
  it("advertises the extension only with a long-running tool; tasks/* are 404 otherwise", async () => {
    const plain = await modern(mcpServer(), "server/discover", {});
    assert.equal(plain.body.result.capabilities.extensions, undefined);
    const missing = await tasks(mcpServer(), "tasks/get", { taskId: "x" });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, -32601);
    const offered = await modern(taskServer(createWorld()), "server/discover", {});
    assert.deepEqual(offered.body.result.capabilities.extensions, { [TASKS]: {} });
    assert.equal(offered.body.result.capabilities.tasks, undefined);
  });

  it("answers the same promise on each wire: a token (MCP-lite), a task (2026 + extension), redeem text (otherwise)", async () => {
    const world = createWorld();
    const server = taskServer(world, NO_HOLD);
    const lite = (await send(server, post("/mcp-lite/v1/calltools", toolsCall("watch", { job: "j1" })))).body.result;
    assert.equal(lite._meta.response_type, "promise");
    assert.match(lite._meta.promise_token, /^mcl1\./);

    const task = await create(server, "watch", { job: "j1" });
    assert.match(task.taskId, /^mcl1\./);
    assert.notEqual(task.taskId, lite._meta.promise_token);
    assert.equal(task.status, "working");
    assert.match(task.createdAt, ISO);
    assert.match(task.lastUpdatedAt, ISO);
    assert.ok(Number.isInteger(task.ttlMs) && task.ttlMs > 0);
    assert.equal(task.pollIntervalMs, 40);
    for (const absent of ["result", "error", "inputRequests", "requestState", "content", "task"]) {
      assert.ok(!(absent in task), absent);
    }

    for (
      const reply of [
        await modern(server, "tools/call", { name: "watch", arguments: { job: "j1" } }),
        await legacy(server, "tools/call", { name: "watch", arguments: { job: "j1" } }),
      ]
    ) {
      // "watch" has an output schema: the one pending answer it admits is an isError result.
      const result = reply.body.result;
      assert.notEqual(result.resultType, "task");
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent, undefined);
      assert.match(result.content[0].text, /Call the "redeem" tool with \{"promise": "mcl1\./);
    }

    // A tool without an output schema also carries the token as structuredContent, for the redeem tool.
    const approve = (await legacy(server, "tools/call", { name: "approve", arguments: {} })).body.result;
    assert.equal(approve.isError, undefined);
    assert.match(approve.structuredContent.promise, /^mcl1\./);

    // Held (the default), the same calls answer the real result once the job is done.
    const holding = taskServer(world);
    for (const call of [modern, legacy]) {
      const looked = world.looks;
      const replying = call(holding, "tools/call", { name: "watch", arguments: { job: "j1" } });
      if (!world.done.has("j1")) {
        // Done while the call is held: once the hold looked at the job and found it still running.
        await waitFor(() => world.looks > looked);
        world.done.add("j1");
      }
      const reply = await replying;
      assert.deepEqual(reply.body.result.structuredContent, { job: "j1", status: "done" });
      assert.notEqual(reply.body.result.isError, true);
    }
  });

  it("reads a continuation task on any instance holding the secret, running .redeem() on its state", async () => {
    const world = createWorld();
    const a = taskServer(world), b = taskServer(world);
    const { taskId } = await create(a, "watch", { job: "j2" });
    const working = await get(b, taskId);
    assert.equal(working.resultType, "complete");
    assert.equal(working.status, "working");
    assert.equal(working.taskId, taskId);
    world.done.add("j2");
    for (const server of [b, a]) {
      const done = await get(server, taskId);
      assert.equal(done.status, "completed");
      assert.equal(done.result.resultType, "complete");
      assert.deepEqual(done.result.structuredContent, { job: "j2", status: "done" });
      assert.ok(!("error" in done) && !("requestState" in done));
    }
    // The header must name the task it asks about.
    const mismatch = await modern(b, "tasks/get", { taskId, ...WITH_TASKS }, { "mcp-name": "another-task" });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
  });

  it("continues a counting continuation from the state .redeem() last promised, where the store keeps it", async () => {
    const store = createMemoryResultStore();
    const a = jobServer({ resultStore: store }).server, b = jobServer({ resultStore: store }).server;
    const { taskId } = await create(a, "analyze_dataset", { dataset_id: "d1", polls: 3 });
    const statuses = [];
    for (const server of [a, b, a]) statuses.push((await get(server, taskId)).status); // left: 3 → 2 → 1 → done
    assert.deepEqual(statuses, ["working", "working", "completed"]);
    assert.deepEqual((await get(b, taskId)).result.structuredContent, { dataset_id: "d1", rows: 42 });
    // Without the store, an instance starts again from the state in the id.
    const lone = jobServer().server;
    assert.equal((await get(lone, taskId)).status, "working");
  });

  it("cancels a continuation task through the tool's .cancel(), idempotently", async () => {
    const world = createWorld();
    const server = taskServer(world);
    const { taskId } = await create(server, "watch", { job: "j3" });
    for (let i = 0; i < 2; i++) {
      const ack = await tasks(server, "tasks/cancel", { taskId });
      assert.deepEqual(Object.keys(ack.body.result).sort(), ["_meta", "resultType"]);
      assert.equal(ack.body.result.resultType, "complete");
    }
    assert.ok(world.cancelled.has("j3"));
    assert.equal((await get(server, taskId)).status, "cancelled");
    // A task that completed stays completed.
    const done = await create(server, "watch", { job: "j4" });
    world.done.add("j4");
    assert.equal((await get(server, done.taskId)).status, "completed");
    await tasks(server, "tasks/cancel", { taskId: done.taskId });
    assert.equal((await get(server, done.taskId)).status, "completed");
  });

  it("shows a continuation's question as input_required, and takes the answer with tasks/update", async () => {
    const server = taskServer(createWorld());
    const { taskId } = await create(server, "approve");
    const asked = await get(server, taskId);
    assert.equal(asked.status, "input_required");
    assert.equal(asked.inputRequests.approval.method, "elicitation/create");
    const ack = await tasks(server, "tasks/update", { taskId, inputResponses: { approval: YES, stray: 1 } });
    assert.equal(ack.body.result.resultType, "complete");
    const done = await get(server, taskId);
    assert.equal(done.status, "completed");
    assert.equal(done.result.content[0].text, "T-1: approved");
  });

  it("serves deferred work's task on two instances sharing the secret and a store: get, update, cancel", async () => {
    const world = createWorld();
    const store: ResultStore = createMemoryResultStore();
    const a = taskServer(world, { resultStore: store }), b = taskServer(world, { resultStore: store });

    const { taskId } = await create(a, "remove_file", { filename: "notes.txt" });
    const asked = await until(b, taskId, "input_required");
    assert.deepEqual(Object.keys(asked.inputRequests as object), ["confirm"]);
    const ack = await tasks(b, "tasks/update", { taskId, inputResponses: { confirm: YES } });
    assert.deepEqual(Object.keys(ack.body.result).sort(), ["_meta", "resultType"]);
    const done = await until(b, taskId, "completed"); // the work ran on a, which picked the answer up from the store
    assert.equal((done.result as { content: { text: string }[] }).content[0].text, "Deleted notes.txt");

    // Cancelled on b while it waits on a: a's work is aborted.
    const parked = await create(a, "remove_file", { filename: "keep.txt" });
    await until(b, parked.taskId, "input_required");
    assert.equal((await tasks(b, "tasks/cancel", { taskId: parked.taskId })).body.result.resultType, "complete");
    assert.equal((await get(a, parked.taskId)).status, "cancelled");
    await waitFor(() => world.aborted === 1);

    // Cancelled on b while it runs on a: the cancellation stands when a's work ends.
    const running = await create(a, "brew");
    await tasks(b, "tasks/cancel", { taskId: running.taskId });
    assert.equal((await get(a, running.taskId)).status, "cancelled");
    await tasks(a, "tasks/cancel", { taskId: running.taskId }); // and aborts it where it runs
    await waitFor(() => world.aborted === 2);
    assert.equal((await get(b, running.taskId)).status, "cancelled");
  });

  it("says a shared store is needed when deferred work's task is read on another instance without one", async () => {
    const world = createWorld();
    const a = taskServer(world), b = taskServer(world);
    const { taskId } = await create(a, "brew");
    assert.equal((await get(a, taskId)).status, "working");
    for (
      const [method, params] of [["tasks/get", {}], ["tasks/update", { inputResponses: {} }], [
        "tasks/cancel",
        {},
      ]] as const
    ) {
      const { status, body } = await tasks(b, method, { taskId, ...params });
      assert.equal(status, 200);
      assert.equal(body.error.code, -32602, method);
      assert.match(body.error.message, /shared ResultStore/);
      assert.equal(body.error.data.reason, "result_not_found");
    }
    await tasks(a, "tasks/cancel", { taskId });
  });

  it("reports tool errors as completed with isError, protocol errors as failed, and aborts cancelled work", async () => {
    const world = createWorld();
    const server = taskServer(world);
    const flaky = await until(server, (await create(server, "flaky")).taskId, "completed");
    assert.equal((flaky.result as { isError: boolean }).isError, true);
    assert.ok(!("error" in flaky));
    const broken = await until(server, (await create(server, "broken")).taskId, "failed");
    assert.deepEqual(broken.error, { code: -32603, message: "the backend is down" });
    assert.ok(!("result" in broken));

    const { taskId } = await create(server, "brew");
    await waitFor(() => world.started === 1);
    await tasks(server, "tasks/cancel", { taskId });
    await waitFor(() => world.aborted === 1);
    assert.equal((await get(server, taskId)).status, "cancelled");
    assert.equal((await tasks(server, "tasks/cancel", { taskId })).body.result.resultType, "complete"); // idempotent
    assert.equal((await get(server, taskId)).status, "cancelled");
  });

  it("aborts deferred work still waiting for an answer when its task expires", async () => {
    const world = createWorld();
    // Long enough for the test to see the task ask before it expires, however loaded the machine (150 ms
    // left little room), short enough to wait for.
    const server = taskServer(world, { tokens: { promiseTtlMs: 2_000 }, logger: false }); // read once expired: no line
    const { taskId, ttlMs } = await create(server, "remove_file", { filename: "late.txt" });
    assert.ok(ttlMs <= 2_000);
    await until(server, taskId, "input_required");
    await waitFor(() => world.aborted === 1);
    // Expired: the abort's timer and the task's expiry are the same instant, read by two clocks (a loaded run saw
    // tasks/get answer a moment after the abort, still inside the TTL), so the answer is awaited, not assumed.
    let answer: { error?: { code: number } } = {};
    await waitFor(
      async () => (answer = (await tasks(server, "tasks/get", { taskId })).body).error !== undefined,
    );
    assert.equal(answer.error?.code, -32602);
  });

  it("keeps unanswered questions outstanding after a partial tasks/update", async () => {
    const server = taskServer(createWorld());
    const { taskId } = await create(server, "pair");
    await waitFor(async () => Object.keys((await get(server, taskId)).inputRequests ?? {}).length === 2);
    const name = (n: string) => ({ action: "accept", content: { name: n } });
    await tasks(server, "tasks/update", { taskId, inputResponses: { first: name("Ada"), unknown: name("x") } });
    const partial = await get(server, taskId);
    assert.equal(partial.status, "input_required");
    assert.deepEqual(Object.keys(partial.inputRequests), ["second"]);
    await tasks(server, "tasks/update", { taskId, inputResponses: { second: { not: "an answer" } } }); // malformed: ignored
    assert.deepEqual(Object.keys((await get(server, taskId)).inputRequests), ["second"]);
    await tasks(server, "tasks/update", { taskId, inputResponses: { second: name("Linus") } });
    const done = await until(server, taskId, "completed");
    assert.equal((done.result as { content: { text: string }[] }).content[0].text, "Ada & Linus");
  });

  it("refuses what the extension does not allow: -32021, -32602 and -32601", async () => {
    const world = createWorld();
    const server = taskServer(world, { logger: false }); // forged and foreign task ids on purpose: no line each
    const { taskId } = await create(server, "watch", { job: "j5" });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const { status, body } = await modern(server, method, { taskId, inputResponses: {} });
      assert.equal(status, 400, method);
      assert.equal(body.error.code, -32021);
      assert.deepEqual(body.error.data.requiredCapabilities, { extensions: { [TASKS]: {} } });
    }
    const unheld = taskServer(world, NO_HOLD);
    const promise = (await modern(unheld, "tools/call", { name: "watch", arguments: { job: "j5" } })).body.result;
    const token = JSON.parse(/\{"promise": ("[^"]+")\}/.exec(promise.content[0].text)![1]);
    const forged = tamper(taskId);
    for (const bad of ["tasks-conformance-nonexistent-12345", forged, token]) {
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const { status, body } = await tasks(server, method, { taskId: bad, inputResponses: {} });
        assert.equal(status, 200);
        assert.equal(body.error.code, -32602, `${method} ${bad.slice(0, 12)}`);
      }
    }
    const expired = taskServer(world, { logger: false, tokens: { now: () => Date.now() + 2 * 60 * 60 * 1000 } });
    assert.equal((await tasks(expired, "tasks/get", { taskId })).body.error.code, -32602);
    for (const method of ["tasks/result", "tasks/list"]) {
      const { status, body } = await tasks(server, method, { taskId });
      assert.equal(status, 404);
      assert.equal(body.error.code, -32601);
    }
    assert.equal((await tasks(server, "tasks/update", { taskId, inputResponses: 7 })).body.error.code, -32602);
    // A task-only tool is refused before its handler runs unless the request declared the extension.
    const refused = await modern(server, "tools/call", { name: "only_tasks", arguments: {} });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, -32021);
    assert.deepEqual(refused.body.error.data.requiredCapabilities, { extensions: { [TASKS]: {} } });
    assert.equal((await legacy(server, "tools/call", { name: "only_tasks", arguments: {} })).body.error.code, -32021);
    assert.equal(world.requiredRuns, 0);
    assert.equal((await create(server, "only_tasks")).status, "working");
    assert.equal(world.requiredRuns, 1);
  });

  it("runs request middleware around tasks/*: a task bound to its caller answers only them", async () => {
    const world = createWorld();
    const seen: string[] = [];
    const server = taskServer(world, { logger: false }).use(async (call, next) => { // another caller's task: no line
      seen.push(call.name === undefined ? call.method : `${call.method} ${call.name}`);
      const user = call.ctx.meta.headers.get("x-user");
      if (user === null) throw new ProtocolError(ErrorCode.Unauthenticated, "who are you?");
      call.ctx.auth = { subject: user };
      return await next();
    });
    const created = await modern(server, "tools/call", { name: "watch", arguments: { job: "j6" }, ...WITH_TASKS }, {
      "x-user": "alice",
    });
    const taskId = created.body.result.taskId;
    assert.equal(
      (await modern(server, "tasks/get", { taskId, ...WITH_TASKS }, { "x-user": "alice" })).body.result.status,
      "working",
    );
    assert.equal(
      (await modern(server, "tasks/get", { taskId, ...WITH_TASKS }, { "x-user": "mallory" })).body.error.code,
      -32602,
    );
    assert.equal((await modern(server, "tasks/get", { taskId, ...WITH_TASKS })).status, 401);
    assert.deepEqual(seen, ["tools/call watch", "tasks/get", "tasks/get", "tasks/get"]);
  });

  it("asks a deferred job's questions on the redeem call, on MCP-lite and in process", async () => {
    const server = taskServer(createWorld());
    const call = async (name: string, args: unknown, extra: Record<string, unknown> = {}) =>
      (await send(
        server,
        post("/mcp-lite/v1/calltools", { ...toolsCall(name, args), params: { name, arguments: args, ...extra } }),
      )).body.result;
    const promise = await call("remove_file", { filename: "a.txt" });
    const token = promise._meta.promise_token;
    let asked = promise;
    // Until the job has asked (bounded in time, not by a count of polls that a loaded machine can use up).
    await waitFor(
      async () => (asked = await call("redeem", { promise: token }))._meta.response_type !== "promise",
    );
    assert.equal(asked._meta.response_type, "elicitation");
    assert.equal(asked._meta.input_requests.confirm.method, "elicitation/create");
    const resumed = await call("redeem", { promise: token }, {
      inputResponses: { confirm: YES },
      requestState: asked._meta.request_state,
    });
    assert.equal(resumed._meta.response_type, "promise");
    let done = resumed;
    await waitFor(
      async () =>
        (done = await call("redeem", { promise: done._meta.promise_token }))._meta.response_type !== "promise",
    );
    assert.equal(done.content[0].text, "Deleted a.txt");

    const questions: string[] = [];
    const client = createClient(createInProcessTransport(server), {
      onElicit: (request) => {
        questions.push(request.message);
        return YES as ElicitAnswer;
      },
    });
    const text = await client.call("remove_file", { filename: "b.txt" });
    assert.equal(text, "Deleted b.txt");
    assert.equal(questions.length, 1);
  });
});
