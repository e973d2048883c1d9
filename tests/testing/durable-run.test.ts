/**
 * The test kit for durable code (`@mcplite/sdk/testing`), as a user's test uses it: `durableRun()` runs a three-step
 * tool with a day's sleep and an elicitation in memory (no Redis, no queue, no timer), steps mocked by name, a crash
 * after a step resumed from the journal (journaled or not), a job whose starts ran out, children (`invoke()`) run and
 * journaled (a crash after one runs none again) or mocked by name; `checkIdempotent()` names the step that sends
 * twice, and the work outside steps that does. Node 22 runs this file too (tests/node/node22-battery.test.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool, invoke } from "../../mod.ts";
import { ChildWorkError, NonRetryableError, ToolError, WaitTimeoutError } from "../../src/errors/mod.ts";
import { checkIdempotent, durableRun } from "../../src/testing/mod.ts";

/** What the fakes of the onboarding tool recorded: accounts made, emails sent. */
const effects = { accounts: new Set<string>(), emails: [] as string[] };
const reset = () => Object.assign(effects, { accounts: new Set<string>(), emails: [] });

/** Three steps, a day's sleep between the second and the third, and a question to the user first. */
const onboard = defineTool("onboard")
  .input(v.object({ email: v.string() }))
  .longRunning({ retry: { attempts: 3 }, ttlMs: 3 * 24 * 60 * 60_000 })
  .defer(async ({ email }, work) => {
    const answer = await work.elicit("plan", {
      message: "Which plan?",
      requestedSchema: { type: "object", properties: { plan: { type: "string" } } },
    });
    const plan = String(answer.content?.plan ?? "free");
    // Idempotent: the step's key names the account, so making it again makes none.
    const account = await work.step("account", (key) => ({ id: `acct_${effects.accounts.add(key).size}`, plan }));
    work.progress(1, 3);
    await work.step("welcome", () => void effects.emails.push(`welcome ${email}`));
    await work.sleep(24 * 60 * 60_000); // a day
    const sent = await work.step("follow-up", () => effects.emails.push(`follow-up ${email}`));
    work.progress(3, 3);
    return { account: account.id, plan: account.plan, sent };
  });

const answers = { plan: { action: "accept", content: { plan: "pro" } } };

