/**
 * A socket's incoming messages start no faster than its peer reads the answers (`inbound-flow.ts`): a
 * burst of 16 at a time, counted however the messages arrive; for a peer behind, the next burst only once
 * the last one answered, however many turns its answers take (48 or 64 of 64 started before), and none
 * while half of the bound waits (the socket stops reading frames meanwhile); a peer that reads runs many
 * slow calls at once. In order; held messages past the bound end the socket. Counted in calls and turns.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { lendUpgrade, type SocketEvents } from "../../src/runtime/socket-events.ts";
import { InboundFlow } from "../../src/websocket/inbound-flow.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { call } from "./fixture.ts";
import { waitFor } from "../helpers/long-running.ts";

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

/** A burst's calls that do not answer during the test. */
const UNANSWERED = new Promise<void>(() => {});

function flowOf(socket: Socket, maxQueuedBytes = 1_000_000) {
  const started: string[] = [];
  let overflowed = 0;
  const flow = new InboundFlow(socket, 100, maxQueuedBytes, (data) => void started.push(String(data)), () => {
    overflowed++;
  }, () => UNANSWERED);
  return { flow, started, overflowed: () => overflowed };
}

const CALLS = 64;
/** The most messages that start before the event loop turns (and, for a peer behind, before they answered). */
const BURST = 16;
/** How many turns of the event loop the flow must start nothing in to count as still. */
const STILL_TURNS = 30;

/** Waits until `count()` stays the same for {@link STILL_TURNS} turns, and returns it. */
async function still(count: () => number): Promise<number> {
  let last = count();
  for (let same = 0; same < STILL_TURNS; same = count() === last ? same + 1 : 0) {
    last = count();
    await nextTurn();
  }
  return last;
}

/**
 * A socket and its connection, as the flow sees them: each message started is a call whose answer is
 * written (60 bytes queued for the peer, who reads nothing until the test says) `turns` turns of the
 * event loop later, or once `open()` is called; calls are grouped in waves as `ServerConnection` does.
 */
class Peer extends Socket {
  made = 0;
  #wave: { running: number; answered?: () => void } = { running: 0 };
  #open!: () => void;
  readonly #opened = new Promise<void>((resolve) => this.#open = resolve);

  /**
   * @param turns The turns of the event loop each call takes to answer.
   * @param gated Whether calls answer only once `open()` was called.
   * @param counted Whether the socket counts the bytes queued for the peer (a Worker's does not).
   */
  constructor(readonly turns = 3, readonly gated = false, counted = true) {
    super();
    if (!counted) Object.defineProperty(this, "bufferedAmount", { get: () => undefined, set: () => {} });
  }

  flow(): { flow: InboundFlow; started: string[] } {
    const started: string[] = [];
    const flow = new InboundFlow(
      this,
      100,
      1_000_000,
      (data) => {
        started.push(String(data));
        void this.#call();
      },
      () => assert.fail("overflowed"),
      () => this.#nextWave(),
    );
    return { flow, started };
  }

  open(): void {
    this.#open();
  }

  async #call(): Promise<void> {
    const wave = this.#wave;
    wave.running++;
    await Promise.resolve(); // an answer is written a microtask later at the soonest, as the server's are
    for (let i = 0; i < this.turns; i++) await nextTurn();
    if (this.gated) await this.#opened;
    this.made++;
    this.bufferedAmount += 60;
    if (--wave.running === 0) wave.answered?.();
  }

  #nextWave(): Promise<void> | undefined {
    const wave = this.#wave;
    this.#wave = { running: 0 };
    return wave.running === 0 ? undefined : new Promise((resolve) => wave.answered = resolve);
  }
}

