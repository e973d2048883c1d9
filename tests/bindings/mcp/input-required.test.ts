import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { definePrompt, defineResource, defineTool, type ServerOptions } from "../../../mod.ts";
import type { InputRequest } from "../../../src/types.ts";
import { jobServer } from "../../helpers/long-running.ts";
import { legacyRequest, modernRequest, post } from "../../helpers/request.ts";
import { legacy, mcpServer, modern, SseReader } from "./mcp-helpers.ts";
import { declaring, driveLegacy, driveLite, driveModern, openSession } from "./wires.ts";

const ALICE = { action: "accept", content: { name: "Alice" } };
const YES = { action: "accept", content: { ok: true } };
const ROOTS = { roots: [{ uri: "file:///home/alice", name: "home" }] };
const ALL = { elicitation: {}, sampling: {}, roots: {} };

/** Answers book_trip's questions (tests/helpers/long-running.ts) on any wire. */
function answerTrip(request: InputRequest): unknown {
  if (request.method === "roots/list") return ROOTS;
  return request.params.message === "Who travels?" ? ALICE : YES;
}

/** A prompt and a resource that ask before they answer. */
const briefing = definePrompt("briefing")
  .describe("Asks for the audience, then writes the briefing")
  .args(v.object({ topic: v.string() }))
  .get(async ({ topic }, ctx) => {
    const answer = await ctx.elicit("audience", {
      message: "Who is the briefing for?",
      requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
    });
    return `Brief ${answer.content?.audience} on ${topic}`;
  });

