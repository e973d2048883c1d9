/**
 * A socket's incoming messages, dispatched no faster than its peer reads the answers, so that a burst of calls from
 * a client that stopped reading is not run and buffered all at once. Messages start {@link BURST} at a time; a burst
 * whose calls have not all answered is followed by a turn of the event loop and, for a peer behind (`bufferedAmount`
 * not 0), by its answers. While those over the high-water mark wait, none starts and the socket stops reading frames
 * where it can (`ws`'s `pause()`), so the backlog waits in the network. Past `maxQueuedBytes` the peer is over its
 * limit. Why: docs/guides/websocket.md.
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

/** The most messages that start before the event loop turns (and, for a peer behind, before they answered). */
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
  readonly #nextWave: () => Promise<void> | undefined;
  #queue: (string | Uint8Array)[] = [];
  #head = 0;
  #queuedBytes = 0;
  /** The messages of the burst under way, counted across turns: a burst ends when the next one begins. */
  #started = 0;
  /** The last burst's answers, while they are awaited (the next burst waits for them, or for the peer to read). */
  #answered: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #paused = false;
  #ended = false;

  /**
   * @param socket The socket.
   * @param highWater The answers' bytes queued for the peer above which no message starts.
   * @param maxQueuedBytes The most bytes of messages held back; past it `overflow` is called.
   * @param dispatch Starts one message.
   * @param overflow Called once, when the held messages pass `maxQueuedBytes`.
   * @param nextWave Ends a burst (`ServerConnection.nextWave()`): when its calls have answered, or `undefined` if they have.
   */
  constructor(
    socket: FlowSocket,
    highWater: number,
    maxQueuedBytes: number,
    dispatch: (data: string | Uint8Array) => void,
    overflow: () => void,
    nextWave: () => Promise<void> | undefined,
  ) {
    this.#socket = socket;
    this.#highWater = highWater;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#dispatch = dispatch;
    this.#overflow = overflow;
    this.#nextWave = nextWave;
  }

  /**
   * Takes one message: started now, or held until the peer has read enough.
   *
   * @param data The message.
   */
  push(data: string | Uint8Array): void {
    if (this.#ended) return;
    if (
      this.#head === this.#queue.length && this.#timer === undefined && this.#answered === undefined && this.#free()
    ) {
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
    this.#answered = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Whether a message may start now: the peer not behind, and the burst not spent; a spent burst ends, and the next
   * begins at once when each of its calls has answered (their answers are in `bufferedAmount`), else after a turn.
   */
  #free(): boolean {
    if (this.#started === BURST) {
      const answered = this.#nextWave();
      if (answered !== undefined) {
        this.#answered = answered;
        void answered.then(() => this.#waveAnswered(answered));
        return false;
      }
      this.#started = 0;
    }
    return this.#queued() <= this.#highWater;
  }

  /** The answers' bytes the peer has not read; 0 where the socket cannot tell (a Worker's). */
  #queued(): number {
    return this.#socket.bufferedAmount ?? 0;
  }

  #start(data: string | Uint8Array): void {
    this.#started++;
    this.#dispatch(data);
  }

  #schedule(ms: number): void {
    this.#timer ??= setTimeout(this.#run, ms);
  }

  /** The last burst's calls have all answered: the next burst may begin (after the turn, if that is still to come). */
  #waveAnswered(answered: Promise<void>): void {
    if (this.#answered !== answered) return; // the flow ended, or the peer read meanwhile
    this.#answered = undefined;
    this.#started = 0;
    if (this.#timer !== undefined && this.#paused) {
      clearTimeout(this.#timer); // a poll: look again now
      this.#timer = undefined;
      this.#schedule(0);
    }
  }

  /** Holds the messages until the peer has read: stops reading its frames meanwhile, and looks again later. */
  #hold(): void {
    if (!this.#paused) {
      this.#paused = true;
      this.#socket.pause?.();
    }
    this.#schedule(POLL_MS);
  }

  readonly #run = (): void => {
    this.#timer = undefined;
    if (this.#ended) return;
    if (this.#answered !== undefined) {
      // A turn after a burst whose calls have not all answered: a peer that has not read all it was sent waits for
      // them, so that the room it is looked for counts their answers however long they take; one that has is
      // reading, and the next burst begins without waiting for slow calls.
      if (this.#queued() > 0) return this.#hold();
      this.#answered = undefined;
      this.#started = 0;
    }
    while (this.#head < this.#queue.length) {
      if (this.#queued() > this.#highWater) return this.#hold();
      if (!this.#free()) return this.#schedule(0);
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