describe("durableRun()", () => {
  it("runs three steps, a day's sleep and an elicitation in memory, the sleep skipped and journaled", async () => {
    reset();
    const began = performance.now();
    const run = await durableRun(onboard, { input: { email: "a@example.com" }, answers, now: 1_000 });
    const ms = performance.now() - began;
    assert.deepEqual(run.value, { account: "acct_1", plan: "pro", sent: 2 });
    assert.equal(run.error, undefined);
    assert.deepEqual(run.result?.structuredContent, run.value);
    assert.deepEqual(run.steps, { account: 1, welcome: 1, "follow-up": 1 });
    // The question is a durable wait, as on a queue: its answer journaled once given, outside the steps' order (last).
    assert.deepEqual(run.journal.map((entry) => entry.name), [
      "account",
      "welcome",
      "~sleep:1",
      "follow-up",
      "~input:plan",
    ]);
    assert.deepEqual(run.journal[4].value, answers.plan);
    assert.equal(run.journal[2].value, 1_000 + 24 * 60 * 60_000); // the wake time, on the kit's clock
    assert.equal(run.sleptMs, 24 * 60 * 60_000);
    assert.equal(run.starts, 3); // its first (to the question), the one the answer woke, the one after the sleep
    assert.equal(run.attempt, 1); // neither a question nor a sleep costs an attempt
    assert.deepEqual(run.asked.map((question) => question.key), ["plan"]); // asked once: later starts read it back
    // The woken start runs from the top: its 1/3 (outside a step) is reported again, as a queued job's would be.
    assert.deepEqual(run.progress, [[1, 3, undefined], [1, 3, undefined], [3, 3, undefined]]);
    assert.deepEqual(effects.emails, ["welcome a@example.com", "follow-up a@example.com"]);
    console.log(`durableRun(): three steps, a day's sleep and an elicitation in ${ms.toFixed(1)} ms`);
  });

  it("replaces steps by name: a value, an error retried, a non-retryable error that ends the job", async () => {
    reset();
    const mocked = await durableRun(onboard, {
      input: { email: "b@example.com" },
      answers,
      mockSteps: { account: () => ({ id: "acct_mock", plan: "team" }), "follow-up": () => 7 },
    });
    assert.deepEqual(mocked.value, { account: "acct_mock", plan: "team", sent: 7 });
    assert.equal(effects.accounts.size, 0); // the real step never ran
    assert.deepEqual(mocked.steps, { account: 1, welcome: 1, "follow-up": 1 });

    reset();
    let calls = 0;
    const flaky = () => {
      if (++calls === 1) throw new Error("503 from the mail API");
    };
    const retried = await durableRun(onboard, {
      input: { email: "c@example.com" },
      answers,
      mockSteps: { welcome: flaky },
    });
    assert.equal(retried.error, undefined);
    assert.equal(retried.attempt, 2); // the tool's retry ran the work again
    assert.deepEqual(retried.steps, { account: 1, welcome: 2, "follow-up": 1 }); // account read from the journal
    assert.equal(effects.accounts.size, 1);
    assert.ok(retried.journal.some((entry) => entry.name === "~failed:1"), "the failure is journaled");

    const refused = new NonRetryableError("the address bounced");
    const failed = await durableRun(onboard, {
      input: { email: "d@example.com" },
      answers,
      mockSteps: { welcome: () => Promise.reject(refused) },
    });
    assert.equal(failed.error, refused);
    assert.deepEqual(failed.steps, { account: 1, welcome: 1 });
  });

  it("runs a mocked step under the step's own retry: each try counted, its backoff skipped", async () => {
    let tries = 0;
    const fetchRows = defineTool("fetch_rows").input(v.object({})).defer(async (_input, work) => {
      const rows = await work.step("fetch", () => [1, 2, 3], { retry: { attempts: 3, backoff: 60_000 } });
      return { rows: rows.length };
    });
    const flaky = () => {
      if (++tries < 3) throw new Error("connection reset");
      return [1, 2];
    };
    const run = await durableRun(fetchRows, { input: {}, mockSteps: { fetch: flaky } });
    assert.deepEqual(run.value, { rows: 2 });
    assert.deepEqual(run.steps, { fetch: 3 });
    assert.equal(run.attempt, 1); // a step's retry is no new attempt of the work
    assert.equal(run.sleptMs, 120_000); // two backoffs of a minute, skipped
  });

  it("crashes after a journaled step and resumes from the journal: the step does not run again", async () => {
    reset();
    const run = await durableRun(onboard, { input: { email: "e@example.com" }, answers, crashAfter: "account" });
    assert.deepEqual(run.value, { account: "acct_1", plan: "pro", sent: 2 });
    assert.deepEqual(run.crashes, [{ step: "account" }]);
    assert.deepEqual(run.steps, { account: 1, welcome: 1, "follow-up": 1 });
    assert.equal(run.attempt, 2); // the crash cost a start, as a queue counts a dead worker's
    assert.equal(effects.accounts.size, 1);
  });

  it("crashes after a step before its value was journaled: the step runs again, and its effect is counted twice", async () => {
    reset();
    const crashAfter = { step: "welcome", journaled: false };
    const run = await durableRun(onboard, { input: { email: "f@example.com" }, answers, crashAfter });
    assert.equal(run.error, undefined);
    assert.deepEqual(run.steps, { account: 1, welcome: 2, "follow-up": 1 });
    assert.deepEqual(effects.emails, ["welcome f@example.com", "welcome f@example.com", "follow-up f@example.com"]);
  });

  it("ends the job stopped when the crash takes the last start its retry allows, as a queue does", async () => {
    let runs = 0;
    const once = defineTool("once").input(v.object({})).longRunning({}).defer(async (_input, work) => {
      await work.step("a", () => ++runs);
      return await work.step("b", () => "done");
    });
    const run = await durableRun(once, { input: {}, crashAfter: "a" });
    assert.equal(run.value, undefined);
    assert.match(String(run.error), /stopped/);
    assert.deepEqual(run.steps, { a: 1 });
  });

  it("resumes a job from a journal an earlier version recorded: the same steps take over, renamed ones are refused", async () => {
    const version = (second: string) =>
      defineTool("report").input(v.object({})).longRunning({ retry: { attempts: 2 } }).defer(async (_input, work) => {
        const rows = await work.step("fetch", () => [1, 2, 3]);
        await work.sleep(60_000);
        return { rows: await work.step(second, () => rows.length) };
      });
    const old = await durableRun(version("count"), { input: {} });
    const inFlight = old.journal.slice(0, 2); // "fetch" and the sleep: the job was asleep as the deploy came
    const same = await durableRun(version("count"), { input: {}, journal: inFlight });
    assert.deepEqual(same.value, { rows: 3 });
    assert.deepEqual(same.steps, { count: 1 }); // "fetch" read back
    const renamed = await durableRun(version("tally"), { input: {}, journal: old.journal });
    assert.equal((renamed.error as Error).name, "JournalMismatch");
    assert.match(String(renamed.error), /takes "tally" at place 3 .* recorded "count" there/);
  });

  it("fails a run whose question has no answer, naming its key", async () => {
    const run = await durableRun(onboard, { input: { email: "g@example.com" } });
    assert.match(String(run.error), /the work asked "plan" \(elicitation\/create\); give answers\["plan"\]/);
  });

  it("answers a wait with the signal given, checked by its schema; a wait with none times out, the time skipped", async () => {
    const approve = defineTool("approve")
      .input(v.object({ order: v.string() }))
      .longRunning({ ttlMs: 3 * 24 * 60 * 60_000 })
      .defer(async ({ order }, work) => {
        const reserved = await work.step("reserve", () => `r-${order}`);
        const { by } = await work.waitFor("approved", {
          timeoutMs: 24 * 60 * 60_000,
          schema: v.object({ by: v.string() }),
        });
        return { reserved, by };
      });
    const signalled = await durableRun(approve, { input: { order: "o-1" }, signals: { approved: { by: "bob" } } });
    assert.deepEqual(signalled.value, { reserved: "r-o-1", by: "bob" });
    assert.deepEqual(signalled.steps, { reserve: 1 });
    assert.equal(signalled.sleptMs, 0);
    const unsignalled = await durableRun(approve, { input: { order: "o-2" } });
    assert.ok(unsignalled.error instanceof WaitTimeoutError, String(unsignalled.error));
    assert.equal(unsignalled.sleptMs, 24 * 60 * 60_000); // the wait's deadline, skipped as a sleep's
    assert.deepEqual(unsignalled.steps, { reserve: 1 });
    const refused = await durableRun(approve, { input: { order: "o-3" }, signals: { approved: { by: 7 } } });
    assert.ok(refused.error instanceof TypeError, String(refused.error)); // the wait's schema refused the payload
  });

  it("runs the guide's publish example: a signal URL made (on the kit's testing origin), the approval given", async () => {
    // docs/concepts/long-running.md, "Waiting for the outside world": the editor is asked with a signal URL.
    const asked: string[] = [];
    const publish = defineTool("publish")
      .describe("Publishes a post once an editor approves it")
      .input(v.object({ post: v.string() }))
      .longRunning({ ttlMs: 24 * 60 * 60_000 })
      .defer(async ({ post }, work) => {
        await work.step(
          "ask",
          async () => void asked.push(`approve ${post}: POST to ${await work.signalUrl("approved")}`),
        );
        try {
          const { by } = await work.waitFor("approved", {
            timeoutMs: 60 * 60_000,
            schema: v.object({ by: v.string() }),
          });
          return `${post} published, approved by ${by}`;
        } catch (error) {
          if (error instanceof WaitTimeoutError) return `${post} not published: nobody approved it in an hour`;
          throw error;
        }
      });
    const approved = await durableRun(publish, { input: { post: "hello" }, signals: { approved: { by: "ada" } } });
    assert.equal(approved.value, "hello published, approved by ada", String(approved.error));
    assert.match(asked[0], /^approve hello: POST to https:\/\/durable-run\.test\/signals\/[\w.~-]+$/);
    const unanswered = await durableRun(publish, { input: { post: "draft" } });
    assert.equal(unanswered.value, "draft not published: nobody approved it in an hour");
    assert.equal(unanswered.sleptMs, 60 * 60_000);
  });

  it("runs a parent whose invoked child has flow control: the child run, or mocked by its invoke() name", async () => {
    const sync = defineTool("sync")
      .input(v.object({ account: v.string() }))
      .output(v.object({ synced: v.string() }))
      .longRunning({ concurrency: { limit: 1, key: (_input, auth) => auth?.subject ?? "anonymous" }, priority: 2 })
      .defer(async ({ account }, work) => ({ synced: await work.step("sync", () => account) }));
    const nightly = defineTool("nightly")
      .input(v.object({ accounts: v.array(v.string()) }))
      .longRunning()
      .defer(async ({ accounts }, work) => {
        const done = await Promise.all(accounts.map((account) => invoke(work, `sync:${account}`, sync, { account })));
        return { synced: done.map((each) => each.synced) };
      });
    const run = await durableRun(nightly, { input: { accounts: ["a", "b"] } });
    assert.deepEqual(run.value, { synced: ["a", "b"] }, String(run.error));
    assert.deepEqual(run.invoked, { "sync:a": 1, "sync:b": 1 });
    const mocked = await durableRun(nightly, {
      input: { accounts: ["a"] },
      mockInvokes: { "sync:a": () => ({ synced: "mocked" }) },
    });
    assert.deepEqual(mocked.value, { synced: ["mocked"] }, String(mocked.error));
  });

  it("runs a tool with flow control (which a queue holds) as any other: its work once, in memory", async () => {
    const sync = defineTool("sync")
      .input(v.object({ account: v.string() }))
      .longRunning({
        concurrency: { limit: 1, key: ({ account }) => account },
        rateLimit: { limit: 5, periodMs: 1_000 },
        dedupe: { key: ({ account }) => account },
        priority: 2,
      })
      .defer(async ({ account }, work) => ({ synced: await work.step("sync", () => account) }));
    const run = await durableRun(sync, { input: { account: "a-1" } });
    assert.deepEqual(run.value, { synced: "a-1" });
    assert.deepEqual(run.steps, { sync: 1 });
  });

  it("runs the children the work invokes, journaled: a crash after a child, or after the parent's next step, runs none again", async () => {
    const rendered: string[] = [];
    const render = defineTool("render")
      .input(v.object({ page: v.string() }))
      .output(v.object({ url: v.string() }))
      .longRunning({ retry: { attempts: 3 } })
      .defer(async ({ page }, work) => ({
        url: await work.step("draw", () => (rendered.push(page), `https://cdn.example/${page}.png`)),
      }));
    const publish = defineTool("publish")
      .input(v.object({ pages: v.array(v.string()) }))
      .longRunning({ retry: { attempts: 3 } })
      .defer(async ({ pages }, work) => {
        const made = await Promise.all(pages.map((page) => invoke(work, `render:${page}`, render, { page })));
        const sent = await work.step("announce", () => made.map((each) => each.url).join(" "));
        return { sent };
      });
    const input = { pages: ["a", "b"] };
    const urls = "https://cdn.example/a.png https://cdn.example/b.png";
    for (const crashAfter of [undefined, "render:a", "announce", { step: "render:b", journaled: false }]) {
      rendered.splice(0);
      const run = await durableRun(publish, { input, crashAfter });
      assert.deepEqual(run.value, { sent: urls }, `${JSON.stringify(crashAfter)}: ${run.error}`);
      assert.deepEqual(run.invoked, { "render:a": 1, "render:b": 1 }, JSON.stringify(crashAfter));
      assert.deepEqual(rendered.toSorted(), ["a", "b"], JSON.stringify(crashAfter)); // each child's effect once
      assert.deepEqual(run.steps, { announce: 1 }); // the parent's own steps only
      assert.equal(run.crashes.length, crashAfter === undefined ? 0 : 1);
      assert.deepEqual(
        run.journal.map((entry) => entry.name),
        ["~child:render:a", "~ended:render:a", "~child:render:b", "~ended:render:b", "announce"],
      );
    }
  });

  it("replaces a child by its invoke() name: its value, or its error the parent meets as a ChildWorkError", async () => {
    let renders = 0;
    const render = defineTool("render")
      .input(v.object({ page: v.string() }))
      .output(v.object({ url: v.string() }))
      .longRunning()
      .defer(({ page }) => (renders++, { url: `https://cdn.example/${page}.png` }));
    const publish = defineTool("publish")
      .input(v.object({ page: v.string() }))
      .longRunning()
      .defer(async ({ page }, work) => {
        try {
          return { url: (await invoke(work, "cover", render, { page })).url };
        } catch (error) {
          if (error instanceof ChildWorkError) return { refused: error.message };
          throw error;
        }
      });
    const mocked = await durableRun(publish, {
      input: { page: "p" },
      mockInvokes: { cover: ({ page }: { page: string }) => ({ url: `mock:${page}` }) },
    });
    assert.deepEqual(mocked.value, { url: "mock:p" });
    assert.deepEqual(mocked.invoked, { cover: 1 });
    assert.equal(renders, 0);
    const failed = await durableRun(publish, {
      input: { page: "p" },
      mockInvokes: {
        cover: () => {
          throw new ToolError("the renderer is down");
        },
      },
    });
    assert.match(
      String((failed.value as { refused?: string })?.refused),
      /child work of tool "render" failed: the renderer is down/,
    );
    const real = await durableRun(publish, { input: { page: "q" } });
    assert.deepEqual(real.value, { url: "https://cdn.example/q.png" });
    assert.equal(renders, 1);
  });

  it("runs a child's sleeps skipped and its retries within: a day's sleep in no time, each attempt once", async () => {
    let tries = 0;
    const settle = defineTool("settle")
      .input(v.object({ fail: v.number() }))
      .longRunning({ retry: { attempts: 2 }, ttlMs: 3 * 24 * 60 * 60_000 })
      .defer(async ({ fail }, work) => {
        await work.sleep(24 * 60 * 60_000); // a day: skipped
        if (++tries <= fail) throw new Error(`try ${tries} failed`);
        return { settled: work.attempt };
      });
    const order = defineTool("order")
      .input(v.object({ fail: v.number() }))
      .longRunning({ ttlMs: 3 * 24 * 60 * 60_000 })
      .defer(async ({ fail }, work) => {
        try {
          return await invoke(work, "settle", settle, { fail });
        } catch (error) {
          if (error instanceof ChildWorkError) return { failed: error.status };
          throw error;
        }
      });
    const once = await durableRun(order, { input: { fail: 1 } });
    assert.deepEqual(once.value, { settled: 2 }, String(once.error));
    assert.equal(tries, 2);
    assert.deepEqual(once.invoked, { settle: 1 });
    assert.ok(once.sleptMs >= 24 * 60 * 60_000, `${once.sleptMs}`);
    tries = 0;
    const never = await durableRun(order, { input: { fail: 9 } });
    assert.deepEqual(never.value, { failed: "failed" }, String(never.error));
    assert.equal(tries, 2); // its two attempts, not retried again around them
  });

  it("refuses a tool with no declared work", async () => {
    const plain = defineTool("plain").input(v.object({})).handle(() => "hi");
    await assert.rejects(durableRun(plain, { input: {} }), /tool "plain" declares no work/);
  });
});

