/**
 * The budgets' arithmetic (`limits`): the defaults and each caller's default share, a refusal that takes
 * nothing, one request larger than a budget admitted alone, callers without identity counted against
 * the instance only, and options that are not positive numbers refused when the server is made.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { ANONYMOUS, Budgets, LIMIT_DEFAULTS } from "../../src/core/instance/budgets.ts";

describe("Budgets", () => {
  it("defaults to 16 MiB, 512, 256 and 256, each caller half of the bytes, three quarters of the calls, a quarter of the rest", () => {
    const budgets = new Budgets();
    assert.deepEqual(budgets.limits, LIMIT_DEFAULTS);
    assert.deepEqual(budgets.share, { bodyBytes: 8 * 1024 * 1024, calls: 384, heldStreams: 64, jobs: 64 });
    assert.equal(new Budgets({ perCaller: false }).share, undefined);
    assert.equal(new Budgets({ calls: Infinity }).share?.calls, Infinity);
  });

  it("takes nothing when it refuses, and admits a call and its body together", () => {
    const budgets = new Budgets({ bodyBytes: 100, calls: 10, perCaller: false });
    assert.equal(budgets.admit("ada", 60), undefined);
    const refusal = budgets.admit("grace", 60);
    assert.deepEqual(refusal?.data, { limit: "bodyBytes", scope: "instance", retryAfterMs: 1_000, processed: false });
    assert.deepEqual({ ...budgets.inUse }, { bodyBytes: 60, calls: 1, heldStreams: 0, jobs: 0 });
    assert.equal(budgets.refused.bodyBytes, 1);
    budgets.release("ada", 60, 1);
    assert.deepEqual({ ...budgets.inUse }, { bodyBytes: 0, calls: 0, heldStreams: 0, jobs: 0 });
  });

  it("admits one request larger than a budget when nothing else holds it", () => {
    const budgets = new Budgets({ bodyBytes: 100, perCaller: { bodyBytes: 10 } });
    assert.equal(budgets.admit("ada", 500), undefined);
    assert.equal(budgets.admit("grace", 1)?.data.scope, "instance");
    budgets.release("ada", 500, 1);
    assert.equal(budgets.admit("grace", 50), undefined); // past grace's share, but she holds nothing else
    assert.equal(budgets.admit("grace", 1)?.data.scope, "caller");
  });

  it("counts a caller without identity against the instance's budget only", () => {
    const budgets = new Budgets({ calls: 3, perCaller: { calls: 1 } });
    for (let i = 0; i < 3; i++) assert.equal(budgets.take("calls", 1, ANONYMOUS), undefined);
    assert.equal(budgets.take("calls", 1, ANONYMOUS)?.data.scope, "instance");
  });

  it("refuses budgets that are not positive numbers when the server is made", () => {
    const make = (limits: object) => createServer({ name: "s", version: "1", limits });
    assert.throws(() => make({ calls: 0 }), /limits\.calls must be a positive number/);
    assert.throws(() => make({ perCaller: { jobs: -1 } }), /limits\.perCaller\.jobs must be a positive number/);
    assert.throws(() => make({ bodyBytes: "16" }), TypeError);
    assert.throws(() => make({ retryAfterMs: -5 }), /limits\.retryAfterMs/);
    assert.doesNotThrow(() => make({ calls: Infinity, perCaller: false }));
  });
});
