import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { followAbort } from "../../src/internal/follow-abort.ts";

describe("followAbort", () => {
  it("aborts the controller with the source's reason when the source aborts", () => {
    const source = new AbortController();
    const call = new AbortController();
    followAbort(call, source.signal);
    assert.equal(call.signal.aborted, false);
    const reason = new Error("the client went away");
    source.abort(reason);
    assert.equal(call.signal.aborted, true);
    assert.equal(call.signal.reason, reason);
  });

  it("aborts at once for a source already aborted", () => {
    const call = new AbortController();
    followAbort(call, AbortSignal.abort("gone"));
    assert.equal(call.signal.reason, "gone");
  });

  it("keeps the controller's own reason when it aborted first", () => {
    const source = new AbortController();
    const call = new AbortController();
    followAbort(call, source.signal);
    call.abort("the reader went away");
    source.abort("later");
    assert.equal(call.signal.reason, "the reader went away");
  });

  it("stops following once told to, so a long-lived source does not abort finished work", () => {
    const source = new AbortController();
    const call = new AbortController();
    const unfollow = followAbort(call, source.signal);
    unfollow();
    source.abort("later");
    assert.equal(call.signal.aborted, false);
  });
});