describe("checkIdempotent()", () => {
  it("names the step that is not idempotent, by crashing after each step in turn", async () => {
    // Sends its email with no idempotency key: run again after a crash, it sends again.
    const report = await checkIdempotent(onboard, {
      input: { email: "h@example.com" },
      answers,
      effects: () => effects.emails.length,
      reset,
    });
    assert.deepEqual(report.checked, ["account", "welcome", "~sleep:1", "follow-up"]);
    assert.deepEqual(report.notIdempotent.map(({ step, journaled }) => ({ step, journaled })), [
      { step: "welcome", journaled: false },
      { step: "follow-up", journaled: false },
    ]);
    assert.match(report.notIdempotent[0].message, /step "welcome" ran again after a crash/);
    assert.deepEqual(report.notIdempotent[0].expected.effects, 2);
    assert.deepEqual(report.notIdempotent[0].actual.effects, 3);
  });

  it("names work outside steps that runs again, and finds nothing in work that uses its keys", async () => {
    const sent = new Set<string>();
    let logged = 0;
    const keyed = defineTool("keyed").input(v.object({})).longRunning({ retry: { attempts: 2 } })
      .defer(async (_input, work) => {
        await work.step("send", (key) => void sent.add(key)); // the key makes a second send a no-op
        logged++; // outside any step: runs on every start
        return await work.step("done", () => "ok");
      });
    const outside = await checkIdempotent(keyed, {
      input: {},
      effects: () => ({ sent: sent.size, logged }),
      reset: () => (sent.clear(), logged = 0),
    });
    // A crash after "done" runs the work again from its top: `logged++` twice, though both steps are journaled.
    assert.deepEqual(outside.notIdempotent.map(({ step, journaled }) => ({ step, journaled })), [
      { step: "done", journaled: false },
      { step: "done", journaled: true },
    ]);
    assert.match(outside.notIdempotent[1].message, /what runs outside its steps did it again/);

    const clean = await checkIdempotent(keyed, { input: {}, effects: () => sent.size, reset: () => sent.clear() });
    assert.deepEqual(clean.notIdempotent, []);
  });

  it("refuses a tool that is never started again after a death", async () => {
    const once = defineTool("once").input(v.object({})).longRunning({}).defer(() => "ok");
    await assert.rejects(checkIdempotent(once, { input: {} }), /not started again after a death/);
  });
});