describe("InboundFlow", () => {
  it("starts at most 16 messages of a burst in one turn, the rest in order in the turns after", async () => {
    const { flow, started } = flowOf(new Socket());
    for (let i = 0; i < 40; i++) flow.push(String(i));
    assert.equal(started.length, 16);
    await waitFor(() => started.length === 40);
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
    await waitFor(() => started.length === 2);
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

  it("starts one burst for a peer behind whose answers take turns of the event loop to be made", async () => {
    const peer = new Peer();
    peer.bufferedAmount = 1; // an answer the peer has not read: it is behind
    const { flow, started } = peer.flow();
    for (let i = 0; i < CALLS; i++) flow.push(String(i));
    const count = await still(() => started.length);
    assert.equal(peer.made, count, "the started calls answered");
    assert.ok(count <= BURST + 2, `${count} of ${CALLS} slow calls started for a peer that does not read`);
    peer.bufferedAmount = 0; // the peer read it all
    await waitFor(() => started.length === CALLS);
    assert.deepEqual(started, Array.from({ length: CALLS }, (_, i) => String(i)));
  });

  it("counts a burst across messages that arrive one at a time, faster than a turn of the event loop", async () => {
    const peer = new Peer();
    peer.bufferedAmount = 1;
    const { flow, started } = peer.flow();
    for (let i = 0; i < CALLS; i++) {
      flow.push(String(i));
      await Promise.resolve(); // each message its own task's, as a runtime that hands them over one at a time
    }
    const count = await still(() => started.length);
    assert.ok(count <= BURST + 2, `${count} of ${CALLS} slow calls started for a peer that does not read`);
    peer.bufferedAmount = 0;
    await waitFor(() => started.length === CALLS);
    assert.deepEqual(started, Array.from({ length: CALLS }, (_, i) => String(i)));
  });

  it("starts the next bursts without waiting for slow calls once the peer reads again", async () => {
    const peer = new Peer(0, true); // calls that answer only once the test opens them
    peer.bufferedAmount = 1;
    const { flow, started } = peer.flow();
    for (let i = 0; i < CALLS; i++) flow.push(String(i));
    const count = await still(() => started.length);
    assert.ok(count > 0 && count <= BURST, `${count} calls started while the peer does not read`);
    peer.bufferedAmount = 0; // a flow that waited for the running calls would never start them all
    await waitFor(() => started.length === CALLS);
    assert.deepEqual(peer.calls, ["pause", "resume"]);
    peer.open();
    await waitFor(() => peer.made === CALLS);
  });

  it("keeps a peer that reads unthrottled: many slow calls run at once, on a socket that cannot tell too", async () => {
    for (const peer of [new Peer(0, true), new Peer(0, true, false)]) {
      const { flow, started } = peer.flow();
      for (let i = 0; i < CALLS; i++) flow.push(String(i));
      assert.equal(started.length, BURST, "a burst in the turn they came in");
      await waitFor(() => started.length === CALLS);
      assert.equal(peer.made, 0, "none answered yet");
      assert.deepEqual(peer.calls, []);
      peer.open();
      await waitFor(() => peer.made === CALLS);
    }
  });

  it("starts each message at once when the calls before it have answered (a client calling one at a time)", async () => {
    const peer = new Peer(0);
    const { flow, started } = peer.flow();
    for (let i = 0; i < CALLS; i++) {
      flow.push(String(i));
      assert.equal(started.length, i + 1, `started in the task it came in (${i})`);
      while (peer.made === i) await Promise.resolve(); // its answer, without a turn of the event loop
      peer.bufferedAmount = 0; // and the peer read it
    }
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

describe("webSocketBinding's inbound flow, in process", () => {
  it("starts one burst of slow calls for a peer behind, and every call once it reads", async () => {
    const seen = { started: 0, made: 0 };
    // 16 answers of 3 KiB pass the high-water mark (32 KiB), not the bound.
    const server = createServer({
      name: "burst",
      version: "1.0.0",
      bindings: [webSocketBinding({ maxBufferedBytes: 65_536 })],
    })
      .tool(
        defineTool("big").describe("Answers 3 KiB after three turns").handle(async () => {
          seen.started++;
          for (let i = 0; i < 3; i++) await nextTurn();
          seen.made++;
          return "x".repeat(3 * 1024);
        }),
      );
    let events!: SocketEvents;
    const upgrade = new Request("http://localhost/mcp-lite/v1/ws", { headers: { upgrade: "websocket" } });
    lendUpgrade(upgrade, (accepted) => (events = accepted, true));
    await server.fetch(upgrade);
    const answered: number[] = [];
    const socket = {
      bufferedAmount: 1, // an answer the peer has not read: it is behind
      send(text: string) {
        answered.push(JSON.parse(text).id);
        this.bufferedAmount += text.length;
      },
      close: () => assert.fail("closed"),
    };
    events.open(socket);
    for (let id = 1; id <= CALLS; id++) events.message(JSON.stringify(call(id, "big")));
    const count = await still(() => seen.started);
    assert.equal(seen.made, count, "the started calls answered");
    assert.ok(count <= BURST + 2, `${count} of ${CALLS} slow calls started for a peer that does not read`);
    const reading = setInterval(() => socket.bufferedAmount = 0, 1); // the peer reads from now on
    await waitFor(() => answered.length === CALLS);
    clearInterval(reading);
    assert.deepEqual(answered.toSorted((a, b) => a - b), Array.from({ length: CALLS }, (_, i) => i + 1));
    events.close(1000, "done");
  });
});
