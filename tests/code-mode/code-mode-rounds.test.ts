/**
 * codeMode() where a program needs more than one request: a destructive call confirmed by the user (accepted through
 * `redeem`, the program paused as durable work; on a server without long-running support, in an input round, the
 * inner calls made before the question not made again when the program runs again after the answer; declined; over
 * MCP 2025's stream, the official v1 client asked on its held call), a program that outlives `promiseAfterMs`
 * answering with a promise redeemed later, and each inner call a span under the execute call's, with `otel()`. Two
 * servers on one sandbox: one whose programs always answer (no promise within their time limit, however loaded the
 * machine), one that promises a program still running at once.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { type AnyTool, type CallOutcome, createServer, defineTool, serve, type Server } from "../../mod.ts";
import { createServer as createLiteServer, inputRounds } from "../../src/lite/mod.ts";
import { codeMode, quickjsExecutor } from "../../src/code-mode/mod.ts";
import { createClient, type ElicitAnswer } from "../../src/client/mod.ts";
import { otel } from "../../src/otel/mod.ts";
import type { InputRequiredOutcome } from "../../src/binding.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { registerSdk } from "../otel/telemetry.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;
const { ElicitRequestSchema } = await import(`${V1}/types.js`) as Any;

const sdk = registerSdk();
after(() => sdk.close());

let counted = 0;
let purged = 0;
let release: (value: string) => void = () => {};
const gate = () => new Promise<string>((resolve) => release = resolve);
let opened = gate();

/** The test's server with `mode`: the three tools, and a span per call; `lite`, without long-running support. */
const opsServer = (mode: ReturnType<typeof codeMode>, lite = false) =>
  (lite
    ? createLiteServer({ name: "ops", version: "1.0.0", secret: SECRET, inputRounds, codeMode: mode })
    : createServer({ name: "ops", version: "1.0.0", secret: SECRET, codeMode: mode }))
    .tool(defineTool("count").describe("Counts a visit").handle(() => ++counted))
    .tool(
      defineTool("purge").describe("Deletes every draft").annotations({ destructiveHint: true }).handle(() => {
        purged++;
        return "purged";
      }),
    )
    .tool(defineTool("slow").describe("Waits for the test").handle(() => opened))
    .use(otel()) as unknown as Server<Record<string, AnyTool>>;

/** One sandbox for both servers, loaded by the first program. */
const executor = quickjsExecutor();
/** A program that ends answers, however loaded the machine: no promise within its time limit. */
const app = opsServer(
  codeMode({ executor, confirmDestructive: true, promiseAfterMs: 60_000, limits: { timeMs: 60_000 } }),
);
/** No long-running support (the lite entry without `longRunning`): a question is an input round. */
const rounds = opsServer(codeMode({ executor, confirmDestructive: true, limits: { timeMs: 60_000 } }), true);
/** A program still running is promised at once: the one that waits for the test always is. */
const promising = opsServer(codeMode({ executor, promiseAfterMs: 0, limits: { timeMs: 60_000 } }));

const PROGRAM = `
  const before = await tools.count();
  let said;
  try { said = await tools.purge(); } catch (error) { said = error.message; }
  const after = await tools.count();
  return { before, said, after };
`;

function asked(outcome: CallOutcome): InputRequiredOutcome {
  assert.equal(outcome.kind, "input_required", JSON.stringify(outcome));
  return outcome as InputRequiredOutcome;
}

