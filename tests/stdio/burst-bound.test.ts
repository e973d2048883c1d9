/**
 * stdio's output bound in process, where the test decides when the host reads: `serveStdio()` on an
 * input stream the test fills and an output whose writes settle only once the test lets the host read.
 * Calls answering 1 MiB each, sent all at once to a host that reads nothing, start a burst at most,
 * however the bytes are split into reads and however slowly the answers are produced; once the host
 * reads again, every call is answered, and requests the host sends meanwhile start without waiting for
 * the running ones to answer; a host calling one at a time never waits for a turn of the event loop.
 * Counted in calls started and in timer turns, never in milliseconds.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { call } from "../websocket/fixture.ts";

const CALLS = 64;
/** The most requests serveStdio starts before the event loop turns (a burst). */
const BURST = 16;
/** The answers of 1 MiB the server queues before it stops reading (its 8 MiB bound). */
const QUEUED = 8;
/** How many turns of the event loop the server must do nothing in to count as still. */
const STILL_TURNS = 30;
/** The most turns a test waits for something (a bound for a loaded machine, not a measure). */
const MOST_TURNS = 5_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Waits until `check()` holds, a turn at a time. */
async function turnsUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < MOST_TURNS; i++) {
    if (check()) return;
    await turn();
  }
  assert.fail(`not within ${MOST_TURNS} turns: ${what}`);
}

/** Waits until `count()` stays the same for {@link STILL_TURNS} turns, and returns it. */
async function still(count: () => number): Promise<number> {
  let last = count();
  let same = 0;
  await turnsUntil(() => {
    same = count() === last ? same + 1 : 0;
    last = count();
    return same === STILL_TURNS;
  }, "the server kept starting calls");
  return last;
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * A server with `big` (answers `{ kb }` KiB after `{ turns }` turns of the event loop, or at once), over
 * streams: requests go in as the test writes them; the host takes nothing of the output until `read()`.
 */
function heldServer() {
  const seen = { started: 0, made: 0, ids: [] as number[] };
  let input!: ReadableStreamDefaultController<Uint8Array>;
  let reading!: () => void;
  const read = new Promise<void>((resolve) => reading = resolve);
  const server = createServer({ name: "burst", version: "1.0.0" })
    .tool(
      defineTool("big").describe("Answers kb KiB").input(
        v.object({ kb: v.number(), turns: v.optional(v.number(), 0), gate: v.optional(v.boolean()) }),
      )
        .handle(async ({ kb, turns, gate }) => {
          seen.started++;
          for (let i = 0; i < turns; i++) await turn();
          if (gate) await opened;
          seen.made++;
          return "x".repeat(kb * 1024);
        }),
    );
  let open!: () => void;
  const opened = new Promise<void>((resolve) => open = resolve);
  const output = new WritableStream<Uint8Array>({
    async write(bytes) {
      await read; // the host reads nothing until then: every write after this one waits too
      seen.ids.push(Number(/"id":(\d+)/.exec(decoder.decode(bytes.subarray(0, 64)))?.[1]));
    },
  });
  const stdio = serveStdio(server, {
    input: new ReadableStream<Uint8Array>({ start: (controller) => void (input = controller) }),
    output,
    shutdownTimeoutMs: 100,
  });
  const line = (id: number, args: Record<string, unknown>) => JSON.stringify(call(id, "big", { kb: 1024, ...args }));
  return {
    seen,
    /** Sends the requests in one read of the server's input. */
    write: (lines: string[]) => input.enqueue(encoder.encode(lines.map((text) => text + "\n").join(""))),
    line,
    /** The host reads its stdout from now on. */
    read: () => reading(),
    /** Lets the `gate` calls answer. */
    open: () => open(),
    /** Sends call 0 and waits for its answer, which the host does not take: the host is behind. */
    behind: async () => {
      input.enqueue(encoder.encode(line(0, {}) + "\n"));
      await turnsUntil(() => seen.made === 1, "the first call answered");
    },
    /** Waits until calls `from`…`to` were all answered, each once. */
    answered: async (from: number, to: number) => {
      await turnsUntil(() => seen.ids.length === to - from + 1, "every call answered");
      assert.deepEqual(seen.ids.toSorted((a, b) => a - b), ids(from, to));
    },
    end: () => (input.close(), stdio.closed),
  };
}

describe("serveStdio's output bound, in process", () => {
  it("counts a burst across reads: 64 requests split over two reads start one burst, not a burst per read", async () => {
    const host = heldServer();
    const lines = ids(1, CALLS).map((id) => host.line(id, {}));
    host.write(lines.slice(0, 11)); // the split a loaded machine made of one write: 27 started
    host.write(lines.slice(11));
    const started = await still(() => host.seen.started);
    assert.ok(started >= QUEUED, `${started} calls started`);
    assert.ok(started <= BURST + 2, `${started} of ${CALLS} calls started for a host that does not read`);
    host.read();
    await host.answered(1, CALLS);
    await host.end();
  });

  it("holds when the answers take turns of the event loop to be made, the host behind", async () => {
    const host = heldServer();
    await host.behind();
    host.write(ids(1, CALLS).map((id) => host.line(id, { turns: 3 })));
    const started = await still(() => host.seen.started) - 1;
    assert.equal(host.seen.made, started + 1, "the started calls answered");
    assert.ok(started >= QUEUED, `${started} calls started`);
    assert.ok(started <= BURST + 2, `${started} of ${CALLS} slow calls started for a host that does not read`);
    host.read();
    await host.answered(0, CALLS);
    await host.end();
  });

  it("starts the next requests without waiting for the running ones once the host reads again", async () => {
    const host = heldServer();
    await host.behind();
    // Calls that answer only once all have started: a reader that waited for them would never start them all.
    host.write(ids(1, CALLS).map((id) => host.line(id, { gate: true })));
    const started = await still(() => host.seen.started) - 1;
    assert.ok(started > 0 && started <= BURST, `${started} calls started while the host does not read`);
    host.read();
    await turnsUntil(() => host.seen.started === CALLS + 1, "every call started");
    host.open();
    await host.answered(0, CALLS);
    await host.end();
  });

  it("answers a host calling one at a time without a turn of the event loop between its calls", async () => {
    const host = heldServer();
    host.read();
    // Each call answered in microtasks alone: a pause of the server for a timer turn (as after a burst)
    // would leave the answer out of reach of this loop, which never lets a timer run.
    const microtasks = async (check: () => boolean) => {
      for (let i = 0; i < 10_000 && !check(); i++) await Promise.resolve();
      return check();
    };
    let timerRan = false;
    const timer = setTimeout(() => timerRan = true, 0);
    for (let id = 1; id <= 3 * BURST; id++) {
      host.write([host.line(id, { kb: 0 })]);
      assert.ok(await microtasks(() => host.seen.ids.length === id), `call ${id} answered without a timer turn`);
    }
    assert.equal(timerRan, false, "no timer ran meanwhile");
    clearTimeout(timer);
    await host.end();
  });
});
