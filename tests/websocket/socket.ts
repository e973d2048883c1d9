/**
 * A plain WebSocket client for tests (the runtime's global `WebSocket`, as a browser has it): sends
 * JSON-RPC messages, keeps every message received, and waits (bounded) for the one asked for.
 */

/** A JSON-RPC message as received. */
export type Message = Record<string, any>;

/** One open socket. */
export class TestSocket {
  readonly messages: Message[] = [];
  readonly #socket: WebSocket;
  readonly #waiters = new Set<() => void>();
  closed = false;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      this.messages.push(JSON.parse(String(event.data)));
      for (const wake of this.#waiters) wake();
    });
    socket.addEventListener("close", () => {
      this.closed = true;
      for (const wake of this.#waiters) wake();
    });
  }

  /** The subprotocol the server selected. */
  get protocol(): string {
    return this.#socket.protocol;
  }

  /**
   * Opens a socket; rejects when the upgrade is refused.
   *
   * @param url The `ws://` URL.
   * @param protocols The subprotocols to offer.
   * @returns The open socket.
   */
  static open(url: string, protocols?: string[]): Promise<TestSocket> {
    const socket = new WebSocket(url, protocols);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the socket did not open in 5 s")), 5000);
      socket.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(new TestSocket(socket));
      }, { once: true });
      socket.addEventListener("error", () => {
        clearTimeout(timer);
        reject(new Error("the upgrade was refused"));
      }, { once: true });
    });
  }

  /** Sends a message as one text frame. */
  send(message: unknown): void {
    this.#socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Waits (at most 15 s: a loaded CI machine is slow) for the first message that matches. */
  next(match: (message: Message) => boolean): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(match);
        if (found === undefined && !this.closed) return false;
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (found === undefined) reject(new Error("the socket closed"));
        else resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error("no such message in 15 s"));
      }, 15_000);
      if (!check()) this.#waiters.add(check);
    });
  }

  /** The response to the request `id`. */
  answer(id: unknown): Promise<Message> {
    return this.next((message) => message.id === id && message.method === undefined);
  }

  /** Closes the socket and waits (at most 2 s) until it closed. */
  close(): Promise<void> {
    this.#socket.close(1000);
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const timer = setTimeout(resolve, 2000);
      this.#socket.addEventListener("close", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
