/**
 * A socket's incoming messages start no faster than its peer reads the answers (`inbound-flow.ts`):
 * at most 16 in one turn of the event loop, none while half of the bound waits for the peer (and
 * the socket stops reading frames meanwhile, then reads again), in the order they came; held messages
 * past the bound end the socket, and an ended flow starts nothing more.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InboundFlow } from "../../src/websocket/inbound-flow.ts";

/** A socket whose queued bytes the test sets, recording pause and resume. */
class Socket {
  bufferedAmount = 0;
  readonly calls: string[] = [];
  pause(): void {
    this.calls.push("pause");
  }
  resume(): void {
    this.calls.push("resume");
  }
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits (at most 10 s: a bound for a loaded machine) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (const start = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() - start > 10_000) throw new Error("not within 10 s");
  }
}

function flowOf(socket: Socket, maxQueuedBytes = 1_000_000) {
  const started: string[] = [];
  let overflowed = 0;
  const flow = new InboundFlow(socket, 100, maxQueuedBytes, (data) => void started.push(String(data)), () => {
    overflowed++;
  });
  return { flow, started, overflowed: () => overflowed };
}

describe("InboundFlow", () => {
  it("starts at most 16 messages of a burst in one turn, the rest in order in the turns after", async () => {
    const { flow, started } = flowOf(new Socket());
    for (let i = 0; i < 40; i++) flow.push(String(i));
    assert.equal(started.length, 16);
    await until(() => started.length === 40);
    assert.deepEqual(started, Array.from({ length: 40 }, (_, i) => String(i)));
  });

  it("starts nothing while the peer is behind, stops reading meanwhile, and goes on once it caught up", async () => {
    const socket = new Socket();
    const { flow, started } = flowOf(socket);
    socket.bufferedAmount = 101;
    flow.push("a");
    flow.push("b");
    await nextTurn();
    await nextTurn();
    assert.deepEqual(started, []);
    assert.deepEqual(socket.calls, ["pause"]);
    socket.bufferedAmount = 0;
    await until(() => started.length === 2);
    assert.deepEqual(started, ["a", "b"]);
    assert.deepEqual(socket.calls, ["pause", "resume"]);
  });

  it("overflows once the messages held back pass the bound, and then starts nothing", async () => {
    const socket = new Socket();
    const { flow, started, overflowed } = flowOf(socket, 10);
    socket.bufferedAmount = 101;
    flow.push("12345");
    flow.push("678901");
    assert.equal(overflowed(), 1);
    socket.bufferedAmount = 0;
    flow.push("late");
    await nextTurn();
    await nextTurn();
    assert.deepEqual(started, []);
  });

  it("drops what it holds when ended", async () => {
    const { flow, started } = flowOf(new Socket());
    for (let i = 0; i < 20; i++) flow.push(String(i));
    flow.end();
    await nextTurn();
    await nextTurn();
    assert.equal(started.length, 16);
  });
});
