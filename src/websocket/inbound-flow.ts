/**
 * A socket's incoming messages, dispatched no faster than its peer reads the answers, so that a burst of calls from
 * a client that stopped reading is not run and buffered all at once. At most {@link BURST} messages start in one turn
 * of the event loop; while the answers queued for the peer (`bufferedAmount`) are over the high-water mark, none
 * starts and the socket stops reading frames where the runtime lets it (`ws`'s `pause()`), so the backlog waits in
 * the network (WHATWG Streams' high-water mark, in spirit). Past `maxQueuedBytes` the peer is over its limit.
 * Why: docs/guides/websocket.md.
 *
 * @module
 */

/** The socket as the flow reads it. */
export interface FlowSocket {
  /** The bytes queued for the peer (WHATWG WebSockets, `bufferedAmount`); workerd's sockets have none. */
  readonly bufferedAmount?: number;
  /** Stops reading frames, where the runtime can. */
  pause?(): void;
  /** Reads frames again. */
  resume?(): void;
}

/** The most messages that start in one turn of the event loop. */
const BURST = 16;
/** How often a congested socket's queue is looked at again, in ms (a WebSocket has no drain event). */
const POLL_MS = 20;

/** One socket's incoming messages, started as its peer reads. */
export class InboundFlow {
  readonly #socket: FlowSocket;
  readonly #highWater: number;
  readonly #maxQueuedBytes: number;
  readonly #dispatch: (data: string | Uint8Array) => void;
  readonly #overflow: () => void;
  #queue: (string | Uint8Array)[] = [];
  #head = 0;
  #queuedBytes = 0;
  #started = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #paused = false;
  #ended = false;

  /**
   * @param socket The socket.
   * @param highWater The answers' bytes queued for the peer above which no message starts.
   * @param maxQueuedBytes The most bytes of messages held back; past it `overflow` is called.
   * @param dispatch Starts one message.
   * @param overflow Called once, when the held messages pass `maxQueuedBytes`.
   */
  constructor(
    socket: FlowSocket,
    highWater: number,
    maxQueuedBytes: number,
    dispatch: (data: string | Uint8Array) => void,
    overflow: () => void,
  ) {
    this.#socket = socket;
    this.#highWater = highWater;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#dispatch = dispatch;
    this.#overflow = overflow;
  }

  /**
   * Takes one message: started now, or held until the peer has read enough.
   *
   * @param data The message.
   */
  push(data: string | Uint8Array): void {
    if (this.#ended) return;
    if (this.#head === this.#queue.length && this.#timer === undefined && this.#free()) {
      this.#start(data);
      return;
    }
    this.#queue.push(data);
    this.#queuedBytes += sizeOf(data);
    if (this.#queuedBytes > this.#maxQueuedBytes) {
      this.end();
      this.#overflow();
      return;
    }
    this.#schedule(0);
  }

  /** Drops what is held and stops: the socket closed. */
  end(): void {
    this.#ended = true;
    this.#queue = [];
    this.#head = 0;
    this.#queuedBytes = 0;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Whether a message may start now: this turn's burst not spent, the peer not behind. */
  #free(): boolean {
    return this.#started < BURST && this.#queued() <= this.#highWater;
  }

  /** The answers' bytes the peer has not read; 0 where the socket cannot tell (a Worker's). */
  #queued(): number {
    return this.#socket.bufferedAmount ?? 0;
  }

  #start(data: string | Uint8Array): void {
    // The turn's count resets once this turn's synchronous burst (`ws` emits a chunk's frames in one go) is over.
    if (this.#started++ === 0) queueMicrotask(() => void (this.#started = 0));
    this.#dispatch(data);
  }

  #schedule(ms: number): void {
    this.#timer ??= setTimeout(this.#run, ms);
  }

  readonly #run = (): void => {
    this.#timer = undefined;
    if (this.#ended) return;
    while (this.#head < this.#queue.length) {
      if (this.#queued() > this.#highWater) {
        if (!this.#paused) {
          this.#paused = true;
          this.#socket.pause?.();
        }
        return this.#schedule(POLL_MS);
      }
      if (this.#started >= BURST) return this.#schedule(0);
      const data = this.#queue[this.#head++];
      this.#queuedBytes -= sizeOf(data);
      this.#start(data);
      if (this.#ended) return;
    }
    this.#queue = [];
    this.#head = 0;
    if (this.#paused) {
      this.#paused = false;
      this.#socket.resume?.();
    }
  };
}

/** A message's size as held: its UTF-16 units count for a text (no encoding just to measure). */
function sizeOf(data: string | Uint8Array): number {
  return typeof data === "string" ? data.length : data.byteLength;
}