describe("codeMode() over more than one request", () => {
  it("pauses at a destructive call: redeem asks, and accepted, it runs once, the calls made before not made again", async () => {
    counted = purged = 0;
    const first = await app.call("execute_code", { code: PROGRAM });
    assert.equal(first.kind, "promise", JSON.stringify(first));
    const token = (first as { token: string }).token;
    let outcome: CallOutcome = first;
    await waitFor(async () => (outcome = await app.call("redeem", { promise: token })).kind === "input_required");
    const question = asked(outcome);
    assert.deepEqual(Object.keys(question.requests), ["confirm-2"]);
    assert.deepEqual([counted, purged], [1, 0]);
    const answered = await app.call("redeem", { promise: token }, {
      inputResponses: { "confirm-2": { action: "accept", content: {} } },
      requestState: question.requestState,
    });
    outcome = answered;
    await waitFor(async () =>
      outcome.kind === "answer" || (outcome = await app.call("redeem", { promise: token })).kind === "answer"
    );
    const done = outcome as CallOutcome;
    assert.deepEqual(done.kind === "answer" && done.result.structuredContent, {
      result: { before: 1, said: "purged", after: 2 },
      logs: [],
    });
    assert.deepEqual([counted, purged], [2, 1], "count ran once before the question and once after; purge once");
  });

  it("without long-running support, asks in an input round; the calls made before the question are not made again", async () => {
    counted = purged = 0;
    const first = asked(await rounds.call("execute_code", { code: PROGRAM }));
    assert.deepEqual(Object.keys(first.requests), ["confirm-2"]);
    assert.match(
      String(first.requests["confirm-2"].params.message),
      /^A program wants to call "purge", which may delete/,
    );
    assert.deepEqual([counted, purged], [1, 0]);
    const done = await rounds.call("execute_code", { code: PROGRAM }, {
      inputResponses: { "confirm-2": { action: "accept", content: {} } },
      requestState: first.requestState,
    });
    assert.equal(done.kind, "answer");
    assert.deepEqual(done.kind === "answer" && done.result.structuredContent, {
      result: { before: 1, said: "purged", after: 2 },
      logs: [],
    });
    assert.deepEqual([counted, purged], [2, 1], "count ran once before the question and once after; purge once");
  });

  it("fails the destructive call in the program when the user declines, through a client's handler", async () => {
    counted = purged = 0;
    const client = createClient(app, { onElicit: () => ({ action: "decline" }) as ElicitAnswer });
    const result = await client.call("execute_code", { code: PROGRAM }) as { result: Record<string, unknown> };
    assert.deepEqual(result.result, {
      before: 1,
      said: 'The user did not allow the call of "purge" (decline)',
      after: 2,
    });
    assert.deepEqual([counted, purged], [2, 0]);
  });

  it("asks on the held call over MCP 2025's stream (the official v1 client): the program runs once", async () => {
    counted = purged = 0;
    const listener = await serve(app, { port: 0, hostname: "127.0.0.1", quiet: true });
    const v1 = new ClientV1({ name: "v1", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    v1.setRequestHandler(ElicitRequestSchema, (request: Any) => {
      asked.push(request.params.message);
      return { action: "accept", content: {} };
    });
    try {
      await v1.connect(new HttpV1(new URL(`${listener.url}/mcp`)));
      const result = await v1.callTool({ name: "execute_code", arguments: { code: PROGRAM } }) as Any;
      assert.deepEqual(result.structuredContent, { result: { before: 1, said: "purged", after: 2 }, logs: [] });
      assert.equal(asked.length, 1);
      assert.deepEqual([counted, purged], [2, 1]);
    } finally {
      await v1.close();
      await listener.close();
    }
  });

  it("answers a program still running after promiseAfterMs with a promise, redeemed once it ends", async () => {
    opened = gate();
    const code = 'const word = await tools.slow();\nreturn word + "!";';
    const first = await promising.call("execute_code", { code });
    assert.equal(first.kind, "promise", JSON.stringify(first));
    const token = (first as { token: string }).token;
    const pending = await promising.call("redeem", { promise: token });
    assert.equal(pending.kind, "promise");
    release("done");
    let outcome: CallOutcome = pending;
    await waitFor(
      async () => (outcome = await promising.call("redeem", { promise: token })).kind !== "promise",
      60_000,
    );
    const ended = outcome as CallOutcome;
    assert.equal(ended.kind, "answer", JSON.stringify(ended));
    assert.deepEqual(ended.kind === "answer" && ended.result.structuredContent, { result: "done!", logs: [] });
  });

  it("makes each inner call a span under the execute call's span", async () => {
    sdk.reset();
    const outcome = await app.call("execute_code", { code: "await tools.count();\nreturn await tools.count();" });
    assert.equal(outcome.kind, "answer");
    const spans = sdk.spans();
    const execute = spans.find((span) => span.name === "tools/call execute_code");
    assert.ok(execute, spans.map((span) => span.name).join());
    const inner = spans.filter((span) => span.name === "tools/call count");
    assert.equal(inner.length, 2);
    for (const span of inner) {
      assert.equal(span.parentSpanContext?.spanId, execute.spanContext().spanId);
      assert.equal(span.spanContext().traceId, execute.spanContext().traceId);
    }
  });
});