const vault = defineResource("vault://secret")
  .name("secret")
  .mimeType("text/plain")
  .cache({ ttlMs: 60_000, scope: "private" })
  .read(async (_vars, ctx) => {
    const answer = await ctx.elicit("unlock", {
      message: "Unlock the vault?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return answer.content?.ok === true ? "the secret" : "locked";
  });

/** Asks the model and the user at once. */
const both = defineTool("both")
  .describe("Samples the model and asks the user, in parallel")
  .handle(async (_args, ctx) => {
    const [sampled, asked] = await Promise.all([
      ctx.sample("llm", { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 }),
      ctx.elicit("form", { message: "Fine?", requestedSchema: { type: "object", properties: {} } }),
    ]);
    return `${sampled.model} / ${asked.action}`;
  });

/** Reports progress, then asks. */
const progressive = defineTool("progressive")
  .describe("Reports progress, then asks to continue")
  .handle(async (_args, ctx) => {
    ctx.progress(1, 2, "half way");
    const answer = await ctx.elicit("go", {
      message: "Continue?",
      requestedSchema: { type: "object", properties: {} },
    });
    return `went on: ${answer.action}`;
  });

function server(options: Partial<ServerOptions> = {}) {
  return mcpServer(options).prompt(briefing).resource(vault).tool(both).tool(progressive);
}

function isBadState(body: { error?: { code: number; message: string; data?: { reason?: string } } }): boolean {
  return body.error?.code === -32602 && body.error.data?.reason === "invalid_request_state";
}

describe("MCP input-required results (2026-07-28), with MCP-lite and 2025 for the same handler", () => {
  it("asks through each wire with the same handler, runs each step once, and ends with the same result", async () => {
    const lite = jobServer(), latest = jobServer(), older = jobServer();
    const viaLite = await driveLite(lite.server, "book_trip", { city: "Lisbon" }, answerTrip);
    const viaModern = await driveModern(latest.server, "book_trip", { city: "Lisbon" }, answerTrip);
    const viaLegacy = await driveLegacy(older.server, "book_trip", { city: "Lisbon" }, answerTrip);

    assert.deepEqual(viaLite.rounds, [["traveller"], ["confirm", "roots"]]);
    assert.deepEqual(viaModern.rounds, [["traveller"], ["confirm", "roots"]]);
    assert.deepEqual(viaLegacy.rounds.flat().sort(), ["elicitation/create", "elicitation/create", "roots/list"]);
    const expected = { hold: "H-1", charge: 1, city: "Lisbon", name: "Alice", confirmed: true, roots: 1 };
    assert.deepEqual(viaLite.result.structuredContent, expected);
    assert.equal(viaLite.result._meta.response_type, "answer");
    assert.deepEqual(viaModern.result.structuredContent, expected);
    assert.equal(viaModern.result.resultType, "complete");
    assert.deepEqual(viaLegacy.result.structuredContent, expected);
    for (const { counters } of [lite, latest, older]) assert.deepEqual([counters.holds, counters.charges], [1, 1]);
  });

  it("answers with resultType input_required, inputRequests and a signed requestState, never cached", async () => {
    const { status, headers, body } = await modern(server(), "tools/call", {
      name: "confirm",
      arguments: { what: "x" },
      ...declaring(ALL),
    });
    assert.equal(status, 200);
    assert.equal(headers.get("cache-control"), null);
    const result = body.result;
    assert.equal(result.resultType, "input_required");
    assert.deepEqual(result.inputRequests.ok, {
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Confirm x?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      },
    });
    assert.match(result.requestState, /^mcl1\./);
    assert.equal(result.ttlMs, undefined);
    assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "fixtures");
  });

  it("re-prompts for missing keys, ignores unknown ones, and never completes on malformed answers", async () => {
    const s = server();
    const call = (extra: Record<string, unknown>) =>
      modern(s, "tools/call", { name: "confirm", arguments: { what: "x" }, ...declaring(ALL), ...extra });
    const first = (await call({})).body.result;
    const again = (await call({ inputResponses: { wrong_key: YES }, requestState: first.requestState })).body.result;
    assert.equal(again.resultType, "input_required");
    assert.deepEqual(Object.keys(again.inputRequests), ["ok"]);
    // Answers without a state count when well-formed (a client of a round that carried none)…
    assert.equal((await call({ inputResponses: { wrong_key: YES } })).body.result.resultType, "input_required");
    const extra = await call({ inputResponses: { ok: YES, unknown_extra_key: ALICE, another: { x: 1 } } });
    assert.equal(extra.body.result.resultType, "complete");
    assert.equal(extra.body.result.content[0].text, 'accept: {"ok":true}');
    // …and never when malformed: a re-prompt, or -32602 when inputResponses is not an object.
    for (const bad of [12345, null, "yes", { action: "maybe" }, { action: "accept", content: "x" }]) {
      const { body } = await call({ inputResponses: { ok: bad }, requestState: first.requestState });
      assert.equal(body.result.resultType, "input_required", JSON.stringify(bad));
    }
    for (const bad of [null, 42, [YES], "ok"]) {
      const { status, body } = await call({ inputResponses: bad });
      assert.equal(status, 200);
      assert.equal(body.error.code, -32602, JSON.stringify(bad));
    }
  });

  it("refuses a tampered, foreign, expired or misplaced requestState with -32602 (HTTP 200), never a re-prompt", async () => {
    let now = Date.now();
    const s = server({ tokens: { now: () => now }, logger: false }); // bad states on purpose: no error line each
    const tool = { name: "confirm", arguments: { what: "x" }, ...declaring(ALL) };
    const first = (await modern(s, "tools/call", tool)).body.result;
    const retry = (state: unknown, params: Record<string, unknown> = tool, method = "tools/call") =>
      modern(s, method, { ...params, inputResponses: { ok: YES }, requestState: state });

    for (const state of [first.requestState + "-TAMPERED", "not a token", first.requestState.slice(0, -2), 7]) {
      const { status, body } = await retry(state);
      assert.equal(status, 200);
      assert.ok(isBadState(body), JSON.stringify(body));
      assert.equal(body.error.message, "Invalid or expired requestState");
    }
    const foreign =
      (await modern(server({ secret: "another secret, also of 32 bytes or more" }), "tools/call", tool)).body.result;
    assert.ok(isBadState((await retry(foreign.requestState)).body));
    // The state resumes only the request it came from: other arguments, a prompt, a resource.
    assert.ok(isBadState((await retry(first.requestState, { ...tool, arguments: { what: "y" } })).body));
    assert.ok(
      isBadState(
        (await retry(
          first.requestState,
          { name: "briefing", arguments: { topic: "x" }, ...declaring(ALL) },
          "prompts/get",
        )).body,
      ),
    );
    assert.ok(
      isBadState(
        (await retry(first.requestState, { uri: "vault://secret", ...declaring(ALL) }, "resources/read")).body,
      ),
    );
    now += 10 * 60 * 1000; // a round's state lasts ten minutes by default
    assert.ok(isBadState((await retry(first.requestState)).body));
  });

  it("asks only for what this request declared: -32021 with requiredCapabilities otherwise", async () => {
    const s = server();
    const none = await modern(s, "tools/call", { name: "confirm", arguments: { what: "x" }, ...declaring({}) });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, -32021);
    assert.deepEqual(none.body.error.data.requiredCapabilities, { elicitation: {} });

    // Sampling declared, elicitation not: a parallel question is asked only where it may be.
    const partial = await modern(s, "tools/call", { name: "both", arguments: {}, ...declaring({ sampling: {} }) });
    assert.deepEqual(Object.keys(partial.body.result.inputRequests), ["llm"]);

    // ask_model samples, then lists roots: the second round needs roots, which was not declared.
    const first =
      (await modern(s, "tools/call", { name: "ask_model", arguments: {}, ...declaring({ sampling: {} }) })).body.result;
    assert.deepEqual(Object.keys(first.inputRequests), ["llm"]);
    const second = await modern(s, "tools/call", {
      name: "ask_model",
      arguments: {},
      ...declaring({ sampling: {} }),
      inputResponses: { llm: { role: "assistant", content: { type: "text", text: "hi" }, model: "m1" } },
      requestState: first.requestState,
    });
    assert.equal(second.body.error.code, -32021);
    assert.deepEqual(second.body.error.data.requiredCapabilities, { roots: {} });
  });

  it("asks from prompts/get and resources/read too; a read that asks carries no caching hint", async () => {
    const s = server();
    const prompt =
      (await modern(s, "prompts/get", { name: "briefing", arguments: { topic: "MCP" }, ...declaring(ALL) })).body
        .result;
    assert.equal(prompt.resultType, "input_required");
    assert.equal(prompt.inputRequests.audience.method, "elicitation/create");
    const rendered = (await modern(s, "prompts/get", {
      name: "briefing",
      arguments: { topic: "MCP" },
      ...declaring(ALL),
      inputResponses: { audience: { action: "accept", content: { audience: "the board" } } },
      requestState: prompt.requestState,
    })).body.result;
    assert.equal(rendered.resultType, "complete");
    assert.equal(rendered.messages[0].content.text, "Brief the board on MCP");

    const asked = await modern(s, "resources/read", { uri: "vault://secret", ...declaring(ALL) });
    assert.equal(asked.body.result.resultType, "input_required");
    assert.equal(asked.headers.get("cache-control"), null);
    assert.equal(asked.body.result.ttlMs, undefined);
    assert.equal(asked.body.result.cacheScope, undefined);
    const read = await modern(s, "resources/read", {
      uri: "vault://secret",
      ...declaring(ALL),
      inputResponses: { unlock: YES },
      requestState: asked.body.result.requestState,
    });
    assert.equal(read.body.result.contents[0].text, "the secret");
    assert.equal(read.body.result.ttlMs, 60_000);
    assert.equal(read.headers.get("cache-control"), "private, max-age=60");
  });

  it("asks from a 2025 prompt on the stream, with the same prompt handler", async () => {
    const s = server();
    const session = await openSession(s);
    const stream = new SseReader(
      await s.fetch(
        legacyRequest("prompts/get", { name: "briefing", arguments: { topic: "tea" } }, 9, "2025-11-25", {
          "mcp-session-id": session,
        }),
      ),
    );
    const question = await stream.next();
    assert.equal(question.method, "elicitation/create");
    const reply = { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { audience: "guests" } } };
    assert.equal((await s.fetch(post("/mcp", reply, { "mcp-session-id": session }))).status, 202);
    const final = await stream.next();
    assert.equal(final.result.messages[0].content.text, "Brief guests on tea");
  });

  it("ends a call that streamed progress with the input-required result as its last SSE event", async () => {
    const stream = new SseReader(
      await server().fetch(modernRequest("tools/call", {
        name: "progressive",
        arguments: {},
        _meta: { progressToken: "p1", "io.modelcontextprotocol/clientCapabilities": ALL },
      })),
    );
    const events = await stream.rest();
    assert.equal(events[0].method, "notifications/progress");
    assert.ok(
      events.every((e) => e.method === undefined || e.method.startsWith("notifications/")),
      "no server requests",
    );
    const last = events.at(-1);
    assert.equal(last.result.resultType, "input_required");
    assert.deepEqual(Object.keys(last.result.inputRequests), ["go"]);
  });

  it("keeps asking over the stream on 2025, where an input-required result never appears", async () => {
    const s = server();
    const { body } = await legacy(s, "tools/list");
    assert.ok(body.result.tools.some((t: { name: string }) => t.name === "both"));
    const driven = await driveLegacy(
      s,
      "both",
      {},
      (request) =>
        request.method === "sampling/createMessage"
          ? { role: "assistant", content: { type: "text", text: "hi" }, model: "m2" }
          : YES,
    );
    assert.equal(driven.result.content[0].text, "m2 / accept");
  });
});
