import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TokenError } from "../../src/codec/token-error.ts";
import * as v from "valibot";
import { type CallOutcome, defineTool } from "../../mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../src/errors/mod.ts";
import type { InputRequiredOutcome, PromiseOutcome } from "../../src/binding.ts";
import { TOKEN_PREFIX } from "../../src/codec/token.ts";
import { base64urlDecode } from "../../src/codec/base64url.ts";
import { createClient, type ElicitAnswer } from "../../src/client/mod.ts";
import { jobServer } from "../helpers/long-running.ts";
import { final } from "../helpers/outcome.ts";

function asked(outcome: CallOutcome): InputRequiredOutcome {
  assert.equal(outcome.kind, "input_required");
  return outcome as InputRequiredOutcome;
}

function isBadState(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ErrorCode.InvalidParams &&
    error.message === "Invalid or expired requestState" &&
    (error.data as { reason: string }).reason === "invalid_request_state";
}

const ALICE = { action: "accept", content: { name: "Alice" } };
const YES = { action: "accept", content: { ok: true } };
const ROOTS = { roots: [{ uri: "file:///home/alice", name: "home" }] };

describe("input rounds", () => {
  it("asks, resumes, and runs each completed step once (counted)", async () => {
    const { server, counters } = jobServer();
    const args = { city: "Lisbon" };
    const r1 = asked(await server.call("book_trip", args));
    assert.deepEqual(Object.keys(r1.requests), ["traveller"]);
    assert.equal(r1.requests.traveller.method, "elicitation/create");
    assert.equal(r1.requests.traveller.params.message, "Who travels?");
    assert.deepEqual([counters.holds, counters.charges], [1, 0]);

    const r2 = asked(
      await server.call("book_trip", args, { inputResponses: { traveller: ALICE }, requestState: r1.requestState }),
    );
    assert.deepEqual(Object.keys(r2.requests).sort(), ["confirm", "roots"]); // every outstanding request at once
    assert.equal(r2.requests.roots.method, "roots/list");
    assert.deepEqual([counters.holds, counters.charges], [1, 1]); // the hold did not run again

    const done = await server.call("book_trip", args, {
      inputResponses: { confirm: YES, roots: ROOTS },
      requestState: r2.requestState,
    });
    assert.equal(done.kind, "answer");
    if (done.kind === "answer") {
      assert.deepEqual(done.result.structuredContent, {
        hold: "H-1",
        charge: 1,
        city: "Lisbon",
        name: "Alice",
        confirmed: true,
        roots: 1,
      });
    }
    assert.deepEqual([counters.holds, counters.charges], [1, 1]);
  });

  it("re-prompts for missing keys and ignores unknown ones", async () => {
    const { server } = jobServer();
    const args = { city: "Oslo" };
    const r1 = asked(await server.call("book_trip", args));
    const r2 = asked(
      await server.call("book_trip", args, {
        inputResponses: { traveller: ALICE, stray: 1 },
        requestState: r1.requestState,
      }),
    );
    const r3 = asked(
      await server.call("book_trip", args, { inputResponses: { confirm: YES }, requestState: r2.requestState }),
    );
    assert.deepEqual(Object.keys(r3.requests), ["roots"]); // confirm was kept; only roots is still missing
    const done = await server.call("book_trip", args, {
      inputResponses: { roots: ROOTS, extra: { x: 1 } },
      requestState: r3.requestState,
    });
    assert.equal(done.kind, "answer");
  });

  it("never completes on structurally invalid answers: a re-prompt, or -32602 when not an object", async () => {
    const { server } = jobServer();
    const args = { city: "Rome" };
    const r1 = asked(await server.call("book_trip", args));
    for (const bad of [{ action: "maybe" }, "Alice", null, { action: "accept", content: "Alice" }]) {
      const again = await server.call("book_trip", args, {
        inputResponses: { traveller: bad },
        requestState: r1.requestState,
      });
      assert.deepEqual(Object.keys(asked(again).requests), ["traveller"]);
    }
    for (const bad of [42, null, [ALICE], "x"]) {
      await assert.rejects(
        server.call("book_trip", args, { inputResponses: bad as never, requestState: r1.requestState }),
        (e: ProtocolError) => e.code === ErrorCode.InvalidParams,
      );
    }
  });

  it("answers a tampered, foreign, replayed-elsewhere or expired state with -32602, never a re-prompt", async () => {
    let now = Date.now();
    const reports: unknown[] = [];
    const { server, counters } = jobServer({ tokens: { now: () => now }, onError: (e) => reports.push(e) });
    const args = { city: "Paris" };
    const r1 = asked(await server.call("book_trip", args));
    const answer = { traveller: ALICE };
    await assert.rejects(
      server.call("book_trip", args, { inputResponses: answer, requestState: r1.requestState + "-TAMPERED" }),
      isBadState,
    );
    await assert.rejects(
      server.call("book_trip", args, { inputResponses: answer, requestState: "not a token" }),
      isBadState,
    );
    const other = asked(
      await jobServer({ secret: "some other secret of 32 bytes or more" }).server.call("book_trip", args),
    );
    await assert.rejects(
      server.call("book_trip", args, { inputResponses: answer, requestState: other.requestState }),
      isBadState,
    );
    // The state resumes only the call it came from: other arguments, or another tool, are refused.
    await assert.rejects(
      server.call("book_trip", { city: "Nice" }, { inputResponses: answer, requestState: r1.requestState }),
      isBadState,
    );
    const promise = await server.call("analyze_dataset", { dataset_id: "d" });
    assert.equal(promise.kind, "promise");
    if (promise.kind === "promise") {
      await assert.rejects(
        server.call("book_trip", args, { inputResponses: answer, requestState: promise.token }),
        isBadState,
      );
    }
    now += 10 * 60 * 1000; // the default TTL of a round is ten minutes
    await assert.rejects(
      server.call("book_trip", args, { inputResponses: answer, requestState: r1.requestState }),
      isBadState,
    );
    assert.equal(counters.charges, 0); // nothing past the first question ran
    // Each kind of refusal reaches onError once in 5 s (a flood of one kind is one report that counts the rest).
    const reasons = new Set(reports.map((e) => (e as TokenError).reason));
    assert.equal(reports.length, reasons.size);
    assert.ok(reasons.has("bad_mac") && reasons.has("wrong_tool") && reasons.has("expired"), [...reasons].join());
  });

  it("binds the state to the authenticated caller", async () => {
    const { server } = jobServer({ logger: false }); // another caller's state on purpose: no error line
    server.use(async (call, next) => {
      call.ctx.auth = { subject: call.ctx.meta.headers.get("x-user") ?? "anonymous" };
      return await next();
    });
    const args = { city: "Bern" };
    const r1 = asked(await server.call("book_trip", args, { headers: { "x-user": "alice" } }));
    const retry = { inputResponses: { traveller: ALICE }, requestState: r1.requestState };
    await assert.rejects(server.call("book_trip", args, { ...retry, headers: { "x-user": "mallory" } }), isBadState);
    assert.equal(
      (await server.call("book_trip", args, { ...retry, headers: { "x-user": "alice" } })).kind,
      "input_required",
    );
  });

  it("seals requestState and promise tokens by default; tokens: { seal: false } opts out", async () => {
    const read = (token: string) => new TextDecoder().decode(base64urlDecode(token.slice(TOKEN_PREFIX.length)));
    const secrets = async (options: Parameters<typeof jobServer>[0]) => {
      const { server } = jobServer(options);
      const r1 = asked(await server.call("book_trip", { city: "Graz" }));
      const r2 = asked(
        await server.call("book_trip", { city: "Graz" }, {
          inputResponses: { traveller: ALICE },
          requestState: r1.requestState,
        }),
      );
      const promise = await server.call("analyze_dataset", { dataset_id: "ds-secret" });
      assert.equal(promise.kind, "promise");
      return [read(r2.requestState), read((promise as PromiseOutcome).token)];
    };
    // MCP-lite spec v0.042 §3.5: promise tokens are opaque to clients.
    const [state, token] = await secrets({});
    assert.ok(!state.includes("Alice") && !state.includes("H-1") && !state.includes("book_trip"));
    assert.ok(!token.includes("ds-secret") && !token.includes("analyze_dataset"));
    const [plainState, plainToken] = await secrets({ tokens: { seal: false } });
    assert.ok(plainState.includes("Alice") && plainToken.includes("ds-secret"));
  });

  it("ends the round even when the handler catches the signal", async () => {
    const server = jobServer().server.tool(
      defineTool("stubborn").handle(async (_args, ctx) => {
        try {
          return (await ctx.elicit("q", { message: "?", requestedSchema: { type: "object", properties: {} } })).action;
        } catch {
          return "swallowed";
        }
      }),
    );
    assert.equal((await server.call("stubborn", {})).kind, "input_required");
  });

  it("the in-process client answers rounds through its handlers, and fails without one", async () => {
    const { server, counters } = jobServer();
    const seen: string[] = [];
    const client = createClient(server, {
      onElicit: (request) => {
        seen.push(request.message);
        return (request.message === "Who travels?" ? ALICE : YES) as ElicitAnswer;
      },
      onRoots: () => {
        seen.push("roots");
        return ROOTS.roots;
      },
    });
    await client.call("book_trip", { city: "Vienna" });
    assert.equal(seen.length, 3);
    assert.equal(counters.holds, 1);
    await assert.rejects(
      createClient(server).call("book_trip", { city: "Vienna" }),
      (error: unknown) =>
        error instanceof McpliteError && !(error instanceof ProtocolError) && error.code === ErrorCode.InputRequired,
    );
  });

  it("fails a streaming tool that asks, naming the limitation", async () => {
    const server = jobServer({ logger: false }).server.tool( // fails on purpose: no error line
      defineTool("streamer").stream(async function* (_args, ctx) {
        yield "a";
        await ctx.roots("roots");
      }),
    );
    const outcome = final(await server.call("streamer", {}));
    assert.equal(outcome.kind, "failure");
    if (outcome.kind === "failure") assert.match(JSON.stringify(outcome.result.content), /a streaming tool cannot ask/);
  });

  it("memoises a step's undefined and JSON values", async () => {
    let runs = 0;
    const server = jobServer().server.tool(
      defineTool("steps").input(v.object({})).handle(async (_args, ctx) => {
        const a = await ctx.step("a", () => void runs++);
        const b = await ctx.step("b", () => Promise.resolve({ n: ++runs }));
        await ctx.roots("roots");
        return { a: a === undefined, b };
      }),
    );
    const r1 = asked(await server.call("steps", {}));
    const done = final(
      await server.call("steps", {}, { inputResponses: { roots: ROOTS }, requestState: r1.requestState }),
    );
    assert.equal(done.kind, "answer");
    if (done.kind === "answer") assert.deepEqual(done.result.structuredContent, { a: true, b: { n: 2 } });
    assert.equal(runs, 2);
  });
});
